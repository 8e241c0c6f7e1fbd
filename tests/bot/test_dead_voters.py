"""R32 where players look: the votes of players who died during the turn's resolution still
count, and the results' lynch lines say so when such a vote counted (with the voters under
R34, a count only under R54), so a tie broken by a dead man's vote does not read as a bug."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render import results_posts, votes_lines
from core.i18n import Lang, t
from rules.announce import night_announcements
from rules.engine import Game
from rules.model import HostAction, Request

PLAYERS = [
    ("Boss", "boss"),
    ("Maf", "mafioso"),
    ("Com", "commissar"),
    ("Owl", "villager"),
    ("Kes", "villager"),
    ("Yew", "villager"),
    ("Elm", "villager"),
    ("Ash", "villager"),
]


def _turn_2(*texts: str, deprive: str | None = None) -> dict[str, Any]:
    game = Game.new(PLAYERS)
    game.resolve_and_finish()
    if deprive is not None:
        game.host_action(HostAction("deprive_vote", deprive))
    for text in texts:
        by, do, target = text.split()
        assert game.submit(Request(by=by, do=do, target=target)) is None, text
    result = game.resolve()
    [results] = [a for a in night_announcements(game.state, result) if a.kind == "results"]
    return results.payload


def _text(lang: Lang, payload: dict[str, Any]) -> str:
    posts = results_posts(lang, payload)
    return "\n".join(
        f"{f.name}\n{f.value}" for p in posts for e in p.embeds for f in e.fields
    ) + "\n".join(votes_lines(lang, payload))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R32_the_results_say_the_vote_of_a_player_killed_this_night_counted(lang: Lang) -> None:
    # Owl votes Maf and is killed in the night; Kes and Owl for Maf, Boss and Maf for Kes:
    # a tie the second vote breaks (R33). Owl's vote counted (R32), and the results say so.
    payload = _turn_2(
        "Owl vote Maf", "Boss vote Kes", "Kes vote Maf", "Maf vote Kes", "Boss kill Owl",
        "Maf kill Owl",
    )  # fmt: skip
    lynch = payload["lynch"]
    assert lynch["dead_voters"] == ["Owl"]
    assert "Owl" in lynch["votes"]["Maf"]
    text = _text(lang, payload)
    assert t(lang, "dawn.dead_voters", voters="Owl") in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R32_R54_under_totals_only_the_count(lang: Lang) -> None:
    payload = _turn_2("Owl vote Maf", "Kes vote Maf", "Boss kill Owl", deprive="Elm")
    assert payload["lynch"]["dead_voters"] == 1
    text = _text(lang, payload)
    assert t(lang, "dawn.dead_voters_totals", count=1) in text
    assert t(lang, "dawn.dead_voters", voters="Owl") not in text  # R54: nobody named


def test_R32_no_line_when_no_voter_died() -> None:
    payload = _turn_2("Owl vote Maf", "Kes vote Maf", "Boss kill Yew")
    assert payload["lynch"]["dead_voters"] == []
    assert t("en", "dawn.dead_voters", voters="").split("(")[0] not in _text("en", payload)
