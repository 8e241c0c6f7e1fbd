"""R22: the Foundling: town, told he is a Villager, immune to the mafia's kill, and a mafia
member once the Boss is dead (step 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import Causes, RoleChange
from rules.roles.base import Faction, Role
from rules.roles.mafia import Boss, MafiaCause, MafiaMember
from rules.roles.villager import Villager

if TYPE_CHECKING:
    from rules.model import Player
    from rules.pipeline import Resolution


class Foundling(Role):
    """R22: town, told he is a Villager, immune to the mafia kill, converts when the Boss dies."""

    code = "foundling"
    spoken = ("foundling", "подкидыш")
    faction = Faction.TOWN

    @classmethod
    def shown_as(cls) -> str:
        return Villager.code

    @classmethod
    def immune_to(cls, cause: Causes) -> bool:
        return cause is MafiaCause.MAFIA  # the mafia's kill on him silently fails

    @classmethod
    def on_other_death(cls, res: Resolution, me: Player, dead: Player, cause: Causes) -> None:
        if issubclass(dead.role_cls, Boss):  # R22
            me.role_cls = ConvertedFoundling
            res.result.conversions.append(RoleChange(me.nick, "mafia", step=res.step))


class ConvertedFoundling(MafiaMember):
    """R22: the Foundling after the Boss's death: a mafia member who reveals as Foundling."""

    code = "converted_foundling"

    @classmethod
    def reveals_as(cls) -> str:
        return Foundling.code
