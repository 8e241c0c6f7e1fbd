"""R27: the Poisoner maniac (Маньяк-отравитель), a loner: poisons one player per night
(step 2e); the victim dies at the start of the next turn's resolution (step 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import Cause
from rules.roles.base import Faction, Role, Step, on_steps

if TYPE_CHECKING:
    from rules.pipeline import Resolution


def poison_deaths(res: Resolution) -> None:
    """Step 0: victims poisoned in the previous turn die."""
    pending, res.state.pending_poison = res.state.pending_poison, []
    for victim, poisoner in pending:
        if res.state.alive(victim):
            res.kill(victim, Cause.POISON, (poisoner,))


def poison(res: Resolution) -> None:
    """Step 2e (R41): fails if the poisoner died in 2c, or the target is dead or protected."""
    for req in res.standing("poison"):
        assert req.target is not None
        if not res.acts(req):
            continue
        for victim in res.hits([req.target], Cause.POISON):
            res.state.pending_poison.append((victim, req.by))
            res.result.poisoned.append(victim)


class Poisoner(Role):
    """R27: loner; poisons one player per turn, the victim dies at the next resolution."""

    code = "maniac"  # the name scripts and the database use
    faction = Faction.LONER
    verbs = frozenset({"poison"})
    hooks = on_steps({Step.POISON_DEATHS: poison_deaths, Step.POISON: poison})


Maniac = Poisoner  # the class's former name
