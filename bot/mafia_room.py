"""The mafia's room (R14): a private thread in #mafia, one per game, whose members are the living
mafia and the bot.

Why a thread and not a hidden channel with an overwrite per member: Discord sends every guild
channel, with all its permission overwrites, to every member's client, even the channels he
cannot open; a modified client (or the API) reads them and learns who the mafia are. A private
thread and its member list are only sent to its members (and to moderators with Manage
Threads, the hosts). #mafia itself is a plain read-only channel: nothing in it names anyone.

The thread is found again by its name (``channel.mafia_thread`` with the game's id, in either
language), so nothing is stored and a restarted bot finds it: from its cache of active threads,
else among the archived private threads of #mafia. A thread that cannot be found (deleted, or
#mafia rebuilt) is created again with the living mafia of the running game.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any, Final

import discord

from bot.kinds import Sending
from core.i18n import LANGUAGES, Lang, t
from core.service import GameService
from rules.announce import PUBLIC
from rules.knowledge import mafia_members

log = logging.getLogger(__name__)

#: A week, Discord's longest: a forum turn is a day, so the room rarely archives itself.
AUTO_ARCHIVE_MINUTES: Final = 10080

#: What the bot needs in #mafia to run the room (besides the posting needs).
ROOM_NEEDS: Final[tuple[str, ...]] = (
    "view_channel",
    "read_message_history",
    "create_private_threads",
    "send_messages_in_threads",
    "manage_threads",
)


def room_name(lang: Lang, game_id: int) -> str:
    return t(lang, "channel.mafia_thread", game=game_id)


def missing_room_permissions(have: discord.Permissions) -> list[str]:
    """The flags of :data:`ROOM_NEEDS` that ``have`` (the bot's, in #mafia) lacks."""
    if have.administrator:
        return []
    return [flag for flag in ROOM_NEEDS if not getattr(have, flag)]


class MafiaRooms:
    """Finds, opens and keeps the membership of each game's room."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._ids: dict[int, int] = {}  # game id -> thread id (a cache; the name is the key)
        #: (thread, user) -> removals the bot asked for whose gateway event has not come yet.
        self._removing: dict[tuple[int, int], int] = {}

    async def find(self, parent: discord.TextChannel, game_id: int) -> discord.Thread | None:
        cached = self._ids.get(game_id)
        if cached is not None:
            thread = parent.guild.get_thread(cached)
            if thread is not None and thread.parent_id == parent.id:
                return thread
            self._ids.pop(game_id, None)
        names = {room_name(lang, game_id) for lang in LANGUAGES}
        found = next((th for th in parent.threads if self._is_room(th, names)), None)
        if found is None:
            found = await self._find_archived(parent, names)
        if found is not None:
            self._ids[game_id] = found.id
        return found

    async def open(
        self,
        parent: discord.TextChannel,
        game_id: int,
        lang: Lang,
        members: list[discord.Member],
    ) -> discord.Thread:
        """A new room for the game, with ``members`` in it (the bot is in it as its creator)."""
        thread = await parent.create_thread(
            name=room_name(lang, game_id),
            type=discord.ChannelType.private_thread,
            invitable=False,
            auto_archive_duration=AUTO_ARCHIVE_MINUTES,
            reason=f"mafia room, game {game_id}",
        )
        self._ids[game_id] = thread.id
        for member in members:
            await thread.add_user(member)
        log.info("guild %s: mafia room %s opened for game %s", parent.guild.id, thread.id, game_id)
        return thread

    async def ensure(
        self, parent: discord.TextChannel, game_id: int, lang: Lang
    ) -> discord.Thread | None:
        """The game's room, awake (not archived); opened again with the living mafia of the
        running game if it is gone. None if it is gone and the game is over."""
        thread = await self.find(parent, game_id)
        if thread is None:
            live = self.service.live.get(game_id)
            if live is None:
                return None
            log.warning("guild %s: the mafia room of game %s is gone", parent.guild.id, game_id)
            team = set(mafia_members(live.public_state))  # not the results held for review
            members = [
                m
                for p in live.players
                if p.nick in team and (m := parent.guild.get_member(p.user_id)) is not None
            ]
            return await self.open(parent, game_id, lang, members)
        return await self.awake(thread)

    async def awake(self, thread: discord.Thread) -> discord.Thread:
        """Unarchive an archived room (members cannot be added to an archived thread)."""
        if thread.archived:
            thread = await thread.edit(archived=False, reason="mafia room")
        return thread

    async def open_for_reading(self, thread: discord.Thread, user_ids: list[int]) -> None:
        """After the game (the members revealed): every player of the game is added to the
        room, which is then archived and locked, so that they read the mafia's talk (a forum
        tradition) and nobody but the moderators writes in it again. A private thread shows
        to its members only (and Manage Threads), so its readers are added one by one; the
        lock comes last, so a retry after a failure adds whoever is still missing."""
        thread = await self.awake(thread)
        for user_id in user_ids:
            with contextlib.suppress(discord.NotFound):  # he left the server since
                await thread.add_user(discord.Object(id=user_id))
        await thread.edit(archived=True, locked=True, reason="game over: open for reading")

    async def add(self, thread: discord.Thread, member: discord.abc.Snowflake) -> None:
        await thread.add_user(member)

    async def remove(self, thread: discord.Thread, member: discord.abc.Snowflake) -> None:
        """Take a member out. The removal is noted before the request (Discord's event may
        come before its answer), so that the server watch knows the event for the bot's own
        (:meth:`removed_by_us`) and does not read the room again for it."""
        key = (thread.id, member.id)
        self._removing[key] = self._removing.get(key, 0) + 1
        try:
            await thread.remove_user(member)
        except discord.NotFound:
            # Not in the room (already removed, or the room was opened again): no event.
            self._forget(key)
        except BaseException:
            self._forget(key)
            raise

    def removed_by_us(self, thread_id: int, user_id: int) -> bool:
        """Whether the removal Discord reports (a thread member gone) is one the bot made;
        each removal answers once."""
        key = (thread_id, user_id)
        if key not in self._removing:
            return False
        self._forget(key)
        return True

    def forget_removals(self) -> None:
        """A new gateway session: the events of removals made before it may never come (the
        server watch reads every room then anyway)."""
        self._removing.clear()

    def _forget(self, key: tuple[int, int]) -> None:
        left = self._removing.pop(key, 0) - 1
        if left > 0:
            self._removing[key] = left

    @staticmethod
    def _is_room(thread: discord.Thread, names: set[str]) -> bool:
        return thread.type is discord.ChannelType.private_thread and thread.name in names

    async def _find_archived(
        self, parent: discord.TextChannel, names: set[str]
    ) -> discord.Thread | None:
        """Archived threads are not in the cache: ask Discord (every private one with Manage
        Threads, else the ones the bot joined)."""
        for joined in (False, True):
            try:
                found = parent.archived_threads(private=True, joined=joined, limit=None)
                async for thread in found:
                    if self._is_room(thread, names):
                        return thread
            except discord.Forbidden:
                continue
            return None
        return None


# --- the room's part in delivering the game's announcements (bot/kinds.py) ------------------


def _parent(sending: Sending) -> discord.TextChannel | None:
    """The table's #mafia, where the rooms are."""
    settings = sending.settings
    channel_id = settings.mafia_channel_id if settings is not None else None
    channel = sending.guild.get_channel(channel_id) if channel_id is not None else None
    return channel if isinstance(channel, discord.TextChannel) else None


