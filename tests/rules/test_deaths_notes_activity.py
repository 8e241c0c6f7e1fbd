"""Conformance tests for REFERENCE.md sections 7 and 9: death and ghosts (R35, R36), death notes
(R37), inactivity (R52) and missed votes (R53), and the Decision on self-targeting.

Not checkable through the replay output: ghosts posting in the channel marked as ghosts (R36,
Discord-side), and R8/R51 (explaining votes, social).
"""

from __future__ import annotations

import pytest

from tests.rules.dsl import (
    all_deaths,
    deaths,
    full_deaths,
    lynch,
    nicks,
    notes,
    play,
    posts,
    rejected,
    turn,
    turn_out,
)

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
MANIAC8 = "Com:commissar Doc:doctor Maf:mafioso Tro:troublemaker Man:maniac V1 V2 V3"
SGT8 = "Com:commissar Sgt:sergeant Boss:boss Maf:mafioso V1 V2 V3 V4"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"
EIGHT_NICKS = "Com Doc Pro Boss Maf V1 V2 V3"


def cycle_votes(*voters: str) -> list[str]:
    """Each voter votes for the next one: one vote each, nobody reaches a quarter of 5+."""
    return [f"{a} vote {b}" for a, b in zip(voters, (*voters[1:], voters[0]), strict=True)]


# --- R35: roles revealed ---------------------------------------------------------------------


def test_R35_every_death_reveals_the_role():
    out = play(
        MANIAC8,
        turn("Maf kill V1", "Man poison Doc"),
        turn("V2 hunt Tro", "V3 vote Man", "Com vote Man"),
    )
    roles = {d["player"]: d["role"] for d in all_deaths(out)}
    assert roles == {
        "V1": "villager",
        "Doc": "doctor",
        "Tro": "troublemaker",
        "Man": "maniac",
    }


def test_R35_promoted_sergeant_reveals_sergeant():
    out = play(SGT8, turn("Maf kill Com"), turn("Maf kill Sgt"))
    assert nicks(turn_out(out, 1)["promotions"]) == ["Sgt"]
    assert full_deaths(out, 2) == [
        {"player": "Sgt", "role": "sergeant", "cause": "mafia", "by": ["Maf"]}
    ]


# --- R36: ghosts and the double kill ---------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    ["V1 vote Boss", "V1 hunt Boss", "V1 note V2: from beyond", "Com check Boss", "Maf kill V2"],
)
def test_R36_ghosts_send_no_requests(request_):
    out = play(
        EIGHT, turn("Boss kill V1"), turn("V2 hunt Maf"), turn("Boss kill Com"), turn(request_)
    )
    assert {d["player"] for d in all_deaths(out)} == {"V1", "Maf", "Com"}
    assert rejected(out, 4) == [(0, "dead_sender")]
    assert deaths(out, 4) == []


def test_R36_double_kill_granted_by_host_for_the_turn():
    out = play(EIGHT, turn("Boss kill V1,V2", host=["double_kill"]))
    assert rejected(out, 1) == []
    assert sorted(deaths(out, 1)) == [("V1", "mafia"), ("V2", "mafia")]


# --- R37: death notes ------------------------------------------------------------------------


def test_R37_note_delivered_when_author_killed_by_mafia():
    out = play(EIGHT, turn("V1 note V2: Boss is mafia", "Maf kill V1"))
    assert notes(out, 1) == [{"from": "V1", "to": "V2", "text": "Boss is mafia"}]


def test_R37_note_delivered_when_author_lynched():
    out = play(EIGHT, turn("V1 note V2: trust Doc"), turn("V2 vote V1", "V3 vote V1"))
    assert notes(out, 1) == []
    assert deaths(out, 2) == [("V1", "lynch")]
    assert notes(out, 2) == [{"from": "V1", "to": "V2", "text": "trust Doc"}]


