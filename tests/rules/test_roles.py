"""Conformance tests for docs/REFERENCE.md section 4, the roles: R17-R23 and R25-R27.

Not checkable through the replay output, so not tested here:
- R19 "the sergeant privately receives every check result": the output lists each check once,
  under the commissar who made it; who else is told is the app's business.
- R18 "the dead commissar gets a private prompt" and the pistol window: a script gives the shot
  (or none) in `after`; the window's length is the app's clock.
- R22 "the Foundling is told he is a Villager / joins the mafia channel": Discord-side.
"""

from __future__ import annotations

import pytest

from tests.rules.dsl import (
    after_deaths,
    after_rejected,
    checks,
    deaths,
    full_deaths,
    lynch,
    nicks,
    play,
    rejected,
    turn,
    turn_out,
)

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
# with a maniac and a troublemaker: mafia Maf+Tro (2 of 8), town Com Doc V1 V2 V3
MANIAC8 = "Com:commissar Doc:doctor Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3"
# with a prostitute and a maniac
PRO8 = "Pro:prostitute Com:commissar Man:maniac Maf:mafioso Tro:troublemaker V1 V2 V3"
SGT8 = "Com:commissar Sgt:sergeant Boss:boss Maf:mafioso V1 V2 V3 V4"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"


def check(by, target, result, killed_by=None, method=None):
    return {"by": by, "target": target, "result": result, "killed_by": killed_by, "method": method}


# --- R17: hunt and ability exclude each other ------------------------------------------------


def test_R17_hunt_withdraws_the_commissar_check():
    out = play(EIGHT, turn(), turn("Com check Maf", "Com hunt Maf"))
    assert rejected(out, 2) == []
    assert checks(out, 2) == []
    assert full_deaths(out, 2) == [
        {"player": "Maf", "role": "mafioso", "cause": "hunt", "by": ["Com"]}
    ]


def test_R17_ability_withdraws_the_hunt():
    out = play(EIGHT, turn(), turn("Com hunt Maf", "Com check Maf"))
    assert deaths(out, 2) == []
    assert checks(out, 2) == [check("Com", "Maf", "mafia")]


def test_R17_unsatisfied_hunt_still_withdraws_the_heal():
    out = play(
        EIGHT,
        turn(),
        turn("Doc heal V3", "V1 hunt Maf", "Doc hunt Boss", "Boss kill V3"),
    )
    # V1's hunt is the one carried out, the doctor's is not; his heal is gone all the same
    assert deaths(out, 2) == [("Maf", "hunt"), ("V3", "mafia")]
    assert turn_out(out, 2)["deaths"][0]["by"] == ["V1"]


def test_R17_refused_hunt_leaves_the_ability_standing():
    out = play(EIGHT, turn("Com check Maf", "Com hunt Maf"))
    assert rejected(out, 1) == [(1, "no_hunt_on_turn_1")]
    assert checks(out, 1) == [check("Com", "Maf", "mafia")]


def test_R17_prostitute_who_hunts_does_not_block():
    out = play(EIGHT, turn(), turn("Pro block Maf", "Pro hunt Boss", "Maf kill V1"))
    assert deaths(out, 2) == [("Boss", "hunt"), ("V1", "mafia")]


# --- R18: commissar ------------------------------------------------------------------------


def test_R18_check_answer_is_binary():
    out = play(MANIAC8, turn("Com check Man"), turn("Com check Tro"))
    assert checks(out, 1) == [check("Com", "Man", "not_mafia")]
    assert checks(out, 2) == [check("Com", "Tro", "mafia")]


def test_R18_check_adds_killer_when_candidate_killed_by_mafia_that_night():
    out = play(EIGHT, turn("Maf kill V1", "Com check V1"))
    assert deaths(out, 1) == [("V1", "mafia")]
    assert checks(out, 1) == [check("Com", "V1", "not_mafia", ["Maf"], "mafia")]


