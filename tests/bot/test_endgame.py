"""bot/endgame.py: the end of the game as embeds (and as text) within Discord's limits (R15,
R19, R22; the host's reveal choice)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.embeds import (
    EMBED_TOTAL_LIMIT,
    EMBEDS_PER_MESSAGE,
    FIELD_VALUE_LIMIT,
    FIELDS_LIMIT,
    MAFIA,
    NOTICE,
    TOWN,
    post_text,
)
from bot.endgame import game_over_embeds, game_over_text
from bot.render import render
from core.i18n import Lang, t


def seat(nick: str, role: str, *, member: int | None = None, **fate: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "nick": nick,
        "role": role,
        "final_role": fate.get("final_role"),
        "alive": fate.get("alive", True),
        "cause": fate.get("cause"),
        "turn": fate.get("turn"),
    }
    if member is not None:
        out["member"] = member
    return out


def town_win(*, reveal: bool) -> dict[str, Any]:
    members = {"Owl": 101, "Kestrel": 102, "Dormouse": 103}
    roles = [
        seat("Owl", "commissar"),
        seat("Kestrel", "foundling", final_role="converted_foundling", alive=False,
             cause="lynch", turn=3),
        seat("Dormouse", "boss", alive=False, cause="hunt", turn=2),
    ]  # fmt: skip
    if reveal:
        for entry in roles:
            entry["member"] = members[entry["nick"]]
    return {
        "winner": "town",
        "reason": "mafia_dead",
        "turns": 3,
        "started": "2026-01-01T00:00:00+00:00",
        "ended": "2026-01-01T00:30:00+00:00",
        "reveal": reveal,
        "roles": roles,
    }


def all_text(lang: Lang, payload: dict[str, Any]) -> str:
    return "\n".join(post_text(p) for p in game_over_embeds(lang, payload))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R15_the_winner_why_and_how_long_in_the_winners_colour(lang: Lang) -> None:
    posts = game_over_embeds(lang, town_win(reveal=False))
    assert len(posts) == 1 and len(posts[0].embeds) == 1
    embed = posts[0].embeds[0]
    assert embed.title == t(lang, "winner.town")
    assert embed.colour is not None and embed.colour.value == TOWN
    # R15: the sides of this game only (a Commissar, a Foundling, a Boss: no loner)
    assert t(lang, "gameover.reason.mafia_dead", foes="mafia") in (embed.description or "")
    assert t(lang, "gameover.length", turns=3) in (embed.description or "")
    assert "<t:1767225600:f>" in (embed.description or "")  # the start, as a Discord timestamp
    assert [f.name for f in embed.fields] == [t(lang, "gameover.roles")]
    mafia = {**town_win(reveal=False), "winner": "mafia", "reason": "parity"}
    mafia_embed = game_over_embeds(lang, mafia)[0].embeds[0]
    assert mafia_embed.colour is not None and mafia_embed.colour.value == MAFIA
    assert t(lang, "gameover.reason.parity", loners="none") in (mafia_embed.description or "")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R43_R15_the_end_of_a_game_without_mafia_names_no_mafia(lang: Lang) -> None:
    """The original's own setup (a Commissar, a Crook, Villagers): the town wins when the
    Crook is dead, and the end opens no "mafia's room" (there was none), even with the
    members revealed."""
    roles = [
        seat("Owl", "commissar", member=1),
        seat("Kestrel", "crook", alive=False, cause="lynch", turn=3, member=2),
        seat("Dormouse", "villager", member=3),
    ]
    payload = {**town_win(reveal=True), "roles": roles}
    text = game_over_text(lang, payload)
    assert t(lang, "gameover.reason.mafia_dead", foes="crook") in text
    assert t(lang, "gameover.mafia_room", room="#" + t(lang, "channel.mafia")) not in text
    assert "#" + t(lang, "channel.mafia") not in text
    with_mafia = game_over_text(lang, town_win(reveal=True))
    assert t(lang, "gameover.mafia_room", room="#" + t(lang, "channel.mafia")) in with_mafia


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_host_ending_the_game_names_no_winner_and_says_why(lang: Lang) -> None:
    payload = {**town_win(reveal=False), "winner": None, "reason": "host_ended"}
    embed = game_over_embeds(lang, payload)[0].embeds[0]
    assert embed.title == t(lang, "winner.none")
    assert embed.colour is not None and embed.colour.value == NOTICE
    assert t(lang, "gameover.reason.host_ended") in (embed.description or "")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R22_a_converted_foundling_shows_his_original_and_final_role(lang: Lang) -> None:
    text = all_text(lang, town_win(reveal=False))
    changed = t(
        lang,
        "gameover.changed",
        role=t(lang, "role.foundling"),
        final=t(lang, "role.converted_foundling"),
    )
    assert f"Kestrel: {changed}, {t(lang, 'cause.lynch')}" in text
    assert f"Owl: {t(lang, 'role.commissar')}, {t(lang, 'cause.None')}" in text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_reveal_names_members_as_mentions_and_hidden_names_none(lang: Lang) -> None:
    named = all_text(lang, town_win(reveal=True))
    for member in (101, 102, 103):
        assert t(lang, "gameover.member", member=f"<@{member}>") in named
    assert t(lang, "gameover.hidden") not in named
    hidden_posts = game_over_embeds(lang, town_win(reveal=False))
    hidden = "\n".join(post_text(p) for p in hidden_posts)
    assert "<@" not in hidden and "101" not in hidden
    assert hidden_posts[-1].embeds[-1].footer.text == t(lang, "gameover.hidden")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_text_shows_the_same_facts(lang: Lang) -> None:
    """bot.render's text (the demo, text delivery) says what the embeds say."""
    payload = town_win(reveal=True)
    text = render(lang, "game_over", payload)
    assert text.splitlines()[0] == t(lang, "winner.town")
    assert text == game_over_text(lang, payload)
    embedded = all_text(lang, payload)
    for line in text.splitlines():
        assert line in embedded


def test_a_turn_count_is_a_natural_plural_in_russian() -> None:
    assert t("ru", "gameover.length", turns=1) == "Игра длилась 1 ход."
    assert t("ru", "gameover.length", turns=3) == "Игра длилась 3 хода."
    assert t("ru", "gameover.length", turns=11) == "Игра длилась 11 ходов."
    assert t("en", "gameover.length", turns=1) == "The game lasted 1 turn."


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_99_players_fit_within_discords_limits(lang: Lang) -> None:
    """R43 allows up to 99 players: the list continues into more embeds and messages, each
    within Discord's limits, and nobody is left out."""
    roles = [
        seat(
            f"Nickname{i:02d}",
            "converted_foundling" if i % 2 else "promoted_sergeant",
            final_role="converted_foundling" if i % 2 else "promoted_sergeant",
            alive=False,
            cause="missed_votes",
            turn=40 + i,
            member=10**18 + i,
        )
        for i in range(99)
    ]
    payload = {**town_win(reveal=True), "roles": roles}
    posts = game_over_embeds(lang, payload)
    assert len(posts) >= 2  # too much for one message: cut cleanly
    for post in posts:
        assert 1 <= len(post.embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in post.embeds) <= EMBED_TOTAL_LIMIT
        for embed in post.embeds:
            assert len(embed.fields) <= FIELDS_LIMIT
            assert all(len(f.value or "") <= FIELD_VALUE_LIMIT for f in embed.fields)
    text = "\n".join(post_text(p) for p in posts)
    for i in range(99):
        assert f"Nickname{i:02d}: " in text and f"<@{10**18 + i}>" in text
