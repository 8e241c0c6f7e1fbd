"""Player text never speaks in the bot's voice (core/quoting.py): hostile death notes and
signatures come out framed, literal, and unable to imitate the bot's layout."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render import render, with_dm_header
from core.i18n import t
from core.quoting import BACKTICK_LOOKALIKE, FENCE, quote_player_line, quote_player_text

#: A death note written to look exactly like a commissar's check.
FAKE_CHECK = "**Server · game #1**\nCheck: Fox is not in the mafia."

HOSTILE = [
    FAKE_CHECK,
    "```\n**Server · game #1**\n```\nCheck: Fox is not in the mafia.",  # break out of a block
    "``\u200b`\nCheck: Fox is mafia.\n`\u200b``",  # a fence with zero-width characters inside
    "`` `\n# Results of turn 3\n` ``",
    "ok\n# Results of turn 3\n## Lynched: Fox\n### x",
    "ok\n> The host: Fox is innocent\n>>> all of this",
    "ok\n-# Sent by the host\n - # nested",
    "[Check result](https://discord.com/channels/1/2/3) <https://example.com>",
    "<@123456789012345678> <@&123456789012345678> <#123456789012345678> @everyone @here",
    "</vote:123456789012345678> <t:1700000000:R> <:mafia:123456789012345678>",
    "\u202eFox is not in the mafia\u202c\u2066x\u2069\u200e\u200f\u061c",
    "line\r\nCR\rLS\u2028PS\u2029NEL\u0085VT\x0bFF\x0c# heading",
    "||spoiler|| ~~strike~~ __underline__ *it* _it_ \\*escaped\\*",
    "1. first\n- item\n* item\n+ item",
    "\n\n\n",
]


def code_blocks(message: str) -> list[str]:
    """The fenced code blocks of a Discord message, as Discord finds them (a run of three
    backticks opens, the next run of three closes)."""
    return re.findall(r"```(.*?)```", message, flags=re.DOTALL)


@pytest.mark.parametrize("text", HOSTILE)
def test_quote_player_text_is_one_literal_block(text: str) -> None:
    quoted = quote_player_text(text)
    assert quoted.startswith(FENCE + "\n") and quoted.endswith("\n" + FENCE)
    assert quoted.count("`") == 6, "no backtick of the text survives: no fence can open or close"
    [block] = code_blocks(quoted)
    body = block.removeprefix("\n").removesuffix("\n")
    assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]", body)
    # The text is all there, as typed (backticks as their look-alike, line breaks as \n).
    expected = re.sub("\r\n|[\r\u2028\u2029\u0085\x0b\x0c]", "\n", text)
    expected = re.sub("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]", "", expected)
    assert body == (expected.replace("`", BACKTICK_LOOKALIKE).strip("\n") or " ")


def test_death_note_dm_is_attributed_and_not_a_check() -> None:
    """R37: the addressee reads "A death note from Fox:" and the text inside a code block,
    never a line that starts like the bot's own header or check."""
    for lang in ("en", "ru"):
        text = render(lang, "note", {"from": "Fox", "text": FAKE_CHECK})
        dm = with_dm_header(lang, "Server", 1, text)
        lines = dm.splitlines()
        assert lines[0] == "**Server · " + ("game #1" if lang == "en" else "игра №1") + "**"
        assert lines[1] == t(lang, "announce.note", author="Fox", text="").strip()
        assert "Fox" in lines[1]
        assert code_blocks(dm) == [f"\n{FAKE_CHECK}\n"]
        outside = re.sub(r"```.*?```", "", dm, flags=re.DOTALL)
        assert "Check" not in outside
        assert outside.count("**") == 2  # only the bot's own header is bold


#: Characters with a meaning in Discord's markdown, mentions, emoji, timestamps or links.
MARKUP = set("\\*_~|`>#[]()<:@")


def unescape(line: str) -> str:
    """What Discord shows for a backslash-escaped line."""
    return re.sub(r"\\(.)", r"\1", line)


def unescaped_markup(line: str) -> list[str]:
    found, i = [], 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] in MARKUP:
            found.append(line[i])
        i += 1
    return found


@pytest.mark.parametrize("text", HOSTILE)
def test_quote_player_line_is_literal(text: str) -> None:
    line = quote_player_line(text)
    assert "\n" not in line and "\r" not in line
    assert unescaped_markup(line) == []
    assert not re.match(r"[-+#>*]|\d+\.", line), "no list, heading, quote or subtext"


@given(st.text())
def test_quote_player_line_shows_the_text_as_typed(text: str) -> None:
    line = quote_player_line(text)
    assert unescaped_markup(line) == []
    assert not re.match(r"[-+#>*]|\d+\.", line)
    cleaned = re.sub("\r\n|[\r\u2028\u2029\u0085\x0b\x0c]", "\n", text)
    cleaned = re.sub("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]", "", cleaned)
    assert unescape(line) == " ".join(cleaned.split())


@given(st.text())
def test_quote_player_text_never_opens_a_second_block(text: str) -> None:
    quoted = quote_player_text(text)
    assert quoted.count("`") == 6
    assert len(code_blocks(quoted)) == 1
    assert len(quoted) <= len(text) + 2 * len(FENCE) + 3
