"""A role is one class: a Bodyguard defined entirely in this file, registered, plays through
`rules.replay.run_script` without a line of rules/ knowing him (docs/REFERENCE.md section 4, Crook:
"the role system must make adding such a role a matter of one new class").

The Bodyguard (town) guards one player per night with the new verb `guard`; if the mafia kill
the guarded player, the Bodyguard dies in his place (cause `mafia`) and the target survives.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from types import MappingProxyType
from typing import Any

import pytest

from rules.engine import Game
from rules.knowledge import role_card
from rules.model import Causes, RequestFormatError
from rules.pipeline import Resolution
from rules.replay import ScriptError, run_script
from rules.requests import parse_request, verb_slot
from rules.roles import (
    ROLES,
    Faction,
    Protection,
    Role,
    Shape,
    Step,
    Verb,
    cause_codes,
    cause_of,
    on_steps,
    pistol_causes,
    register,
    unregister,
    verb_spec,
)
from rules.roles.mafia import MafiaCause
from rules.snapshot import state_from_dict, state_to_dict
from tests.rules.dsl import rq, turn


class Bodyguard(Role):
    """Guards one player per night against the mafia's kill, dying in his place."""

    code = "bodyguard"
    faction = Faction.TOWN
    verbs = frozenset({"guard"})

    @classmethod
    def protections(cls, res: Resolution) -> Sequence[Protection]:
        return tuple(
            Protection(req.target, req.by, frozenset({MafiaCause.MAFIA}), stand_in=True)
            for req in res.standing("guard")
            if res.acts(req) and req.target is not None
        )


@pytest.fixture
def bodyguard() -> Iterator[type[Role]]:
    register(Bodyguard)
    try:
        yield Bodyguard
    finally:
        unregister(Bodyguard)


PLAYERS = [
    {"nick": "Bg", "role": "bodyguard"},
    {"nick": "Doc", "role": "doctor"},
    {"nick": "Pro", "role": "prostitute"},
    {"nick": "Boss", "role": "boss"},
    {"nick": "Maf", "role": "mafioso"},
    {"nick": "V1", "role": "villager"},
    {"nick": "V2", "role": "villager"},
    {"nick": "V3", "role": "villager"},
]


def script(*turns: dict[str, Any]) -> dict[str, Any]:
    return {"seed": 1, "players": copy.deepcopy(PLAYERS), "turns": list(turns)}


def test_bodyguard_dies_in_place_of_his_target(bodyguard: type[Role]):
    out = run_script(
        script(
            turn("Bg guard V1", "Bg note V2: the mafia came for V1", "Boss kill V1", "Maf kill V1"),
            turn("V1 vote Maf", "V2 vote Maf", "V3 vote Maf"),
        )
    )
    first = out["turns"][0]
    assert first["deaths"] == [
        {"player": "Bg", "role": "bodyguard", "cause": "mafia", "by": ["Boss", "Maf"]}
    ]
    assert first["rejected"] == []
    assert first["notes"] == [{"from": "Bg", "to": "V2", "text": "the mafia came for V1"}]  # R37
    assert out["turns"][1]["deaths"] == [
        {"player": "Maf", "role": "mafioso", "cause": "lynch", "by": ["V1", "V2", "V3"]}
    ]
    assert out["winner"] is None


def test_bodyguard_guard_does_not_cover_other_players_or_other_causes(bodyguard: type[Role]):
    out = run_script(script(turn("Bg guard V1", "Boss kill V2", "Maf kill V2")))
    assert [(d["player"], d["cause"]) for d in out["turns"][0]["deaths"]] == [("V2", "mafia")]
    # the pistol, a lynch, the doctor's injection are no mafia kill: the guard does nothing
    out = run_script(script(turn("Bg guard V1", "Doc inject V1")))
    assert [(d["player"], d["cause"]) for d in out["turns"][0]["deaths"]] == [("V1", "euthanasia")]


def test_bodyguard_blocked_guards_nobody(bodyguard: type[Role]):
    """R21: the generic block stops the new ability too."""
    out = run_script(script(turn("Pro block Bg", "Bg guard V1", "Boss kill V1", "Maf kill V1")))
    assert [(d["player"], d["cause"]) for d in out["turns"][0]["deaths"]] == [("V1", "mafia")]


def test_bodyguard_healed_by_the_doctor_survives_standing_in(bodyguard: type[Role]):
    out = run_script(script(turn("Bg guard V1", "Doc heal Bg", "Boss kill V1", "Maf kill V1")))
    assert out["turns"][0]["deaths"] == []


def test_bodyguard_killed_himself_guards_nobody(bodyguard: type[Role]):
    """A protector hit by the same attack protects nobody (as R40's doctor), whatever the
    order of the targets."""
    for targets in ("Bg,V1", "V1,Bg"):
        out = run_script(
            script(
                turn(
                    "Bg guard V1",
                    f"Boss kill {targets}",
                    f"Maf kill {targets}",
                    host=["double_kill"],
                )
            )
        )
        assert [(d["player"], d["cause"]) for d in out["turns"][0]["deaths"]] == [
            ("Bg", "mafia"),
            ("V1", "mafia"),
        ]


def test_bodyguard_verb_is_a_town_ability_that_excludes_the_hunt(bodyguard: type[Role]):
    """R17 is derived from the registry: a hunt withdraws the guard."""
    out = run_script(
        script(
            turn(),
            turn("Bg guard V1", "Bg hunt Maf", "Boss kill V1", "Maf kill V1"),
        )
    )
    assert [(d["player"], d["cause"]) for d in out["turns"][1]["deaths"]] == [
        ("Maf", "hunt"),
        ("V1", "mafia"),
    ]


