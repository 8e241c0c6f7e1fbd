"""Step 4's decision as a pure function (`rules.pipeline.inactivity`): what the host's resolve
preview shows is what the resolution then removes (R52, R53), by the same code."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rules.model import Phase
from rules.pipeline import inactivity
from rules.replay import parse_script
from tests.rules.dsl import game, posts, turn

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
NICKS = "Com Doc Pro Boss Maf V1 V2 V3"
VOTERS = ("Com", "Doc", "Pro", "Boss", "Maf", "V2", "V3")  # everyone but V1

REMOVAL_CAUSES = ("inactive", "missed_votes")


def cycle_votes(*voters: str) -> list[str]:
    return [f"{a} vote {b}" for a, b in zip(voters, (*voters[1:], voters[0]), strict=True)]


def predicted_and_removed(script: dict[str, Any]) -> list[tuple[list[Any], list[Any]]]:
    """Per turn: (what ``inactivity`` says just before the deadline, what the resolution
    removed for inactivity)."""
    engine, turns = parse_script(copy.deepcopy(script))
    seen: list[tuple[list[Any], list[Any]]] = []
    for parsed in turns:
        if engine.winner is not None:
            break
        for req in parsed.requests:
            engine.submit(req)
        assert engine.phase is Phase.OPEN
        before = {nick: p.missed_votes for nick, p in engine.state.players.items()}
        predicted = [(nick, str(cause)) for nick, cause in inactivity(engine.state).removed]
        # pure: asking changes nothing
        assert before == {nick: p.missed_votes for nick, p in engine.state.players.items()}
        result = engine.resolve_and_finish()
        removed = [(d.player, str(d.cause)) for d in result.deaths if d.cause in REMOVAL_CAUSES]
        seen.append((predicted, removed))
    return seen


@pytest.mark.parametrize(
    "turns",
    [
        # R52: silent players, turn 1
        [turn(*posts(NICKS, but=["V1", "Boss"]))],
        # R53: V1 misses turn 2 and turn 3; the second miss removes him
        [
            turn(*posts(NICKS)),
            turn(*posts(NICKS), *cycle_votes(*VOTERS)),
            turn(*posts(NICKS), *cycle_votes(*VOTERS)),
        ],
        # both causes in one step (R52 for Com, R53 for V1), removed together
        [
            turn(*posts(NICKS)),
            turn(*posts(NICKS), *cycle_votes(*VOTERS)),
            turn(*posts(NICKS, but=["Com"]), *cycle_votes("Doc", "Pro", "Maf", "V2", "V3")),
        ],
    ],
    ids=["R52_silent", "R53_second_miss", "both_causes"],
)
def test_R52_R53_the_preview_is_what_step_4_removes(turns: list[dict[str, Any]]) -> None:
    seen = predicted_and_removed(game(EIGHT, *turns, activity=True))
    assert seen and any(removed for _, removed in seen)
    for predicted, removed in seen:
        assert predicted == removed


def test_R53_second_miss_is_named_before_it_happens() -> None:
    seen = predicted_and_removed(
        game(
            EIGHT,
            turn(*posts(NICKS)),
            turn(*posts(NICKS), *cycle_votes(*VOTERS)),
            turn(*posts(NICKS), *cycle_votes(*VOTERS)),
            activity=True,
        )
    )
    assert [p for p, _ in seen] == [[], [], [("V1", "missed_votes")]]


def test_without_the_activity_rules_nobody_is_removed() -> None:
    seen = predicted_and_removed(game(EIGHT, turn("V1 post"), activity=False))
    assert seen == [([], [])]


def test_a_player_killed_first_is_not_removed_again() -> None:
    """The preview is the state before the night: a silent player the mafia kills dies of the
    kill, not of inactivity (the host's preview says "unless they die otherwise first")."""
    seen = predicted_and_removed(
        game(EIGHT, turn("Maf kill V1", *posts(NICKS, but=["V1"])), activity=True)
    )
    assert seen == [([("V1", "inactive")], [])]
