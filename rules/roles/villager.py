"""R16: the Villager talks, votes and may hunt; he has no ability and no hook."""

from __future__ import annotations

from rules.roles.base import Faction, Role


class Villager(Role):
    """R16: talks, votes, may hunt."""

    code = "villager"
    spoken = (
        "villager",
        "villagers",
        "townie",
        "townies",
        "vanilla",
        "мирный житель",
        "мирные жители",
        "мирный",
        "мирные",
        "мж",
        "житель",
        "жители",
    )
    faction = Faction.TOWN
    unique = False
