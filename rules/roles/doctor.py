"""R20: the Doctor heals one player per night (a protection asked by the kill and the poison)
and once per game may give a lethal injection instead (step 2f)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import attrs

from rules.model import Causes, Refusals
from rules.roles.base import Faction, Protection, Role, Step, Verb, on_steps
from rules.roles.mafia import MafiaCause
from rules.roles.poisoner import PoisonerCause

if TYPE_CHECKING:
    from rules.model import GameState, Request, TurnResult
    from rules.pipeline import Resolution

SLOT = "doctor"  # a heal and an injection replace each other


class DoctorCause(Causes):
    """The death the Doctor brings: his injection (R20); a commissar it kills may shoot (R18)."""

    EUTHANASIA = "euthanasia"


class DoctorRefusal(Refusals):
    """The Doctor's own refusals (R20)."""

    INJECTION_USED = "injection_used"  # the one injection of the game is spent
    SAME_HEAL_TARGET = "same_heal_target"  # not the same player two turns running


@attrs.frozen
class DoctorMemory:
    """What the doctor's rules remember between turns (R20)."""

    last_heal: str | None = None  # the heal target standing at the previous deadline
    injection_used: bool = False  # used up only when it killed


def _acting_request(res: Resolution) -> Request | None:
    """The doctor's standing request, if he can act at all (alive, not blocked, R21)."""
    for req in res.standing(SLOT):
        if res.acts(req):
            return req
    return None


def doctor(res: Resolution) -> None:
    """Step 2f: the injection kills whatever the target's role or protection (R20)."""
    state = res.state
    memory: DoctorMemory = Doctor.recall(state)
    req = _acting_request(res)
    if req is not None and req.do == "inject":
        assert req.target is not None
        if state.alive(req.target):
            res.kill(req.target, DoctorCause.EUTHANASIA, (req.by,))
            memory = attrs.evolve(memory, injection_used=True)  # used up only when it kills
    # R20: the chain is judged on the heal request standing at this deadline.
    heal = next((r for r in res.standing(SLOT) if r.do == "heal"), None)
    memory = attrs.evolve(memory, last_heal=heal.target if heal is not None else None)
    if memory != Doctor.recall(state):
        Doctor.remember(state, memory)


class Doctor(Role):
    """R20: heals one player per turn; one lethal injection per game."""

    code = "doctor"
    spoken = ("doctor", "doc", "medic", "доктор", "врач", "док")
    faction = Faction.TOWN
    verbs = frozenset({"heal", "inject"})
    verb_specs = (Verb("heal", slot=SLOT, self_target=True), Verb("inject", slot=SLOT))
    attacks = MappingProxyType({"inject": DoctorCause.EUTHANASIA})
    hooks = on_steps({Step.LAST_NIGHT_ACTS: doctor})
    Memory = DoctorMemory
    memory_key = "doctor"
    refusals = DoctorRefusal
    causes = DoctorCause
    pistol_causes = frozenset({DoctorCause.EUTHANASIA})

    @classmethod
    def protections(cls, res: Resolution) -> Sequence[Protection]:
        """A heal protects its target for the whole night against the mafia's kill and the
        maniac's poison (R20), if the doctor gets to act (R40)."""
        req = _acting_request(res)
        if req is None or req.do != "heal" or req.target is None:
            return ()
        return (
            Protection(req.target, req.by, frozenset({MafiaCause.MAFIA, PoisonerCause.POISON})),
        )

    @classmethod
    def refuse_request(cls, state: GameState, req: Request) -> DoctorRefusal | None:
        if req.do == "inject" and cls.recall(state).injection_used:
            return DoctorRefusal.INJECTION_USED  # R20
        return None

    @classmethod
    def refuse_target(cls, state: GameState, req: Request, name: str) -> DoctorRefusal | None:
        if req.do == "heal" and name == cls.recall(state).last_heal:
            return DoctorRefusal.SAME_HEAL_TARGET  # R20
        return None

    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        if req.do != "heal":
            return None  # the injection: an attack like any other
        saved = [s for s in result.saves if s.by == req.by]  # R20
        if saved:
            return {"fate": "saved", "causes": [str(s.cause) for s in saved]}
        return {"fate": "no_attack"}

    @classmethod
    def legacy_memory(cls, snapshot: Mapping[str, Any]) -> DoctorMemory | None:
        last_heal = snapshot.get("last_heal")
        used = bool(snapshot.get("injection_used"))
        if last_heal is None and not used:
            return None
        return DoctorMemory(
            last_heal=None if last_heal is None else str(last_heal), injection_used=used
        )
