"""R25: the Troublemaker, a mafia member who slanders one player per night (step 2b)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules.roles.base import Step, on_steps
from rules.roles.mafia import MafiaMember

if TYPE_CHECKING:
    from rules.model import GameState, TurnResult
    from rules.pipeline import Resolution


def slander(res: Resolution) -> None:
    """Step 2b: the commissar checking this player tonight sees "mafia" (R25, one turn)."""
    for req in res.standing("slander"):
        if res.acts(req) and req.target is not None:
            res.night.appears_mafia.add(req.target)


class Troublemaker(MafiaMember):
    """R25: slanders one player per turn."""

    code = "troublemaker"
    spoken = ("troublemaker", "framer", "баламут", "клеветник")
    verbs = frozenset({"kill", "slander"})
    hooks = on_steps({**MafiaMember.hooks, Step.DECEPTIONS: slander})

    @classmethod
    def host_facts(cls, state: GameState, result: TurnResult) -> Mapping[str, Any]:
        """R25: the players slandered tonight (by a troublemaker who acted)."""
        return {
            "slandered": [
                sub.request.target
                for sub in state.submissions("slander")
                if sub.request.target is not None and (sub.request.by, "slander") not in result.idle
            ]
        }