def test_R18_check_adds_doctor_when_candidate_euthanised_that_night():
    out = play(EIGHT, turn("Com check Boss", "Doc inject Boss"))
    assert deaths(out, 1) == [("Boss", "euthanasia")]
    assert checks(out, 1) == [check("Com", "Boss", "mafia", ["Doc"], "euthanasia")]


def test_R18_check_of_poisoned_candidate_reports_no_killer():
    # the poison kills only at the next turn's step 0: the candidate did not die that night
    out = play(MANIAC8, turn("Man poison V1", "Com check V1"))
    assert checks(out, 1) == [check("Com", "V1", "not_mafia")]


def test_R18_check_answered_though_commissar_killed_in_2c():
    out = play(EIGHT, turn("Maf kill Com", "Com check Boss"))
    assert deaths(out, 1) == [("Com", "mafia")]
    assert checks(out, 1) == [check("Com", "Boss", "mafia")]


def test_R18_no_answer_when_candidate_died_at_step_0():
    out = play(MANIAC8, turn("Man poison V1"), turn("Com check V1"))
    assert deaths(out, 2) == [("V1", "poison")]
    assert checks(out, 2) == [check("Com", "V1", None)]


def test_R18_no_answer_when_candidate_hunted_at_step_1():
    out = play(EIGHT, turn(), turn("V1 hunt Maf", "Com check Maf"))
    assert deaths(out, 2) == [("Maf", "hunt")]
    assert checks(out, 2) == [check("Com", "Maf", None)]


def test_R18_no_answer_when_commissar_died_at_step_0():
    out = play(MANIAC8, turn("Man poison Com"), turn("Com check Maf"))
    assert deaths(out, 2) == [("Com", "poison")]
    assert checks(out, 2) == [check("Com", "Maf", None)]


def test_R18_check_of_player_dead_in_earlier_turn_is_refused():
    out = play(EIGHT, turn("Maf kill V1"), turn("Com check V1"))
    assert rejected(out, 2) == [(0, "dead_target")]
    assert checks(out, 2) == []


def test_R18_commissar_cannot_check_himself():
    out = play(EIGHT, turn("Com check Com"))
    assert rejected(out, 1) == [(0, "self_target")]


PISTOL_CAUSES = {
    "mafia": [turn("Maf kill Com", after=["Com shoot Maf"])],
    "lynch": [turn(), turn("V1 vote Com", "V2 vote Com", "V3 vote Com", after=["Com shoot Maf"])],
    "poison": [turn("Man poison Com"), turn(after=["Com shoot Maf"])],
    "euthanasia": [turn("Doc inject Com", after=["Com shoot Maf"])],
    "hunt_backfire": [turn(), turn("Com hunt V1", after=["Com shoot Maf"])],
}


@pytest.mark.parametrize("cause", sorted(PISTOL_CAUSES))
def test_R18_killed_commissar_shoots(cause):
    out = play(MANIAC8, *PISTOL_CAUSES[cause])
    n = len(out["turns"])
    assert deaths(out, n) == [("Com", cause)]
    assert after_rejected(out, n) == []
    assert turn_out(out, n)["after"]["deaths"] == [
        {"player": "Maf", "role": "mafioso", "cause": "pistol", "by": ["Com"]}
    ]
    assert out["winner"] is None  # Tro and the maniac live on


def test_R18_no_pistol_when_excluded():
    out = play(MANIAC8, turn(host=["exclude Com"], after=["Com shoot Maf"]))
    assert deaths(out, 1) == [("Com", "excluded")]
    assert after_rejected(out, 1) == [(0, "no_pistol")]
    assert after_deaths(out, 1) == []


def test_R18_no_pistol_when_removed_for_inactivity():
    posts = [f"{n} post" for n in ("Doc", "Maf", "Tro", "Man", "V1", "V2", "V3")]
    out = play(MANIAC8, turn(*posts, after=["Com shoot Maf"]), activity=True)
    assert deaths(out, 1) == [("Com", "inactive")]
    assert after_rejected(out, 1) == [(0, "no_pistol")]
    assert after_deaths(out, 1) == []


