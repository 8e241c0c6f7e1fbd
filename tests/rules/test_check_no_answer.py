"""R21 (Decision, changed) and R39: a commissar whose check got no answer is told so at dawn,
with one text whatever the cause (blocked by the Prostitute, or his candidate dead at his
move), never which; any other blocked player is told nothing; the Sergeant gets no copy."""

from __future__ import annotations

from typing import Any

from bot.render import render
from core.i18n import LANGUAGES
from rules.announce import night_announcements
from rules.engine import Game
from rules.model import Request

PLAYERS = [
    ("Com", "commissar"),
    ("Sgt", "sergeant"),
    ("Pro", "prostitute"),
    ("Doc", "doctor"),
    ("Boss", "boss"),
    ("Maf", "mafioso"),
    ("Man", "maniac"),
    ("V1", "villager"),
]


def _night(game: Game, *texts: str) -> list[Any]:
    for text in texts:
        by, do, target = text.split()
        assert game.submit(Request(by=by, do=do, target=target)) is None, text
    result = game.resolve()
    out = night_announcements(game.state, result)
    game.finish_turn()
    return out


def _private(announcements: list[Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(a.audience, a.kind, a.payload) for a in announcements if a.kind != "results"]


def test_R21_a_blocked_commissar_is_told_his_check_got_no_answer() -> None:
    game = Game.new(PLAYERS)
    out = _private(_night(game, "Pro block Com", "Com check Maf"))
    assert out == [("Com", "check_none", {"turn": 1, "target": "Maf"})]


def test_R21_other_blocked_players_are_told_nothing() -> None:
    game = Game.new(PLAYERS)
    out = _private(_night(game, "Pro block Doc", "Doc heal V1", "Com check Boss"))
    assert [(a, k) for a, k, _ in out] == [("Com", "check"), ("Sgt", "check")]
    game = Game.new(PLAYERS)
    assert _private(_night(game, "Pro block Man", "Man poison V1")) == []
    game = Game.new(PLAYERS)
    assert _private(_night(game, "Pro block Maf", "Maf kill V1")) == []


def test_R39_R21_a_dead_candidate_gets_the_same_words_as_a_block() -> None:
    """The candidate poisoned the night before dies at step 0: no answer, and the very same
    text as a block (only the target differs), so the commissar cannot tell which."""
    game = Game.new(PLAYERS)
    _night(game, "Man poison V1")
    out = _private(_night(game, "Com check V1"))
    told = [(a, k, p) for a, k, p in out if a == "Com"]
    assert told == [("Com", "check_none", {"turn": 2, "target": "V1"})]
    blocked = {"turn": 2, "target": "V1"}
    for lang in LANGUAGES:
        assert render(lang, "check_none", told[0][2]) == render(lang, "check_none", blocked)
    assert not [a for a, k, _ in out if k == "check_none" and a == "Sgt"]  # R19: no copy


def test_R21_a_commissar_dead_before_the_night_is_told_nothing() -> None:
    game = Game.new(PLAYERS)
    _night(game, "Man poison Com")
    out = _private(_night(game, "Com check Maf"))
    assert not [k for _, k, _ in out if k.startswith("check")]
