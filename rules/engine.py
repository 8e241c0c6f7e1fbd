"""The game engine: one object per game, fed requests and host commands, resolving turns.

It knows nothing of Discord, the database or the clock: the caller says whether hunts are open
(R4) and when the deadline has come. State is rebuilt deterministically by feeding the same
log again (`rules.replay`, `db/`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from rules.downtime import Downtime, is_downtime_entry
from rules.model import (
    Cause,
    GameState,
    HostAction,
    Note,
    Phase,
    Player,
    Refusal,
    Request,
    Submission,
    TurnResult,
)
from rules.pipeline import close_turn, fire_pistol, kill_outside_resolution, resolve_turn
from rules.requests import parse_request, verb_slot
from rules.roles import role_class, town_ability_verbs
from rules.setup import validate_nicknames, validate_setup
from rules.snapshot import SnapshotError, state_from_dict
from rules.validation import validate_host_action, validate_request
from rules.win import decide_winner


class UnknownPlayer(KeyError):
    """A nickname that is not in the game (a caller's or script's error, not a refusal)."""


class StaleVerdict(RuntimeError):
    """A :class:`Valid` applied to a game that changed since it was judged (a caller's error)."""


@attrs.frozen
class Valid:
    """A request the rules accepted (:meth:`Game.validate`), stamped with the state it was
    judged against (the turn, the phase and the game's count of changes), for
    :meth:`Game.apply`."""

    request: Request
    stamp: tuple[int, Phase, int]


class Game:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.history: list[TurnResult] = []
        self._changes = 0  # requests recorded and host actions applied: the verdicts' stamp

    @classmethod
    def new(
        cls, players: Sequence[tuple[str, str]], seed: int = 0, activity_rules: bool = False
    ) -> Game:
        """`players`: (nick, role code) in setup order. Raises SetupError."""
        validate_setup([role for _, role in players])
        validate_nicknames([nick for nick, _ in players])  # R44
        state = GameState(
            seed=seed,
            activity_rules=activity_rules,
            players={
                nick: Player(nick=nick, role_cls=role_class(role), original_role=role)
                for nick, role in players
            },
        )
        return cls(state)

    # --- queries ---------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def player(self, nick: str) -> Player:
        try:
            return self.state.players[nick]
        except KeyError:
            raise UnknownPlayer(nick) from None

    def standing_requests(self, nick: str) -> list[Request]:
        """The player's requests standing in this turn, in arrival order."""
        subs = [s for (who, _), s in self.state.requests.items() if who == nick]
        return [s.request for s in sorted(subs, key=lambda s: s.seq)]

    # --- commands --------------------------------------------------------------------
    def submit(self, req: Request, *, hunts_open: bool = True) -> Refusal | None:
        """Validate and record a request (:meth:`validate`, then :meth:`apply`). None means
        accepted."""
        verdict = self.validate(req, hunts_open=hunts_open)
        if isinstance(verdict, Refusal):
            return verdict
        self.apply(verdict)
        return None

    def validate(self, req: Request, *, hunts_open: bool = True) -> Valid | Refusal:
        """The rules' one judgement of a request in the game as it stands: its refusal, or the
        request as :meth:`apply` records it. A caller that must write the request somewhere
        before it is recorded (the service commits it first) judges it once here, and applies
        what it got in the same state."""
        players = self.state.players
        if req.by not in players:
            raise UnknownPlayer(req.by)
        for name in req.named():
            if name not in players:
                raise UnknownPlayer(name)
        refusal = validate_request(self.state, req, hunts_open=hunts_open)
        if refusal is not None:
            return refusal
        return Valid(req, self._stamp())

    def apply(self, valid: Valid) -> None:
        """Record a request :meth:`validate` accepted, without judging it again. It must be
        applied to the state it was judged against: a request recorded, a host action or a
        turn's close in between raise :class:`StaleVerdict` (a caller's error, not a
        refusal)."""
        if valid.stamp != self._stamp():
            raise StaleVerdict(valid.request)
        self._record(valid.request)

    def _stamp(self) -> tuple[int, Phase, int]:
        return (self.state.turn, self.state.phase, self._changes)

    def _record(self, req: Request) -> None:
        self._changes += 1
        state = self.state
        by, do = req.by, req.do
        if do == "post":
            posts = state.posts
            posts[by] = posts.get(by, 0) + 1
            return
        if do == "note":
            assert req.to is not None
            state.players[by].note = Note(to=req.to, text=req.text or "")
            return
        if do == "shoot":
            fire_pistol(state, req)
            return
        # A later request of the same kind replaces the earlier one and arrives now.
        requests = state.requests
        slot = verb_slot(do)
        requests.pop((by, slot), None)
        abilities = town_ability_verbs()
        if do == "hunt":  # R17: a hunt withdraws the ability, and the other way round
            for verb in abilities:
                requests.pop((by, verb_slot(verb)), None)
        elif do in abilities:
            requests.pop((by, "hunt"), None)
        requests[(by, slot)] = Submission(seq=state.next_seq, request=req)
        state.next_seq += 1

    def host_action(self, action: HostAction) -> Refusal | None:
        """R56: double kill (R36), deprive a vote (R54), exclude a player."""
        if action.player is not None:
            self.player(action.player)
        refusal = validate_host_action(self.state, action)
        if refusal is not None:
            return refusal
        self._changes += 1
        state = self.state
        open_ = state.phase is Phase.OPEN
        if action.do == "double_kill":
            if open_:
                state.double_kill = True
            else:
                state.double_kill_next = True
        elif action.do == "deprive_vote":
            assert action.player is not None
            if open_:
                state.deprived.add(action.player)
                state.requests.pop((action.player, "vote"), None)
            else:
                state.deprived_next.add(action.player)
        elif action.do == "exclude":
            assert action.player is not None
            self._exclude(action.player)
        return None

    def _exclude(self, nick: str) -> None:
        state = self.state
        kill_outside_resolution(state, nick, Cause.EXCLUDED)
        assert state.current is not None
        if state.phase is Phase.OPEN:
            winner = decide_winner(state)  # R15: the win check follows an exclusion
            if winner is not None:
                state.current.winner = winner
                state.winner = winner
                state.phase = Phase.OVER
                self.history.append(state.current)
                state.current = None

    def note_downtime(self, downtime: Downtime) -> None:
        """R59: what the bot could not serve of this open turn, measured at its deadline (an
        input of the resolution, logged with the turn; a later measure replaces it)."""
        if self.state.phase is Phase.OPEN:
            self.state.downtime = downtime

    def resolve(self, downtime: Downtime | None = None) -> TurnResult:
        """The deadline: steps 0-5. Then shots (`submit` a `shoot`) and `finish_turn`.
        ``downtime`` (R59): noted first (:meth:`note_downtime`)."""
        if downtime is not None:
            self.note_downtime(downtime)
        return resolve_turn(self.state)

    def finish_turn(self) -> TurnResult:
        """The pistol window has closed: win check (step 7) and the next turn."""
        result = close_turn(self.state)
        self.history.append(result)
        return result

    def resolve_and_finish(self) -> TurnResult:
        """Resolve with no pistol shots at all (tests, benchmarks)."""
        self.resolve()
        return self.finish_turn()


class RebuildError(RuntimeError):
    """A stored log that the rules no longer accept: the store and the rules disagree."""


LogItem = tuple[int, str, dict[str, Any]]  # (turn, section 'host'|'requests'|'after', payload)


def rebuild(
    players: Sequence[tuple[str, str]],
    seed: int,
    activity_rules: bool,
    log: Sequence[LogItem],
    resolved_turns: Iterable[int],
    pistol_turns: Iterable[int] = (),
    *,
    snapshot: dict[str, Any] | None = None,
) -> Game:
    """The state of a stored game: its accepted log fed again, in arrival order.

    `resolved_turns` were resolved and closed; `pistol_turns` had steps 0-5 resolved and the
    pistol window opened. Deterministic: the same log gives the same game, every time.

    With `snapshot` (`rules.snapshot.state_to_dict` of the game once its previous turn was
    closed), the replay starts from it at its turn: `log` then holds only the entries logged
    after it (the store keeps the log's last `seq` with the snapshot). Raises `SnapshotError` for a
    snapshot that cannot be used (the caller replays the full log instead)."""
    if snapshot is not None:
        game = game_from_snapshot(snapshot)
        seats = [(p.nick, p.original_role) for p in game.state.players.values()]
        if seats != list(players) or game.state.seed != seed:
            raise SnapshotError("the snapshot is of another setup")
    else:
        game = Game.new(players, seed=seed, activity_rules=activity_rules)
    first = game.turn
    resolved = set(resolved_turns)
    windows = set(pistol_turns) | resolved
    by_turn: dict[int, list[tuple[int, str, dict[str, Any]]]] = {}
    for index, (turn, section, payload) in enumerate(log):
        if turn < first:
            raise RebuildError(f"log has turn {turn} before the snapshot's turn {first}")
        by_turn.setdefault(turn, []).append((index, section, payload))
    last = max([first, *by_turn, *(t for t in windows if t >= first)])
    for turn in range(first, last + 1):
        if game.winner is not None:
            break
        if game.turn != turn:
            raise RebuildError(f"log has turn {turn} but the game is at turn {game.turn}")
        entries = by_turn.get(turn, [])
        for _, section, payload in entries:
            if section == "host" and is_downtime_entry(payload):  # R59
                game.note_downtime(Downtime.from_dict(payload))
            elif section == "host":
                _must(game.host_action(HostAction.from_dict(payload)), turn, payload)
            elif section == "requests":
                _must(game.submit(parse_request(payload)), turn, payload)
        if turn in windows and game.phase is Phase.OPEN:
            game.resolve()
            _pistol_window(game, turn, entries, by_turn, closed=turn in resolved)
            if turn not in resolved:
                if by_turn.get(turn + 1):
                    raise RebuildError(f"log has turn {turn + 1} but turn {turn} is not closed")
                break  # the game waits in this window
            game.finish_turn()
    return game


def _pistol_window(
    game: Game,
    turn: int,
    entries: list[tuple[int, str, dict[str, Any]]],
    by_turn: dict[int, list[tuple[int, str, dict[str, Any]]]],
    *,
    closed: bool,
) -> None:
    """The window's shots (R18) in arrival order, with the host commands given meanwhile:
    those take effect from the next turn (R36, R54), so they are logged at the next turn, but
    the live game applied them here, between the shots. (Those given after the last shot of a
    closed window are applied at the next turn: the same, with no shot left to come.)"""
    shots = [e for e in entries if e[1] == "after"]
    upcoming = by_turn.get(turn + 1, [])
    last_shot = shots[-1][0] if shots else -1
    meanwhile = [
        e
        for e in upcoming
        if e[1] == "host" and not is_downtime_entry(e[2]) and (not closed or e[0] < last_shot)
    ]
    if meanwhile:
        taken = {e[0] for e in meanwhile}
        by_turn[turn + 1] = [e for e in upcoming if e[0] not in taken]
    for _, section, payload in sorted(shots + meanwhile, key=lambda e: e[0]):
        if section == "after":
            _must(game.submit(parse_request(payload)), turn, payload)
        else:
            _must(game.host_action(HostAction.from_dict(payload)), turn + 1, payload)


def game_from_snapshot(snapshot: dict[str, Any]) -> Game:
    """A game restored from a snapshot of its state between turns (no `history`)."""
    return Game(state_from_dict(snapshot))


def _must(refusal: Refusal | None, turn: int, payload: dict[str, Any]) -> None:
    if refusal is not None:
        raise RebuildError(f"turn {turn}: stored {payload} refused again ({refusal.code})")