def test_R37_note_delivered_even_to_a_dead_addressee():
    out = play(
        EIGHT,
        turn("V1 note V2: sorry", "Maf kill V2"),
        turn("V3 vote V1", "Com vote V1"),
    )
    assert notes(out, 1) == []
    assert notes(out, 2) == [{"from": "V1", "to": "V2", "text": "sorry"}]


NOT_DELIVERED = {
    "hunt": (EIGHT, [turn("Maf note Boss: x"), turn("V1 hunt Maf")], "Maf"),
    "hunt_backfire": (EIGHT, [turn("V1 note V2: x"), turn("V1 hunt V2")], "V1"),
    "poison": (MANIAC8, [turn("V1 note V2: x", "Man poison V1"), turn()], "V1"),
    "euthanasia": (EIGHT, [turn("V1 note V2: x", "Doc inject V1")], "V1"),
    "pistol": (EIGHT, [turn("Boss note V1: x", "Maf kill Com", after=["Com shoot Boss"])], "Boss"),
    "excluded": (EIGHT, [turn("V1 note V2: x"), turn(host=["exclude V1"])], "V1"),
    "inactive": (EIGHT, [turn("V1 note V2: x", *posts(EIGHT_NICKS, but=["V1"]))], "V1"),
}


@pytest.mark.parametrize("cause", sorted(NOT_DELIVERED))
def test_R37_note_not_delivered_for_other_causes(cause):
    players, turns, author = NOT_DELIVERED[cause]
    out = play(players, *turns, activity=(cause == "inactive"))
    d = [d for d in all_deaths(out) if d["player"] == author]
    assert [x["cause"] for x in d] == [cause]
    assert all(t["notes"] == [] for t in out["turns"])


def test_R37_second_note_refused_in_the_same_turn():
    out = play(EIGHT, turn("V1 note V2: first", "V1 note V3: second", "Maf kill V1"))
    assert turn_out(out, 1)["rejected"] == [
        {"index": 1, "by": "V1", "do": "note", "reason": "note_already_sent"}
    ]
    assert notes(out, 1) == [{"from": "V1", "to": "V2", "text": "first"}]


def test_R37_second_note_refused_in_a_later_turn():
    out = play(EIGHT, turn("V1 note V2: first"), turn("V1 note V3: second", "Maf kill V1"))
    assert rejected(out, 2) == [(0, "note_already_sent")]
    assert notes(out, 2) == [{"from": "V1", "to": "V2", "text": "first"}]


def test_R37_refused_note_does_not_use_up_the_right():
    out = play(
        EIGHT,
        turn("Maf kill V2"),
        turn("V1 note V2: too late", "V1 note V3: to the living", "Maf kill V1"),
    )
    assert rejected(out, 2) == [(0, "dead_target")]
    assert notes(out, 2) == [{"from": "V1", "to": "V3", "text": "to the living"}]


def test_R37_note_to_oneself_refused():
    out = play(EIGHT, turn("V1 note V1: dear me"))
    assert rejected(out, 1) == [(0, "self_target")]


def test_R37_notes_of_several_victims_delivered_together():
    out = play(
        EIGHT,
        turn(
            "V1 note V3: one",
            "V2 note V3: two",
            "Boss kill V1,V2",
            "Maf kill V1,V2",
            host=["double_kill"],
        ),
    )
    assert sorted(deaths(out, 1)) == [("V1", "mafia"), ("V2", "mafia")]
    assert sorted(n["text"] for n in notes(out, 1)) == ["one", "two"]


# --- Decision: nobody targets himself except the heal and the lynch vote ----------------------


@pytest.mark.parametrize(
    "request_",
    [
        "Com check Com",
        "Pro block Pro",
        "Doc inject Doc",
        "Man poison Man",
        "Tro slander Tro",
        "V1 note V1: me",
    ],
)
def test_self_targeting_refused(request_):
    players = (
        "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso Tro:troublemaker "
        "Man:maniac V1 V2 V3"
    )
    out = play(players, turn(request_))
    assert rejected(out, 1) == [(0, "self_target")]