def test_R18_living_commissar_has_no_pistol():
    out = play(EIGHT, turn(after=["Com shoot Maf"]))
    assert after_rejected(out, 1) == [(0, "no_pistol")]
    assert after_deaths(out, 1) == []


def test_R18_commissar_killed_in_an_earlier_turn_has_no_pistol():
    out = play(EIGHT, turn("Maf kill Com"), turn(after=["Com shoot Maf"]))
    assert after_rejected(out, 2) == [(0, "no_pistol")]
    assert after_deaths(out, 2) == []


def test_R18_pistol_needs_a_living_target():
    out = play(EIGHT, turn("Maf kill V1"), turn("Maf kill Com", after=["Com shoot V1"]))
    assert after_rejected(out, 2) == [(0, "dead_target")]
    assert after_deaths(out, 2) == []


def test_R18_pistol_ignores_the_heal():
    out = play(EIGHT, turn("Maf kill Com", "Doc heal Boss", after=["Com shoot Boss"]))
    assert after_deaths(out, 1) == [("Boss", "pistol")]


def test_R18_win_check_waits_for_the_pistol_shot():
    players = "Com:commissar M1:mafioso M2:mafioso V1 V2 V3 V4"
    turn2 = ["M1 vote Com", "M2 vote Com", "V2 vote Com", "M1 kill V2"]
    # without the shot: M1 M2 against V3 V4 -> mafia win
    out = play(players, turn("M1 kill V1"), turn(*turn2))
    assert deaths(out, 2) == [("V2", "mafia"), ("Com", "lynch")]
    assert out["winner"] == "mafia"
    # with it: M2 against V3 V4 -> the game goes on
    out = play(players, turn("M1 kill V1"), turn(*turn2, after=["Com shoot M1"]))
    assert after_deaths(out, 2) == [("M1", "pistol")]
    assert turn_out(out, 2)["winner"] is None
    assert out["winner"] is None


def test_R18_pistol_shot_on_boss_converts_foundling_before_win_check():
    out = play(
        "Com:commissar Fou:foundling Boss:boss V1",
        turn("Boss kill Com", "Com check Fou", after=["Com shoot Boss"]),
    )
    t1 = turn_out(out, 1)
    assert deaths(out, 1) == [("Com", "mafia")]
    assert checks(out, 1) == [check("Com", "Fou", "not_mafia")]
    assert after_deaths(out, 1) == [("Boss", "pistol")]
    assert nicks(t1["conversions"]) == ["Fou"]
    # Fou (now mafia) against V1: mafia win, not a town win
    assert out["winner"] == "mafia"


# --- R19: sergeant ---------------------------------------------------------------------------


def test_R19_sergeant_cannot_check_while_commissar_lives():
    out = play(SGT8, turn("Sgt check Maf"))
    assert rejected(out, 1) == [(0, "wrong_role")]
    assert checks(out, 1) == []


def test_R19_sergeant_promoted_when_commissar_dies_and_checks_next_turn():
    out = play(SGT8, turn("Maf kill Com", "Sgt check Boss"), turn("Sgt check Boss"))
    assert rejected(out, 1) == [(1, "wrong_role")]
    assert nicks(turn_out(out, 1)["promotions"]) == ["Sgt"]
    assert turn_out(out, 2)["promotions"] == []
    assert checks(out, 2) == [check("Sgt", "Boss", "mafia")]


def test_R19_promoted_sergeant_has_pistol_and_reveals_sergeant():
    out = play(
        SGT8,
        turn("Maf kill Com"),
        turn("Maf kill Sgt", after=["Sgt shoot Maf"]),
    )
    assert full_deaths(out, 2) == [
        {"player": "Sgt", "role": "sergeant", "cause": "mafia", "by": ["Maf"]}
    ]
    assert turn_out(out, 2)["after"]["deaths"] == [
        {"player": "Maf", "role": "mafioso", "cause": "pistol", "by": ["Sgt"]}
    ]


