"""The game's data: players, requests, refusals, state and the outcome of a turn (attrs).

The request verbs are not listed here: they come from the role registry (`rules.roles`), so a
registered role's new verb is a request like any other. The roles import the data types from
here, so this module imports no role: parsing a request and its replacement slot live in
`rules.requests`, and a player holds its role class as data (`Player.role_cls`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

import attrs

from rules.downtime import Downtime

if TYPE_CHECKING:
    from rules.roles import Role, Step


class Faction(StrEnum):
    """R12: town, mafia, and loners (re-exported by `rules.roles`)."""

    TOWN = "town"
    MAFIA = "mafia"
    LONER = "loner"


class Causes(StrEnum):
    """What every catalogue of causes of death is: the engine's own (:class:`Cause`) and a
    role's (its ``causes``: the Poisoner's poison, the mafia's kill). Each cause is a stable
    string, stored in games and written by replays, and the key of its texts (``cause.<c>``,
    ``death.<c>``; ``card.pistol.<c>`` for those that arm the commissar's pistol, R18)."""


class Cause(Causes):
    """The causes of death no role brings: the hunt (R29, R30), the lynch, the pistol, and the
    removals (R52, R53, the host's exclusion), docs/REFERENCE.md section 8. A role's own
    causes live in its class (``Role.causes``), the registry checks that no two clash."""

    HUNT = "hunt"
    HUNT_BACKFIRE = "hunt_backfire"
    LYNCH = "lynch"
    PISTOL = "pistol"
    INACTIVE = "inactive"
    MISSED_VOTES = "missed_votes"
    EXCLUDED = "excluded"


# R18: the engine's deaths after which a commissar may draw his pistol (a role adds its own:
# ``Role.pistol_causes``).
PISTOL_CAUSES: frozenset[Causes] = frozenset({Cause.LYNCH, Cause.HUNT_BACKFIRE})
# R37: the engine's deaths that deliver a death note (a role adds its own: ``Role.note_causes``).
NOTE_CAUSES: frozenset[Causes] = frozenset({Cause.LYNCH})


class Refusals(StrEnum):
    """What every catalogue of refusal codes is: the shared one (:class:`RefusalCode`) and a
    role's own (its ``refusals``, e.g. the Doctor's). Each code is a stable string, the key of
    its text (``refusal.<code>``) and of its line in a replay's output."""


class RefusalCode(Refusals):
    """Stable codes of refused requests that are no one role's own: the phase, the sender, the
    common verbs, the targets, the host's commands. A refusal only uses what the sender knows
    (R55). A role's own refusals live in its class (``Role.refusals``).
    """

    GAME_OVER = "game_over"
    REQUEST_CLOSED = "request_closed"
    DEAD_SENDER = "dead_sender"
    DEAD_TARGET = "dead_target"
    WRONG_ROLE = "wrong_role"
    NOT_TOWN = "not_town"
    NO_LYNCH_ON_TURN_1 = "no_lynch_on_turn_1"
    NO_HUNT_ON_TURN_1 = "no_hunt_on_turn_1"
    HUNT_NOT_OPEN = "hunt_not_open"
    VOTE_DEPRIVED = "vote_deprived"
    SELF_TARGET = "self_target"
    OWN_MAFIA_TARGET = "own_mafia_target"
    NOTE_ALREADY_SENT = "note_already_sent"
    NO_PISTOL = "no_pistol"
    ALREADY_DEAD = "already_dead"  # host command on a dead player
    ALREADY_DEPRIVED = "already_deprived"
    ALREADY_GRANTED = "already_granted"


@attrs.frozen
class Refusal:
    code: Refusals


class RequestFormatError(ValueError):
    """A request dict that is not a request at all (a malformed script, not a refusal)."""


@attrs.frozen
class Request:
    """A private request (заявка) of one player, exactly the docs/REPLAY.md request object."""

    by: str
    do: str
    target: str | None = None
    targets: tuple[str, ...] | None = None
    to: str | None = None
    text: str | None = None

    def named(self) -> tuple[str, ...]:
        """Every player the request names."""
        if self.targets is not None:
            return self.targets
        if self.target is not None:
            return (self.target,)
        if self.to is not None:
            return (self.to,)
        return ()

    def kill_set(self) -> frozenset[str]:
        return frozenset(self.named())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "do": self.do}
        if self.target is not None:
            out["target"] = self.target
        if self.targets is not None:
            out["targets"] = list(self.targets)
        if self.to is not None:
            out["to"] = self.to
        if self.text is not None:
            out["text"] = self.text
        return out


