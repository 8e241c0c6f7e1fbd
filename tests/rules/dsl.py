"""A terse language for replay scripts (docs/REPLAY.md) and accessors for their outcome.

Scripts are written the way a host would say them:

    play("Com:commissar Maf:mafioso V1 V2",          # nick:role, a bare nick is a villager
         turn("Maf kill V1", "Com check Maf"),        # turn 1, requests in arrival order
         turn("V1 vote Maf", host=["deprive_vote V2"], after=["Com shoot Maf"]),
         turn("V1 note V2: the text", "Boss kill V1,V2"))   # note; kill with `targets`

`game()` refuses to build a script whose setup breaks REFERENCE.md section 10, so a test can never
fail because its own setup was invalid (malformed scripts are built by hand in
test_malformed.py).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable
from typing import Any

from rules.replay import ScriptError, run_script

__all__ = [
    "ScriptError",
    "after_deaths",
    "after_rejected",
    "all_deaths",
    "checks",
    "death_of",
    "deaths",
    "full_deaths",
    "game",
    "hc",
    "lynch",
    "nicks",
    "notes",
    "parse_players",
    "play",
    "posts",
    "rejected",
    "rq",
    "run_script",
    "setup_problem",
    "turn",
    "turn_out",
]

MAFIA_ROLES = frozenset({"boss", "mafioso", "troublemaker"})
TOWN_ROLES = frozenset({"villager", "commissar", "sergeant", "doctor", "prostitute", "foundling"})
LONER_ROLES = frozenset({"maniac", "crook"})
ROLES = MAFIA_ROLES | TOWN_ROLES | LONER_ROLES
REPEATABLE_ROLES = frozenset({"villager", "mafioso"})

Json = dict[str, Any]


def parse_players(spec: str) -> list[Json]:
    """ "Com:commissar V1" -> [{"nick": "Com", "role": "commissar"}, {"nick": "V1", ...}]."""
    players = []
    for token in spec.split():
        nick, _, role = token.partition(":")
        players.append({"nick": nick, "role": role or "villager"})
    return players


def setup_problem(players: list[Json]) -> str | None:
    """What is wrong with a setup according to docs/REFERENCE.md section 10 (None when valid)."""
    roles = [p["role"] for p in players]
    n = len(roles)
    mafia = sum(r in MAFIA_ROLES for r in roles)
    town = sum(r in TOWN_ROLES for r in roles)
    loners = sum(r in LONER_ROLES for r in roles)
    if any(r not in ROLES for r in roles):
        return "unknown role"
    if mafia == 0 and loners:  # section 10: a game without mafia
        if n < 4:
            return "too few players without mafia"
        if loners >= town:
            return "loners not below town"
    elif mafia < math.ceil(n / 4):
        return "too few mafia (R24)"
    elif mafia >= town:
        return "mafia not below town"
    if "foundling" in roles and "boss" not in roles:
        return "foundling without boss"
    if "sergeant" in roles and "commissar" not in roles:
        return "sergeant without commissar"
    for role in set(roles) - REPEATABLE_ROLES:
        if roles.count(role) > 1:
            return f"two of {role}"
    if len({p["nick"] for p in players}) != n:
        return "duplicate nickname"
    return None


def rq(text: str | Json) -> Json:
    """One request: "By verb Target", "By kill A,B", "By note To: text", "By post"."""
    if isinstance(text, dict):
        return dict(text)
    head, _, note_text = text.partition(": ")
    parts = head.split()
    by, verb = parts[0], parts[1]
    req: Json = {"by": by, "do": verb}
    if verb == "post":
        return req
    if verb == "note":
        req["to"] = parts[2]
        req["text"] = note_text
        return req
    target = parts[2]
    if verb == "kill" and "," in target:
        req["targets"] = target.split(",")
    else:
        req["target"] = target
    return req


def hc(text: str) -> Json:
    """A host command: "double_kill", "exclude Nick", "deprive_vote Nick"."""
    parts = text.split()
    cmd: Json = {"do": parts[0]}
    if len(parts) > 1:
        cmd["player"] = parts[1]
    return cmd


def turn(*requests: str | Json, host: Iterable[str] = (), after: Iterable[str | Json] = ()) -> Json:
    t: Json = {"requests": [rq(r) for r in requests]}
    host = list(host)
    after = list(after)
    if host:
        t["host"] = [hc(h) for h in host]
    if after:
        t["after"] = [rq(a) for a in after]
    return t


def posts(players: str, *, but: Iterable[str] = ()) -> list[str]:
    """Post requests for every nick of a players spec (or plain nick list) except `but`."""
    skip = set(but)
    return [f"{p['nick']} post" for p in parse_players(players) if p["nick"] not in skip]


def game(
    players: str | list[Json], *turns: Json, activity: bool | None = None, seed: int | None = 1
) -> Json:
    plist = parse_players(players) if isinstance(players, str) else players
    problem = setup_problem(plist)
    assert problem is None, f"test bug: invalid setup ({problem})"
    script: Json = {"players": plist, "turns": list(turns)}
    if seed is not None:
        script["seed"] = seed
    if activity is not None:
        script["activity_rules"] = activity
    return script


def play(players: str | list[Json], *turns: Json, **kwargs: Any) -> Json:
    script = game(players, *turns, **kwargs)
    return run_script(copy.deepcopy(script))


# --- reading the outcome -------------------------------------------------------------------


def turn_out(out: Json, n: int) -> Json:
    assert len(out["turns"]) >= n, f"turn {n} missing from output ({len(out['turns'])} turns)"
    t = out["turns"][n - 1]
    assert t["turn"] == n
    return t


def deaths(out: Json, n: int) -> list[tuple[str, str]]:
    """(player, cause) of the turn's deaths, pistol shots excluded, in order."""
    return [(d["player"], d["cause"]) for d in turn_out(out, n)["deaths"]]


