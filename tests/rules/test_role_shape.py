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