def test_R19_promotion_listed_with_the_turn_of_the_commissar_death():
    out = play(SGT8, turn("Boss kill Com", after=["Com shoot Maf"]))
    assert nicks(turn_out(out, 1)["promotions"]) == ["Sgt"]
    assert after_deaths(out, 1) == [("Maf", "pistol")]


# --- R20: doctor -----------------------------------------------------------------------------


def test_R20_heal_saves_from_mafia_kill():
    out = play(EIGHT, turn("Maf kill V1", "Doc heal V1"))
    assert deaths(out, 1) == []


def test_R20_heal_saves_from_poison():
    out = play(MANIAC8, turn("Man poison V1", "Doc heal V1"), turn())
    assert deaths(out, 2) == []


def test_R20_heal_does_not_save_from_lynch():
    out = play(EIGHT, turn(), turn("Doc heal V1", "V2 vote V1", "V3 vote V1"))
    assert deaths(out, 2) == [("V1", "lynch")]


def test_R20_heal_does_not_save_from_hunt():
    out = play(EIGHT, turn(), turn("Doc heal Maf", "V1 hunt Maf"))
    assert deaths(out, 2) == [("Maf", "hunt")]


def test_R20_doctor_may_heal_himself():
    out = play(EIGHT, turn("Maf kill Doc", "Doc heal Doc"))
    assert rejected(out, 1) == []
    assert deaths(out, 1) == []


def test_R20_same_heal_target_two_turns_running_is_refused():
    out = play(EIGHT, turn("Doc heal V1"), turn("Doc heal V1", "Maf kill V1"))
    assert rejected(out, 2) == [(0, "same_heal_target")]
    assert deaths(out, 2) == [("V1", "mafia")]


def test_R20_doctor_cannot_heal_himself_two_turns_running():
    out = play(EIGHT, turn("Doc heal Doc"), turn("Doc heal Doc"))
    assert rejected(out, 2) == [(0, "same_heal_target")]


def test_R20_same_heal_target_refused_even_after_a_blocked_heal():
    out = play(EIGHT, turn("Pro block Doc", "Doc heal V1"), turn("Doc heal V1"))
    assert rejected(out, 2) == [(0, "same_heal_target")]


def test_R20_turn_without_heal_breaks_the_chain():
    out = play(EIGHT, turn("Doc heal V1"), turn(), turn("Doc heal V1", "Maf kill V1"))
    assert rejected(out, 3) == []
    assert deaths(out, 3) == []


def test_R20_only_the_heal_standing_at_the_deadline_counts():
    out = play(EIGHT, turn("Doc heal V1", "Doc heal V2"), turn("Doc heal V1", "Maf kill V1"))
    assert rejected(out, 2) == []
    assert deaths(out, 2) == []


def test_R20_withdrawn_heal_breaks_the_chain():
    out = play(
        EIGHT,
        turn(),
        turn("Doc heal V1", "Doc hunt Maf"),
        turn("Doc heal V1", "Boss kill V1"),
    )
    assert deaths(out, 2) == [("Maf", "hunt")]
    assert rejected(out, 3) == []
    assert deaths(out, 3) == []


def test_R20_refused_heal_leaves_the_earlier_heal_standing():
    out = play(EIGHT, turn("Doc heal V1"), turn("Doc heal V2", "Doc heal V1", "Maf kill V2"))
    assert rejected(out, 2) == [(1, "same_heal_target")]
    assert deaths(out, 2) == []


def test_R20_euthanasia_kills_whatever_the_role():
    out = play(EIGHT, turn("Doc inject Boss"))
    assert full_deaths(out, 1) == [
        {"player": "Boss", "role": "boss", "cause": "euthanasia", "by": ["Doc"]}
    ]


def test_R20_injection_used_up_when_it_kills():
    out = play(EIGHT, turn("Doc inject V1"), turn("Doc inject Maf"))
    assert deaths(out, 1) == [("V1", "euthanasia")]
    assert rejected(out, 2) == [(0, "injection_used")]
    assert deaths(out, 2) == []


