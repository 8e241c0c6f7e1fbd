"""Quotes (the message command "Quote"): a player answers a post in #game with his own post,
headed by the quoted nickname, an excerpt and a link to the post, as forum players quote.

:func:`quote_block` is pure: it neutralises the excerpt's markdown (a quoted heading, quote or
mention must not change the layout of the reply) and keeps it short, so the reply, not the
quote, is the post.
"""

from __future__ import annotations

import re
from typing import Final

import discord

from core.i18n import Lang, t

#: At most this many characters of the quoted post are shown.
EXCERPT_LIMIT: Final[int] = 300
#: At most this many lines of the quoted post are shown.
EXCERPT_LINES: Final[int] = 4
#: What a reply may add to its quote: /say's limit.
POST_LIMIT: Final[int] = 4000

_SPACES = re.compile(r"\s+")


def excerpt(text: str, *, signature: str | None = None) -> str:
    """The quoted post, short: its own words only (the quotes it made itself and its author's
    signature left out), at most :data:`EXCERPT_LINES` lines and :data:`EXCERPT_LIMIT`
    characters, cut at a word with an ellipsis."""
    body = text.strip()
    if signature and body.endswith(signature.strip()):
        body = body[: len(body) - len(signature.strip())].rstrip()
    lines = [
        _SPACES.sub(" ", line).strip()
        for line in body.splitlines()
        if line.strip() and not line.lstrip().startswith(">")
    ]
    cut = len(lines) > EXCERPT_LINES
    lines = lines[:EXCERPT_LINES]
    joined = "\n".join(lines)
    if len(joined) > EXCERPT_LIMIT:
        head = joined[:EXCERPT_LIMIT]
        space = max(head.rfind(" "), head.rfind("\n"))
        joined = head[:space] if space > EXCERPT_LIMIT // 2 else head
        cut = True
    joined = joined.rstrip()
    return f"{joined}…" if cut and joined else joined


def _inert(text: str) -> str:
    """Markdown and mentions shown as typed, never as layout or a ping."""
    escaped = discord.utils.escape_markdown(text, as_needed=False)
    return discord.utils.escape_mentions(escaped)


def quote_block(
    lang: Lang, nick: str, jump_url: str, text: str, *, signature: str | None = None
) -> str:
    """The head of a reply: who is quoted, a link to his post, and the excerpt as a block
    quote (each line marked, so nothing of it escapes the quote)."""
    head = t(lang, "quote.head", nick=_inert(nick), link=jump_url)
    body = excerpt(text, signature=signature)
    lines = [f"> {head}"]
    lines += [f"> {_inert(line)}" for line in body.splitlines()] if body else []
    return "\n".join(lines)


def reply_room(block: str) -> int:
    """How long the reply typed under ``block`` may be, so that the post keeps /say's limit."""
    return max(1, POST_LIMIT - len(block) - 2)
