"""Player text inside the bot's own messages: always framed, never in the bot's voice.

Whatever a player writes and the bot later shows in a message of its own (a death note in the
addressee's private message and in ``/status``, a signature under an anonymous post) must read
as that player's words, never as the bot's layout: no heading, bold header, subtext (``-#``),
block quote, list, masked link, mention, emoji, timestamp or link preview can come out of it.

Two shapes, both pure functions of the text (no Discord here):

- :func:`quote_player_text`: a fenced code block, for a text the bot introduces with an
  attributed line of its own ("A death note from Fox:"). Inside a code block Discord renders
  nothing: no markdown, no mention, no link. The only way out of a block is a run of three
  backticks, so every backtick of the text becomes the look-alike U+02CB (``ˋ``): the text
  keeps its length and its look, and no fence can be built from it (not with zero-width
  characters between the backticks either, since there are no backticks left).
- :func:`quote_player_line`: one line inside running text (a signature): line breaks become
  spaces, and every character Discord's markdown gives a meaning to is escaped with a
  backslash (Discord shows ``\\#`` as ``#``), so the line shows literally as typed.

Both drop the bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C):
a right-to-left override would otherwise reverse the bot's text after the quote, or make the
quote read as something else. Other zero-width characters stay (emoji need the joiner) and are
harmless once nothing in the text is markup. Line separators that Discord shows as line
breaks (``\\r\\n``, ``\\r``, U+2028, U+2029, U+0085, vertical tab, form feed) become ``\\n``.
"""

from __future__ import annotations

import re
from typing import Final

#: What replaces a backtick inside a quote: U+02CB MODIFIER LETTER GRAVE ACCENT.
BACKTICK_LOOKALIKE: Final[str] = "\u02cb"
FENCE: Final[str] = "```"

_BIDI_CONTROLS: Final[dict[int, None]] = dict.fromkeys(
    [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)
_LINE_BREAKS: Final[re.Pattern[str]] = re.compile("\r\n|[\r\u2028\u2029\u0085\x0b\x0c]")
#: Every ASCII character Discord's markdown (or its mention, emoji, timestamp and link
#: syntax) gives a meaning to anywhere in a line; escaped, each shows as itself.
_MARKUP: Final[re.Pattern[str]] = re.compile(r"([\\*_~|`>#\[\]()<:@])")
#: What means something at the start of a line only: a list ("- ", "+ ", "1. "), subtext
#: ("-#").
_LINE_START: Final[re.Pattern[str]] = re.compile(r"^([-+]|\d+(?=\.))")


def _clean(text: str) -> str:
    return _LINE_BREAKS.sub("\n", text).translate(_BIDI_CONTROLS)


def quote_player_text(text: str) -> str:
    """``text`` as a fenced code block on lines of its own: shown literally, markup inert.

    The result starts and ends with a fence line, so the caller puts it after its own
    attributed line (``t(lang, "announce.note", author=..., text=quote_player_text(...))``).
    """
    body = _clean(text).replace("`", BACKTICK_LOOKALIKE).strip("\n")
    return f"{FENCE}\n{body or ' '}\n{FENCE}"


def quote_player_line(text: str) -> str:
    """``text`` as one line of literal text inside the bot's message (no markup, no break)."""
    line = _MARKUP.sub(r"\\\1", " ".join(_clean(text).split()))
    start = _LINE_START.match(line)
    if start is None:
        return line
    if start[1] in "-+":
        return "\\" + line
    return f"{start[1]}\\{line[start.end() :]}"  # "1\. first"


__all__ = ["BACKTICK_LOOKALIKE", "FENCE", "quote_player_line", "quote_player_text"]
