"""Conformance tests for docs/REFERENCE.md sections 5 and 6: the hunt (R28-R30) and the lynch
(R31-R34, R54, and the Decision that the lynch is decided on every vote as cast, so a candidate
who died earlier in the resolution may be chosen, and then nobody is hanged).
"""

from __future__ import annotations

from tests.rules.dsl import deaths, full_deaths, lynch, play, rejected, turn, turn_out

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
MANIAC8 = "Com:commissar Doc:doctor Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"
# nine players: three mafia
NINE = "Com:commissar Boss:boss Maf:mafioso Tro:troublemaker V1 V2 V3 V4 V5"
NINE_MANIAC = "Com:commissar Boss:boss Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3 V4"


# --- Hunt ------------------------------------------------------------------------------------


def test_R28_only_the_first_hunt_is_carried_out():
    out = play(EIGHT, turn(), turn("V1 hunt Maf", "V2 hunt Boss"))
    assert full_deaths(out, 2) == [
        {"player": "Maf", "role": "mafioso", "cause": "hunt", "by": ["V1"]}
    ]


def test_R28_resent_hunt_arrives_when_sent():
    out = play(EIGHT, turn(), turn("V1 hunt Boss", "V2 hunt Maf", "V1 hunt Boss"))
    assert deaths(out, 2) == [("Maf", "hunt")]


def test_R28_hunt_on_target_dead_at_step_0_is_skipped():
    out = play(MANIAC8, turn("Man poison Maf"), turn("V1 hunt Maf", "V2 hunt Tro"))
    assert deaths(out, 2) == [("Maf", "poison"), ("Tro", "hunt")]
    assert turn_out(out, 2)["deaths"][1]["by"] == ["V2"]


def test_R28_hunt_of_hunter_dead_at_step_0_is_skipped():
    out = play(MANIAC8, turn("Man poison V1"), turn("V1 hunt Maf", "V2 hunt Tro"))
    assert deaths(out, 2) == [("V1", "poison"), ("Tro", "hunt")]


def test_R28_hunt_needs_a_living_target_when_sent():
    out = play(EIGHT, turn("Maf kill V1"), turn("V2 hunt V1"))
    assert rejected(out, 2) == [(0, "dead_target")]
    assert deaths(out, 2) == []


def test_R28_nobody_hunts_himself():
    out = play(EIGHT, turn(), turn("V1 hunt V1"))
    assert rejected(out, 2) == [(0, "self_target")]
    assert deaths(out, 2) == []


def test_R29_hunted_mafia_dies():
    out = play(EIGHT, turn(), turn("V1 hunt Boss"))
    assert full_deaths(out, 2) == [
        {"player": "Boss", "role": "boss", "cause": "hunt", "by": ["V1"]}
    ]


def test_R29_hunted_troublemaker_dies():
    out = play(MANIAC8, turn(), turn("Doc hunt Tro"))
    assert deaths(out, 2) == [("Tro", "hunt")]


def test_R30_failed_hunter_dies():
    out = play(EIGHT, turn(), turn("V1 hunt V2"))
    assert deaths(out, 2) == [("V1", "hunt_backfire")]
    assert full_deaths(out, 2)[0]["role"] == "villager"


def test_R30_backfire_names_the_hunter_as_cause():
    # `by` lists the nicknames whose requests caused the death: the hunter's own request.
    out = play(EIGHT, turn(), turn("V1 hunt V2"))
    assert full_deaths(out, 2) == [
        {"player": "V1", "role": "villager", "cause": "hunt_backfire", "by": ["V1"]}
    ]


def test_R30_hunting_the_maniac_backfires():
    out = play(MANIAC8, turn(), turn("V1 hunt Man"))
    assert deaths(out, 2) == [("V1", "hunt_backfire")]


def test_R30_hunting_the_foundling_backfires():
    out = play(FOU8, turn(), turn("V1 hunt Fou"))
    assert deaths(out, 2) == [("V1", "hunt_backfire")]


def test_R30_hunting_a_converted_foundling_kills_him():
    out = play(FOU8, turn(), turn("V1 vote Boss", "V2 vote Boss"), turn("V3 hunt Fou"))
    assert deaths(out, 3) == [("Fou", "hunt")]


