"""Conformance tests for REFERENCE.md section 8, the order of resolution (steps 0-7, the General
rule, R39-R42), and for the replacement semantics of docs/REPLAY.md.
"""

from __future__ import annotations

from tests.rules.dsl import (
    after_deaths,
    checks,
    deaths,
    full_deaths,
    lynch,
    nicks,
    play,
    posts,
    rejected,
    turn,
    turn_out,
)

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
MANIAC8 = "Com:commissar Doc:doctor Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"
TWELVE = (
    "Com:commissar Doc:doctor Boss:boss Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3 V4 V5 V6"
)


def check(by, target, result, killed_by=None, method=None):
    return {"by": by, "target": target, "result": result, "killed_by": killed_by, "method": method}


def test_steps_deaths_listed_in_step_order_not_arrival_order():
    out = play(
        TWELVE,
        turn("Man poison V1", *posts(TWELVE)),
        turn(
            "Com vote Boss",
            "V4 vote Boss",
            "V5 vote Boss",  # step 3: 3 of 12 votes
            "Doc inject V4",  # 2f
            "Maf kill V3",  # 2c
            "V2 hunt Tro",  # step 1
            *posts(TWELVE, but=["V6"]),  # step 4: V6 inactive
        ),  # step 0: V1 poisoned
        activity=True,
    )
    assert full_deaths(out, 2) == [
        {"player": "V1", "role": "villager", "cause": "poison", "by": ["Man"]},
        {"player": "Tro", "role": "troublemaker", "cause": "hunt", "by": ["V2"]},
        {"player": "V3", "role": "villager", "cause": "mafia", "by": ["Maf"]},
        {"player": "V4", "role": "villager", "cause": "euthanasia", "by": ["Doc"]},
        {"player": "Boss", "role": "boss", "cause": "lynch", "by": ["Com", "V4", "V5"]},
        {"player": "V6", "role": "villager", "cause": "inactive", "by": []},
    ]
    assert turn_out(out, 2)["winner"] is None


def test_step0_poison_before_hunt():
    out = play(MANIAC8, turn("Man poison V1"), turn("V1 hunt Maf"))
    assert deaths(out, 2) == [("V1", "poison")]


def test_step1_hunt_before_the_night():
    out = play(EIGHT, turn(), turn("Maf kill V1", "V1 hunt Maf"))
    assert deaths(out, 2) == [("Maf", "hunt")]


def test_step1_hunter_killed_at_night_still_hunted():
    out = play(EIGHT, turn(), turn("Boss kill V1", "V1 hunt Maf"))
    assert deaths(out, 2) == [("Maf", "hunt"), ("V1", "mafia")]


def test_step1_boss_hunted_converts_foundling_before_the_check():
    out = play(FOU8, turn(), turn("Com check Fou", "V1 hunt Boss"))
    assert deaths(out, 2) == [("Boss", "hunt")]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]
    assert checks(out, 2) == [check("Com", "Fou", "mafia")]


def test_step2a_block_applies_whatever_the_arrival_order():
    out = play(EIGHT, turn("Maf kill V1", "Pro block Maf"))
    assert deaths(out, 1) == []


def test_step2b_slander_applies_whatever_the_arrival_order():
    out = play(MANIAC8, turn("Com check V2", "Tro slander V2"))
    assert checks(out, 1) == [check("Com", "V2", "mafia")]


def test_step2c_kill_before_check_and_check_reports_the_killers():
    out = play(MANIAC8, turn("Com check V2", "Tro slander V2", "Maf kill V2"))
    assert checks(out, 1) == [check("Com", "V2", "mafia", ["Maf"], "mafia")]


def test_step2d_check_answered_though_commissar_killed_in_2c():
    out = play(MANIAC8, turn("Com check Tro", "Maf kill Com"))
    assert deaths(out, 1) == [("Com", "mafia")]
    assert checks(out, 1) == [check("Com", "Tro", "mafia")]


def test_step2e_poison_needs_the_maniac_alive_after_2c():
    out = play(MANIAC8, turn("Man poison V1", "Tro kill Man"), turn())
    assert deaths(out, 1) == [("Man", "mafia")]
    assert deaths(out, 2) == []


def test_step2f_euthanasia_of_player_killed_in_2c_does_nothing():
    out = play(EIGHT, turn("Doc inject V2", "Maf kill V2"))
    assert full_deaths(out, 1) == [
        {"player": "V2", "role": "villager", "cause": "mafia", "by": ["Maf"]}
    ]


def test_step2f_check_reports_euthanasia_done_after_the_check():
    out = play(EIGHT, turn("Doc inject Maf", "Com check Maf"))
    assert checks(out, 1) == [check("Com", "Maf", "mafia", ["Doc"], "euthanasia")]


def test_step3_lynch_after_the_night():
    out = play(EIGHT, turn(), turn("V1 vote V2", "V3 vote V2", "Boss kill V1"))
    assert deaths(out, 2) == [("V1", "mafia"), ("V2", "lynch")]


def test_step6_pistol_after_step_4():
    out = play(
        EIGHT,
        turn(*posts(EIGHT)),
        turn("V1 vote Com", "V2 vote Com", *posts(EIGHT, but=["V3"]), after=["Com shoot Maf"]),
        activity=True,
    )
    assert deaths(out, 2) == [("Com", "lynch"), ("V3", "inactive")]
    assert after_deaths(out, 2) == [("Maf", "pistol")]


# --- R39-R42: the original's conditions --------------------------------------------------------


def test_R39_no_answer_when_candidate_dead_before_the_commissar_moves():
    out = play(EIGHT, turn(), turn("V1 hunt Boss", "Com check Boss"))
    assert checks(out, 2) == [check("Com", "Boss", None)]