def test_R20_blocked_injection_is_not_used_up():
    out = play(EIGHT, turn("Pro block Doc", "Doc inject Maf"), turn("Doc inject Maf"))
    assert deaths(out, 1) == []
    assert rejected(out, 2) == []
    assert deaths(out, 2) == [("Maf", "euthanasia")]


def test_R20_injection_on_player_killed_that_night_is_not_used_up():
    out = play(EIGHT, turn("Maf kill V1", "Doc inject V1"), turn("Doc inject Boss"))
    assert full_deaths(out, 1) == [
        {"player": "V1", "role": "villager", "cause": "mafia", "by": ["Maf"]}
    ]
    assert rejected(out, 2) == []
    assert deaths(out, 2) == [("Boss", "euthanasia")]


def test_R20_heal_and_inject_replace_each_other():
    out = play(EIGHT, turn("Doc inject V1", "Doc heal V1"), turn("Doc heal V2", "Doc inject V3"))
    assert deaths(out, 1) == []
    assert deaths(out, 2) == [("V3", "euthanasia")]


def test_R20_doctor_cannot_inject_himself():
    out = play(EIGHT, turn("Doc inject Doc"))
    assert rejected(out, 1) == [(0, "self_target")]
    assert deaths(out, 1) == []


# --- R21: prostitute -----------------------------------------------------------------------


def test_R21_blocked_commissar_gets_no_answer():
    out = play(EIGHT, turn("Pro block Com", "Com check Maf"))
    assert checks(out, 1) == [check("Com", "Maf", None)]


def test_R21_blocked_doctor_does_not_heal():
    out = play(EIGHT, turn("Pro block Doc", "Doc heal V1", "Maf kill V1"))
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R21_blocked_maniac_does_not_poison():
    out = play(PRO8, turn("Pro block Man", "Man poison V1"), turn())
    assert deaths(out, 2) == []


def test_R21_blocked_troublemaker_does_not_slander():
    out = play(PRO8, turn("Pro block Tro", "Tro slander V1", "Com check V1"))
    assert checks(out, 1) == [check("Com", "V1", "not_mafia")]


def test_R21_blocked_mafia_member_kill_is_discarded():
    out = play(EIGHT, turn("Pro block Maf", "Maf kill V1", "Boss kill V2"))
    assert full_deaths(out, 1) == [
        {"player": "V2", "role": "villager", "cause": "mafia", "by": ["Boss"]}
    ]


def test_R21_blocking_the_only_killer_prevents_the_kill():
    out = play(EIGHT, turn("Pro block Maf", "Maf kill V1"))
    assert deaths(out, 1) == []


def test_R21_prostitute_cannot_block_herself():
    out = play(EIGHT, turn("Pro block Pro"))
    assert rejected(out, 1) == [(0, "self_target")]


def test_R21_block_by_prostitute_dead_at_step_0_does_not_count():
    # General rule of section 8: a request counts only if its sender is alive at its step.
    out = play(PRO8, turn("Man poison Pro"), turn("Pro block Com", "Com check Maf"))
    assert deaths(out, 2) == [("Pro", "poison")]
    assert checks(out, 2) == [check("Com", "Maf", "mafia")]


# --- R22: foundling --------------------------------------------------------------------------


def test_R22_mafia_kill_on_foundling_fails():
    out = play(FOU8, turn("Maf kill Fou"))
    assert rejected(out, 1) == []
    assert deaths(out, 1) == []


def test_R22_foundling_hunting_is_town_hunting():
    out = play(FOU8, turn(), turn("Fou hunt Maf"))
    assert deaths(out, 2) == [("Maf", "hunt")]


def test_R22_foundling_cannot_kill_before_conversion():
    out = play(FOU8, turn("Fou kill V1"))
    assert rejected(out, 1) == [(0, "wrong_role")]


def test_R22_boss_death_converts_foundling_who_kills_from_next_turn():
    out = play(
        FOU8,
        turn(),
        turn("V1 vote Boss", "V2 vote Boss"),
        turn("Fou kill V1"),
    )
    assert deaths(out, 2) == [("Boss", "lynch")]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]
    assert rejected(out, 3) == []
    assert full_deaths(out, 3) == [
        {"player": "V1", "role": "villager", "cause": "mafia", "by": ["Fou"]}
    ]


