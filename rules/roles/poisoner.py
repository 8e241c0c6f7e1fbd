"""R27: the Poisoner maniac (Маньяк-отравитель), a loner: poisons one player per night
(step 2e); the victim dies at the start of the next turn's resolution (step 0)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from rules.model import Causes
from rules.roles.base import Faction, Role, Step, on_steps

if TYPE_CHECKING:
    from rules.model import GameState, Request, TurnResult
    from rules.pipeline import Resolution


def _pairs(items: Iterable[Iterable[str]]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for item in items:
        victim, poisoner = item
        out.append((str(victim), str(poisoner)))
    return tuple(out)


class PoisonerCause(Causes):
    """The death the Poisoner brings (R27); a commissar poisoned may still shoot (R18)."""

    POISON = "poison"


@attrs.frozen
class PoisonerMemory:
    """R27: the players poisoned this turn, who die at the next resolution's step 0."""

    pending: tuple[tuple[str, str], ...] = attrs.field(default=(), converter=_pairs)  # (victim, by)


def poison_deaths(res: Resolution) -> None:
    """Step 0: victims poisoned in the previous turn die."""
    pending = Poisoner.recall(res.state).pending
    if not pending:
        return
    Poisoner.remember(res.state, PoisonerMemory())
    for victim, poisoner in pending:
        if res.state.alive(victim):
            res.kill(victim, PoisonerCause.POISON, (poisoner,))


def poison(res: Resolution) -> None:
    """Step 2e (R41): fails if the poisoner died in 2c, or the target is dead or protected."""
    for req in res.standing("poison"):
        assert req.target is not None
        if not res.acts(req):
            continue
        for victim in res.hits([req.target], PoisonerCause.POISON):
            memory = Poisoner.recall(res.state)
            Poisoner.remember(res.state, PoisonerMemory((*memory.pending, (victim, req.by))))
            res.result.poisoned.append(victim)


class Poisoner(Role):
    """R27: loner; poisons one player per turn, the victim dies at the next resolution."""

    code = "maniac"  # the name scripts and the database use
    spoken = ("maniac", "poisoner", "serial killer", "маньяк", "маньяк-отравитель", "отравитель")
    faction = Faction.LONER
    verbs = frozenset({"poison"})
    attacks = MappingProxyType({"poison": PoisonerCause.POISON})
    hooks = on_steps({Step.DELAYED_DEATHS: poison_deaths, Step.DELAYED_ATTACKS: poison})
    Memory = PoisonerMemory
    memory_key = "maniac"
    causes = PoisonerCause
    pistol_causes = frozenset({PoisonerCause.POISON})
    loner_rank = 0  # R15: left alone with the Crook, the maniac wins

    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        if req.target is not None and req.target in result.poisoned:
            hits = [{"target": req.target, "fate": "poisoned"}]  # R27: dies next turn
            return {"fate": "attack", "hits": hits}
        return None  # missed: the generic account of an attack

    @classmethod
    def host_facts(cls, state: GameState, result: TurnResult) -> Mapping[str, Any]:
        poisoners = dict(cls.recall(state).pending)
        return {
            "poisoned": [{"target": nick, "by": poisoners.get(nick)} for nick in result.poisoned]
        }

    @classmethod
    def legacy_memory(cls, snapshot: Mapping[str, Any]) -> PoisonerMemory | None:
        pending = snapshot.get("pending_poison") or []
        return PoisonerMemory(pending) if pending else None
