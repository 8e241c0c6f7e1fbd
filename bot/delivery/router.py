"""Where a row goes: its audience's channel in the game's table, and whom to tell when it
cannot go there.

Audience ``public`` is #game, ``mafia`` the game's mafia room (a private thread in #mafia,
``bot/mafia_room.py``), ``host`` #host, anything else a player's nickname: his Discord user's
DMs. Each is a destination of its own (:func:`destination`), with its own order. A channel
deleted raises :class:`ChannelMissing` (the row waits for ``/mafia setup``); a table without
#host (dropped) has nobody to tell (the row is done with); a game over whose room is gone has
nobody to tell in the room either.

A DM channel is opened once (a request) and then known by its id, which Discord keeps for good:
the ids are kept in the store (``GameStore.dm_channel`` / ``save_dm_channel``, per bot
account and per server written for, so that they go with the server's data), so a restart
does not open again the DM channel of every player it writes to.

The hosts' notices (:meth:`Router.warn_hosts`) go to #host, or, when it is #host that broke (or
#host refuses the notice), in private to each of the table's hosts (:func:`table_hosts`).
"""

from __future__ import annotations

import logging
from typing import Final

import discord

from bot.delivery.sender import NO_MENTIONS, TRANSIENT
from bot.ghost_room import GhostRooms
from bot.kinds import Sending
from bot.mafia_room import ROOM_NEEDS, MafiaRooms
from bot.render import with_dm_header
from bot.tables import table_language, table_title
from bot.webhooks import split_message
from core.i18n import Lang, t
from core.service import GameService
from db.interface import GameStore
from db.models import GameRecord, OutboxRecord, TableSettings
from rules.announce import GHOSTS, HOST, MAFIA, PUBLIC

log = logging.getLogger(__name__)

#: Discord's "Cannot send messages to this user".
CANNOT_DM = 50007
#: What the bot needs in #game to post the game's announcements (in #mafia: ``ROOM_NEEDS``).
CHANNEL_NEEDS: Final[tuple[str, ...]] = ("view_channel", "send_messages", "read_message_history")
#: The most hosts told in private when #host cannot be reached.
HOST_DMS: Final[int] = 10

#: A game's destination: (game id, ``game`` | ``mafia`` | ``host`` | ``dm:<nickname>``).
Dest = tuple[int, str]


def destination(row: OutboxRecord) -> str:
    """Where a row goes, each with its own order: #game (the announcements and the players'
    posts), the mafia's room, #host, or one player's DMs."""
    audience = str(row.payload.get("audience", PUBLIC))
    if audience == PUBLIC:
        return "game"
    if audience == MAFIA:
        return "mafia"
    if audience == HOST:
        return "host"
    if audience == GHOSTS:
        return "ghosts"
    return f"dm:{audience}"


def is_private(audience: str) -> bool:
    """A player's nickname: his DMs."""
    return audience not in (PUBLIC, MAFIA, HOST, GHOSTS)


class ChannelMissing(Exception):
    """One of the game's channels is gone (deleted): its rows wait for ``/mafia setup``."""

    def __init__(self, slot: str) -> None:
        super().__init__(f"no #{slot} channel")
        self.slot = slot


def slot_channel(
    guild: discord.Guild, settings: TableSettings | None, slot: str
) -> discord.TextChannel | None:
    """One of the game's channels (``game``, ``discussion``, ``mafia``, ``host``), or None."""
    if settings is None:
        return None
    channel_id = getattr(settings, f"{slot}_channel_id", None)
    channel = guild.get_channel(channel_id) if channel_id is not None else None
    return channel if isinstance(channel, discord.TextChannel) else None


def table_hosts(guild: discord.Guild, settings: TableSettings | None) -> list[discord.Member]:
    """Who is told in private when #host cannot be reached: the members of the table's host
    role, or, without one (none set, the role gone or empty), the members who may act as
    hosts anyway (Manage Server, the owner included); never a bot. In id order."""
    role_id = settings.host_role_id if settings is not None else None
    role = guild.get_role(role_id) if role_id is not None else None
    members = [m for m in role.members if not m.bot] if role is not None else []
    if not members:
        members = [m for m in guild.members if not m.bot and m.guild_permissions.manage_guild]
    return sorted(members, key=lambda m: m.id)


async def send_chunks(target: discord.abc.Messageable, text: str) -> None:
    for piece in split_message(text):
        await target.send(piece, allowed_mentions=NO_MENTIONS)


