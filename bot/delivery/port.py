"""A row as its kind's hooks see it (``bot/kinds.py`` :class:`~bot.kinds.Sending`), with the
narrow port onto the delivery they may use (:class:`DeliveryPort`), and the row's messages
rendered for its audience (:func:`row_posts`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import discord

from bot.delivery.router import Router, is_private
from bot.delivery.sender import Sender
from bot.embeds import Post
from bot.ghost_room import GhostRooms
from bot.kinds import OutboxKind, Sending
from bot.mafia_room import MafiaRooms
from bot.render import render_console, render_posts, render_private
from bot.tables import table_language
from bot.webhooks import split_message
from core.i18n import Lang
from core.service import GameService
from db.interface import GameStore
from db.models import OutboxRecord, TableSettings
from rules.announce import HOST, PUBLIC

log = logging.getLogger(__name__)


@attrs.frozen
class DeliveryPort:
    """What the kinds' hooks may use of the delivery (``bot.kinds.KindPort``): the service and
    the store, the rooms, the hosts' notices, a post's sending and its outcome."""

    service: GameService
    store: GameStore
    router: Router
    sender: Sender
    kind_state: dict[str, Any]
    post_outcome: Callable[[int, str], None]

    @property
    def rooms(self) -> MafiaRooms:
        return self.router.rooms

    @property
    def ghost_rooms(self) -> GhostRooms:
        return self.router.ghost_rooms

    @property
    def broken(self) -> set[tuple[int, str]]:
        return self.router.broken

    async def user_of(self, game_id: int, nick: str) -> int | None:
        return await self.router.user_of(game_id, nick)

    async def ghost_room(self, sending: Sending) -> discord.TextChannel | None:
        return await self.router.ghost_room(sending)

    async def tell_hosts(
        self, guild: discord.Guild, text: str, *, table_id: int | None = None
    ) -> bool:
        return await self.router.tell_hosts(guild, text, table_id=table_id)

    async def warn_hosts(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        lang: Lang,
        game_id: int | None,
        text: str,
    ) -> bool:
        return await self.router.warn_hosts(guild, settings, lang, game_id, text)

    async def post_as(
        self,
        channel: discord.TextChannel,
        row_id: int,
        pieces: Sequence[Post],
        *,
        username: str,
        avatar_url: str | None,
        picture: tuple[str, bytes] | None = None,
    ) -> tuple[int, discord.Forbidden | None]:
        return await self.sender.post_as(
            channel, row_id, pieces, username=username, avatar_url=avatar_url, picture=picture
        )

    def message_of(self, row_id: int) -> int | None:
        return self.sender.row_messages.get(row_id)


async def sending_of(
    port: DeliveryPort, client: discord.Client, row: OutboxRecord
) -> Sending | bool:
    """What the row's delivery needs to know (its game, server, table, language), or True when
    it is done with (its game is gone), False when it waits (no server)."""
    game = await port.store.get_game(row.game_id)
    if game is None:
        return True
    guild = client.get_guild(game.guild_id)
    if guild is None:
        log.warning("outbox row %s: guild %s is not available", row.id, game.guild_id)
        return False
    settings = await port.store.get_table(game.table_id)  # the game's table
    return Sending(
        port=port,
        guild=guild,
        game=game,
        settings=settings,
        lang=table_language(settings, guild),
        row=row,
        kind=str(row.payload.get("kind", row.kind)),
        audience=str(row.payload.get("audience", PUBLIC)),
        payload=row.payload.get("payload") or {},
    )


async def row_posts(router: Router, sending: Sending, entry: OutboxKind) -> list[Post] | None:
    """The row's messages, rendered for its audience: #host's console, #game and the mafia's
    room, or a private message with the server (and table) and game named first; None when a
    private one has nothing to say any more."""
    lang, kind, payload = sending.lang, sending.kind, sending.payload
    if sending.audience == HOST:
        console = render_console(lang, kind, payload)
        return [Post(content=piece) for piece in split_message(console)]
    if not is_private(sending.audience):
        return render_posts(lang, kind, payload)
    table = await router.dm_table(sending.guild, sending.game, sending.settings, lang)
    text: str | None = None
    if entry.private is not None:
        text = entry.private(sending)
        if text is None:
            return None
    server, game_id = sending.guild.name, sending.row.game_id
    return render_private(lang, server, game_id, kind, payload, table=table, text=text)
