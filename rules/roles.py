"""One class per role (RULES.md section 4) and the explicit role registry.

A role class declares its faction, what the commissar sees when he checks it, how it is
introduced to its player, which request verbs it may send, and the resolution hooks it adds
to the pipeline (see `rules.pipeline.STEP_ORDER`). Adding a role is one new class here and one
line in `ROLES`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar


class Faction(StrEnum):
    """R12: town, mafia, and loners."""

    TOWN = "town"
    MAFIA = "mafia"
    LONER = "loner"


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
    CONSEQUENCES = "consequences"  # 5 (applied as each death happens)
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
# R17: the town abilities that exclude a hunt in the same turn.
TOWN_ABILITY_VERBS: frozenset[str] = frozenset({"check", "heal", "inject", "block"})


class Role:
    """Base class of every role."""

    code: ClassVar[str]
    faction: ClassVar[Faction]
    # Verbs of role requests this role may send (besides COMMON_VERBS and the hunt).
    verbs: ClassVar[frozenset[str]] = frozenset()
    # Night steps this role's requests are resolved in (documentation and pipeline wiring).
    hooks: ClassVar[frozenset[Step]] = frozenset()
    unique: ClassVar[bool] = True  # R43: at most one per game

    @classmethod
    def checked_as_mafia(cls) -> bool:
        """What the commissar sees (R18); slander (R25) is applied by the pipeline."""
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
    def reveals_as(cls) -> str:
        return cls.code


class Villager(Role):
    """R16: talks, votes, may hunt."""

    code = "villager"
    faction = Faction.TOWN
    unique = False


class MafiaMember(Role):
    """R23: every mafia member may send the kill request."""

    code = "mafioso"
    faction = Faction.MAFIA
    verbs = frozenset({"kill"})
    hooks = frozenset({Step.MAFIA_KILL})


class Mafioso(MafiaMember):
    code = "mafioso"
    unique = False


class Boss(MafiaMember):
    """R22: his death converts the Foundling."""

    code = "boss"


class Troublemaker(MafiaMember):
    """R25: slanders one player per turn."""

    code = "troublemaker"
    verbs = frozenset({"kill", "slander"})
    hooks = frozenset({Step.MAFIA_KILL, Step.SLANDER})


class Commissar(Role):
    """R18: checks one player per turn; has the pistol."""

    code = "commissar"
    faction = Faction.TOWN
    verbs = frozenset({"check"})
    hooks = frozenset({Step.CHECK, Step.PISTOL})


class Sergeant(Role):
    """R19: receives the commissar's results and becomes the commissar at his death."""

    code = "sergeant"
    faction = Faction.TOWN


class Doctor(Role):
    """R20: heals one player per turn; one lethal injection per game."""

    code = "doctor"
    faction = Faction.TOWN
    verbs = frozenset({"heal", "inject"})
    hooks = frozenset({Step.DOCTOR})


class Prostitute(Role):
    """R21: blocks one player's ability for the night."""

    code = "prostitute"
    faction = Faction.TOWN
    verbs = frozenset({"block"})
    hooks = frozenset({Step.BLOCK})


class Foundling(Role):
    """R22: town, told he is a Villager, immune to the mafia kill, converts when the Boss dies."""

    code = "foundling"
    faction = Faction.TOWN

    @classmethod
    def shown_as(cls) -> str:
        return Villager.code


class ConvertedFoundling(MafiaMember):
    """R22: the Foundling after the Boss's death: a mafia member who reveals as Foundling."""

    code = "converted_foundling"

    @classmethod
    def reveals_as(cls) -> str:
        return Foundling.code


class PromotedSergeant(Commissar):
    """R19: the Sergeant after the Commissar's death: a commissar who reveals as Sergeant."""

    code = "promoted_sergeant"

    @classmethod
    def reveals_as(cls) -> str:
        return Sergeant.code

    @classmethod
    def shown_as(cls) -> str:
        return Commissar.code


class Maniac(Role):
    """R27: loner; poisons one player per turn, the victim dies at the next resolution."""

    code = "maniac"
    faction = Faction.LONER
    verbs = frozenset({"poison"})
    hooks = frozenset({Step.POISON, Step.POISON_DEATHS})


# The registry of roles a setup may name (R43). Internal states (converted, promoted) are
# reached only through the rules, never named in a setup.
ROLES: dict[str, type[Role]] = {
    cls.code: cls
    for cls in (
        Villager,
        Mafioso,
        Boss,
        Troublemaker,
        Commissar,
        Sergeant,
        Doctor,
        Prostitute,
        Foundling,
        Maniac,
    )
}
INTERNAL_ROLES: dict[str, type[Role]] = {
    ConvertedFoundling.code: ConvertedFoundling,
    PromotedSergeant.code: PromotedSergeant,
}


def role_class(code: str) -> type[Role]:
    try:
        return ROLES[code]
    except KeyError:
        return INTERNAL_ROLES[code]