def test_R22_converted_foundling_checks_as_mafia():
    out = play(FOU8, turn(), turn("V1 vote Boss", "V2 vote Boss"), turn("Com check Fou"))
    assert checks(out, 3) == [check("Com", "Fou", "mafia")]


def test_R22_converted_foundling_cannot_hunt():
    out = play(FOU8, turn(), turn("V1 vote Boss", "V2 vote Boss"), turn("Fou hunt Maf"))
    assert rejected(out, 3) == [(0, "not_town")]
    assert deaths(out, 3) == []


def test_R22_converted_foundling_is_a_known_member():
    out = play(FOU8, turn(), turn("V1 vote Boss", "V2 vote Boss"), turn("Maf kill Fou"))
    assert rejected(out, 3) == [(0, "own_mafia_target")]


def test_R22_converted_foundling_counts_as_mafia_for_the_win():
    out = play(
        "Fou:foundling Boss:boss V1 V2",
        turn(),
        turn("V1 vote Boss", "V2 vote Boss"),
        turn("Fou kill V1"),
    )
    assert deaths(out, 2) == [("Boss", "lynch")]
    assert turn_out(out, 2)["winner"] is None  # not a town win: Fou is mafia now
    assert deaths(out, 3) == [("V1", "mafia")]
    assert out["winner"] == "mafia"


def test_R22_converted_foundling_reveals_foundling():
    out = play(
        FOU8,
        turn(),
        turn("V1 vote Boss", "V2 vote Boss"),
        turn("V1 vote Fou", "V2 vote Fou"),
    )
    assert full_deaths(out, 3) == [
        {"player": "Fou", "role": "foundling", "cause": "lynch", "by": ["V1", "V2"]}
    ]


def test_R22_foundling_converted_at_step_0_no_longer_hunts():
    players = "Fou:foundling Boss:boss Maf:mafioso Man:maniac V1 V2 V3 V4"
    out = play(players, turn("Man poison Boss"), turn("Fou hunt Maf"))
    assert rejected(out, 2) == []  # still town when he sent it (R55)
    assert deaths(out, 2) == [("Boss", "poison")]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]


def test_R22_foundling_who_hunts_the_boss_converts():
    out = play(FOU8, turn(), turn("Fou hunt Boss"))
    assert full_deaths(out, 2) == [
        {"player": "Boss", "role": "boss", "cause": "hunt", "by": ["Fou"]}
    ]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]


def test_R22_foundling_converted_by_exclusion_kills_the_same_turn():
    out = play(
        FOU8,
        turn(),
        turn("Fou kill V1", "Fou hunt Maf", host=["exclude Boss"]),
    )
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]
    assert rejected(out, 2) == [(1, "not_town")]
    assert full_deaths(out, 2) == [
        {"player": "Boss", "role": "boss", "cause": "excluded", "by": []},
        {"player": "V1", "role": "villager", "cause": "mafia", "by": ["Fou"]},
    ]


def test_R22_no_conversion_without_foundling_or_while_boss_lives():
    out = play(FOU8, turn("Maf kill V1"), turn("V1 vote Maf"))
    assert all(t["conversions"] == [] for t in out["turns"])


# --- R23: the mafia kill ---------------------------------------------------------------------


def test_R23_differing_kill_requests_fail():
    out = play(EIGHT, turn("Boss kill V1", "Maf kill V2"))
    assert deaths(out, 1) == []


def test_R23_member_without_request_is_ignored():
    out = play(EIGHT, turn("Boss kill V1"))
    assert full_deaths(out, 1) == [
        {"player": "V1", "role": "villager", "cause": "mafia", "by": ["Boss"]}
    ]


def test_R23_agreeing_members_all_named_as_killers():
    out = play(EIGHT, turn("Boss kill V1", "Maf kill V1"))
    (d,) = full_deaths(out, 1)
    assert (d["player"], d["cause"]) == ("V1", "mafia")
    assert sorted(d["by"]) == ["Boss", "Maf"]