# --- Lynch -----------------------------------------------------------------------------------


def test_R31_most_votes_is_hanged():
    out = play(EIGHT, turn(), turn("V1 vote V3", "V2 vote V3", "V3 vote V2"))
    assert lynch(out, 2) == {
        "chosen": "V3",
        "hanged": "V3",
        "votes": {"V3": ["V1", "V2"], "V2": ["V3"]},
        "public": "full",
    }
    assert full_deaths(out, 2) == [
        {"player": "V3", "role": "villager", "cause": "lynch", "by": ["V1", "V2"]}
    ]


def test_R31_exactly_a_quarter_of_the_electorate_suffices():
    out = play(EIGHT, turn(), turn("V1 vote V3", "V2 vote V3"))  # 4*2 >= 8
    assert lynch(out, 2)["hanged"] == "V3"


def test_R31_below_a_quarter_nobody_is_hanged():
    out = play(NINE, turn(), turn("V1 vote V5", "V2 vote V5"))  # 4*2 < 9
    assert lynch(out, 2) == {
        "chosen": None,
        "hanged": None,
        "votes": {"V5": ["V1", "V2"]},
        "public": "full",
    }
    assert deaths(out, 2) == []


def test_R31_electorate_includes_player_poisoned_dead_at_step_0():
    # alive when the resolution begins: 9 voters, so 2 votes are not enough
    out = play(NINE_MANIAC, turn("Man poison V4"), turn("V1 vote V3", "V2 vote V3"))
    assert deaths(out, 2) == [("V4", "poison")]
    assert lynch(out, 2)["hanged"] is None


def test_R31_electorate_excludes_player_excluded_by_host():
    out = play(NINE, turn(), turn("V1 vote V3", "V2 vote V3", host=["exclude V5"]))
    assert deaths(out, 2) == [("V5", "excluded"), ("V3", "lynch")]


def test_R31_electorate_excludes_players_dead_in_earlier_turns():
    out = play(NINE, turn("Boss kill V5"), turn("V1 vote V3", "V2 vote V3"))  # 4*2 >= 8
    assert deaths(out, 2) == [("V3", "lynch")]


def test_R31_self_vote_is_allowed():
    out = play(EIGHT, turn(), turn("V1 vote V1"))
    assert rejected(out, 2) == []
    assert lynch(out, 2) == {
        "chosen": None,
        "hanged": None,
        "votes": {"V1": ["V1"]},
        "public": "full",
    }


def test_R31_vote_for_player_dead_in_earlier_turn_is_refused():
    out = play(EIGHT, turn("Maf kill V1"), turn("V2 vote V1"))
    assert rejected(out, 2) == [(0, "dead_target")]
    assert lynch(out, 2) == {"chosen": None, "hanged": None, "votes": {}, "public": "full"}


def test_R32_vote_of_player_killed_at_night_counts():
    out = play(NINE, turn(), turn("V1 vote V5", "V2 vote V5", "V3 vote V5", "Boss kill V1"))
    # 3 votes of 9 only with V1's
    assert deaths(out, 2) == [("V1", "mafia"), ("V5", "lynch")]
    assert lynch(out, 2)["votes"] == {"V5": ["V1", "V2", "V3"]}


def test_R32_vote_of_hunted_mafia_counts():
    out = play(NINE, turn(), turn("Boss vote V5", "Maf vote V5", "Tro vote V5", "V1 hunt Boss"))
    assert deaths(out, 2) == [("Boss", "hunt"), ("V5", "lynch")]


def test_R33_tie_hangs_candidate_of_second_vote():
    out = play(EIGHT, turn(), turn("V1 vote Boss", "V2 vote Maf", "V3 vote Boss", "Com vote Maf"))
    assert lynch(out, 2) == {
        "chosen": "Maf",
        "hanged": "Maf",
        "votes": {"Boss": ["V1", "V3"], "Maf": ["V2", "Com"]},
        "public": "full",
    }


def test_R33_tie_counts_only_votes_for_tied_candidates():
    out = play(
        EIGHT,
        turn(),
        turn("V1 vote V3", "V2 vote Boss", "Com vote Maf", "Doc vote Boss", "Pro vote Maf"),
    )
    assert lynch(out, 2)["hanged"] == "Maf"