class Router:
    """Finds each row's target, opens what it needs (the mafia's room, a DM channel), and
    tells the hosts what cannot be delivered."""

    def __init__(self, client: discord.Client, store: GameStore, service: GameService) -> None:
        self.client = client
        self.store = store
        self.service = service
        self.rooms = MafiaRooms(service)
        self.ghost_rooms = GhostRooms()  # R62
        #: (server, user) -> his DM channel, kept in the store for that server.
        self._dm_channels: dict[tuple[int, int], int] = {}
        #: Destinations whose hosts were told they are broken (a channel gone, a permission
        #: lost), until a row goes out there again: told once per episode.
        self.broken: set[Dest] = set()

    async def route(self, sending: Sending) -> discord.abc.Messageable | bool:
        """The row's target; or True when it is done with (nowhere to send it, for good),
        False when it waits (no table). Raises :class:`ChannelMissing` for a channel
        deleted, and for a DM what opening it raised."""
        row, guild, settings, audience = (
            sending.row,
            sending.guild,
            sending.settings,
            sending.audience,
        )
        if audience == HOST:  # the hosts' console: never a player's eyes (bot/secrecy.py)
            if settings is None or settings.host_channel_id is None:
                log.warning("outbox row %s: no #host channel in guild %s", row.id, guild.id)
                return True
            channel = slot_channel(guild, settings, "host")
            if channel is None:
                raise ChannelMissing("host")
            return channel
        if audience in (PUBLIC, MAFIA):
            slot = "game" if audience == PUBLIC else "mafia"
            if settings is None:  # the table was dropped: nowhere to send it
                log.warning("outbox row %s: game %s has no table", row.id, row.game_id)
                return False
            channel = slot_channel(guild, settings, slot)
            if channel is None:
                raise ChannelMissing(slot)
            if audience == PUBLIC:
                return channel
            room = await self.rooms.ensure(channel, row.game_id, sending.lang)
            if room is None:  # the game is over and its room is gone: nobody to tell
                log.warning("outbox row %s: game %s has no mafia room", row.id, row.game_id)
                return True
            return room
        if audience == GHOSTS:  # R62
            if settings is None:
                return False
            ghosts = await self.ghost_room(sending)
            if ghosts is None:
                log.warning("outbox row %s: game %s has no ghosts' room", row.id, row.game_id)
                return True
            return ghosts
        user_id = sending.user_id = await self.user_of(row.game_id, audience)
        if user_id is None:
            log.warning("outbox row %s: no player %r in game %s", row.id, audience, row.game_id)
            return True
        return await self.dm_channel(guild.id, user_id)

    async def dm_channel(self, guild_id: int, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel, to write to him for the server ``guild_id``: opened once (a
        request), then known by its id, which Discord keeps for good, here and in the store
        (a restart knows it too; kept as the server's, it goes with the server's data).
        discord.py keeps only the last 128 DM channels, so a deadline's thousands of private
        messages would otherwise open each again (twice the requests)."""
        key = (guild_id, user_id)
        channel_id = self._dm_channels.get(key)
        me = self.client.user
        if channel_id is None and me is not None:
            channel_id = await self.service.dm_channel(me.id, guild_id, user_id)
            if channel_id is not None:
                self._dm_channels[key] = channel_id
        if channel_id is not None:
            return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = await user.create_dm()
        self._dm_channels[key] = channel.id
        if me is not None:
            await self.service.save_dm_channel(me.id, guild_id, user_id, channel.id)
        return channel

    def forget_dm_channels(self, guild_id: int, user_id: int | None = None) -> None:
        """The DM channels kept for the server (the bot left it), or for one member of it (his
        data there purged), are forgotten here as they are in the store."""
        for key in [k for k in self._dm_channels if k[0] == guild_id]:
            if user_id is None or key[1] == user_id:
                del self._dm_channels[key]

    async def user_of(self, game_id: int, nick: str) -> int | None:
        live = self.service.live.get(game_id)
        if live is not None:
            found = live.user_of(nick)
            if found is not None:
                return found
        player = await self.store.player_by_nick(game_id, nick)
        return player.user_id if player is not None else None

    async def dm_table(
        self,
        guild: discord.Guild,
        game: GameRecord,
        settings: TableSettings | None,
        lang: Lang,
    ) -> str | None:
        """The table a private message names: a named table, or any table of a server with
        several (a member seated at two tables tells their DMs apart); None for a server's
        only, unnamed table (its DMs are as they always were)."""
        if settings is None:
            return None
        if not settings.name and len(await self.store.tables(game.guild_id)) < 2:
            return None
        return table_title(lang, settings, guild)

    async def mafia_room(self, guild: discord.Guild, game_id: int) -> discord.Thread | None:
        """The game's mafia room in its table's #mafia (opened again if it is gone), or None
        without #mafia."""
        game = await self.store.get_game(game_id)
        settings = await self.store.get_table(game.table_id if game is not None else guild.id)
        parent = slot_channel(guild, settings, "mafia")
        if parent is None:
            return None
        return await self.rooms.ensure(parent, game_id, table_language(settings, guild))

    async def ghost_room(self, sending: Sending) -> discord.TextChannel | None:
        """The game's ghosts' room (R62), created again with its readers if it is gone (the
        published dead, the spectators); None if it cannot be (no category, or the game is
        over and it is gone)."""
        guild, game = sending.guild, sending.game
        rooms = self.ghost_rooms
        if rooms.find(guild, sending.settings, game.id) is None:
            live = self.service.live.get(game.id)
            if live is None:
                return None
            state = live.public_state  # not the results held for review
            dead = [p.user_id for p in live.players if not state.alive(p.nick)]
            readers = [*dead, *await self.store.spectators(game.id)]
            return await rooms.ensure(guild, sending.settings, game, sending.lang, readers)
        return await rooms.ensure(guild, sending.settings, game, sending.lang)

    # --- telling the hosts -------------------------------------------------------------------
    async def warn_hosts(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        lang: Lang,
        game_id: int | None,
        text: str,
        *,
        host: bool = True,
    ) -> bool:
        """A notice for the table's hosts: in #host (unless ``host`` is False: it is #host
        that is broken), else, when #host is gone or refuses it, in private to each host
        (:func:`table_hosts`), naming the server, table and game. True if anyone got it."""
        if host:
            channel = slot_channel(guild, settings, "host")
            if channel is not None:
                try:
                    await channel.send(text, allowed_mentions=NO_MENTIONS)
                    return True
                except (discord.HTTPException, *TRANSIENT) as exc:
                    log.warning("guild %s: cannot post in #host (%r): %.80s", guild.id, exc, text)
        table = table_title(lang, settings, guild) if settings is not None else None
        body = f"{text}\n{t(lang, 'delivery.told_in_private')}"
        if game_id is not None:
            body = with_dm_header(lang, guild.name, game_id, body, table=table)
        told = False
        for member in table_hosts(guild, settings)[:HOST_DMS]:
            try:
                dm = await self.dm_channel(guild.id, member.id)
                await dm.send(body, allowed_mentions=NO_MENTIONS)
                told = True
            except (discord.HTTPException, *TRANSIENT) as exc:
                log.info("guild %s: could not tell host %s: %r", guild.id, member.id, exc)
        if not told:
            log.warning("guild %s: nobody could be told: %.80s", guild.id, text)
        return told

    async def tell_hosts(
        self, guild: discord.Guild, text: str, *, table_id: int | None = None
    ) -> bool:
        """A notice in the #host of the table ``table_id`` (default: the server's first
        table), pinging nobody; False if it could not be posted."""
        key = table_id if table_id is not None else guild.id
        channel = slot_channel(guild, await self.store.get_table(key), "host")
        if channel is None:
            return False
        try:
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.warning("guild %s: could not post in #host: %.80s", guild.id, text)
            return False
        return True

    async def tell_dm_failed(self, sending: Sending, user_id: int | None) -> None:
        """A private message Discord refused (closed DMs, 50007; a user gone): the hosts are
        told plainly, without its text (the player reads it with ``/role`` and ``/status``)."""
        guild, nick = sending.guild, sending.audience
        log.info("could not DM user %s (player %s) in guild %s", user_id, nick, guild.id)
        text = t(sending.lang, "delivery.dm_failed", nick=nick, user=f"<@{user_id}>")
        await self.warn_hosts(guild, sending.settings, sending.lang, None, text)

    async def report_broken(self, row: OutboxRecord, dest: Dest, *, missing: bool) -> None:
        """Tell the hosts, once per episode, that a destination of the game is broken: its
        channel deleted (``missing``) or a permission lost there, and how to repair it. About
        #host, and when #host cannot be reached, they are told in private."""
        if dest in self.broken:
            return
        slot = dest[1]
        if slot not in ("game", "mafia", "host", "ghosts"):
            return  # a player's DMs: handled with the row (closed DMs)
        self.broken.add(dest)
        game = await self.store.get_game(row.game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None or game is None:
            return
        settings = await self.store.get_table(game.table_id)
        lang = table_language(settings, guild)
        if slot == "ghosts":  # R62: the room, or the category to open it in
            text = t(lang, "delivery.ghosts_broken")
            await self.warn_hosts(guild, settings, lang, row.game_id, text)
            return
        target = slot_channel(guild, settings, slot)
        if missing or target is None:
            text = t(lang, f"delivery.missing_{slot}", channel=f"#{t(lang, f'channel.{slot}')}")
        else:
            have = target.permissions_for(guild.me)
            needs = ROOM_NEEDS if slot == "mafia" else CHANNEL_NEEDS
            send = "send_messages_in_threads" if slot == "mafia" else "send_messages"
            lacking = [flag for flag in needs if not getattr(have, flag)] or [send]
            names = ", ".join(t(lang, f"perm.{flag}") for flag in lacking)
            text = t(lang, "delivery.forbidden", channel=target.mention, permissions=names)
        await self.warn_hosts(guild, settings, lang, row.game_id, text, host=slot != "host")
