"""The ghosts' room (R62): a channel of the table's category, one per game opened with
``/mafia new ghost_room:true``, where the dead talk instead of #game, read by them, the hosts
and the spectators.

Its layout (``bot/layout.py`` :func:`ghost_room_overwrites`): hidden from @everyone, the bot
posting (the dead's posts go through its webhook under their nicknames, as in #game: R6), the
hosts reading and writing; each reader has a member overwrite that lets him read and not
write (he writes with ``/say``). Who is in it is no secret (the dead are public), so unlike the
mafia's room it can be a channel with an overwrite per reader.

It is found again by its name (``channel.ghost_room`` with the game's id, in either language)
in the table's category, so nothing is stored and a restarted bot finds it; a room that is gone
is created again with its readers (the dead whose death is published, the spectators), and a
room whose own overwrites drifted is repaired, whenever something is delivered there.

Access changes are outbox rows, sent once across restarts (``core/ghosts.py``): a dead
player's ``ghost_joined`` (his overwrite is set just before the room reads that he joined) and a
spectator's ``ghost_watch`` (his overwrite set or removed, nothing posted). The server watch
(``bot/serverlife.py``) removes anyone else's access (:func:`intruders`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable, Mapping
from typing import Any, Final

import discord

from bot.kinds import Sending
from bot.layout import GHOST_READER, Target, ghost_room_overwrites, overwrites_differ
from core.i18n import LANGUAGES, Lang, t
from db.models import GameRecord, TableSettings

log = logging.getLogger(__name__)

#: The #host notice of an intruder removed from the room (``bot/serverlife.py``).
INTRUDER_NOTICE: Final = "ghost_intruder"


def ghost_room_name(lang: Lang, game_id: int) -> str:
    return t(lang, "channel.ghost_room", game=game_id)


def room_host(
    guild: discord.Guild, settings: TableSettings | None, game: GameRecord
) -> discord.Role | discord.Object | None:
    """Who hosts the room: the table's host role, else the member who opened the game."""
    role_id = settings.host_role_id if settings is not None else None
    role = guild.get_role(role_id) if role_id is not None else None
    if role is not None:
        return role
    if game.host_user_id is not None:
        return discord.Object(game.host_user_id, type=discord.Member)
    return None


def readers(room: discord.TextChannel) -> set[int]:
    """The members with a reader's overwrite in the room."""
    return {
        target.id
        for target, overwrite in room.overwrites.items()
        if not isinstance(target, discord.Role) and overwrite.view_channel is True
    }


def intruders(
    room: discord.TextChannel, owned: Iterable[int], allowed: Iterable[int]
) -> list[Target]:
    """The overwrites that let someone read the room who may not: any target but the layout's
    own (``owned``: @everyone, the bot, the hosts) and the allowed readers (``allowed``: the
    published dead, the spectators, the hosts)."""
    keep = set(owned) | set(allowed)
    return [
        target
        for target, overwrite in room.overwrites.items()
        if target.id not in keep and overwrite.view_channel is True
    ]