def test_R33_changed_vote_arrives_when_sent():
    out = play(
        EIGHT,
        turn(),
        turn("V1 vote Boss", "V2 vote Maf", "V3 vote Boss", "Com vote Maf", "V2 vote Maf"),
    )
    assert lynch(out, 2) == {
        "chosen": "Boss",
        "hanged": "Boss",
        "votes": {"Boss": ["V1", "V3"], "Maf": ["Com", "V2"]},
        "public": "full",
    }


def test_R33_changed_vote_moves_to_the_new_candidate():
    out = play(EIGHT, turn(), turn("V1 vote Boss", "V2 vote Boss", "V1 vote Maf"))
    assert lynch(out, 2) == {
        "chosen": None,
        "hanged": None,
        "votes": {"Boss": ["V2"], "Maf": ["V1"]},
        "public": "full",
    }


def test_R33_tie_below_threshold_hangs_nobody():
    out = play(NINE, turn(), turn("V1 vote Boss", "V2 vote Maf", "V3 vote Boss", "V4 vote Maf"))
    assert lynch(out, 2)["hanged"] is None


def test_R34_votes_published_by_nickname_in_arrival_order():
    out = play(EIGHT, turn(), turn("V3 vote Maf", "Com vote V1", "V1 vote Maf", "Maf vote V1"))
    result = lynch(out, 2)
    assert result["public"] == "full"
    assert result["votes"] == {"Maf": ["V3", "V1"], "V1": ["Com", "Maf"]}
    # tie: votes for the tied candidates in order V3->Maf, Com->V1, ...: the second is V1's
    assert result["hanged"] == "V1"


def test_R54_deprived_voter_is_refused_and_out_of_the_electorate():
    out = play(
        NINE,
        turn(),
        turn("V1 vote V3", "V2 vote V3", "V4 vote V3", host=["deprive_vote V4"]),
    )
    assert turn_out(out, 2)["rejected"] == [
        {"index": 2, "by": "V4", "do": "vote", "reason": "vote_deprived"}
    ]
    # 8 voters hold their vote: 2 votes are a quarter
    assert lynch(out, 2) == {
        "chosen": "V3",
        "hanged": "V3",
        "votes": {"V3": ["V1", "V2"]},
        "public": "totals",
    }


def test_R54_results_full_again_when_nobody_is_deprived():
    out = play(NINE, turn(), turn(host=["deprive_vote V4"]), turn("V4 vote V3"))
    assert lynch(out, 2)["public"] == "totals"
    assert lynch(out, 3) == {
        "chosen": None,
        "hanged": None,
        "votes": {"V3": ["V4"]},
        "public": "full",
    }


def test_R31_R33_lynch_chooses_a_candidate_killed_earlier_and_nobody_is_hanged():
    """Section 6 (changed Decision): the lynch is decided on every vote as cast. V3 and V2
    tie at 2 (V3's own vote counts, R32); the second vote cast for them named V3 (R33), whom
    the mafia killed at 2c: nobody is hanged, the runner-up V2 is not."""
    out = play(
        EIGHT,
        turn(),
        turn("V1 vote V3", "V2 vote V3", "V3 vote V2", "Com vote V2", "Boss kill V3"),
    )
    assert deaths(out, 2) == [("V3", "mafia")]
    assert lynch(out, 2) == {
        "chosen": "V3",
        "hanged": None,
        "votes": {"V3": ["V1", "V2"], "V2": ["V3", "Com"]},
        "public": "full",
    }


def test_R31_lynch_chooses_a_candidate_poisoned_dead_at_step_0_and_nobody_is_hanged():
    """R27's victim dies at step 0; the most votes are still his: nobody is hanged, though
    Maf has 2 of 8 votes (a quarter)."""
    out = play(
        MANIAC8,
        turn("Man poison V1"),
        turn("V2 vote V1", "V3 vote V1", "Com vote V1", "Doc vote Maf", "Man vote Maf"),
    )
    assert deaths(out, 2) == [("V1", "poison")]
    assert lynch(out, 2) == {
        "chosen": "V1",
        "hanged": None,
        "votes": {"V1": ["V2", "V3", "Com"], "Maf": ["Doc", "Man"]},
        "public": "full",
    }
