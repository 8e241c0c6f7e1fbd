"""Delivering the game's outbox: every announcement the service queued, rendered in the guild's
language and sent where its audience is.

An outbox row's payload is ``{"kind", "audience", "payload"}`` (``rules/announce.py``):
audience ``public`` is a bot message in #game, ``mafia`` a bot message in the game's mafia room
(a private thread in #mafia, ``bot/mafia_room.py``), anything else
a player's nickname, sent to that player's Discord user as a private message. A row is marked
sent only after Discord accepted it (delivery is at least once). A private message that Discord
refuses (closed DMs) is reported plainly in #host, without its text, and still marked sent: the
player reads his card and his news with ``/role`` and ``/status``.

Nothing public ever names a Discord user: nicknames only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any, Final

import discord

from bot.mafia_room import ROOM_NEEDS, MafiaRooms
from bot.pistol import pistol_view
from bot.render import render, render_role_card, with_dm_header
from bot.replies import guild_language
from bot.webhooks import split_message
from core.i18n import Lang, t
from core.service import GameService
from db.interface import GameStore
from db.models import GuildSettings, OutboxRecord
from rules.announce import MAFIA, PUBLIC
from rules.knowledge import role_card

log = logging.getLogger(__name__)

#: Discord's "Cannot send messages to this user".
CANNOT_DM = 50007

NO_MENTIONS = discord.AllowedMentions.none()


#: What the bot needs in #game to post the game's announcements (in #mafia: ``ROOM_NEEDS``).
CHANNEL_NEEDS: Final[tuple[str, ...]] = ("view_channel", "send_messages", "read_message_history")


# --- sending ----------------------------------------------------------------------------------
class Delivery:
    """Sends the pending outbox, one row at a time, in order (one delivery at a time)."""

    def __init__(self, client: discord.Client, store: GameStore, service: GameService) -> None:
        self.client = client
        self.store = store
        self.service = service
        self._lock = asyncio.Lock()
        self._reported: set[int] = set()  # rows whose failure the hosts were told of
        self.rooms = MafiaRooms(service)

    async def deliver(self) -> int:
        """Send every pending row; returns how many were marked sent."""
        async with self._lock:
            done = 0
            stuck: set[int] = set()  # games with a row that failed: keep their order
            for row in await self.store.pending_outbox():
                if row.game_id in stuck:
                    continue
                try:
                    if await self._deliver_row(row):
                        await self.store.mark_sent(row.id)
                        done += 1
                    else:
                        stuck.add(row.game_id)
                except discord.Forbidden as exc:
                    stuck.add(row.game_id)
                    # The bot lost a permission in a game channel: the row stays pending (it
                    # is sent once the permission is back) and the hosts are told, once.
                    log.warning("outbox row %s (game %s): %s", row.id, row.game_id, exc.text)
                    await self._report_forbidden(row)
                except discord.HTTPException:
                    stuck.add(row.game_id)
                    log.exception("could not deliver outbox row %s (game %s)", row.id, row.game_id)
            return done

    async def _deliver_row(self, row: OutboxRecord) -> bool:
        """True when the row is done with (sent, or undeliverable for good)."""
        game = await self.store.get_game(row.game_id)
        if game is None:
            return True
        guild = self.client.get_guild(game.guild_id)
        if guild is None:
            log.warning("outbox row %s: guild %s is not available", row.id, game.guild_id)
            return False
        settings = await self.store.get_guild_settings(guild.id)
        lang = await guild_language(self.store, guild)
        audience = str(row.payload.get("audience", PUBLIC))
        kind = str(row.payload.get("kind", row.kind))
        payload: Mapping[str, Any] = row.payload.get("payload") or {}

        if audience in (PUBLIC, MAFIA):
            slot = "game" if audience == PUBLIC else "mafia"
            channel = slot_channel(guild, settings, slot)
            if channel is None:
                log.warning("outbox row %s: no #%s channel in guild %s", row.id, slot, guild.id)
                return False
            if audience == PUBLIC:
                await send_chunks(channel, render(lang, kind, payload))
                if kind == "game_over":  # the mafia's room is kept, read-only, for the record
                    await self._close_room(guild, settings, row.game_id)
                return True
            room = await self.rooms.ensure(channel, row.game_id, lang)
            if room is None:  # the game is over and its room is gone: nobody to tell
                log.warning("outbox row %s: game %s has no mafia room", row.id, row.game_id)
                return True
            nick = str(payload.get("nick"))
            if kind == "mafia_joined":  # R22: the converted Foundling enters the room
                await self._room_member(room, row.game_id, nick, join=True)
            await send_chunks(room, render(lang, kind, payload))
            if kind == "mafia_left":  # a dead member no longer takes part (told first)
                await self._room_member(room, row.game_id, nick, join=False)
            return True

        # A private message to the player behind the nickname.
        text = self._private_text(lang, row.game_id, kind, audience, payload)
        if text is None:
            return True
        text = with_dm_header(lang, guild.name, row.game_id, text)
        user_id = await self._user_of(row.game_id, audience)
        if user_id is None:
            log.warning("outbox row %s: no player %r in game %s", row.id, audience, row.game_id)
            return True
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            view = (
                pistol_view(self.service, row.game_id, audience, lang) if kind == "pistol" else None
            )
            if view is not None:  # R18: the prompt carries a menu of the living nicknames
                await user.send(text, view=view, allowed_mentions=NO_MENTIONS)
            else:
                await send_chunks(user, text)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await self._tell_host(guild, settings, lang, audience, user_id)
        except discord.NotFound:
            await self._tell_host(guild, settings, lang, audience, user_id)
        return True

    def _private_text(
        self, lang: Lang, game_id: int, kind: str, nick: str, payload: Mapping[str, Any]
    ) -> str | None:
        if kind == "role_card":
            live = self.service.live.get(game_id)
            if live is None or nick not in live.engine.state.players:
                return None  # the game is over: the final reveal says it all
            return render_role_card(lang, role_card(live.engine.state, nick))
        return render(lang, kind, payload)

    async def _user_of(self, game_id: int, nick: str) -> int | None:
        live = self.service.live.get(game_id)
        if live is not None:
            found = live.user_of(nick)
            if found is not None:
                return found
        player = await self.store.player_by_nick(game_id, nick)
        return player.user_id if player is not None else None

    async def _tell_host(
        self,
        guild: discord.Guild,
        settings: GuildSettings | None,
        lang: Lang,
        nick: str,
        user_id: int,
    ) -> None:
        channel = slot_channel(guild, settings, "host")
        log.info("could not DM user %s (player %s) in guild %s", user_id, nick, guild.id)
        if channel is not None:
            await channel.send(
                t(lang, "delivery.dm_failed", nick=nick, user=f"<@{user_id}>"),
                allowed_mentions=NO_MENTIONS,
            )

    async def _report_forbidden(self, row: OutboxRecord) -> None:
        if row.id in self._reported:
            return
        self._reported.add(row.id)
        game = await self.store.get_game(row.game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None:
            return
        settings = await self.store.get_guild_settings(guild.id)
        audience = str(row.payload.get("audience", PUBLIC))
        slot = "game" if audience == PUBLIC else "mafia"
        target = slot_channel(guild, settings, slot)
        host = slot_channel(guild, settings, "host")
        if host is None or target is None:
            return
        lang = await guild_language(self.store, guild)
        have = target.permissions_for(guild.me)
        needs = CHANNEL_NEEDS if audience == PUBLIC else ROOM_NEEDS
        send = "send_messages" if audience == PUBLIC else "send_messages_in_threads"
        missing = [flag for flag in needs if not getattr(have, flag)] or [send]
        names = ", ".join(t(lang, f"perm.{flag}") for flag in missing)
        try:
            await host.send(
                t(lang, "delivery.forbidden", channel=target.mention, permissions=names),
                allowed_mentions=NO_MENTIONS,
            )
        except discord.HTTPException:
            log.warning("could not tell the hosts of guild %s either", guild.id)

    async def mafia_room(self, guild: discord.Guild, game_id: int) -> discord.Thread | None:
        """The game's mafia room (opened again if it is gone), or None without #mafia."""
        settings = await self.store.get_guild_settings(guild.id)
        parent = slot_channel(guild, settings, "mafia")
        if parent is None:
            return None
        return await self.rooms.ensure(parent, game_id, await guild_language(self.store, guild))

    async def _close_room(
        self, guild: discord.Guild, settings: GuildSettings | None, game_id: int
    ) -> None:
        parent = slot_channel(guild, settings, "mafia")
        room = await self.rooms.find(parent, game_id) if parent is not None else None
        if room is not None and not room.locked:
            try:
                await room.edit(archived=True, locked=True, reason="game over")
            except discord.HTTPException:
                log.warning("guild %s: could not lock the mafia room of game %s", guild.id, game_id)

    async def _room_member(
        self, room: discord.Thread, game_id: int, nick: str, *, join: bool
    ) -> None:
        user_id = await self._user_of(game_id, nick)
        if user_id is None:
            return
        member = discord.Object(user_id, type=discord.Member)
        if join:
            await self.rooms.add(room, member)
        else:
            await self.rooms.remove(room, member)


def slot_channel(
    guild: discord.Guild, settings: GuildSettings | None, slot: str
) -> discord.TextChannel | None:
    """One of the game's channels (``game``, ``discussion``, ``mafia``, ``host``), or None."""
    if settings is None:
        return None
    channel_id = getattr(settings, f"{slot}_channel_id", None)
    channel = guild.get_channel(channel_id) if channel_id is not None else None
    return channel if isinstance(channel, discord.TextChannel) else None


async def send_chunks(target: discord.abc.Messageable, text: str) -> None:
    for piece in split_message(text):
        await target.send(piece, allowed_mentions=NO_MENTIONS)
