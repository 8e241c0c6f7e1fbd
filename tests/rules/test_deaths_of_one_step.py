"""REFERENCE.md section 8, the Decision "Deaths of one step": every victim of a step dies first,
then step 5 applies; a conversion (R22) or promotion (R19) goes only to a player still alive
when the step ends. Deaths are listed in seat order within a step, and the outcome never
depends on the order in which a kill request names its targets or on the seats.
"""

from __future__ import annotations

import pytest

from tests.rules.dsl import (
    after_deaths,
    after_rejected,
    deaths,
    full_deaths,
    nicks,
    parse_players,
    play,
    posts,
    turn,
    turn_out,
)

SGT8 = "Com:commissar Sgt:sergeant Boss:boss Maf:mafioso V1 V2 V3 V4"
FOU8 = "Com:commissar Fou:foundling Boss:boss Maf:mafioso V1 V2 V3 V4"
EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"


# --- 2c: the two victims of a double kill die together (R36) -----------------------------


@pytest.mark.parametrize("targets", ["Com,Sgt", "Sgt,Com"])
def test_R36_R19_sergeant_killed_with_the_commissar_is_not_promoted(targets: str):
    out = play(
        SGT8,
        turn(
            f"Boss kill {targets}",
            f"Maf kill {targets}",
            host=["double_kill"],
            after=["Sgt shoot Boss", "Com shoot Maf"],
        ),
    )
    assert full_deaths(out, 1) == [
        {"player": "Com", "role": "commissar", "cause": "mafia", "by": ["Boss", "Maf"]},
        {"player": "Sgt", "role": "sergeant", "cause": "mafia", "by": ["Boss", "Maf"]},
    ]
    assert turn_out(out, 1)["promotions"] == []
    # R18: the commissar has his pistol; the sergeant, never promoted, has none.
    assert after_rejected(out, 1) == [(0, "no_pistol")]
    assert after_deaths(out, 1) == [("Maf", "pistol")]


def test_R36_R19_commissar_killed_alone_still_promotes_the_sergeant():
    out = play(SGT8, turn("Boss kill Com,V1", "Maf kill V1,Com", host=["double_kill"]))
    assert deaths(out, 1) == [("Com", "mafia"), ("V1", "mafia")]
    assert nicks(turn_out(out, 1)["promotions"]) == ["Sgt"]


def test_R36_double_kill_target_order_gives_the_same_outcome():
    one = play(EIGHT, turn("Boss kill V3,V1", "Maf kill V1,V3", host=["double_kill"]), turn())
    other = play(EIGHT, turn("Boss kill V1,V3", "Maf kill V3,V1", host=["double_kill"]), turn())
    assert one == other
    assert deaths(one, 1) == [("V1", "mafia"), ("V3", "mafia")]  # seat order


def test_R36_deaths_of_a_double_kill_are_listed_in_seat_order():
    out = play(EIGHT, turn("Boss kill V3,Com", "Maf kill V3,Com", host=["double_kill"]))
    assert deaths(out, 1) == [("Com", "mafia"), ("V3", "mafia")]


def test_R36_R40_doctor_killed_with_his_patient_heals_nobody_whatever_the_order():
    for targets in ("Doc,V1", "V1,Doc"):
        out = play(
            EIGHT,
            turn(
                f"Boss kill {targets}", f"Maf kill {targets}", "Doc heal V1", host=["double_kill"]
            ),
        )
        assert deaths(out, 1) == [("Doc", "mafia"), ("V1", "mafia")]


# --- step 4: removals happen together ----------------------------------------------------


def _seated(spec: str, first: str) -> list[dict[str, str]]:
    """The players of `spec`, with `first` moved to the first seat."""
    players = parse_players(spec)
    return sorted(players, key=lambda p: p["nick"] != first)


# Votes spread one per candidate: nobody reaches a quarter of 8 (R31), nobody is hanged.
SPREAD = ["Com vote V1", "Maf vote V2", "V1 vote V3", "V2 vote V4", "V3 vote Com", "V4 vote Maf"]


@pytest.mark.parametrize("first", ["Boss", "Fou"])
def test_R22_foundling_removed_with_the_boss_for_inactivity_is_not_converted(first: str):
    players = _seated(FOU8, first)
    out = play(players, turn(*posts(FOU8, but=["Boss", "Fou"])), activity=True)
    assert sorted(deaths(out, 1)) == [("Boss", "inactive"), ("Fou", "inactive")]
    assert [d[0] for d in deaths(out, 1)] == [
        p["nick"] for p in players if p["nick"] in {"Boss", "Fou"}
    ]  # seat order
    assert turn_out(out, 1)["conversions"] == []
    assert full_deaths(out, 1)[0]["role"] in {"boss", "foundling"}


@pytest.mark.parametrize("first", ["Boss", "Fou"])
@pytest.mark.parametrize(
    ("silent", "no_vote"),
    [("Boss", "Fou"), ("Fou", "Boss")],
    ids=["boss_inactive_foundling_missed_votes", "foundling_inactive_boss_missed_votes"],
)
def test_R22_foundling_removed_with_the_boss_in_step_4_whatever_the_causes_and_seats(
    first: str, silent: str, no_vote: str
):
    players = _seated(FOU8, first)
    out = play(
        players,
        turn(*posts(FOU8)),
        turn(*SPREAD, *posts(FOU8)),  # Boss and Fou miss their first vote
        turn(*SPREAD, *posts(FOU8, but=[silent])),  # one silent, the other misses again
        activity=True,
    )
    assert deaths(out, 2) == []
    causes = {silent: "inactive", no_vote: "missed_votes"}
    expected = [(p["nick"], causes[p["nick"]]) for p in players if p["nick"] in causes]
    assert deaths(out, 3) == expected  # seat order
    assert turn_out(out, 3)["conversions"] == []
    assert {d["role"] for d in full_deaths(out, 3)} == {"boss", "foundling"}


def test_R19_sergeant_removed_with_the_commissar_in_step_4_is_not_promoted():
    out = play(SGT8, turn(*posts(SGT8, but=["Com", "Sgt"])), activity=True)
    assert deaths(out, 1) == [("Com", "inactive"), ("Sgt", "inactive")]
    assert turn_out(out, 1)["promotions"] == []


def test_R22_boss_removed_in_step_4_converts_a_foundling_still_alive():
    out = play(FOU8, turn(*posts(FOU8, but=["Boss"])), turn(*posts(FOU8), *SPREAD), activity=True)
    assert deaths(out, 1) == [("Boss", "inactive")]
    assert nicks(turn_out(out, 1)["conversions"]) == ["Fou"]


def test_R22_boss_lynched_converts_a_foundling_removed_later_in_step_4():
    """Steps are batches of their own: the Boss hanged at step 3 converts the Foundling, who
    is alive when step 3 ends, even if step 4 then removes him (he reveals as Foundling)."""
    out = play(
        FOU8,
        turn(*posts(FOU8)),
        turn("Com vote Boss", "V1 vote Boss", *posts(FOU8, but=["Fou"])),
        activity=True,
    )
    assert deaths(out, 2) == [("Boss", "lynch"), ("Fou", "inactive")]
    assert nicks(turn_out(out, 2)["conversions"]) == ["Fou"]
    assert full_deaths(out, 2)[1]["role"] == "foundling"