def full_deaths(out: Json, n: int) -> list[Json]:
    return list(turn_out(out, n)["deaths"])


def after_deaths(out: Json, n: int) -> list[tuple[str, str]]:
    return [(d["player"], d["cause"]) for d in turn_out(out, n)["after"]["deaths"]]


def all_deaths(out: Json) -> list[Json]:
    """Every death of the game in order, each entry extended with its turn number."""
    found = []
    for t in out["turns"]:
        for d in [*t["deaths"], *t["after"]["deaths"]]:
            found.append({**d, "turn": t["turn"]})
    return found


def death_of(out: Json, nick: str) -> Json | None:
    for d in all_deaths(out):
        if d["player"] == nick:
            return d
    return None


def rejected(out: Json, n: int) -> list[tuple[int, str]]:
    """(index, reason) of the turn's refused requests."""
    return [(r["index"], r["reason"]) for r in turn_out(out, n)["rejected"]]


def after_rejected(out: Json, n: int) -> list[tuple[int, str]]:
    return [(r["index"], r["reason"]) for r in turn_out(out, n)["after"]["rejected"]]


def checks(out: Json, n: int) -> list[Json]:
    return list(turn_out(out, n)["checks"])


def lynch(out: Json, n: int) -> Json | None:
    result: Json | None = turn_out(out, n)["lynch"]
    return result


def notes(out: Json, n: int) -> list[Json]:
    return list(turn_out(out, n)["notes"])


def nicks(entries: Iterable[Any]) -> list[str]:
    """Nicknames of `conversions` / `promotions` entries.

    docs/REPLAY.md shows these lists only empty, so their entry shape is not fixed: a plain
    nickname or an object naming the player under "player" (or "nick") are both read here.
    """
    names = []
    for e in entries:
        if isinstance(e, str):
            names.append(e)
        else:
            names.append(e.get("player", e.get("nick")))
    return names