def test_R23_later_kill_request_replaces_the_earlier():
    out = play(EIGHT, turn("Boss kill V1", "Maf kill V2", "Boss kill V2"))
    (d,) = full_deaths(out, 1)
    assert d["player"] == "V2"
    assert sorted(d["by"]) == ["Boss", "Maf"]


def test_R23_refused_kill_request_leaves_the_earlier_standing():
    out = play(EIGHT, turn("Boss kill V1", "Boss kill Maf"))
    assert rejected(out, 1) == [(1, "own_mafia_target")]
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R23_kill_of_member_dead_at_step_1_does_not_count():
    out = play(EIGHT, turn(), turn("V1 hunt Maf", "Maf kill V2", "Boss kill V3"))
    assert deaths(out, 2) == [("Maf", "hunt"), ("V3", "mafia")]
    assert turn_out(out, 2)["deaths"][1]["by"] == ["Boss"]


def test_R23_kill_of_member_poisoned_dead_at_step_0_does_not_count():
    out = play(MANIAC8, turn("Man poison Tro"), turn("Tro kill V1", "Maf kill V2"))
    assert deaths(out, 2) == [("Tro", "poison"), ("V2", "mafia")]


def test_R23_double_kill_targets_without_grant_refused():
    out = play(EIGHT, turn("Boss kill V1,V2"))
    assert turn_out(out, 1)["rejected"] == [
        {"index": 0, "by": "Boss", "do": "kill", "reason": "double_kill_not_granted"}
    ]
    assert deaths(out, 1) == []


def test_R23_double_kill_same_player_twice_refused():
    out = play(EIGHT, turn("Boss kill V1,V1", host=["double_kill"]))
    assert rejected(out, 1) == [(0, "same_targets")]
    assert deaths(out, 1) == []


def test_R23_double_kill_sets_must_be_identical():
    out = play(EIGHT, turn("Boss kill V1,V2", "Maf kill V1", host=["double_kill"]))
    assert rejected(out, 1) == []
    assert deaths(out, 1) == []


def test_R23_double_kill_same_sets_in_any_order():
    out = play(EIGHT, turn("Boss kill V1,V2", "Maf kill V2,V1", host=["double_kill"]))
    assert sorted(deaths(out, 1)) == [("V1", "mafia"), ("V2", "mafia")]


def test_R23_double_kill_accepts_a_single_target():
    out = play(EIGHT, turn("Boss kill V1", host=["double_kill"]))
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R23_double_kill_heal_protects_one_of_the_two():
    out = play(EIGHT, turn("Boss kill V1,V2", "Doc heal V2", host=["double_kill"]))
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R23_double_kill_granted_for_that_turn_only():
    out = play(EIGHT, turn(host=["double_kill"]), turn("Boss kill V1,V2"))
    assert rejected(out, 2) == [(0, "double_kill_not_granted")]


def test_R23_kill_fails_if_target_died_earlier_in_resolution():
    out = play(EIGHT, turn(), turn("V1 hunt V2", "Boss kill V1"))
    assert deaths(out, 2) == [("V1", "hunt_backfire")]


# --- R25: troublemaker -----------------------------------------------------------------------


def test_R25_slandered_player_checks_as_mafia():
    out = play(MANIAC8, turn("Com check V1", "Tro slander V1"))
    assert checks(out, 1) == [check("Com", "V1", "mafia")]


def test_R25_slander_lasts_one_turn():
    out = play(MANIAC8, turn("Tro slander V1"), turn("Com check V1"))
    assert checks(out, 2) == [check("Com", "V1", "not_mafia")]


def test_R25_slander_of_troublemaker_dead_at_step_1_does_not_count():
    out = play(MANIAC8, turn(), turn("V1 hunt Tro", "Tro slander V2", "Com check V2"))
    assert deaths(out, 2) == [("Tro", "hunt")]
    assert checks(out, 2) == [check("Com", "V2", "not_mafia")]


