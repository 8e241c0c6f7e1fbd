"""The role registry (docs/REFERENCE.md section 4): what is derived from it must be what the rules
list, and the autocomplete must tell a player nothing he does not know (R55)."""

from __future__ import annotations

from rules.engine import Game
from rules.knowledge import role_card, valid_targets
from rules.model import Request
from rules.requests import verb_slot
from rules.roles import (
    BUILTIN_INTERNAL_ROLES,
    BUILTIN_ROLES,
    INTERNAL_ROLES,
    ROLES,
    Commissar,
    MafiaMember,
    Poisoner,
    Sergeant,
    Shape,
    Step,
    Troublemaker,
    role_class,
    step_hooks,
    town_ability_verbs,
    verb_spec,
)

GAME = [
    ("Com", "commissar"),
    ("Sarge", "sergeant"),
    ("Doc", "doctor"),
    ("Boss", "boss"),
    ("Mafi", "mafioso"),
    ("Kid", "foundling"),
    ("V1", "villager"),
    ("V2", "villager"),
]


def test_registry_lists_the_setup_roles_and_the_internal_states() -> None:
    assert list(ROLES) == [
        "villager",
        "mafioso",
        "boss",
        "troublemaker",
        "commissar",
        "sergeant",
        "doctor",
        "prostitute",
        "foundling",
        "maniac",
        "crook",
    ]
    assert list(INTERNAL_ROLES) == ["converted_foundling", "promoted_sergeant"]
    assert tuple(ROLES.values()) == BUILTIN_ROLES
    assert tuple(INTERNAL_ROLES.values()) == BUILTIN_INTERNAL_ROLES
    assert role_class("maniac") is Poisoner  # R27: the Poisoner maniac (its English name)


def test_R17_town_abilities_are_derived_from_the_town_roles() -> None:
    assert town_ability_verbs() == {"check", "heal", "inject", "block"}


def test_verbs_are_derived_from_the_roles() -> None:
    spec = verb_spec("kill")
    assert spec is not None and spec.shape is Shape.TARGET_OR_PAIR and spec.spares_team
    heal = verb_spec("heal")
    assert heal is not None and heal.self_target and heal.slot_name == "doctor"
    assert verb_slot("inject") == "doctor"
    for verb in ("vote", "hunt", "shoot", "check", "block", "slander", "poison"):
        found = verb_spec(verb)
        assert found is not None and found.shape is Shape.TARGET, verb
    assert verb_spec("guard") is None


def test_hooks_run_once_per_function_in_registry_order() -> None:
    # Every mafia member shares one kill; the commissar's check precedes the sergeant's copy.
    kill = MafiaMember.hooks[Step.NIGHT_KILL]
    assert step_hooks(Step.NIGHT_KILL) == (kill,)
    assert Troublemaker.hooks[Step.NIGHT_KILL] is kill
    assert step_hooks(Step.CHECKS) == (Commissar.hooks[Step.CHECKS], Sergeant.hooks[Step.CHECKS])
    assert step_hooks(Step.HUNT) == ()


def test_R55_kill_autocomplete_of_a_non_mafia_player_names_every_living_player() -> None:
    """Only the mafia, who know their team (R14), have it left out of their kill targets; a
    villager's list leaves out nobody but himself, so it does not reveal the mafia."""
    game = Game.new(GAME)
    everyone = sorted((n for n, _ in GAME), key=str.casefold)  # by nickname, never by seat
    assert valid_targets(game.state, "V1", "kill") == [n for n in everyone if n != "V1"]
    assert "Mafi" not in valid_targets(game.state, "Boss", "kill")


def test_R19_R22_cards_of_the_states_reached_by_the_rules() -> None:
    game = Game.new(GAME)
    game.submit(Request("Boss", "kill", target="Com"))
    game.resolve_and_finish()
    card = role_card(game.state, "Sarge")
    assert (card.role, card.faction, card.commissar) == ("commissar", "town", None)
    assert "check" in card.verbs
    assert role_card(game.state, "Kid").role == "villager"  # R22: told he is a Villager