def test_self_targeting_refused_for_hunt():
    out = play(EIGHT, turn(), turn("V1 hunt V1"))
    assert rejected(out, 2) == [(0, "self_target")]


def test_self_heal_and_self_vote_allowed():
    out = play(EIGHT, turn("Doc heal Doc"), turn("Doc vote Doc"))
    assert rejected(out, 1) == []
    assert rejected(out, 2) == []


# --- R52: inactivity -------------------------------------------------------------------------


def test_R52_player_who_does_not_post_leaves_the_game():
    out = play(EIGHT, turn(*posts(EIGHT_NICKS, but=["V1"])), activity=True)
    assert full_deaths(out, 1) == [
        {"player": "V1", "role": "villager", "cause": "inactive", "by": []}
    ]


def test_R52_whatever_his_role():
    out = play(FOU8, turn(*posts("Com Fou Boss Maf V1 V2 V3 V4", but=["Boss"])), activity=True)
    assert full_deaths(out, 1) == [
        {"player": "Boss", "role": "boss", "cause": "inactive", "by": []}
    ]
    assert nicks(turn_out(out, 1)["conversions"]) == ["Fou"]


def test_R52_activity_rules_off_by_default():
    out = play(EIGHT, turn(), turn(), activity=None)
    assert all(t["deaths"] == [] for t in out["turns"])


def test_R52_inactivity_removal_comes_after_the_lynch():
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn("V1 vote V2", "V3 vote V2", *posts(EIGHT_NICKS, but=["V2", "Com"])),
        activity=True,
    )
    assert deaths(out, 2) == [("V2", "lynch"), ("Com", "inactive")]


def test_R52_player_dead_earlier_in_resolution_is_not_removed_again():
    out = play(EIGHT, turn("Maf kill V1", *posts(EIGHT_NICKS, but=["V1"])), activity=True)
    assert deaths(out, 1) == [("V1", "mafia")]


# --- R53: missed votes -----------------------------------------------------------------------

VOTERS = ("Com", "Doc", "Pro", "Boss", "Maf", "V2", "V3")  # everyone but V1


def test_R53_second_missed_vote_removes_the_player():
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        activity=True,
    )
    assert lynch(out, 2)["hanged"] is None
    assert deaths(out, 2) == []
    assert full_deaths(out, 3) == [
        {"player": "V1", "role": "villager", "cause": "missed_votes", "by": []}
    ]


def test_R53_missed_votes_need_not_be_consecutive():
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS, "V1")),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        activity=True,
    )
    assert deaths(out, 3) == []
    assert deaths(out, 4) == [("V1", "missed_votes")]


def test_R53_role_request_is_not_a_vote():
    voters = ("Doc", "Pro", "Boss", "Maf", "V1", "V2", "V3")  # everyone but Com
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*voters), "Com check V1"),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*voters), "Com check V2"),
        activity=True,
    )
    assert deaths(out, 3) == [("Com", "missed_votes")]


def test_R53_turn_1_and_deprived_turns_do_not_count():
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS), host=["deprive_vote V1"]),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        activity=True,
    )
    assert deaths(out, 1) == deaths(out, 2) == deaths(out, 3) == []
    assert deaths(out, 4) == [("V1", "missed_votes")]


def test_R53_does_not_apply_without_activity_rules():
    out = play(EIGHT, turn(), turn(*cycle_votes(*VOTERS)), turn(*cycle_votes(*VOTERS)))
    assert all(t["deaths"] == [] for t in out["turns"])


def test_R53_removed_commissar_has_no_pistol():
    voters = ("Doc", "Pro", "Boss", "Maf", "V1", "V2", "V3")
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*voters)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*voters), after=["Com shoot Maf"]),
        activity=True,
    )
    assert deaths(out, 3) == [("Com", "missed_votes")]
    assert turn_out(out, 3)["after"] == {
        "rejected": [{"index": 0, "by": "Com", "do": "shoot", "reason": "no_pistol"}],
        "deaths": [],
    }
