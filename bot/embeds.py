"""Messages made of embeds, within Discord's limits (pure: builds objects, sends nothing).

A :class:`Post` is one Discord message: an optional text and up to ten embeds. Builders lay
out long lists with :func:`field_values` (a list cut into field-sized values at line
boundaries) and :func:`pack` (embeds grouped into as few messages as the limits allow, in
order). :func:`embed_text` is how a transcript (the demo, the logs) shows an embed as text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import attrs
import discord

from bot.webhooks import MESSAGE_LIMIT, split_message

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
FIELDS_LIMIT: Final[int] = 25
FIELD_NAME_LIMIT: Final[int] = 256
FIELD_VALUE_LIMIT: Final[int] = 1024
EMBED_TOTAL_LIMIT: Final[int] = 6000  # all the text of all the embeds of one message
EMBEDS_PER_MESSAGE: Final[int] = 10

#: Faction colours (also readable on Discord's light theme).
TOWN: Final[int] = 0x3B82F6
MAFIA: Final[int] = 0xDC2626
NEUTRAL: Final[int] = 0x9CA3AF
LONER: Final[int] = 0xA855F7
NOTICE: Final[int] = 0xF59E0B


@attrs.frozen
class Post:
    """One Discord message."""

    content: str = ""
    embeds: tuple[discord.Embed, ...] = ()


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_values(lines: Iterable[str], limit: int = FIELD_VALUE_LIMIT) -> list[str]:
    """Lines joined into values of at most ``limit`` characters, cut between lines (a line
    longer than the limit is cut inside itself). No line is lost; no value is empty."""
    values: list[str] = []
    current = ""
    for line in lines:
        for piece in split_message(line, limit) or [""]:
            if not piece:
                continue
            joined = f"{current}\n{piece}" if current else piece
            if len(joined) <= limit:
                current = joined
            else:
                values.append(current)
                current = piece
    if current:
        values.append(current)
    return values


def embed_size(embed: discord.Embed) -> int:
    """The characters of an embed that count toward the 6,000 of a message."""
    return len(embed)


def add_list_field(embed: discord.Embed, name: str, lines: Sequence[str]) -> list[discord.Embed]:
    """Add ``lines`` under ``name`` to ``embed``, continuing into new embeds (same colour,
    the name marked as continued) when the list does not fit. Returns every embed touched,
    ``embed`` first."""
    out = [embed]
    values = field_values(lines) or ["-"]
    for index, value in enumerate(values):
        label = clip(name if index == 0 else f"{name} (…)", FIELD_NAME_LIMIT)
        current = out[-1]
        if (
            len(current.fields) >= FIELDS_LIMIT
            or embed_size(current) + len(label) + len(value) > EMBED_TOTAL_LIMIT
        ):
            current = discord.Embed(colour=embed.colour)
            out.append(current)
        current.add_field(name=label, value=value, inline=False)
    return out


def pack(embeds: Sequence[discord.Embed], content: str = "") -> list[Post]:
    """Embeds grouped, in order, into as few messages as Discord allows (ten embeds and 6,000
    characters per message). ``content`` goes with the first message (cut when too long: the
    rest goes alone first)."""
    posts: list[Post] = []
    texts = split_message(content, MESSAGE_LIMIT) if content else []
    head = texts.pop() if texts else ""
    posts += [Post(content=text) for text in texts]
    group: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        n = embed_size(embed)
        if group and (len(group) >= EMBEDS_PER_MESSAGE or size + n > EMBED_TOTAL_LIMIT):
            posts.append(Post(content=head, embeds=tuple(group)))
            head, group, size = "", [], 0
        group.append(embed)
        size += n
    if group or head:
        posts.append(Post(content=head, embeds=tuple(group)))
    return posts


def embed_text(embed: discord.Embed) -> str:
    """An embed as plain text: title, description, each field (name, then value), footer."""
    lines = [text for text in (embed.title, embed.description) if text]
    for field in embed.fields:
        lines += [f"{field.name}:" if field.name else "", field.value or ""]
    if embed.footer and embed.footer.text:
        lines.append(embed.footer.text)
    return "\n".join(line for line in lines if line)


def post_text(post: Post) -> str:
    """A whole message as text (content, then each embed)."""
    return "\n".join(part for part in (post.content, *map(embed_text, post.embeds)) if part)
