"""R16: the Villager talks, votes and may hunt; he has no ability and no hook."""

from __future__ import annotations

from rules.roles.base import Faction, Role


class Villager(Role):
    """R16: talks, votes, may hunt."""

    code = "villager"
    faction = Faction.TOWN
    unique = False
