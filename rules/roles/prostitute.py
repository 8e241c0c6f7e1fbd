"""R21: the Prostitute blocks one player's ability for the night (step 2a).

The block is a generic status of the night (`Night.blocked`): every ability asks it through
`Resolution.acts`, so a blocked player's request simply does not count (R21, R23).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.roles.base import Faction, Role, Step, on_steps

if TYPE_CHECKING:
    from rules.pipeline import Resolution


def block(res: Resolution) -> None:
    """Step 2a."""
    for req in res.standing("block"):
        if res.acts(req) and req.target is not None:
            res.night.blocked.add(req.target)
            res.result.blocked.append(req.target)


class Prostitute(Role):
    """R21: blocks one player's ability for the night."""

    code = "prostitute"
    spoken = ("prostitute", "roleblocker", "escort", "путана", "любовница")
    faction = Faction.TOWN
    verbs = frozenset({"block"})
    hooks = on_steps({Step.BLOCKS: block})