@attrs.frozen
class HostAction:
    """A host command that the engine applies (R56): double_kill, deprive_vote, exclude."""

    do: str
    player: str | None = None

    VERBS = ("double_kill", "deprive_vote", "exclude")

    @classmethod
    def from_dict(cls, data: Any) -> HostAction:
        if not isinstance(data, dict):
            raise RequestFormatError("a host command must be an object")
        verb = data.get("do")
        if verb not in cls.VERBS:
            raise RequestFormatError(f"unknown host command {verb!r}")
        if verb == "double_kill":
            if set(data) != {"do"}:
                raise RequestFormatError("'double_kill' takes nothing")
            return cls(do=verb)
        player = data.get("player")
        if not isinstance(player, str) or set(data) != {"do", "player"}:
            raise RequestFormatError(f"'{verb}' needs 'player' (a nickname)")
        return cls(do=verb, player=player)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        if self.player is not None:
            out["player"] = self.player
        return out


@attrs.define
class Note:
    """R37: a death note, written once per game, delivered on a mafia or lynch death."""

    to: str
    text: str


@attrs.define
class Player:
    nick: str
    # The current role (may be an internal one after conversion / promotion, R19 and R22).
    role_cls: type[Role]
    original_role: str
    alive: bool = True
    death_turn: int | None = None
    death_cause: Causes | None = None
    missed_votes: int = 0
    note: Note | None = None

    @property
    def role(self) -> str:
        """The current role's code."""
        return self.role_cls.code

    @property
    def faction(self) -> Faction:
        return self.role_cls.faction

    @property
    def is_mafia(self) -> bool:
        return self.faction is Faction.MAFIA


@attrs.define
class Submission:
    """A request standing in the current turn, with its arrival sequence number."""

    seq: int
    request: Request


class Phase(StrEnum):
    OPEN = "open"  # requests accepted
    PISTOL = "pistol"  # resolved (steps 0-5), waiting for pistol shots (step 6)
    OVER = "over"


@attrs.frozen
class Death:
    player: str
    role: str  # revealed role (R35)
    cause: Causes
    by: tuple[str, ...]
    step: Step | None  # None: a host exclusion, outside the resolution

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "role": self.role,
            "cause": str(self.cause),
            "by": list(self.by),
        }


@attrs.define
class CheckResult:
    by: str
    target: str
    result: str | None  # "mafia" | "not_mafia" | None (no answer)
    killed_by: tuple[str, ...] | None = None
    method: str | None = None
    # R19: everyone who privately receives this answer (the commissar and the sergeant).
    recipients: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "target": self.target,
            "result": self.result,
            "killed_by": list(self.killed_by) if self.killed_by is not None else None,
            "method": self.method,
        }


@attrs.frozen
class LynchResult:
    hanged: str | None  # the chosen player, unless he was already dead (section 6)
    votes: dict[str, list[str]]  # every counted vote, for candidates dead by now too
    public: str  # "full" (R34) or "totals" (R54)
    electorate: int
    # R31, R33: the player the lynch chose, None when nobody reached the threshold.
    chosen: str | None = None
    # What the dawn report explains (not part of ``to_dict``: the replay format stays as is).
    threshold: int = 0  # R31: the fewest votes that hang, ceil(electorate / 4)
    uncounted: list[str] = attrs.Factory(list)  # R31, R54: voters outside the electorate
    tied: list[str] = attrs.Factory(list)  # R33: the tied leaders, in tally order
    tie_voter: str | None = None  # R33: who cast the second vote for the tied ones

    @property
    def chosen_dead(self) -> bool:
        """Section 6: the lynch chose a player who was already dead: nobody is hanged."""
        return self.chosen is not None and self.hanged is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "chosen": self.chosen,
            "hanged": self.hanged,
            "votes": {k: list(v) for k, v in self.votes.items()},
            "public": self.public,
        }


@attrs.frozen
class NoteDelivery:
    author: str
    to: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.author, "to": self.to, "text": self.text}


@attrs.frozen
class RoleChange:
    """A conversion (Foundling -> mafia, R22) or promotion (Sergeant -> commissar, R19)."""

    player: str
    becomes: str
    step: Step | None = None  # the step of the death that caused it; None: a host exclusion

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "becomes": self.becomes}


@attrs.frozen
class Rejected:
    index: int
    by: str
    do: str
    reason: Refusals

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "by": self.by, "do": self.do, "reason": str(self.reason)}


