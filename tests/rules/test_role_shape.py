"""Roles own their behaviour (docs/REFERENCE.md section 4, section 8): the steps of a resolution are
named by what happens there, never by a role; a role's memory is its own attrs value, kept and
snapshotted generically (old snapshots, which kept it as named fields of the game, still
load); the fate of a role's requests in the hosts' account is the role's answer.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from rules.announce import host_account
from rules.engine import Game
from rules.model import GameState, Request
from rules.roles import STEP_ORDER, Doctor, Poisoner, known_verbs, role_classes
from rules.snapshot import state_from_dict, state_to_dict

GAME = [
    ("Doc", "doctor"),
    ("Man", "maniac"),
    ("Boss", "boss"),
    ("Maf", "mafioso"),
    ("V1", "villager"),
    ("V2", "villager"),
    ("V3", "villager"),
    ("V4", "villager"),
]


def _played() -> Game:
    """Turn 1: the doctor injects V1 (used up) and heals nobody; the maniac poisons V2 (dies
    at turn 2's step 0). Turn 2 opens with the doctor's heal of Doc standing."""
    game = Game.new(GAME, seed=3)
    game.submit(Request("Doc", "inject", target="V1"))
    game.submit(Request("Man", "poison", target="V2"))
    game.resolve_and_finish()
    game.submit(Request("Doc", "heal", target="Doc"))
    game.resolve_and_finish()
    return game


def test_section_8_steps_name_no_role_and_no_verb() -> None:
    """A role plugs into a step; the named step order never names a role (a new role adds
    no step)."""
    codes = {cls.code for cls in role_classes()}
    names = {str(step) for step in STEP_ORDER} | {step.name.lower() for step in STEP_ORDER}
    assert not names & codes
    assert not names & (set(known_verbs()) - {"hunt"})  # the hunt is step 1, no role's


def test_R20_R27_role_memory_is_the_roles_own_attrs_value() -> None:
    game = _played()
    doctor = Doctor.recall(game.state)
    assert attrs.has(type(doctor))
    assert (doctor.last_heal, doctor.injection_used) == ("Doc", True)
    assert Poisoner.recall(game.state).pending == ()  # V2 died at turn 2's step 0
    assert not game.state.alive("V2")
    # nothing of any role is a named field of the game
    fields = {f.name for f in attrs.fields(GameState)}
    assert not fields & {"last_heal", "injection_used", "pending_poison"}


def test_R20_R27_role_memory_round_trips_through_a_snapshot() -> None:
    game = Game.new(GAME, seed=3)
    game.submit(Request("Doc", "inject", target="V1"))
    game.submit(Request("Man", "poison", target="V2"))
    game.resolve_and_finish()
    data = json.loads(json.dumps(state_to_dict(game.state)))
    assert data["role_memory"] == {
        "doctor": {"last_heal": None, "injection_used": True},
        "maniac": {"pending": [["V2", "Man"]]},
    }
    restored = state_from_dict(data)
    assert restored == game.state
    assert Poisoner.recall(restored).pending == (("V2", "Man"),)


def _legacy(data: dict[str, Any]) -> dict[str, Any]:
    """The same state as the format-1 snapshot kept it: the memory as named fields."""
    memory = data.pop("role_memory")
    doctor = memory.get("doctor", {})
    return {
        **data,
        "format": 1,
        "pending_poison": memory.get("maniac", {}).get("pending", []),
        "last_heal": doctor.get("last_heal"),
        "injection_used": doctor.get("injection_used", False),
    }


def test_R20_R27_a_snapshot_of_format_1_still_loads() -> None:
    """Snapshots stored before the roles kept their own memory are used, not replayed."""
    game = Game.new(GAME, seed=3)
    game.submit(Request("Doc", "heal", target="V3"))
    game.submit(Request("Doc", "inject", target="V1"))  # replaces the heal: used up
    game.submit(Request("Man", "poison", target="V2"))
    game.resolve_and_finish()
    old = _legacy(json.loads(json.dumps(state_to_dict(game.state))))
    restored = state_from_dict(old)
    assert restored == game.state
    # the restored game goes on as the original: the injection is still used up (R20) and
    # the poison still kills at step 0 (R27)
    again = Game.new(GAME, seed=3)
    again.state = restored
    refusal = again.submit(Request("Doc", "inject", target="V3"))
    assert refusal is not None and refusal.code == "injection_used"
    result = again.resolve_and_finish()
    assert [d.player for d in result.deaths] == ["V2"]


def test_a_format_1_snapshot_of_a_fresh_game_loads_without_memory() -> None:
    game = Game.new(GAME, seed=3)
    old = _legacy(json.loads(json.dumps(state_to_dict(game.state))))
    assert state_from_dict(old).role_memory == {}


def test_R25_R27_host_account_facts_come_from_the_roles() -> None:
    game = Game.new([("Tm", "troublemaker"), *GAME[:2], *GAME[3:]], seed=1)
    game.submit(Request("Tm", "slander", target="V1"))
    game.submit(Request("Man", "poison", target="V2"))
    result = game.resolve()
    payload = host_account(game.state, result).payload
    assert payload["slandered"] == ["V1"]
    assert payload["poisoned"] == [{"target": "V2", "by": "Man"}]
    fates = {(r["by"], r["do"]): r for r in payload["requests"]}
    assert fates[("Man", "poison")]["hits"] == [{"target": "V2", "fate": "poisoned"}]
    assert fates[("Tm", "slander")]["fate"] == "done"


def test_R20_R23_a_roles_own_refusals_are_its_class_s() -> None:
    """The Doctor's and the mafia's refusals are declared by their classes, not in the shared
    catalogue; the registry lists every code once (shared ones first), so each has its text."""
    from rules.model import RefusalCode
    from rules.roles import MafiaMember, refusal_codes
    from rules.roles.doctor import DoctorRefusal
    from rules.roles.mafia import MafiaRefusal

    assert Doctor.refusals is DoctorRefusal and MafiaMember.refusals is MafiaRefusal
    shared = {c.value for c in RefusalCode}
    assert not shared & {c.value for c in DoctorRefusal}
    assert not shared & {c.value for c in MafiaRefusal}
    codes = [c.value for c in refusal_codes()]
    assert len(codes) == len(set(codes))
    assert {"injection_used", "same_heal_target", "double_kill_not_granted"} <= set(codes)
    game = Game.new(GAME, seed=3)
    game.submit(Request("Doc", "heal", target="V3"))
    game.resolve_and_finish()
    refusal = game.submit(Request("Doc", "heal", target="V3"))
    assert refusal is not None and refusal.code is DoctorRefusal.SAME_HEAL_TARGET
    refusal = game.submit(Request("Maf", "kill", targets=("V1", "V2")))
    assert refusal is not None and refusal.code is MafiaRefusal.DOUBLE_KILL_NOT_GRANTED


def test_a_role_registered_at_run_time_brings_its_refusals() -> None:
    """A new role is one class: its verbs, its refusals and their codes come with it."""
    from rules.model import Faction, Refusals
    from rules.roles import Role, Verb, refusal_codes, register, unregister

    class ClerkRefusal(Refusals):
        OUT_OF_STAMPS = "out_of_stamps"

    class Clerk(Role):
        code = "clerk_test"
        faction = Faction.TOWN
        verbs = frozenset({"stamp"})
        verb_specs = (Verb("stamp"),)
        refusals = ClerkRefusal

        @classmethod
        def refuse_request(cls, state: GameState, req: Request) -> ClerkRefusal | None:
            return ClerkRefusal.OUT_OF_STAMPS if req.do == "stamp" else None

    register(Clerk)
    try:
        assert ClerkRefusal.OUT_OF_STAMPS in refusal_codes()
        game = Game.new([("C", "clerk_test"), *GAME[1:]], seed=3)
        refusal = game.submit(Request("C", "stamp", target="V1"))
        assert refusal is not None and refusal.code is ClerkRefusal.OUT_OF_STAMPS
    finally:
        unregister(Clerk)
    assert ClerkRefusal.OUT_OF_STAMPS not in refusal_codes()
