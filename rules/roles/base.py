"""The base of every role: factions, the steps of a resolution, request verbs, and the hooks
a role class may implement (RULES.md sections 4 and 8).

A role owns its behaviour. The pipeline (`rules.pipeline`) walks `STEP_ORDER` and at each
step calls the hooks the registered role classes attach to it (`Role.hooks`); effects that
cross roles go through generic questions the resolution asks every role class:

- `Resolution.acts(req)`: a role request counts only if its sender is alive, holds a role that
  may send the verb, and is not blocked (the General rule of section 8; R21 blocks any ability);
- `Role.protections`: who a player's request protects this night, and against which causes
  (R20's heal); a kill or a poison asks them through `Resolution.hits`;
- `Role.immune_to`: a cause that fails on this role (R22: the mafia kill on the Foundling);
- `Night.appears_mafia`: players the commissar sees as mafia this night whatever their role
  (R25's slander); the check asks `Resolution.appears_mafia`;
- `Role.on_own_death` and `Role.on_other_death`: step 5's consequences, applied once every
  death of the step has happened (the "Deaths of one step" Decision).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

import attrs

from rules.model import Cause, RefusalCode
from rules.model import Faction as Faction  # re-exported: roles name their faction here

if TYPE_CHECKING:
    from rules.model import GameState, Player, Request
    from rules.pipeline import Resolution


class Step(StrEnum):
    """The steps of one resolution, RULES.md section 8 (the order is `STEP_ORDER`)."""

    POISON_DEATHS = "poison_deaths"  # 0
    HUNT = "hunt"  # 1
    BLOCK = "block"  # 2a
    SLANDER = "slander"  # 2b
    MAFIA_KILL = "mafia_kill"  # 2c
    CHECK = "check"  # 2d
    POISON = "poison"  # 2e
    DOCTOR = "doctor"  # 2f
    LYNCH = "lynch"  # 3
    INACTIVITY = "inactivity"  # 4
    CONSEQUENCES = "consequences"  # 5 (applied when each step's deaths have happened)
    PISTOL = "pistol"  # 6
    WIN = "win"  # 7


# RULES.md section 8, in order. Every death carries the step that caused it, and the
# property tests check that deaths of one turn never go backwards in this order.
STEP_ORDER: tuple[Step, ...] = (
    Step.POISON_DEATHS,
    Step.HUNT,
    Step.BLOCK,
    Step.SLANDER,
    Step.MAFIA_KILL,
    Step.CHECK,
    Step.POISON,
    Step.DOCTOR,
    Step.LYNCH,
    Step.INACTIVITY,
    Step.CONSEQUENCES,
    Step.PISTOL,
    Step.WIN,
)

# Verbs every living player may send whatever his role.
COMMON_VERBS: frozenset[str] = frozenset({"vote", "note", "post"})


class Shape(StrEnum):
    """What a request of a verb names (SCENARIOS.md request objects)."""

    TARGET = "target"  # one player: {"target": nick}
    TARGET_OR_PAIR = "target_or_pair"  # {"target": nick} or {"targets": [a, b]} (R36)
    NOTE = "note"  # {"to": nick, "text": ...} (R37)
    NOTHING = "nothing"  # a post


@attrs.frozen
class Verb:
    """One request verb: its shape and the rules every request of it follows."""

    name: str
    shape: Shape = Shape.TARGET
    slot: str | None = None  # requests of one slot replace each other; None: the verb itself
    self_target: bool = False  # section 9 Decision: nobody targets himself, except these
    spares_team: bool = False  # may not name a member of the sender's own faction (R23)

    @property
    def slot_name(self) -> str:
        return self.slot if self.slot is not None else self.name


# Verbs that belong to no role: the vote (R31), the hunt (R28), the pistol shot of a killed
# commissar (R18, sent by a ghost, so not a role verb), the death note (R37) and a post (R52).
BASE_VERBS: Mapping[str, Verb] = {
    v.name: v
    for v in (
        Verb("vote", self_target=True),
        Verb("hunt"),
        Verb("shoot"),
        Verb("note", shape=Shape.NOTE),
        Verb("post", shape=Shape.NOTHING),
    )
}


@attrs.frozen
class Protection:
    """A player protected this night by another player's request (R20's heal).

    The kill or poison named in `against` misses `target`. A `stand_in` protector takes the
    attack in the target's place instead. A protection holds only while its protector lives,
    and is void against an attack that hits the protector himself (R40: a doctor killed
    before his move heals nobody, unless he healed himself)."""

    target: str
    by: str
    against: frozenset[Cause]
    stand_in: bool = False


Hook = Callable[["Resolution"], None]


def on_steps(table: Mapping[Step, Hook]) -> Mapping[Step, Hook]:
    """A role's hooks, read-only: `hooks = on_steps({Step.BLOCK: block})`."""
    return MappingProxyType(dict(table))


class Role:
    """Base class of every role. Subclasses override only what their role does."""

    code: ClassVar[str]
    faction: ClassVar[Faction]
    # Verbs of role requests this role may send (besides COMMON_VERBS and the hunt).
    verbs: ClassVar[frozenset[str]] = frozenset()
    # The shapes of verbs this role introduces; a verb not described names one target.
    verb_specs: ClassVar[tuple[Verb, ...]] = ()
    # The steps this role takes part in, and what it does there (called once per
    # resolution per distinct function, in registry order, see `rules.pipeline`).
    hooks: ClassVar[Mapping[Step, Hook]] = MappingProxyType({})
    unique: ClassVar[bool] = True  # R43: at most one per game

    @classmethod
    def checked_as_mafia(cls) -> bool:
        """What the commissar sees (R18); slander (R25) is `Night.appears_mafia`."""
        return cls.faction is Faction.MAFIA

    @classmethod
    def may_hunt(cls) -> bool:
        """R28, R26: only the town hunts."""
        return cls.faction is Faction.TOWN

    @classmethod
    def shown_as(cls) -> str:
        """The role the player is told he has (R22: the Foundling is told Villager)."""
        return cls.code

    @classmethod
    def shown_faction(cls) -> Faction:
        """The faction the player is told he belongs to."""
        return cls.faction

    @classmethod
    def reveals_as(cls) -> str:
        """The role revealed at death (R35)."""
        return cls.code

    @classmethod
    def immune_to(cls, cause: Cause) -> bool:
        """An attack of this cause on this role fails silently (R22)."""
        return False

    @classmethod
    def protections(cls, res: Resolution) -> Sequence[Protection]:
        """The protections this role's requests give this night (asked by kill and poison)."""
        return ()

    @classmethod
    def on_own_death(cls, res: Resolution, player: Player, cause: Cause) -> None:
        """Step 5 for the player's own death (R18's pistol)."""

    @classmethod
    def on_other_death(cls, res: Resolution, me: Player, dead: Player, cause: Cause) -> None:
        """Step 5 for the death of another player, called for every player still alive when
        the step's deaths have all happened (R19, R22)."""

    @classmethod
    def refuse_request(cls, state: GameState, req: Request) -> RefusalCode | None:
        """Role rules of a request by this role, before its targets are looked at."""
        return None

    @classmethod
    def refuse_target(cls, state: GameState, req: Request, name: str) -> RefusalCode | None:
        """Role rules for one player named by a request of this role (after the common ones:
        not himself, not a dead player)."""
        return None

    @classmethod
    def known_commissar(cls, state: GameState) -> str | None:
        """The commissar's nickname if this role knows it (R19), for the role card."""
        return None
