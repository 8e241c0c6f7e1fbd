"""`python main.py replay FILE`: a game script through the engine alone (docs/REPLAY.md).

Script in, outcome JSON out. A malformed script raises `ScriptError` (exit 2 with one line
naming the problem and where); refused requests are part of a normal outcome.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from json.encoder import encode_basestring  # the C function (ensure_ascii=False)
from typing import Any

from rules.downtime import Downtime, DowntimeFormatError, is_downtime_entry
from rules.engine import Game
from rules.model import (
    HostAction,
    Phase,
    Refusal,
    RefusalCode,
    Rejected,
    Request,
    RequestFormatError,
)
from rules.names import (
    UnknownName,
    mixes_scripts,
    name_key,
    resolve_host_action,
    resolve_request,
)
from rules.requests import parse_request
from rules.roles import ROLES, Shape, verb_spec
from rules.setup import SetupError
from rules.validation import validate_request

# docs/REPLAY.md: an unknown key anywhere is malformed (no comment keys either).
TOP_KEYS = ("seed", "activity_rules", "players", "turns")
PLAYER_KEYS = ("nick", "role")
TURN_KEYS = ("host", "requests", "after")
REQUEST_KEYS = ("by", "do", "target", "targets", "to", "text")  # which verb takes which: model
HOST_KEYS = ("do", "player")


class ScriptError(ValueError):
    """A malformed script: the message names what is wrong and where."""


class ParsedTurn:
    def __init__(
        self,
        host: list[HostAction],
        requests: list[Request],
        after: list[Request],
        downtime: Downtime | None = None,
    ) -> None:
        self.host = host
        self.requests = requests
        self.after = after
        #: R59: the last downtime entry of the turn's ``host`` section, if any.
        self.downtime = downtime


def _no_unknown_keys(where: str, obj: dict[Any, Any], known: Sequence[str]) -> None:
    extra = [k for k in obj if k not in known]
    if extra:
        raise ScriptError(f"{where}: unknown key {extra[0]!r} (known: {', '.join(known)})")


def parse_script(script: Any) -> tuple[Game, list[ParsedTurn]]:
    if not isinstance(script, dict):
        raise ScriptError("the script must be a JSON object")
    _no_unknown_keys("the script", script, TOP_KEYS)
    seed = script.get("seed", 0)
    if seed is None:
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ScriptError("'seed' must be an integer")
    activity = script.get("activity_rules", False)
    if not isinstance(activity, bool):
        raise ScriptError("'activity_rules' must be true or false")
    players = script.get("players")
    if not isinstance(players, list) or not players:
        raise ScriptError("'players' must be a non-empty list")
    setup: list[tuple[str, str]] = []
    seen: dict[str, int] = {}  # R44 name key -> index in players
    for i, p in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(p, dict):
            raise ScriptError(f"{where}: must be an object with 'nick' and 'role'")
        _no_unknown_keys(where, p, PLAYER_KEYS)
        nick, role = p.get("nick"), p.get("role")
        if not isinstance(nick, str) or not nick:
            raise ScriptError(f"{where}: 'nick' must be a non-empty string")
        key = name_key(nick)
        if not key:
            raise ScriptError(
                f"{where}: nickname {nick!r} is empty under R44 (only spaces or "
                "invisible characters)"
            )
        if mixes_scripts(nick):
            raise ScriptError(f"{where}: nickname {nick!r} mixes Latin and Cyrillic letters (R44)")
        if key in seen:
            first = seen[key]
            raise ScriptError(
                f"{where}: nickname {nick!r} is the same name as players[{first}] "
                f"{setup[first][0]!r} (R44)"
            )
        seen[key] = i
        if not isinstance(role, str) or role not in ROLES:
            raise ScriptError(f"{where}: unknown role {role!r} (known: {', '.join(ROLES)})")
        setup.append((nick, role))
    try:
        game = Game.new(setup, seed=seed, activity_rules=activity)
    except SetupError as exc:
        raise ScriptError(f"invalid setup: {exc}") from None
    nicks = [nick for nick, _ in setup]
    raw_turns = script.get("turns", [])
    if not isinstance(raw_turns, list):
        raise ScriptError("'turns' must be a list")
    fast = _FastRequests(nicks)
    turns = [_parse_turn(i + 1, t, nicks, fast) for i, t in enumerate(raw_turns)]
    return game, turns


class _FastRequests:
    """The common request, read in one step: a post, or a one-target verb naming the sender
    and the target exactly as the game spells them, with no other key. It is the `Request`
    that `parse_request` and `resolve_request` would make (equal: the same frozen value is
    handed out again for the same request). Anything else, a malformed request included,
    takes the full path, which names the problem."""

    def __init__(self, nicks: list[str]) -> None:
        self.names = frozenset(nicks)
        self.shapes: dict[str, Shape | None] = {}  # verb -> its shape (None: unknown)
        self.made: dict[tuple[str, str, str | None], Request] = {}

    def request(self, item: Any) -> Request | None:
        """The request, or None when the full path must decide."""
        if type(item) is not dict:
            return None
        by = item.get("by")
        verb = item.get("do")
        if type(by) is not str or type(verb) is not str or by not in self.names:
            return None
        try:
            shape = self.shapes[verb]
        except KeyError:
            spec = verb_spec(verb)
            shape = self.shapes[verb] = None if spec is None else spec.shape
        target: str | None
        if shape is Shape.NOTHING and len(item) == 2:
            target = None
        elif (shape is Shape.TARGET or shape is Shape.TARGET_OR_PAIR) and len(item) == 3:
            target = item.get("target")
            if type(target) is not str or target not in self.names:
                return None
        else:
            return None
        key = (by, verb, target)
        req = self.made.get(key)
        if req is None:
            req = self.made[key] = Request(by=by, do=verb, target=target)
        return req


def _parse_turn(number: int, raw: Any, nicks: list[str], fast: _FastRequests) -> ParsedTurn:
    where = f"turn {number}"
    if not isinstance(raw, dict):
        raise ScriptError(f"{where}: must be an object")
    _no_unknown_keys(where, raw, TURN_KEYS)
    sections: dict[str, list[Any]] = {}
    for key in TURN_KEYS:
        value = raw.get(key, [])
        if not isinstance(value, list):
            raise ScriptError(f"{where}: '{key}' must be a list")
        sections[key] = value
    host: list[HostAction] = []
    downtime: Downtime | None = None
    for i, item in enumerate(sections["host"]):
        at = f"{where}, host[{i}]"
        if is_downtime_entry(item):  # R59 (scripts before it have none: still valid)
            try:
                downtime = Downtime.from_dict(item)  # the last measure of the turn counts
            except DowntimeFormatError as exc:
                raise ScriptError(f"{at}: {exc}") from None
            continue
        if isinstance(item, dict):
            _no_unknown_keys(at, item, HOST_KEYS)
        try:
            action = HostAction.from_dict(item)
        except RequestFormatError as exc:
            raise ScriptError(f"{at}: {exc}") from None
        try:
            host.append(resolve_host_action(action, nicks))  # R44: the game's spelling
        except UnknownName as exc:
            raise ScriptError(f"{at}: unknown nickname {exc.typed!r}") from None
    return ParsedTurn(
        host,
        _parse_requests(where, "requests", sections["requests"], nicks, fast),
        _parse_requests(where, "after", sections["after"], nicks, fast),
        downtime,
    )


def _parse_requests(
    turn: str, section: str, items: list[Any], nicks: list[str], fast: _FastRequests
) -> list[Request]:
    out: list[Request] = []
    quick = fast.request
    for i, item in enumerate(items):
        req = quick(item)
        if req is not None:
            out.append(req)
            continue
        at = f"{turn}, {section}[{i}]"
        if isinstance(item, dict):
            _no_unknown_keys(at, item, REQUEST_KEYS)
        try:
            req = parse_request(item)
        except RequestFormatError as exc:
            raise ScriptError(f"{at}: {exc}") from None
        try:
            out.append(resolve_request(req, nicks))  # R44: the game's spelling
        except UnknownName as exc:
            raise ScriptError(f"{at}: unknown nickname {exc.typed!r}") from None
    return out


def run_script(script: Any) -> dict[str, Any]:
    """Run a parsed docs/REPLAY.md script; return the docs/REPLAY.md outcome document."""
    _game, outcome = replay_game(script)
    return outcome


def replay_game(script: Any) -> tuple[Game, dict[str, Any]]:
    """Run a script; the game as it ended (its ``history`` of turn results keeps what the
    outcome document leaves out, such as the step of each role change) and the outcome."""
    game, turns = parse_script(script)
    out_turns: list[dict[str, Any]] = []
    for number, turn in enumerate(turns, start=1):
        if game.winner is not None:
            break  # the game has ended: later turns are ignored
        out_turns.append(_run_turn(game, number, turn))
    return game, {"turns": out_turns, "winner": game.winner}


def _run_turn(game: Game, number: int, turn: ParsedTurn) -> dict[str, Any]:
    host_rejected: list[dict[str, Any]] = []
    for i, action in enumerate(turn.host):
        refusal = game.host_action(action)
        if refusal is not None:
            host_rejected.append({"index": i, "do": action.do, "reason": str(refusal.code)})
    rejected = _submit_all(game, turn.requests)
    after_rejected: list[Rejected] = []
    downtime = turn.downtime if game.phase is Phase.OPEN else None
    if game.phase is Phase.OPEN:
        game.resolve(downtime)  # R59
        after_rejected = _submit_all(game, turn.after, after=True)
        result = game.finish_turn()
    else:  # the game ended at a host exclusion before the deadline
        result = game.history[-1]
        after_rejected = _submit_all(game, turn.after, after=True)
    out = result.to_dict()
    out["turn"] = number
    out["rejected"] = [r.to_dict() for r in rejected]
    out["after"]["rejected"] = [r.to_dict() for r in after_rejected]
    if host_rejected:
        out["host_rejected"] = host_rejected
    if downtime is not None:  # only in a turn that had some: older outcomes are unchanged
        out["downtime"] = {"lost": downtime.lost, "length": downtime.length}
        out["downtime"]["excused"] = downtime.excuses
    return out


def _submit_all(game: Game, requests: list[Request], *, after: bool = False) -> list[Rejected]:
    """Submit in arrival order. ``after`` holds the pistol window's requests: shots only
    (docs/REPLAY.md); any other verb is an ordinary refusal, a post too (the posts of a turn
    are in its ``requests``)."""
    rejected: list[Rejected] = []
    submit = game.submit
    for i, req in enumerate(requests):
        refusal: Refusal | None
        if after and req.do == "post":
            refusal = validate_request(game.state, req) or Refusal(RefusalCode.REQUEST_CLOSED)
        else:
            refusal = submit(req)
        if refusal is not None:
            rejected.append(Rejected(i, req.by, req.do, refusal.code))
    return rejected


def main(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else _read(path)
        try:
            script = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScriptError(f"bad JSON: {exc}") from None
        outcome = run_script(script)
    except ScriptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # One string, one write: `json.dump` writes each of its many small pieces to the stream,
    # a system call each when standard output is unbuffered (PYTHONUNBUFFERED).
    sys.stdout.write(outcome_json(outcome) + "\n")
    return 0


def outcome_json(outcome: Any) -> str:
    """``json.dumps(outcome, ensure_ascii=False, indent=2)``, character for character, in
    about half its time: the standard library's indented encoder is its pure-Python one (its
    C encoder does no indentation), a generator per container. Here the outcome's own types
    (dict, list, str, int, bool, None: what the `to_dict` methods make) are written directly,
    a list of strings in one join; anything else hands the whole document to `json.dumps`."""
    parts: list[str] = []
    try:
        _json_value(outcome, parts, "\n")
    except _Unusual:
        return json.dumps(outcome, ensure_ascii=False, indent=2)
    return "".join(parts)


class _Unusual(Exception):
    """A value `outcome_json` leaves to `json.dumps` (a float, a tuple, a str subclass...)."""


_JSON_CONSTANTS = {None: "null", True: "true", False: "false"}


def _json_value(value: Any, parts: list[str], newline: str) -> None:
    """Append `value` as JSON; `newline` is a newline and the indentation of its line."""
    kind = type(value)
    if kind is str:
        parts.append(encode_basestring(value))
    elif kind is dict:
        _json_object(value, parts, newline)
    elif kind is list:
        _json_array(value, parts, newline)
    elif value is None or kind is bool:
        parts.append(_JSON_CONSTANTS[value])
    elif kind is int:
        parts.append(int.__repr__(value))
    else:
        raise _Unusual


def _json_object(value: dict[Any, Any], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("{}")
        return
    inner = newline + "  "
    separator = "{" + inner
    for key, item in value.items():
        if type(key) is not str:
            raise _Unusual  # json turns int, float, bool and None keys into strings
        if type(item) is str:
            parts.append(separator + encode_basestring(key) + ": " + encode_basestring(item))
        else:
            parts.append(separator + encode_basestring(key) + ": ")
            _json_value(item, parts, inner)
        separator = "," + inner
    parts.append(newline + "}")


def _json_array(value: list[Any], parts: list[str], newline: str) -> None:
    if not value:
        parts.append("[]")
        return
    inner = newline + "  "
    if all(type(item) is str for item in value):
        parts.append("[" + inner + ("," + inner).join(map(encode_basestring, value)))
        parts.append(newline + "]")
        return
    separator = "[" + inner
    for item in value:
        parts.append(separator)
        _json_value(item, parts, inner)
        separator = "," + inner
    parts.append(newline + "]")


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except OSError as exc:
        raise ScriptError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{path} is not UTF-8 text") from None


__all__ = ["ScriptError", "main", "outcome_json", "parse_script", "run_script"]
