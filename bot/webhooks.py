"""Anonymous posts in #game (R6): the bot's webhook posts under a nickname and avatar, and
never pings anyone.

:func:`split_message` is pure and cuts a long text into Discord-sized messages at line or word
boundaries. :class:`GameWebhooks` finds or creates the bot's webhook in a channel, caches it,
and recreates it once if someone deleted it.
"""

from __future__ import annotations

import logging
from typing import Final

import discord

log = logging.getLogger(__name__)

MESSAGE_LIMIT: Final[int] = 2000
WEBHOOK_NAME: Final[str] = "Forum mafia"
#: Discord's limit on a webhook message's username.
USERNAME_LIMIT: Final[int] = 80


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters.

    Cuts at the last line break that fits (when it leaves at least half a piece), else at the
    last space, else (a single word longer than ``limit``, like a long URL) inside the word.
    The whitespace at a cut is dropped, so no piece starts or ends with it; nothing else
    changes. A blank text gives no piece.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        if len(rest) <= limit:
            pieces.append(rest)
            break
        window = rest[: limit + 1]  # the character after the limit may be the separator
        line_break = window.rfind("\n")
        space = max(window.rfind(" "), window.rfind("\t"))
        if line_break >= limit // 2 or (line_break > 0 and space <= 0):
            cut = line_break  # a line break, unless it would leave a short piece
        elif space > 0:
            cut = space
        else:
            cut = limit
        piece = rest[:cut].rstrip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].lstrip()
    return pieces


def webhook_username(nickname: str) -> str:
    """A nickname shaped for Discord: 1 to 80 characters."""
    name = " ".join(nickname.split())[:USERNAME_LIMIT]
    return name or "?"


class GameWebhooks:
    """The bot's webhook per channel, fetched or created once and then cached."""

    def __init__(self) -> None:
        self._by_channel: dict[int, discord.Webhook] = {}

    async def get(self, channel: discord.TextChannel) -> discord.Webhook:
        cached = self._by_channel.get(channel.id)
        if cached is not None:
            return cached
        me = channel.guild.me
        hook = next(
            (
                w
                for w in await channel.webhooks()
                if w.user is not None and w.user.id == me.id and w.token is not None
            ),
            None,
        )
        if hook is None:
            log.info("creating the webhook of #%s in guild %s", channel.name, channel.guild.id)
            hook = await channel.create_webhook(name=WEBHOOK_NAME)
        self._by_channel[channel.id] = hook
        return hook

    def forget(self, channel_id: int) -> None:
        self._by_channel.pop(channel_id, None)

    async def post(
        self,
        channel: discord.TextChannel,
        text: str,
        *,
        username: str,
        avatar_url: str | None = None,
    ) -> list[discord.WebhookMessage]:
        """Post ``text`` (split as needed) under ``username``, with no mention ever pinging."""
        sent: list[discord.WebhookMessage] = []
        for piece in split_message(text):
            sent.append(await self._send(channel, piece, username, avatar_url))
        return sent

    async def _send(
        self, channel: discord.TextChannel, content: str, username: str, avatar_url: str | None
    ) -> discord.WebhookMessage:
        for attempt in (1, 2):
            hook = await self.get(channel)
            try:
                return await hook.send(
                    content,
                    username=webhook_username(username),
                    avatar_url=avatar_url or discord.utils.MISSING,
                    allowed_mentions=discord.AllowedMentions.none(),
                    wait=True,
                )
            except discord.NotFound:
                # Someone deleted the webhook: forget it and create a new one, once.
                self.forget(channel.id)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
