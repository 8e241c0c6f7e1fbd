"""R25: the Troublemaker, a mafia member who slanders one player per night (step 2b)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.roles.base import Step, on_steps
from rules.roles.mafia import MafiaMember

if TYPE_CHECKING:
    from rules.pipeline import Resolution


def slander(res: Resolution) -> None:
    """Step 2b: the commissar checking this player tonight sees "mafia" (R25, one turn)."""
    for req in res.standing("slander"):
        if res.acts(req) and req.target is not None:
            res.night.appears_mafia.add(req.target)


class Troublemaker(MafiaMember):
    """R25: slanders one player per turn."""

    code = "troublemaker"
    verbs = frozenset({"kill", "slander"})
    hooks = on_steps({**MafiaMember.hooks, Step.SLANDER: slander})