@attrs.frozen
class Miss:
    """An attack (the mafia's kill, a poison) that missed one player it aimed at, and why: he
    was already ``dead``, ``immune`` to it (R22), ``protected`` by ``protector`` (R20), or
    the ``stand_in`` protector took it in his place. Only the hosts' account reads it."""

    target: str
    cause: Causes
    reason: str
    protector: str | None = None


@attrs.frozen
class Save:
    """A protection that turned an attack away from its target (R20): the heal that saved."""

    target: str
    by: str
    cause: Causes


@attrs.define
class TurnResult:
    """Everything one turn produced, in the order it happened."""

    turn: int
    deaths: list[Death] = attrs.Factory(list)
    checks: list[CheckResult] = attrs.Factory(list)
    lynch: LynchResult | None = None
    notes: list[NoteDelivery] = attrs.Factory(list)
    conversions: list[RoleChange] = attrs.Factory(list)
    promotions: list[RoleChange] = attrs.Factory(list)
    pistols: list[str] = attrs.Factory(list)  # killed commissars who may shoot (R18)
    after_deaths: list[Death] = attrs.Factory(list)
    winner: str | None = None
    blocked: list[str] = attrs.Factory(list)  # private: whose ability was blocked
    poisoned: list[str] = attrs.Factory(list)  # private: who will die at the next turn
    # For the hosts' account only (never in `to_dict`, the replay format):
    misses: list[Miss] = attrs.Factory(list)  # attacks that missed someone, and why
    saves: list[Save] = attrs.Factory(list)  # protections that turned an attack away (R20)
    # (sender, verb) -> why his role request did not count: "dead", "blocked" (R21), "role"
    idle: dict[tuple[str, str], str] = attrs.Factory(dict)
    # (sender, verb) -> what became of his request, as a role decided it during the
    # resolution (`{"fate": code, ...}`, e.g. R57's theft at the lynch)
    fates: dict[tuple[str, str], dict[str, Any]] = attrs.Factory(dict)
    # R31, R53: the living players of the electorate who sent no lynch vote at step 4 (seat
    # order), and of them those charged a missed vote, with their count after this turn.
    nonvoters: list[str] = attrs.Factory(list)
    missed: dict[str, int] = attrs.Factory(dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "deaths": [d.to_dict() for d in self.deaths],
            "checks": [c.to_dict() for c in self.checks],
            "lynch": self.lynch.to_dict() if self.lynch else None,
            "notes": [n.to_dict() for n in self.notes],
            "conversions": [c.to_dict() for c in self.conversions],
            "promotions": [p.to_dict() for p in self.promotions],
            "after": {"deaths": [d.to_dict() for d in self.after_deaths]},
            "winner": self.winner,
        }


@attrs.define
class GameState:
    """The whole state of one game; rebuilt deterministically from its setup and log."""

    seed: int
    activity_rules: bool
    players: dict[str, Player]  # in setup order
    turn: int = 1
    phase: Phase = Phase.OPEN
    winner: str | None = None
    double_kill: bool = False  # R36, for this turn's night
    double_kill_next: bool = False  # granted after requests closed: next night
    deprived: set[str] = attrs.Factory(set)  # R54, this turn
    deprived_next: set[str] = attrs.Factory(set)  # deprived after requests closed
    requests: dict[tuple[str, str], Submission] = attrs.Factory(dict)  # (nick, slot)
    posts: dict[str, int] = attrs.Factory(dict)  # R52, this turn
    next_seq: int = 0
    # What each role remembers between turns (R20's heal chain, R27's poison), by the
    # role's `memory_key`: attrs values owned by the role classes (`Role.recall`).
    role_memory: dict[str, Any] = attrs.Factory(dict)
    pistols: set[str] = attrs.Factory(set)  # commissars who may shoot now (R18)
    current: TurnResult | None = None  # the turn being resolved (between resolve and finish)
    downtime: Downtime | None = None  # R59: what the bot lost of this turn (rules.downtime)

    def living(self) -> list[Player]:
        return [p for p in self.players.values() if p.alive]

    def alive(self, nick: str) -> bool:
        return self.players[nick].alive

    def standing(self, nick: str, slot: str) -> Request | None:
        sub = self.requests.get((nick, slot))
        return sub.request if sub else None

    def submissions(self, verb_slot: str) -> list[Submission]:
        """The standing requests of one slot, in arrival order."""
        subs = [s for (_, slot), s in self.requests.items() if slot == verb_slot]
        return sorted(subs, key=lambda s: s.seq)

    def holder(self, role_code: str) -> Player | None:
        for p in self.players.values():
            if p.role == role_code:
                return p
        return None
