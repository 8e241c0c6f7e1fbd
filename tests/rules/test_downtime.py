"""R59, downtime: a turn in which the bot could not serve the game for a tenth of its length or
more removes nobody for inactivity (R52) and charges no missed vote (R53). The downtime is an
input of the resolution, in the turn's ``host`` section as ``{"do": "downtime", ...}``; a
script without one plays as before."""

from __future__ import annotations

from typing import Any

import pytest

from rules.downtime import Downtime, measure
from rules.engine import Game, rebuild
from rules.replay import ScriptError, run_script
from tests.rules.dsl import deaths, game, play, posts, turn, turn_out

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
EIGHT_NICKS = "Com Doc Pro Boss Maf V1 V2 V3"
VOTERS = ("Com", "Doc", "Pro", "Boss", "Maf", "V2", "V3")  # everyone but V1


def down(lost: int, length: int = 600) -> dict[str, Any]:
    return {"do": "downtime", "lost": lost, "length": length}


def with_downtime(t: dict[str, Any], *entries: dict[str, Any]) -> dict[str, Any]:
    return {**t, "host": [*t.get("host", []), *entries]}


def cycle_votes(*voters: str) -> list[str]:
    return [f"{a} vote {b}" for a, b in zip(voters, (*voters[1:], voters[0]), strict=True)]


def test_R59_a_tenth_of_the_turn_lost_removes_nobody_for_inactivity() -> None:
    out = play(EIGHT, with_downtime(turn(*posts(EIGHT_NICKS, but=["V1"])), down(60)), activity=True)
    assert deaths(out, 1) == []
    assert turn_out(out, 1)["downtime"] == {"lost": 60, "length": 600, "excused": True}


def test_R59_less_than_a_tenth_removes_as_usual() -> None:
    out = play(EIGHT, with_downtime(turn(*posts(EIGHT_NICKS, but=["V1"])), down(59)), activity=True)
    assert deaths(out, 1) == [("V1", "inactive")]
    assert turn_out(out, 1)["downtime"]["excused"] is False


def test_R59_charges_no_missed_vote() -> None:
    """V1 misses the vote in turns 2 and 3; turn 2 lost a tenth to downtime, so turn 3's miss
    is his first (R53 removes at the second) and he stays."""
    out = play(
        EIGHT,
        turn(*posts(EIGHT_NICKS)),
        with_downtime(turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)), down(120, 1200)),
        turn(*posts(EIGHT_NICKS), *cycle_votes(*VOTERS)),
        activity=True,
    )
    assert deaths(out, 2) == [] and deaths(out, 3) == []


def test_R59_the_other_steps_still_happen() -> None:
    """Only R52/R53 are waived: the mafia's kill and the lynch stand."""
    out = play(
        EIGHT,
        with_downtime(turn("Maf kill V2"), down(300)),
        activity=True,
    )
    assert deaths(out, 1) == [("V2", "mafia")]


def test_R59_the_last_measure_of_a_turn_counts() -> None:
    """A resolution retried after a crash measures the turn again (the longer): the last
    entry decides."""
    out = play(EIGHT, with_downtime(turn(), down(10), down(80)), activity=True)
    assert deaths(out, 1) == []


def test_R59_the_rebuild_from_the_log_decides_the_same() -> None:
    players = [
        (n, r)
        for n, r in (
            ("Com", "commissar"),
            ("Doc", "doctor"),
            ("Pro", "prostitute"),
            ("Boss", "boss"),
            ("Maf", "mafioso"),
            ("V1", "villager"),
            ("V2", "villager"),
            ("V3", "villager"),
        )
    ]
    live = Game.new(players, seed=1, activity_rules=True)
    live.resolve(Downtime(lost=100, length=600))
    live.finish_turn()
    log = [(1, "host", down(100))]
    again = rebuild(players, 1, True, log, {1})
    assert again.turn == live.turn == 2
    assert all(p.alive for p in again.state.players.values())
    assert again.state.downtime is None  # measured anew each turn
    without = rebuild(players, 1, True, [], {1})
    assert not any(p.alive for p in without.state.players.values())


@pytest.mark.parametrize(
    "entry",
    [
        {"do": "downtime", "lost": 10},
        {"do": "downtime", "lost": -1, "length": 10},
        {"do": "downtime", "lost": 11, "length": 10},
        {"do": "downtime", "lost": 1.5, "length": 10},
        {"do": "downtime", "lost": 1, "length": 10, "player": "V1"},
    ],
)
def test_R59_a_malformed_downtime_entry_is_a_script_error(entry: dict[str, Any]) -> None:
    script = game(EIGHT, with_downtime(turn(), entry))
    with pytest.raises(ScriptError, match="turn 1, host\\[0\\]"):
        run_script(script)


def test_R59_measure_rounds_and_bounds() -> None:
    assert measure(59.6, 600.4) == Downtime(lost=60, length=600)
    assert measure(900, 600) == Downtime(lost=600, length=600)
    assert measure(-5, 600).excuses is False
    assert Downtime(lost=60, length=600).excuses and not Downtime(lost=0, length=0).excuses