def test_bodyguard_refusals_are_the_common_ones(bodyguard: type[Role]):
    out = run_script(script(turn("Bg guard Bg", "Maf guard V1", "Bg guard V2")))
    assert [(r["by"], r["reason"]) for r in out["turns"][0]["rejected"]] == [
        ("Bg", "self_target"),
        ("Maf", "wrong_role"),
    ]


def test_bodyguard_card_and_request_format(bodyguard: type[Role]):
    game = Game.new([(p["nick"], p["role"]) for p in PLAYERS])
    card = role_card(game.state, "Bg")
    assert card.role == "bodyguard" and card.faction == "town"
    assert "guard" in card.verbs and "hunt" in card.verbs
    assert verb_spec("guard") == Verb("guard")
    assert verb_slot(parse_request({"by": "Bg", "do": "guard", "target": "V1"}).do) == "guard"
    with pytest.raises(RequestFormatError, match="'guard' needs 'target'"):
        parse_request({"by": "Bg", "do": "guard"})


def test_without_registration_guard_is_malformed():
    assert "bodyguard" not in ROLES
    with pytest.raises(ScriptError, match="unknown verb 'guard'"):
        run_script(
            {
                "players": [p for p in PLAYERS if p["nick"] != "Bg"],
                "turns": [{"requests": [rq("V1 guard V2")]}],
            }
        )
    with pytest.raises(ScriptError, match="unknown role 'bodyguard'"):
        run_script(script())
    with pytest.raises(RequestFormatError, match="unknown verb 'guard'"):
        parse_request({"by": "Bg", "do": "guard", "target": "V1"})


def test_unregister_forgets_the_role_and_its_verb(bodyguard: type[Role]):
    assert verb_spec("guard") is not None
    unregister(Bodyguard)
    assert verb_spec("guard") is None and "bodyguard" not in ROLES
    register(Bodyguard)  # the fixture unregisters it again


def test_register_refuses_a_taken_code_or_a_clashing_verb():
    class FakeDoctor(Role):
        code = "doctor"
        faction = Faction.TOWN

    class Strangler(Role):
        code = "strangler"
        faction = Faction.LONER
        verbs = frozenset({"kill"})  # a one-target kill: not the mafia's kill (R36)
        verb_specs = (Verb("kill"),)

    with pytest.raises(ValueError, match="taken"):
        register(FakeDoctor)
    with pytest.raises(ValueError, match="clashes"):
        register(Strangler)
    assert ROLES["doctor"].__name__ == "Doctor" and "strangler" not in ROLES
    assert verb_spec("kill") == Verb(
        "kill", shape=Shape.TARGET_OR_PAIR, spares_team=True, on_board=True
    )


class StrangleCause(Causes):
    STRANGLED = "strangled"


def strangle(res: Resolution) -> None:
    for req in res.standing("strangle"):
        if res.acts(req) and req.target is not None:
            for victim in res.hits([req.target], StrangleCause.STRANGLED):
                res.kill(victim, StrangleCause.STRANGLED, (req.by,))


class Strangler(Role):
    """A loner who brings his own cause of death, declared as his refusals are."""

    code = "strangler"
    faction = Faction.LONER
    verbs = frozenset({"strangle"})
    causes = StrangleCause
    pistol_causes = frozenset({StrangleCause.STRANGLED})
    attacks = MappingProxyType({"strangle": StrangleCause.STRANGLED})
    hooks = on_steps({Step.NIGHT_KILL: strangle})


def test_a_role_brings_its_own_cause_of_death():
    """The causes are open to roles (section 8): a registered role's cause kills, is stored
    and read back from a snapshot, arms the commissar's pistol as the role declares (R18), and
    is unknown once the role is gone."""
    assert "strangled" not in cause_codes()
    register(Strangler)
    try:
        assert cause_of("strangled") is StrangleCause.STRANGLED
        assert StrangleCause.STRANGLED in pistol_causes()
        players = [*copy.deepcopy(PLAYERS[1:]), {"nick": "St", "role": "strangler"}]
        players[0] = {"nick": "Com", "role": "commissar"}
        game = Game.new([(p["nick"], p["role"]) for p in players], seed=1)
        game.submit(parse_request({"by": "St", "do": "strangle", "target": "Com"}))
        result = game.resolve_and_finish()
        assert [(d.player, d.cause) for d in result.deaths] == [("Com", "strangled")]
        assert result.pistols == ["Com"]  # R18: this death arms the pistol
        restored = state_from_dict(json.loads(json.dumps(state_to_dict(game.state))))
        assert restored.players["Com"].death_cause is StrangleCause.STRANGLED
    finally:
        unregister(Strangler)
    assert "strangled" not in cause_codes()
    with pytest.raises(ValueError, match="unknown cause"):
        cause_of("strangled")


def test_register_refuses_a_cause_that_clashes_or_is_not_the_roles():
    class Mob(Causes):
        MAFIA = "mafia"  # the mafia's cause already: not a new one of the same name

    class Mobster(Role):
        code = "mobster"
        faction = Faction.LONER
        causes = Mob

    class Boaster(Role):
        code = "boaster"
        faction = Faction.LONER
        pistol_causes = frozenset({StrangleCause.STRANGLED})  # a cause he does not bring

    with pytest.raises(ValueError, match="cause 'mafia' of Mobster clashes"):
        register(Mobster)
    with pytest.raises(ValueError, match="not among its causes"):
        register(Boaster)
    assert "mobster" not in ROLES and "boaster" not in ROLES