def test_R39_answer_with_killer_when_candidate_dies_that_night():
    out = play(EIGHT, turn("Com check V3", "Boss kill V3"))
    assert checks(out, 1) == [check("Com", "V3", "not_mafia", ["Boss"], "mafia")]


def test_R40_doctor_killed_in_2c_does_not_heal():
    out = play(MANIAC8, turn("Maf kill Doc", "Doc heal V1", "Man poison V1"), turn())
    assert deaths(out, 1) == [("Doc", "mafia")]
    assert deaths(out, 2) == [("V1", "poison")]


def test_R40_doctor_healing_himself_always_acts():
    out = play(MANIAC8, turn("Maf kill Doc", "Doc heal Doc", "Man poison Doc"), turn())
    assert deaths(out, 1) == []
    assert deaths(out, 2) == []


def test_R40_doctor_dead_at_step_0_does_not_heal():
    out = play(MANIAC8, turn("Man poison Doc"), turn("Doc heal V1", "Maf kill V1"))
    assert deaths(out, 2) == [("Doc", "poison"), ("V1", "mafia")]


def test_R41_poison_fails_when_maniac_dead():
    out = play(MANIAC8, turn(), turn("V1 vote Man", "V2 vote Man"), turn("Man poison V3"), turn())
    assert deaths(out, 2) == [("Man", "lynch")]
    assert rejected(out, 3) == [(0, "dead_sender")]
    assert deaths(out, 4) == []


def test_R41_poison_fails_on_healed_victim():
    out = play(MANIAC8, turn("Man poison V2", "Doc heal V2"), turn())
    assert deaths(out, 2) == []


def test_R42_mafia_kill_fails_on_healed_victim():
    out = play(EIGHT, turn("Boss kill V2", "Maf kill V2", "Doc heal V2"))
    assert deaths(out, 1) == []


def test_R42_mafia_kill_fails_on_victim_dead_at_step_0():
    out = play(MANIAC8, turn("Man poison V2"), turn("Maf kill V2"))
    assert full_deaths(out, 2) == [
        {"player": "V2", "role": "villager", "cause": "poison", "by": ["Man"]}
    ]


# --- General rule: a request counts only if its sender still holds the role at its step -----


def test_general_check_sent_after_hunt_withdraws_the_hunt():
    out = play(EIGHT, turn(), turn("Com hunt V1", "Com check Maf"))
    # the check replaced the hunt (R17), so the commissar lives and is answered
    assert deaths(out, 2) == []
    assert checks(out, 2) == [check("Com", "Maf", "mafia")]


def test_general_request_of_player_dead_at_step_0_does_not_count():
    out = play(
        MANIAC8,
        turn("Man poison Com", "Tro slander V1"),
        turn("Com check V1", "Maf kill V2", "Man poison V3"),
        turn(),
    )
    assert deaths(out, 2) == [("Com", "poison"), ("V2", "mafia")]
    assert checks(out, 2) == [check("Com", "V1", None)]
    assert deaths(out, 3) == [("V3", "poison")]


# --- Replacement semantics (docs/REPLAY.md) ------------------------------------------------------


def test_replacement_later_check_replaces_earlier():
    out = play(EIGHT, turn("Com check V1", "Com check Maf"))
    assert checks(out, 1) == [check("Com", "Maf", "mafia")]


def test_replacement_refused_later_check_leaves_earlier_standing():
    out = play(EIGHT, turn("Com check Maf", "Com check Com"))
    assert rejected(out, 1) == [(1, "self_target")]
    assert checks(out, 1) == [check("Com", "Maf", "mafia")]


def test_replacement_refused_later_vote_leaves_earlier_standing():
    out = play(EIGHT, turn("Boss kill V3"), turn("V1 vote Maf", "V2 vote Maf", "V1 vote V3"))
    assert rejected(out, 2) == [(2, "dead_target")]
    assert lynch(out, 2) == {
        "chosen": "Maf",
        "hanged": "Maf",
        "votes": {"Maf": ["V1", "V2"]},
        "public": "full",
    }


def test_replacement_single_kill_replaces_double_kill_request():
    out = play(EIGHT, turn("Boss kill V1,V2", "Boss kill V3", host=["double_kill"]))
    assert deaths(out, 1) == [("V3", "mafia")]


def test_replacement_refused_double_kill_leaves_single_kill_standing():
    out = play(EIGHT, turn("Boss kill V1", "Boss kill V2,V3"))
    assert rejected(out, 1) == [(1, "double_kill_not_granted")]
    assert deaths(out, 1) == [("V1", "mafia")]


def test_replacement_later_block_replaces_earlier():
    out = play(EIGHT, turn("Pro block Maf", "Pro block Boss", "Maf kill V1"))
    assert deaths(out, 1) == [("V1", "mafia")]


def test_replacement_later_slander_replaces_earlier():
    out = play(MANIAC8, turn("Tro slander V1", "Tro slander V2", "Com check V1"))
    assert checks(out, 1) == [check("Com", "V1", "not_mafia")]


def test_replacement_later_poison_replaces_earlier():
    out = play(MANIAC8, turn("Man poison V1", "Man poison V2"), turn())
    assert deaths(out, 2) == [("V2", "poison")]


def test_replacement_later_inject_replaces_heal_of_same_turn():
    out = play(EIGHT, turn("Doc heal V1", "Doc inject V2", "Maf kill V1"))
    assert deaths(out, 1) == [("V1", "mafia"), ("V2", "euthanasia")]


def test_replacement_refused_inject_leaves_heal_standing():
    out = play(EIGHT, turn("Doc inject V3"), turn("Doc heal V1", "Doc inject V2", "Maf kill V1"))
    assert rejected(out, 2) == [(1, "injection_used")]
    assert deaths(out, 2) == []