async def _member(sending: Sending) -> discord.Object | None:
    user_id = await sending.port.user_of(sending.row.game_id, str(sending.payload.get("nick")))
    return None if user_id is None else discord.Object(user_id, type=discord.Member)


async def let_in(sending: Sending) -> None:
    """R22: the converted Foundling enters the room before his welcome."""
    member = await _member(sending)
    if member is not None and isinstance(sending.target, discord.Thread):
        await sending.port.rooms.add(sending.target, member)


async def let_out(sending: Sending) -> None:
    """A dead member no longer takes part (told first)."""
    member = await _member(sending)
    if member is not None and isinstance(sending.target, discord.Thread):
        await sending.port.rooms.remove(sending.target, member)


async def follow_seat(sending: Sending) -> None:
    """R60: a substitute took over a nickname of the mafia: he enters the room before its
    notice, and the replaced member leaves it. Done when the notice is delivered, so a restart
    in between still does it (the outbox keeps it); both steps may be repeated safely."""
    if not isinstance(sending.target, discord.Thread):
        return
    member = await _member(sending)
    if member is not None:
        await sending.port.rooms.add(sending.target, member)
    previous = sending.payload.get("previous")
    if isinstance(previous, int) and previous > 0 and (member is None or member.id != previous):
        await sending.port.rooms.remove(sending.target, discord.Object(previous))


def _in_game(sending: Sending) -> bool:
    """The end as #game reads it (its other copies, if any, leave the room alone)."""
    return sending.audience == PUBLIC


def _revealed(sending: Sending) -> bool:
    return sending.payload.get("reveal") is True


def link_room(sending: Sending) -> Mapping[str, Any]:
    """With the members revealed, the end links #mafia, where the room is."""
    parent = _parent(sending)
    if _in_game(sending) and _revealed(sending) and parent is not None:
        return {**sending.payload, "mafia_channel": parent.id}
    return sending.payload


async def close_room(sending: Sending) -> None:
    """The room is kept, read-only, for the record; with the members revealed every player
    of the game is let in to read it first (:meth:`MafiaRooms.open_for_reading`)."""
    rooms, game_id, guild = sending.port.rooms, sending.row.game_id, sending.guild
    parent = _parent(sending) if _in_game(sending) else None
    room = await rooms.find(parent, game_id) if parent is not None else None
    if room is None or room.locked:
        return
    if _revealed(sending):
        players = await sending.port.store.players(game_id)
        await rooms.open_for_reading(room, [p.user_id for p in players])
        return
    try:
        await room.edit(archived=True, locked=True, reason="game over")
    except discord.HTTPException:
        log.warning("guild %s: could not lock the mafia room of game %s", guild.id, game_id)