class GhostRooms:
    """Finds, creates, repairs each game's ghosts' room and sets its readers."""

    def __init__(self) -> None:
        self._ids: dict[int, int] = {}  # game id -> channel id (a cache; the name is the key)

    def find(
        self, guild: discord.Guild, settings: TableSettings | None, game_id: int
    ) -> discord.TextChannel | None:
        cached = self._ids.get(game_id)
        if cached is not None:
            found = guild.get_channel(cached)
            if isinstance(found, discord.TextChannel):
                return found
            self._ids.pop(game_id, None)
        category_id = settings.category_id if settings is not None else None
        category = guild.get_channel(category_id) if category_id is not None else None
        if not isinstance(category, discord.CategoryChannel):
            return None
        names = {ghost_room_name(lang, game_id) for lang in LANGUAGES}
        room = next((c for c in category.text_channels if c.name in names), None)
        if room is not None:
            self._ids[game_id] = room.id
        return room

    async def ensure(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        game: GameRecord,
        lang: Lang,
        readers_now: Iterable[int] = (),
    ) -> discord.TextChannel | None:
        """The game's room, its own overwrites as the layout wants them; created (with
        ``readers_now``) when it is gone. None without a category to put it in."""
        wanted = ghost_room_overwrites(guild, room_host(guild, settings, game))
        room = self.find(guild, settings, game.id)
        if room is not None:
            if overwrites_differ(room.overwrites, wanted):
                merged = {**room.overwrites, **wanted}
                log.info("guild %s: repairing the ghosts' room of game %s", guild.id, game.id)
                await room.edit(overwrites=merged, reason=f"ghosts' room, game {game.id}")
            return room
        category_id = settings.category_id if settings is not None else None
        category = guild.get_channel(category_id) if category_id is not None else None
        if not isinstance(category, discord.CategoryChannel):
            return None
        overwrites: dict[Target, discord.PermissionOverwrite] = dict(wanted)
        for user_id in readers_now:
            overwrites[discord.Object(user_id, type=discord.Member)] = GHOST_READER
        room = await guild.create_text_channel(
            ghost_room_name(lang, game.id),
            category=category,
            overwrites=overwrites,
            topic=t(lang, "topic.ghost_room"),
            reason=f"ghosts' room, game {game.id}",
        )
        self._ids[game.id] = room.id
        log.info("guild %s: ghosts' room %s opened for game %s", guild.id, room.id, game.id)
        return room

    async def let_in(self, room: discord.TextChannel, user_id: int) -> None:
        """His reader's overwrite (a member who left the server is skipped: he reads nothing
        there, and a repair of the room lets him in if he comes back as one of its readers)."""
        if user_id in readers(room):
            return
        member = room.guild.get_member(user_id)
        if member is None:  # not in the cache (after a restart, before the members' chunks)
            try:
                member = await room.guild.fetch_member(user_id)
            except discord.NotFound:
                return
        await room.set_permissions(member, overwrite=GHOST_READER, reason="ghosts' room")

    async def let_out(self, room: discord.TextChannel, target_id: int) -> None:
        """Remove the overwrite of ``target_id`` (a member or a role) from the room."""
        target = room.guild.get_member(target_id) or room.guild.get_role(target_id)
        with contextlib.suppress(discord.NotFound):  # its overwrite is gone already
            if target is not None:
                await room.set_permissions(target, overwrite=None, reason="ghosts' room")
                return
            kept = {k: v for k, v in room.overwrites.items() if k.id != target_id}
            if len(kept) != len(room.overwrites):
                await room.edit(overwrites=kept, reason="ghosts' room")


# --- the room's part in delivering the game's rows (bot/kinds.py) ----------------------------


async def let_in_dead(sending: Sending) -> None:
    """R62: a dead player enters the room as it says so (his death is published)."""
    user_id = await sending.port.user_of(sending.row.game_id, str(sending.payload.get("nick")))
    if user_id is not None and isinstance(sending.target, discord.TextChannel):
        await sending.port.ghost_rooms.let_in(sending.target, user_id)


async def watch(sending: Sending) -> bool:
    """A spectator's access, given or taken; nothing is posted."""
    room = await sending.port.ghost_room(sending)
    if room is None:
        return True  # no room (the game is over and it is gone): nothing to change
    user_id = int(sending.payload["user"])
    rooms = sending.port.ghost_rooms
    if sending.payload.get("watching"):
        await rooms.let_in(room, user_id)
    else:
        await rooms.let_out(room, user_id)
    return True


def joined_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    return t(lang, "announce.ghost_joined", nick=payload["nick"])


def intruder_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    done = "removed" if payload.get("removed") else "kept"
    nick = payload.get("nick")
    who = f"<@{payload['user']}>" if payload.get("user") else f"<@&{payload.get('role')}>"
    if nick:
        who = t(lang, "server.player", nick=nick, user=who)
    return t(lang, f"server.ghost_intruder_{done}", member=who)
