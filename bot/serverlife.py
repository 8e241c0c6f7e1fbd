"""The server changes while a game runs: who can read the secret rooms, the mafia's room, the
members who leave and come back, the host role (``cogs/serverlife.py`` turns Discord's events
into calls here; who may read what is ``bot/secrecy.py``).

- **Rights gained mid-game.** A role given or edited, a permission overwrite on a channel, the
  table's host role, the server's ownership: the guild is marked for a check, and
  :data:`DEBOUNCE_SECONDS` later (a burst of events is one check) every living seated player
  of its running games is checked again (:func:`bot.secrecy.seat_exposures`). What a player
  can now read beyond his seat is told to the hosts in #host, with the nickname, the member
  and what grants it; what he no longer can is told too. The notices are #host rows of the
  game's outbox, so the hosts are told once: what was told is read back from the outbox after
  a restart (:meth:`GameService.host_notices`), and a check tells only what changed since.
- **The mafia's room.** A member who is neither a living member of the game's mafia nor a
  host, added to the room by someone else, is removed at once (``thread_member_join``) and the
  hosts are told. A living member of the mafia removed from it is added back, and a deleted room
  opened again with the living mafia, at the next check (a thread member removed or a thread
  deleted marks the guild for one); the hosts are told, or told why it could not be done.
- **The ghosts' room** (R62, ``bot/ghost_room.py``). Anyone given access to it (a member's or
  a role's overwrite) who is neither dead in the game (his death published), a spectator, a
  host nor the bot loses it at the next check (an overwrite edited marks the guild for one),
  and the hosts are told.
- **A member who leaves and comes back.** Discord drops a member who leaves from every
  thread. When a living seated player joins the server again, the hosts are told, and a
  member of the mafia is added back to the room at once (his leaving is told by
  ``cogs/lobby.py``).
- **The host role deleted.** The hosts are told that until a new one is set with
  ``/mafia setup host_role:``, only members with Manage Server run the host commands.
- **What the bot did not see.** When the bot is ready (a start, a restart, a new gateway
  session: whatever changed while it did not listen), every running game gets a full check,
  the room's member list read from Discord included; so does a game seen for the first time.
  Whenever the clock or a command acted, a game whose turn moved since the last look (a
  resolution, by the clock, a host or a pistol shot) gets the checks that read the cache only
  (who can read what, the host role, the ghosts' room), not the room's members: the room
  changes at a resolution by the bot's own hand (its outbox rows let the mafia in and out),
  and a change by anyone else comes as a gateway event (``THREAD_MEMBERS_UPDATE``), which
  marks the room for a check. The bot's own removals come back as that event too: they are
  known for the bot's (:meth:`bot.mafia_room.MafiaRooms.removed_by_us`) and read nothing.
  No timer runs while nothing happens.

Bounded work: one pending check per guild however many events, at most
:data:`CHECKS_AT_ONCE` checks at a time for every server; events of servers without a running
game cost a dict lookup.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

import attrs
import discord

from bot.delivery import Delivery, slot_channel
from bot.ghost_room import INTRUDER_NOTICE, intruders, room_host
from bot.hosts import is_host
from bot.render import render_server_notice
from bot.secrecy import (
    ExposureKey,
    exposure_items,
    exposure_key,
    may_sit_in_room,
    seat_exposures,
)
from bot.tables import table_language
from core.ghosts import has_ghost_room
from core.live import LiveGame
from core.service import GameService
from db.interface import GameStore
from db.models import TableSettings
from rules.knowledge import mafia_members

log = logging.getLogger(__name__)

#: How long after a server change the check runs: the events of one edit (a role change
#: fires one per member, a category's overwrites one per channel) make one check.
DEBOUNCE_SECONDS: Final[float] = 15.0
#: Checks running at once, over every server.
CHECKS_AT_ONCE: Final[int] = 4

#: The #host notice kinds (declared in ``bot/outbox_kinds.py``, texts in ``bot/render/server.py``).
READER_NOTICE: Final = "secret_reader"
#: How many times the room check reads the room's members and the rows in flight before it
#: leaves the room to the next check (the delivery kept changing it meanwhile).
ROOM_READS: Final[int] = 3


@attrs.frozen
class _RoomMoment:
    """What the room should hold at one moment: the living mafia (user id -> nickname) and
    the nicknames the delivery is about to let in (``joining``) or take out (``leaving``)."""

    joining: frozenset[str]
    leaving: frozenset[str]
    mafia: dict[int, str]


@attrs.define
class _Dirty:
    rooms: bool = False


class ServerWatch:
    """Checks the running games of a server after it changed (debounced per server)."""

    def __init__(
        self,
        client: discord.Client,
        store: GameStore,
        service: GameService,
        delivery: Delivery,
        *,
        debounce: float = DEBOUNCE_SECONDS,
    ) -> None:
        self.client = client
        self.store = store
        self.service = service
        self.delivery = delivery
        self.debounce = debounce
        self._pool = asyncio.Semaphore(CHECKS_AT_ONCE)
        self._dirty: dict[int, _Dirty] = {}  # guild -> what its pending check covers
        self._pending: dict[int, asyncio.Task[None]] = {}  # guild -> its pending check
        self._active: set[asyncio.Task[None]] = set()  # the checks pending or running
        self._seen: dict[int, tuple[int, str]] = {}  # game -> (turn, phase) last looked at
        self._games: dict[int, set[int]] = {}  # guild -> its running games (at the sweep)
        #: game -> user -> what the hosts were last told he can read (from the outbox).
        self._reported: dict[int, dict[int, frozenset[ExposureKey]]] = {}
        self._broken: set[int] = set()  # games whose hosts were told the room cannot be made
        self._last_removal: discord.RawThreadMembersUpdate | None = None  # handled already
        self._stopped = False

    # --- scheduling -----------------------------------------------------------------------
    def start(self) -> None:
        """The bot is ready (its guilds are known; after a start, or a new gateway session
        whose missed events Discord does not replay): every running game gets a full check,
        its mafia room's members read from Discord."""
        if not self._stopped:
            self._seen.clear()
            self.delivery.rooms.forget_removals()  # every room is read now
            self.sweep()

    def sweep_soon(self) -> None:
        """The clock or a command acted (a turn may have been resolved): look at the running
        games now. The look is cheap (an index of the games by server); a game whose turn
        moved gets its checks from the cache after the debounce (not the room's members: see
        the module's notes), a game seen for the first time a full check. No timer runs while
        nothing happens, and none runs for the look itself: a timer per command would keep a
        simulated clock, and a real loop, busy for nothing."""
        if not self._stopped and not self.client.is_closed():
            self.sweep()

    def stop(self) -> None:
        self._stopped = True
        tasks = list(self._pending.values())
        self._pending.clear()
        for task in tasks:
            if task is not None:
                task.cancel()

    def watches(self, guild_id: int) -> bool:
        """Whether the guild has a running game (as of the last sweep)."""
        return bool(self._games.get(guild_id))

    def touch(self, guild_id: int, *, rooms: bool = False, force: bool = False) -> None:
        """Check the guild's running games :attr:`debounce` seconds from now (``rooms``: the
        mafia's rooms too). Several calls meanwhile make one check."""
        if self._stopped or (not force and not self.watches(guild_id)):
            return
        dirty = self._dirty.setdefault(guild_id, _Dirty())
        dirty.rooms |= rooms
        if guild_id not in self._pending:
            task = asyncio.get_running_loop().create_task(
                self._later(guild_id), name=f"server-watch-{guild_id}"
            )
            self._pending[guild_id] = task
            self._active.add(task)
            task.add_done_callback(self._active.discard)

    @property
    def busy(self) -> bool:
        """Whether a check is pending or running (the delivery benchmark waits for it)."""
        return bool(self._active)

    async def _later(self, guild_id: int) -> None:
        await asyncio.sleep(self.debounce)
        async with self._pool:
            self._pending.pop(guild_id, None)  # an event from now on makes a new check
            dirty = self._dirty.pop(guild_id, _Dirty())
            if self._stopped or self.client.is_closed():
                return
            guild = self.client.get_guild(guild_id)
            if guild is None:
                return
            try:
                await self.check(guild, rooms=dirty.rooms)
            except Exception:
                log.exception("guild %s: checking the running games failed", guild_id)

    def sweep(self) -> None:
        """Index the running games by guild; a game seen for the first time gets a full check
        of its guild, a game whose turn moved since the last look the checks from the cache."""
        games: dict[int, set[int]] = {}
        for game in list(self.service.live.values()):
            guild_id = game.record.guild_id
            if self.client.get_guild(guild_id) is None:
                continue  # not available yet: looked at once it is
            games.setdefault(guild_id, set()).add(game.id)
            key = (game.engine.turn, game.engine.phase.value)
            seen = self._seen.get(game.id)
            if seen != key:
                self._seen[game.id] = key
                self.touch(guild_id, rooms=seen is None, force=True)
        self._games = games
        live = set(self.service.live)
        for game_id in [g for g in self._seen if g not in live]:
            self._seen.pop(game_id, None)
            self._reported.pop(game_id, None)
            self._broken.discard(game_id)

    def _running(self, guild: discord.Guild) -> list[LiveGame]:
        """The guild's running games (a look at every game: once per check, not per event)."""
        return [g for g in list(self.service.live.values()) if g.record.guild_id == guild.id]

    # --- the checks -----------------------------------------------------------------------
    async def check(self, guild: discord.Guild, *, rooms: bool) -> None:
        """Every running game of the guild: its living players' rights, and (``rooms``) its
        mafia's room."""
        games = self._running(guild)
        if games and not guild.chunked:
            # Who is on the server is read from the member cache: complete it first (after a
            # start or a reconnect Discord sends the members in chunks).
            try:
                await guild.chunk()
            except (TimeoutError, discord.HTTPException):
                log.warning("guild %s: could not load its members", guild.id, exc_info=True)
                return
        for game in games:
            settings = await self.store.get_table(game.record.table_id)
            queued = await self._check_host_role(guild, settings, game)
            queued |= await self._check_readers(guild, settings, game)
            if rooms:
                queued |= await self._check_room(guild, settings, game)
            queued |= await self._check_ghost_room(guild, settings, game)
            if queued:
                await self.delivery.deliver_game(game.id)

    async def _told(self, game: LiveGame) -> dict[int, frozenset[ExposureKey]]:
        told = self._reported.get(game.id)
        if told is None:
            told = {}
            for payload in await self.service.host_notices(game.id, READER_NOTICE):
                now = payload.get("now") or []
                told[int(payload["user"])] = frozenset(
                    (str(item["where"]), str(item["reason"])) for item in now
                )
            self._reported[game.id] = told
        return told

    async def _check_readers(
        self, guild: discord.Guild, settings: TableSettings | None, game: LiveGame
    ) -> bool:
        """Tell the hosts what each living player can now read beyond his seat (and what he
        no longer can), once per change. True if a notice was queued."""
        told = await self._told(game)
        state = game.public_state  # while results wait for the host, as players know it
        mafia = set(mafia_members(state))
        queued = False
        for player in list(game.players):
            seat = state.players.get(player.nick)
            if seat is None or not seat.alive:
                continue
            member = guild.get_member(player.user_id)
            if member is None:
                continue  # left the server: nothing to read there
            found = seat_exposures(guild, settings, member, in_mafia=player.nick in mafia)
            now = frozenset(exposure_key(e) for e in found)
            before = told.get(player.user_id, frozenset())
            if now == before:
                continue
            gained = [e for e in found if exposure_key(e) not in before]
            lost = sorted(before - now)
            payload: dict[str, Any] = {
                "nick": player.nick,
                "user": player.user_id,
                "gained": exposure_items(guild, settings, member, gained),
                "lost": [
                    {"where": w, "reason": r, "channel": self._slot_id(guild, settings, w)}
                    for w, r in lost
                ],
                "now": [{"where": w, "reason": r} for w, r in sorted(now)],
            }
            if await self.service.host_notice(game.id, READER_NOTICE, payload):
                told[player.user_id] = now
                queued = True
                log.info(
                    "guild %s, game %s: player %s can now read %s",
                    guild.id,
                    game.id,
                    player.user_id,
                    sorted(now),
                )
        return queued

    @staticmethod
    def _slot_id(guild: discord.Guild, settings: TableSettings | None, where: str) -> int | None:
        channel = slot_channel(guild, settings, where)
        return channel.id if channel is not None else None

    def _mafia_ids(self, game: LiveGame) -> dict[int, str]:
        """The living members of the game's mafia: user id -> nickname. While a turn's results
        wait for the host's review, the mafia as it stood before them: a mafioso killed in
        those results stays in the room (and is no intruder) until they are published."""
        team = set(mafia_members(game.public_state))
        return {p.user_id: p.nick for p in game.players if p.nick in team}

    async def _in_flight(self, game: LiveGame) -> _RoomMoment:
        """The game's living mafia, with the nicknames the delivery is about to add to the
        room (``mafia_joined``) and to take out of it (``mafia_left``): not the watch's
        business. The mafia is read right after the rows, with no wait in between."""
        joining: set[str] = set()
        leaving: set[str] = set()
        for row in await self.store.pending_outbox(game.id):
            nick = (row.payload.get("payload") or {}).get("nick")
            if row.kind == "mafia_joined":
                joining.add(str(nick))
            elif row.kind == "mafia_left":
                leaving.add(str(nick))
        return _RoomMoment(frozenset(joining), frozenset(leaving), self._mafia_ids(game))

    async def _room_members(
        self, room: discord.Thread, game: LiveGame
    ) -> tuple[set[int], _RoomMoment] | None:
        """The room's members with the mafia and the rows in flight, as of one moment: the
        rows read before the members and again after them, the same both times (else read
        again: the delivery added or took out a member meanwhile, and marked its row sent).
        None if the room could not be listed, or kept changing."""
        for _attempt in range(ROOM_READS):
            before = await self._in_flight(game)
            try:
                present = {m.id for m in await room.fetch_members()}
            except discord.HTTPException:
                log.warning("game %s: could not list the mafia room", game.id, exc_info=True)
                return None
            if await self._in_flight(game) == before:
                return present, before
        log.info("game %s: the mafia room kept changing; the next check looks again", game.id)
        return None

    async def _check_room(
        self, guild: discord.Guild, settings: TableSettings | None, game: LiveGame
    ) -> bool:
        """The game's mafia room exists and holds the living mafia and nobody else (the bot
        and the hosts may be in it). True if a notice was queued."""
        parent = slot_channel(guild, settings, "mafia")
        if parent is None:
            return await self._room_broken(game, "no_parent", None)
        rooms = self.delivery.rooms
        try:
            room = await rooms.find(parent, game.id)
        except discord.HTTPException:
            log.warning("guild %s: could not look for the mafia room", guild.id, exc_info=True)
            return False
        if room is None:
            return await self._reopen(guild, game, parent)
        self._broken.discard(game.id)
        if room.archived:
            return False  # quiet for a week: nobody can be added to it, it wakes when used
        seen = await self._room_members(room, game)
        if seen is None:
            return False
        present, moment = seen
        me = guild.me
        if me is not None and me.id not in present:  # a moderator took the bot out
            try:
                await room.join()
            except discord.HTTPException:
                log.warning("guild %s: could not join the mafia room again", guild.id)
        joining, leaving, mafia = moment.joining, moment.leaving, moment.mafia
        seated = {p.user_id: p.nick for p in game.players}
        queued = False
        for user_id in sorted(present):
            if may_sit_in_room(guild, settings, user_id, set(mafia)):
                continue
            if seated.get(user_id) in leaving:
                continue  # dead: the delivery takes him out once he is told
            queued |= await self._remove(room, game, user_id, seated.get(user_id))
        for user_id, nick in sorted(mafia.items(), key=lambda item: item[1]):
            if user_id in present or nick in joining:
                continue
            member = guild.get_member(user_id)
            if member is None:
                continue  # left the server: added back if he returns
            try:
                await rooms.add(room, member)
            except discord.HTTPException:
                log.warning("guild %s: could not add %s to the room", guild.id, user_id)
                continue
            payload = {"nick": nick, "user": user_id}
            queued |= await self.service.host_notice(game.id, "room_restored", payload)
        return queued

    async def _check_ghost_room(
        self, guild: discord.Guild, settings: TableSettings | None, game: LiveGame
    ) -> bool:
        """R62: nobody reads the game's ghosts' room but the dead whose death is published, the
        spectators watching, the hosts and the bot; any other access (a member's or a role's
        overwrite someone added) is taken away at once and the hosts are told. True if a
        notice was queued. Read from the cache: no request unless there is an intruder."""
        if not has_ghost_room(game.record):
            return False
        rooms = self.delivery.router.ghost_rooms
        room = rooms.find(guild, settings, game.id)
        if room is None:
            return False  # opened with the first row sent there (a death, a spectator)
        try:  # its own overwrites first: hidden from @everyone, the bot's, the hosts'
            lang = table_language(settings, guild)
            await rooms.ensure(guild, settings, game.record, lang)
        except discord.HTTPException:
            log.warning("guild %s: could not repair the ghosts' room", guild.id, exc_info=True)
        state = game.public_state  # while results wait for the host, as players know them
        allowed = {p.user_id for p in game.players if not state.alive(p.nick)}
        allowed |= set(await self.store.spectators(game.id))
        host = room_host(guild, settings, game.record)
        owned = {guild.default_role.id, *([guild.me.id] if guild.me else [])}
        if host is not None:
            owned.add(host.id)
        host_role_id = settings.host_role_id if settings is not None else None
        seated = {p.user_id: p.nick for p in game.players}
        queued = False
        for target in intruders(room, owned, allowed):
            member = guild.get_member(target.id)
            if member is not None and is_host(member, host_role_id):
                continue  # a host reads everything anyway
            removed = True
            try:
                await rooms.let_out(room, target.id)
            except discord.HTTPException:
                log.warning("guild %s: could not close the ghosts' room to %s", guild.id, target.id)
                removed = False
            is_role = isinstance(target, discord.Role)
            payload = {
                "user": None if is_role else target.id,
                "role": target.id if is_role else None,
                "nick": seated.get(target.id),
                "removed": removed,
            }
            queued |= await self.service.host_notice(game.id, INTRUDER_NOTICE, payload)
        return queued

    async def _reopen(
        self, guild: discord.Guild, game: LiveGame, parent: discord.TextChannel
    ) -> bool:
        """The room is gone (deleted): open it again with the living mafia."""
        try:
            room = await self.delivery.mafia_room(guild, game.id)
        except discord.HTTPException:
            log.warning("guild %s: could not open the mafia room again", guild.id, exc_info=True)
            return await self._room_broken(game, "forbidden", parent.id)
        if room is None:
            return False
        self._broken.discard(game.id)
        members = sorted(self._mafia_ids(game).values())
        return await self.service.host_notice(game.id, "room_reopened", {"members": members})

    async def _room_broken(self, game: LiveGame, why: str, channel_id: int | None) -> bool:
        """Told once per game and run (a restart tells it again if it still holds)."""
        if game.id in self._broken:
            return False
        self._broken.add(game.id)
        payload = {"why": why, "channel": channel_id}
        return await self.service.host_notice(game.id, "room_broken", payload)

    async def _remove(
        self, room: discord.Thread, game: LiveGame, user_id: int, nick: str | None
    ) -> bool:
        removed = True
        try:
            await self.delivery.rooms.remove(room, discord.Object(user_id, type=discord.Member))
        except discord.HTTPException:
            log.warning("could not remove %s from the mafia room of game %s", user_id, game.id)
            removed = False
        payload = {"user": user_id, "nick": nick, "removed": removed}
        return await self.service.host_notice(game.id, "room_intruder", payload)

    # --- events that act at once ---------------------------------------------------------
    def thread_members_removed(self, event: discord.RawThreadMembersUpdate) -> None:
        """Members were taken out of a thread: the guild's rooms are checked, unless every
        removal is the bot's own (the delivery's or this watch's: the room is as it made it).
        discord.py hands the same event once per member removed: it is looked at once."""
        if event is self._last_removal or not self.watches(event.guild_id):
            return
        self._last_removal = event
        me = self.client.user.id if self.client.user is not None else None
        removed = [int(x) for x in event.data.get("removed_member_ids", []) if int(x) != me]
        rooms = self.delivery.rooms
        ours = [rooms.removed_by_us(event.thread_id, user_id) for user_id in removed]
        if not all(ours):
            self.touch(event.guild_id, rooms=True)

    async def thread_member_joined(self, member: discord.ThreadMember) -> None:
        """Someone was added to a thread: if it is a running game's mafia room and he may not
        be in it, he is taken out at once and the hosts are told."""
        thread = member.thread
        guild = thread.guild
        for game in self._running(guild):
            settings = await self.store.get_table(game.record.table_id)
            parent = slot_channel(guild, settings, "mafia")
            if parent is None or thread.parent_id != parent.id:
                continue
            room = await self.delivery.rooms.find(parent, game.id)
            if room is None or room.id != thread.id:
                continue
            if may_sit_in_room(guild, settings, member.id, set(self._mafia_ids(game))):
                return
            seated = {p.user_id: p.nick for p in game.players}
            nick = seated.get(member.id)
            if nick is not None and nick in (await self._in_flight(game)).leaving:
                return  # the delivery takes him out
            if await self._remove(room, game, member.id, nick):
                await self.delivery.deliver_game(game.id)
            return

    async def member_returned(self, member: discord.Member) -> None:
        """A member joined the server: if he holds a living seat, the hosts are told, and a
        member of the mafia gets his room back (Discord dropped him from it when he left)."""
        for game in self._running(member.guild):
            nick = game.nick_of(member.id)
            seat = game.public_state.players.get(nick) if nick is not None else None
            if nick is None or seat is None or not seat.alive:
                continue
            room_state: str | None = None
            if member.id in self._mafia_ids(game):
                room_state = "failed"
                try:
                    room = await self.delivery.mafia_room(member.guild, game.id)
                    if room is not None:
                        await self.delivery.rooms.add(room, member)
                        room_state = "added"
                except discord.HTTPException:
                    log.warning(
                        "guild %s: could not give %s his room back",
                        member.guild.id,
                        member.id,
                        exc_info=True,
                    )
            payload = {"nick": nick, "user": member.id, "room": room_state}
            if await self.service.host_notice(game.id, "player_returned", payload):
                await self.delivery.deliver_game(game.id)
        self.touch(member.guild.id)

    async def _check_host_role(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        game: LiveGame,
        name: str = "",
    ) -> bool:
        """The table's host role is gone (deleted, also while the bot was down): the hosts
        are told, once per role and game. True if a notice was queued."""
        role_id = settings.host_role_id if settings is not None else None
        if role_id is None or guild.get_role(role_id) is not None:
            return False
        told = await self.service.host_notices(game.id, "host_role_deleted")
        if any(payload.get("role") == role_id for payload in told):
            return False
        payload = {"role": role_id, "name": name}
        return await self.service.host_notice(game.id, "host_role_deleted", payload)

    async def role_deleted(self, role: discord.Role) -> None:
        """A table's host role was deleted: its hosts are told (in the game's #host order if
        a game runs there, else at once)."""
        guild = role.guild
        for table in await self.store.tables(guild.id):
            if table.host_role_id != role.id:
                continue
            game = self.service.game_in(table.table_id)
            if game is not None:
                if await self._check_host_role(guild, table, game, role.name):
                    await self.delivery.deliver_game(game.id)
                continue
            payload = {"role": role.id, "name": role.name}
            lang = table_language(table, guild)
            text = render_server_notice(lang, "host_role_deleted", payload) or ""
            await self.delivery.tell_hosts(guild, text, table_id=table.table_id)
        self.touch(guild.id)
