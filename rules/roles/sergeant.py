"""R19: the Sergeant knows the Commissar, receives his check results (step 2d), and becomes
the commissar when the Commissar dies (step 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import Causes, RoleChange
from rules.roles.base import Faction, Role, Step, on_steps
from rules.roles.commissar import Commissar

if TYPE_CHECKING:
    from rules.model import GameState, Player
    from rules.pipeline import Resolution


def copy_checks(res: Resolution) -> None:
    """Step 2d, after the commissar's check: every living sergeant (promoted by this night's
    kill too) privately receives each answer (R19)."""
    for answer in res.result.checks:
        if answer.result is None:
            continue
        extra = tuple(
            p.nick
            for p in res.state.players.values()
            if p.original_role == Sergeant.code
            and p.alive
            and p.nick != answer.by
            and p.nick not in answer.recipients
        )
        answer.recipients = (*answer.recipients, *extra)


class Sergeant(Role):
    """R19: receives the commissar's results and becomes the commissar at his death."""

    code = "sergeant"
    spoken = ("sergeant", "сержант")
    faction = Faction.TOWN
    hooks = on_steps({Step.CHECKS: copy_checks})

    @classmethod
    def on_other_death(cls, res: Resolution, me: Player, dead: Player, cause: Causes) -> None:
        if issubclass(dead.role_cls, Commissar):  # R19
            me.role_cls = PromotedSergeant
            res.result.promotions.append(RoleChange(me.nick, "commissar", step=res.step))

    @classmethod
    def known_commissar(cls, state: GameState) -> str | None:
        holder = state.holder(Commissar.code)
        return holder.nick if holder else None


class PromotedSergeant(Commissar):
    """R19: the Sergeant after the Commissar's death: a commissar who reveals as Sergeant."""

    code = "promoted_sergeant"

    @classmethod
    def reveals_as(cls) -> str:
        return Sergeant.code

    @classmethod
    def shown_as(cls) -> str:
        return Commissar.code
