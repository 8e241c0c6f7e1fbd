"""Quotes (the message command "Quote"): a player answers a post in #game with his own post,
headed by the quoted nickname, an excerpt and a link to the post, as forum players quote.

Only the game's public record can be quoted (R45/R46: never a private message, never the
host's private words): :func:`quoted_author` names who wrote a message of #game as the
players see it, a nickname of this game (a ghost's too) or the host, and None for anything
else: a private (ephemeral) reply or any answer to a command, a stranger's message, a webhook
posting under a name no player of this game has. :func:`quote_block` is pure: it neutralises
the excerpt's markdown (a quoted heading, quote or mention must not change the layout of the
reply) and keeps it short, so the reply, not the quote, is the post.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

import discord

from bot.webhooks import webhook_username
from core.i18n import Lang, t
from core.images import PICTURE_MARK

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
    lang: Lang,
    nick: str,
    jump_url: str,
    text: str,
    *,
    signature: str | None = None,
    picture: bool = False,
) -> str:
    """The head of a reply: who is quoted, a link to his post, and the excerpt as a block
    quote (each line marked, so nothing of it escapes the quote); a post with a picture
    ends with the picture's mark (the archive's, language-neutral: the link shows it)."""
    head = t(lang, "quote.head", nick=_inert(nick), link=jump_url)
    body = excerpt(text, signature=signature)
    lines = [f"> {head}"]
    lines += [f"> {_inert(line)}" for line in body.splitlines()] if body else []
    if picture:
        lines.append(f"> {PICTURE_MARK}")
    return "\n".join(lines)


#: The languages a name in #game may have been written in (the table's language may change).
_LANGS: Final[tuple[Lang, ...]] = ("ru", "en")


def quoted_author(
    message: discord.Message, me_id: int | None, nicks: Iterable[str], lang: Lang
) -> str | None:
    """Who wrote ``message`` (of #game) as the players see it, if it is part of the game's
    public record: a nickname of ``nicks`` (the game's players; a ghost's post under his
    ghost name) or the host (his ``/mafia announce`` under the host's name, or the bot's own
    announcement, named in ``lang``). None for anything else: a private reply (ephemeral) or
    any other answer to a command, a message of someone else, a webhook posting under a name
    no player of this game has (another game's nickname, another integration)."""
    if message.flags.ephemeral or message.interaction_metadata is not None:
        return None
    if message.webhook_id is not None:
        name = message.author.name  # the webhook's username: the nickname (R6)
        hosts = {webhook_username(t(lang_, "host.display_name")) for lang_ in _LANGS}
        names = {webhook_username(nick) for nick in nicks}
        names |= {
            webhook_username(t(lang_, "say.ghost_name", nick=nick))
            for nick in nicks
            for lang_ in _LANGS
        }
        return name if name in names or name in hosts else None
    if me_id is not None and message.author.id == me_id:
        return t(lang, "quote.host")
    return None


def reply_room(block: str) -> int:
    """How long the reply typed under ``block`` may be, so that the post keeps /say's limit."""
    return max(1, POST_LIMIT - len(block) - 2)