def test_R25_troublemaker_is_mafia_and_may_kill():
    out = play(MANIAC8, turn("Tro kill V1"))
    assert deaths(out, 1) == [("V1", "mafia")]


def test_R25_only_troublemaker_slanders():
    out = play(MANIAC8, turn("Maf slander V1", "Tro slander Tro"))
    assert rejected(out, 1) == [(0, "wrong_role"), (1, "self_target")]


# --- R26: loners -----------------------------------------------------------------------------


def test_R26_maniac_cannot_hunt():
    out = play(MANIAC8, turn(), turn("Man hunt Maf"))
    assert rejected(out, 2) == [(0, "not_town")]
    assert deaths(out, 2) == []


def test_R26_maniac_votes_like_everyone():
    out = play(MANIAC8, turn(), turn("Man vote V1", "Maf vote V1"))
    assert rejected(out, 2) == []
    assert lynch(out, 2) == {
        "chosen": "V1",
        "hanged": "V1",
        "votes": {"V1": ["Man", "Maf"]},
        "public": "full",
    }


def test_R28_mafia_cannot_hunt():
    out = play(EIGHT, turn(), turn("Maf hunt V1", "Boss hunt Com"))
    assert rejected(out, 2) == [(0, "not_town"), (1, "not_town")]
    assert deaths(out, 2) == []


# --- R27: poisoner maniac --------------------------------------------------------------------


def test_R27_poison_victim_dies_at_step_0_of_next_turn():
    out = play(MANIAC8, turn("Man poison V1"), turn())
    assert deaths(out, 1) == []
    assert full_deaths(out, 2) == [
        {"player": "V1", "role": "villager", "cause": "poison", "by": ["Man"]}
    ]


def test_R27_poison_victim_vote_counts_but_night_request_does_not():
    out = play(
        MANIAC8,
        turn("Man poison Doc"),
        turn("Doc vote Maf", "V1 vote Maf", "Doc heal V2", "Tro kill V2"),
    )
    assert rejected(out, 2) == []
    assert deaths(out, 2) == [("Doc", "poison"), ("V2", "mafia"), ("Maf", "lynch")]
    assert lynch(out, 2) == {
        "chosen": "Maf",
        "hanged": "Maf",
        "votes": {"Maf": ["Doc", "V1"]},
        "public": "full",
    }


def test_R27_maniac_cannot_poison_himself():
    out = play(MANIAC8, turn("Man poison Man"))
    assert rejected(out, 1) == [(0, "self_target")]


def test_R27_poison_from_maniac_lynched_the_same_turn_still_kills():
    out = play(MANIAC8, turn(), turn("Man poison V1", "V2 vote Man", "V3 vote Man"), turn())
    assert deaths(out, 2) == [("Man", "lynch")]
    assert deaths(out, 3) == [("V1", "poison")]


def test_R27_R41_poison_fails_if_maniac_killed_in_2c():
    out = play(MANIAC8, turn("Maf kill Man", "Man poison V1"), turn())
    assert deaths(out, 1) == [("Man", "mafia")]
    assert deaths(out, 2) == []


def test_R27_R41_poison_fails_if_victim_already_dead():
    out = play(MANIAC8, turn("Maf kill V1", "Man poison V1"), turn())
    assert deaths(out, 1) == [("V1", "mafia")]
    assert deaths(out, 2) == []


def test_R27_healed_maniac_attacked_by_mafia_still_poisons():
    out = play(MANIAC8, turn("Maf kill Man", "Doc heal Man", "Man poison V1"), turn())
    assert deaths(out, 1) == []
    assert deaths(out, 2) == [("V1", "poison")]


def test_R27_poison_victim_dies_once_at_step_0():
    # dead at step 0, he is no longer there for the mafia kill (2c) or the lynch (step 3)
    out = play(MANIAC8, turn("Man poison V1"), turn("Maf kill V1", "V2 vote V1", "V3 vote V1"))
    assert deaths(out, 2) == [("V1", "poison")]
