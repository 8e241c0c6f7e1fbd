"""``split_message``: long anonymous posts are cut into Discord-sized messages."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.webhooks import (
    FORBIDDEN_WORDS,
    _skeleton,
    pack_lines,
    split_message,
    webhook_username,
)


def test_short_text_is_one_message() -> None:
    assert split_message("  Hello, town.  ") == ["Hello, town."]


def test_blank_text_is_no_message() -> None:
    assert split_message(" \n\t ") == []


def test_cuts_at_the_last_line_break() -> None:
    text = "a" * 12 + "\n" + "b" * 6
    assert split_message(text, limit=15) == ["a" * 12, "b" * 6]


def test_prefers_a_space_to_an_early_line_break() -> None:
    text = "ab\ncd efg hij klm"
    assert split_message(text, limit=12) == ["ab\ncd efg", "hij klm"]


def test_cuts_inside_a_word_only_when_it_is_longer_than_the_limit() -> None:
    assert split_message("x" * 25, limit=10) == ["x" * 10, "x" * 10, "x" * 5]


def test_separator_right_after_the_limit_is_used() -> None:
    assert split_message("aaaaa bbbbb", limit=5) == ["aaaaa", "bbbbb"]


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError):
        split_message("x", limit=0)


texts = st.text(alphabet=st.sampled_from("ab кц\n\t.,"), max_size=400)


@given(texts, st.integers(min_value=1, max_value=60))
def test_pieces_fit_and_lose_only_whitespace(text: str, limit: int) -> None:
    pieces = split_message(text, limit)
    assert all(1 <= len(piece) <= limit for piece in pieces)
    assert all(piece == piece.strip() for piece in pieces)
    squeeze = re.compile(r"\s+")
    assert squeeze.sub("", "".join(pieces)) == squeeze.sub("", text)


@given(st.lists(st.text(alphabet="abcдеж", min_size=1, max_size=8), max_size=80))
def test_words_shorter_than_the_limit_are_never_cut(words: list[str]) -> None:
    pieces = split_message(" ".join(words), limit=10)
    assert [w for piece in pieces for w in piece.split()] == words


def test_webhook_username_is_one_line_of_at_most_80_characters() -> None:
    assert webhook_username("  Old\n  Fox ") == "Old Fox"
    assert len(webhook_username("x" * 200)) == 80
    assert webhook_username("   ") == "?"


#: What Discord refuses in a webhook username (docs/DISCORD_LAYER.md, the contract table).
def refused_by_discord(name: str) -> bool:
    lowered = name.casefold()
    return (
        not 1 <= len(name) <= 80
        or "discord" in lowered
        or "clyde" in lowered
        or lowered.strip() in ("everyone", "here")
    )


@pytest.mark.parametrize(
    ("nickname", "shown"),
    [
        ("Discord", "Disc·ord"),
        ("DISCORD fan", "DISC·ORD fan"),
        ("Clyde", "Cl·yde"),
        ("the clyde of discord", "the cl·yde of disc·ord"),
        ("discordclyde", "disc·ordcl·yde"),
        ("dіscоrd", "dіsc·оrd"),  # Cyrillic і and о
        ("d1sc0rd", "d1sc·0rd"),  # digits for letters
        ("ｄｉｓｃｏｒｄ", "ｄｉｓｃ·ｏｒｄ"),  # fullwidth
        ("dis\u200bcord", "disc·ord"),  # a zero-width space inside
        ("díscörd", "dísc·örd"),  # accents
        ("Cl\u0301yde", "Cl\u0301·yde"),  # a combining accent
        ("here", "«here»"),
        ("  Everyone ", "«Everyone»"),
        ("hеre", "«hеre»"),  # Cyrillic е
        ("Old Fox", "Old Fox"),
        ("\u200d\u3164", "?"),  # nothing visible
        ("Лиса Алиса", "Лиса Алиса"),
    ],
)
def test_webhook_username_is_legal_on_discord_and_recognisable(nickname: str, shown: str) -> None:
    assert webhook_username(nickname) == shown
    assert not refused_by_discord(webhook_username(nickname))


def test_webhook_username_stays_within_80_characters_when_defused() -> None:
    for name in ("x" * 76 + "discord", "here" + " " * 100, "clyde" * 30):
        assert not refused_by_discord(webhook_username(name)), name


def check_legal(nickname: str) -> None:
    name = webhook_username(nickname)
    assert not refused_by_discord(name)
    assert name == name.strip() and "\n" not in name
    # The skeleton (look-alikes, accents, invisible characters) holds no forbidden word either.
    skeleton = _skeleton(name)[0]
    assert not any(rx.search(skeleton) for rx in FORBIDDEN_WORDS.values())


@given(st.text(alphabet="discordclyhe DISCORDCLYHE0135іоеѕ\u200b\u0301", max_size=40))
def test_names_made_of_forbidden_letters_are_legal_too(nickname: str) -> None:
    check_legal(nickname)


@given(st.text())
def test_every_webhook_username_is_legal_on_discord(nickname: str) -> None:
    check_legal(nickname)


def test_pack_lines_keeps_each_line_whole() -> None:
    block = "A death note from Fox:\n```\n" + "z " * 700 + "\n```"
    lines = ["Fox, Villager, turn 2", block, block, "Deadline: soon"]
    messages = pack_lines(lines)
    assert all(len(m) <= 2000 for m in messages)
    assert [m.count("```") for m in messages] == [2, 2]
    assert "\n".join(messages) == "\n".join(lines)
    assert pack_lines(["x" * 2500]) == ["x" * 2000, "x" * 500]
    assert pack_lines([]) == []
