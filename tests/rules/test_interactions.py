"""Interactions of rules that no single rule test covers: pistol, poison and promotion edge
cases (R18, R19, R20, R22, R23, R27, section 8)."""

from __future__ import annotations

from tests.rules.dsl import (
    after_deaths,
    checks,
    deaths,
    nicks,
    play,
    rejected,
    turn,
    turn_out,
)

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
MANIAC8 = "Com:commissar Doc:doctor Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3"
SGT8 = "Com:commissar Sgt:sergeant Boss:boss Maf:mafioso V1 V2 V3 V4"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"


def check(by, target, result, killed_by=None, method=None):
    return {"by": by, "target": target, "result": result, "killed_by": killed_by, "method": method}


def test_R18_R19_sergeant_promoted_and_hanged_in_the_same_turn_shoots_too():
    out = play(
        SGT8,
        turn(),
        turn(
            "Maf kill Com", "V1 vote Sgt", "V2 vote Sgt", after=["Com shoot Maf", "Sgt shoot Boss"]
        ),
    )
    assert deaths(out, 2) == [("Com", "mafia"), ("Sgt", "lynch")]
    assert nicks(turn_out(out, 2)["promotions"]) == ["Sgt"]
    assert turn_out(out, 2)["after"] == {
        "rejected": [],
        "deaths": [
            {"player": "Maf", "role": "mafioso", "cause": "pistol", "by": ["Com"]},
            {"player": "Boss", "role": "boss", "cause": "pistol", "by": ["Sgt"]},
        ],
    }
    assert out["winner"] == "town"


def test_R18_R19_excluded_commissar_cannot_check_but_sergeant_can():
    out = play(SGT8, turn("Com check Maf", "Sgt check Boss", host=["exclude Com"]))
    assert rejected(out, 1) == [(0, "dead_sender")]
    assert checks(out, 1) == [check("Sgt", "Boss", "mafia")]


def test_R18_R27_pistol_on_poisoned_player_kills_him_once():
    out = play(MANIAC8, turn("Man poison V1", "Maf kill Com", after=["Com shoot V1"]), turn())
    assert after_deaths(out, 1) == [("V1", "pistol")]
    assert deaths(out, 2) == []


def test_R18_R27_poison_of_maniac_shot_by_pistol_still_kills():
    out = play(MANIAC8, turn("Man poison V1", "Maf kill Com", after=["Com shoot Man"]), turn())
    assert after_deaths(out, 1) == [("Man", "pistol")]
    assert deaths(out, 2) == [("V1", "poison")]


def test_R27_R31_poisoned_player_hanged_the_same_turn_dies_once():
    out = play(MANIAC8, turn(), turn("Man poison V1", "V2 vote V1", "V3 vote V1"), turn())
    assert deaths(out, 2) == [("V1", "lynch")]
    assert deaths(out, 3) == []


def test_R20_R27_euthanised_poison_victim_dies_once():
    out = play(MANIAC8, turn("Man poison V1", "Doc inject V1"), turn())
    assert deaths(out, 1) == [("V1", "euthanasia")]
    assert deaths(out, 2) == []


def test_R27_R56_poisoned_player_excluded_before_step_0_dies_once():
    out = play(MANIAC8, turn("Man poison V1"), turn(host=["exclude V1"]))
    assert deaths(out, 2) == [("V1", "excluded")]


def test_R20_R27_doctor_healing_himself_survives_the_poison():
    out = play(MANIAC8, turn("Man poison Doc", "Doc heal Doc"), turn())
    assert deaths(out, 2) == []


def test_R20_R21_blocked_doctor_healing_himself_is_killed():
    out = play(EIGHT, turn("Pro block Doc", "Doc heal Doc", "Maf kill Doc"))
    assert deaths(out, 1) == [("Doc", "mafia")]


def test_R22_R23_double_kill_on_foundling_and_villager_kills_the_villager():
    out = play(FOU8, turn("Boss kill Fou,V1", host=["double_kill"]))
    assert rejected(out, 1) == []
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R23_double_kill_one_target_dead_at_step_1_the_other_dies():
    out = play(EIGHT, turn(), turn("V1 hunt V2", "Boss kill V1,V3", host=["double_kill"]))
    assert deaths(out, 2) == [("V1", "hunt_backfire"), ("V3", "mafia")]


def test_R18_check_of_maniac_killed_by_mafia_names_the_killers():
    out = play(MANIAC8, turn("Com check Man", "Maf kill Man"))
    assert checks(out, 1) == [check("Com", "Man", "not_mafia", ["Maf"], "mafia")]


def test_R22_foundling_checked_before_boss_lynched_is_not_mafia_yet():
    out = play(
        FOU8,
        turn(),
        turn("Com check Fou", "V1 vote Boss", "V2 vote Boss"),
        turn("Com check Fou"),
    )
    assert checks(out, 2) == [check("Com", "Fou", "not_mafia")]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]
    assert checks(out, 3) == [check("Com", "Fou", "mafia")]


def test_R22_foundling_checked_the_night_the_boss_is_euthanised_is_not_mafia_yet():
    players = "Com:commissar Doc:doctor Fou:foundling Boss:boss Maf:mafioso V1 V2 V3"
    out = play(players, turn("Com check Fou", "Doc inject Boss"))
    assert deaths(out, 1) == [("Boss", "euthanasia")]
    assert checks(out, 1) == [check("Com", "Fou", "not_mafia")]
    assert nicks(turn_out(out, 1)["conversions"]) == ["Fou"]


def test_R15_R18_pistol_shot_on_the_town_can_give_the_mafia_the_win():
    out = play(
        "Com:commissar M1:mafioso M2:mafioso V1 V2 V3 V4",
        turn("M1 kill V1"),
        turn("M1 kill Com", after=["Com shoot V3"]),
        turn(),
    )
    # before the shot: M1 M2 against V2 V3 V4; after it: against V2 V4
    assert deaths(out, 2) == [("Com", "mafia")]
    assert after_deaths(out, 2) == [("V3", "pistol")]
    assert turn_out(out, 2)["winner"] == "mafia"
    assert len(out["turns"]) == 2


def test_R23_double_kill_naming_an_own_member_refused():
    out = play(EIGHT, turn("Boss kill V1,Maf", host=["double_kill"]))
    assert rejected(out, 1) == [(0, "own_mafia_target")]
    assert deaths(out, 1) == []


def test_R23_double_kill_naming_a_dead_player_refused():
    out = play(EIGHT, turn("Boss kill V1"), turn("Boss kill V1,V2", host=["double_kill"]))
    assert rejected(out, 2) == [(0, "dead_target")]
    assert deaths(out, 2) == []


def test_R36_R52_ghost_may_post():
    everyone = ["Com", "Doc", "Pro", "Boss", "Maf", "V1", "V2", "V3"]
    out = play(
        EIGHT,
        turn("Maf kill V1", *[f"{n} post" for n in everyone]),
        turn(*[f"{n} post" for n in everyone]),
        activity=True,
    )
    assert deaths(out, 1) == [("V1", "mafia")]
    assert rejected(out, 2) == []
    assert deaths(out, 2) == []


def test_seed_and_activity_rules_are_optional():
    from tests.rules.dsl import game, run_script

    script = game(EIGHT, turn("Maf kill V1"), {}, seed=None)
    assert "seed" not in script and "activity_rules" not in script
    out = run_script(script)
    assert [t["turn"] for t in out["turns"]] == [1, 2]
    assert deaths(out, 1) == [("V1", "mafia")]
