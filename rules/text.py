"""What counts as an empty text (REFERENCE.md R52: a post counts only when something is posted).

A text is blank when nothing in it would show: after NFKC it holds only

- whitespace (any Unicode whitespace, as `str.split` sees it: spaces, tabs, newlines, the
  no-break and ideographic spaces, ...);
- format characters (Unicode category Cf: zero-width space U+200B, zero-width (non-)joiners,
  word joiner, soft hyphen, the bidi marks, ...), the characters `rules.names` drops from a
  name for the same reason;
- the few other code points that render as nothing but are letters or symbols to Unicode,
  and are the usual way to fake an empty message: the Hangul fillers (U+115F, U+1160, U+3164,
  U+FFA0), the Braille blank (U+2800), the combining grapheme joiner (U+034F) and the
  variation selectors (U+180B-U+180D, U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF).

Such a text is refused wherever it would be published (`/say`, `/post`, `/mafia announce`):
Discord would show nothing, and a post nobody can read must not count as activity (R52).
"""

from __future__ import annotations

import unicodedata

_INVISIBLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800, 0x3164, 0xFFA0),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)


def _invisible(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) == "Cf" or ord(ch) in _INVISIBLE


def is_blank(text: str) -> bool:
    """True when the text would show nothing (see the module docstring): empty, whitespace,
    format characters and invisible fillers only."""
    return all(_invisible(ch) for ch in unicodedata.normalize("NFKC", text))


__all__ = ["is_blank"]
