"""Delivering the game's outbox: every announcement the service queued, rendered in its table's
language and sent where its audience is, in the channels of the game's table.

An outbox row's payload is ``{"kind", "audience", "payload"}`` (``rules/announce.py``):
audience ``public`` is a bot message in #game, ``mafia`` a bot message in the game's mafia room
(a private thread in #mafia, ``bot/mafia_room.py``), anything else
a player's nickname, sent to that player's Discord user as a private message. A row is marked
sent only after Discord accepted it (delivery is at least once). A private message that Discord
refuses (closed DMs) is reported plainly in #host, without its text, and still marked sent: the
player reads his card and his news with ``/role`` and ``/status``.

Discord failing (a 5xx, a 429 past discord.py's own retries, a timeout, a dropped connection)
blocks only the failing row's game: its later rows wait, so each game keeps its order, while
the other games' rows go on (another table's game too: a table's deleted channel or lost
permission stops only its own game). A timer tries again with a backoff (:data:`RETRY_FIRST_SECONDS`
doubling to :data:`RETRY_MAX_SECONDS`), and the hosts read a notice in #host once a game's
announcements have been stuck for :data:`STUCK_NOTICE_SECONDS`, once per stuck episode.

The tables deliver concurrently (issue 14: a thousand games share the forum's 21:00 deadline):
each table's rows go out in order through one worker, since a table's channels (#game, its
mafia room, #host) are its own, at most :data:`WORKERS` tables at a time. Every request waits
on discord.py's bucket for its route (5 messages per 5 s in a channel, read from Discord's
``X-RateLimit-*`` headers), then on one limiter for Discord's global 50 requests per second
(:func:`global_rate_trace`), so none of them is answered 429 on the way.

A send whose answer was lost may have gone through. Every message carries a nonce derived from
its outbox row and piece (:func:`nonce_of`), which Discord enforces (discord.py sends
``enforce_nonce`` with it) for a few minutes; and before sending a row again after a failed
attempt, the bot reads the target's latest messages and skips the pieces it finds there, posted
by itself since that attempt, so a retry long after the nonce window sends nothing twice either.

Several processes may deliver one outbox (issue 15): each claims the rows it sends
(``GameStore.claim_outbox``) under a lease named by its own owner id (:func:`process_owner`),
so two deliverers never send the same row at once and a game's rows go out through one of them
at a time. A live deliverer renews its leases as it goes (:data:`RENEW_FRACTION`); a crashed
one's rows are claimed by another once their lease (:data:`LEASE_SECONDS`) expires, and the
nonces and the history check above keep a row it sent but did not mark from going out twice.

Nothing public ever names a Discord user: nicknames only.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta
from functools import partial
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import attrs
import discord
from aiolimiter import AsyncLimiter

from bot.attachments import game_files
from bot.mafia_room import ROOM_NEEDS, MafiaRooms
from bot.pistol import pistol_view
from bot.posts import Post, post_text
from bot.render import (
    EMBED_KINDS,
    render,
    render_console,
    render_posts,
    render_role_card,
    with_dm_header,
)
from bot.review import review_view
from bot.tables import table_language, table_title
from bot.webhooks import split_message
from core.i18n import Lang, t
from core.review import DRAFT_KIND
from core.service import GameService
from core.shards import Shards
from db.interface import GameStore
from db.models import GameRecord, OutboxRecord, TableSettings
from rules.announce import HOST, MAFIA, PUBLIC
from rules.knowledge import role_card

log = logging.getLogger(__name__)

#: Discord's "Cannot send messages to this user".
CANNOT_DM = 50007

NO_MENTIONS = discord.AllowedMentions.none()


#: What the bot needs in #game to post the game's announcements (in #mafia: ``ROOM_NEEDS``).
CHANNEL_NEEDS: Final[tuple[str, ...]] = ("view_channel", "send_messages", "read_message_history")

#: Discord's global limit: 50 requests per second per bot, over all routes but the
#: interactions' (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
GLOBAL_RATE: Final[float] = 49.0  # 50, less a margin for clocks
#: How many tables deliver at once. Each sends in order, one request at a time, and may wait
#: on its channel's bucket (5 messages per 5 s): enough of them keep the global limit busy.
WORKERS: Final[int] = 200

#: The first retry after a failed delivery, doubling after each failed pass up to the maximum.
#: Longer than SimCord's 5-second settle timeout, so tests drive it with ``advance_time``.
RETRY_FIRST_SECONDS: Final[float] = 10.0
RETRY_MAX_SECONDS: Final[float] = 300.0
#: How long a game's announcements may fail before the hosts are told in #host.
STUCK_NOTICE_SECONDS: Final[float] = 300.0
#: How many of a target's latest messages are read to find a piece already sent (plus pieces).
HISTORY_LIMIT: Final[int] = 10
#: Clocks disagree a little: a message a bit older than the failed attempt still counts.
CLOCK_SLACK: Final[timedelta] = timedelta(seconds=30)

#: How long a claimed outbox row stays this process's (issue 15): longer than a table's
#: worker waits on Discord for one message (its channel's bucket, discord.py's retries),
#: renewed after a third of it (:data:`RENEW_FRACTION`) while rows go out, so a slow but
#: live deliverer keeps its rows and a dead one's are taken over within a minute.
LEASE_SECONDS: Final[float] = 60.0
RENEW_FRACTION: Final[float] = 1 / 3
#: The most rows one read of the outbox claims (a deadline of a thousand games queues a
#: few thousand rows); what is left is claimed by the next delivery.
CLAIM_LIMIT: Final[int] = 10_000


def lease_slot(shards: Shards | None = None) -> str:
    """What this process is, for its outbox leases: its host and the shards it runs (one
    process at a time runs a given set of shards on a host), ending with ``#``."""
    what = "all" if shards is None else f"shards-{','.join(map(str, shards.ids))}of{shards.count}"
    return f"{socket.gethostname()}/{what}#"


def process_owner(shards: Shards | None = None) -> str:
    """An owner id for this process's outbox leases: its :func:`lease_slot`, then what is
    unique to this run (restarts included)."""
    return f"{lease_slot(shards)}{os.getpid()}:{uuid.uuid4().hex[:8]}"

#: Failures that pass: Discord's 5xx and 429 (discord.py has retried already), timeouts and
#: lost connections. ``discord.Forbidden`` (a lost permission) is handled apart.
TRANSIENT: Final = (discord.HTTPException, discord.RateLimited, OSError, aiohttp.ClientError)


def target_key(target: discord.abc.Messageable) -> tuple[str, int]:
    """A user (his DM channel may not be open yet) or a channel."""
    if isinstance(target, discord.abc.User):
        return ("user", target.id)
    return ("channel", getattr(target, "id", 0))


def nonce_of(row_id: int, piece: int) -> str:
    """The nonce of a piece of an outbox row: the same on every attempt (at most 25 chars)."""
    return f"mafia-{row_id}-{piece}"


def global_rate_trace(rate: float = GLOBAL_RATE) -> aiohttp.TraceConfig:
    """Keeps the bot's requests under Discord's global limit: give it to the client
    (``http_trace``) and every request made with the bot's token waits its turn in one
    :class:`aiolimiter.AsyncLimiter` (a leaky bucket, ``rate`` per second, no burst: Discord
    counts them over a second) just before it leaves, after discord.py's own wait on the
    route's bucket (it reads the ``X-RateLimit-*`` headers and waits on a 429). discord.py
    only learns the global limit from a 429 and then stops every request for a while; it
    never paces them. Interactions' answers and webhooks (no token) are not bound by it."""
    limiter = AsyncLimiter(1, 1 / rate)

    async def pace(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if params.headers.get("Authorization", "").startswith("Bot "):
            await limiter.acquire()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(pace)
    return trace


# --- sending ----------------------------------------------------------------------------------
@attrs.define
class _Pass:
    """What a worker's run (or a whole delivery) did: rows marked sent, games whose row
    waits (``stuck``), of those the ones Discord failed (``failing``), games that moved on."""

    done: int = 0
    stuck: set[int] = attrs.Factory(set)
    failing: set[int] = attrs.Factory(set)
    progressed: set[int] = attrs.Factory(set)

    def merge(self, other: _Pass) -> None:
        self.done += other.done
        self.stuck |= other.stuck
        self.failing |= other.failing
        self.progressed |= other.progressed


class Delivery:
    """Sends the pending outbox: each table's rows in order, the tables concurrently (at most
    ``workers`` at a time), and tries again on a timer while some game's rows fail.

    ``clock`` (the service's by default: virtual time under SimCord) dates the failures and
    ``sleep`` waits between retries; both are injectable.
    """

    def __init__(
        self,
        client: discord.Client,
        store: GameStore,
        service: GameService,
        *,
        clock: Callable[[], datetime] | None = None,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        workers: int = WORKERS,
        owns: Callable[[int], bool] | None = None,
        shards: Shards | None = None,
        owner: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        #: Whose leases this deliverer's claims are (one per process).
        self.owner = owner or process_owner(shards)
        #: The leases of an earlier run of this same process (killed) are ended at the first
        #: claim (``expire_leases``), so a restart sends what it left at once, not a minute
        #: later; None when the owner was given (tests), or once done.
        self._slot: str | None = None if owner else lease_slot(shards)
        self.lease_seconds = lease_seconds
        self._renewed = time.monotonic()  # when this deliverer's leases were last renewed
        self._lost: set[int] = set()  # rows queued here whose lease another deliverer took
        self.client = client
        #: Shards (issue 15): the servers whose games' rows this process sends (None: all);
        #: another process sends the others' (``core/shards.py``).
        self._owns = owns
        #: The process's shards: its claims take only rows of games on them, so it never
        #: leases (and holds back) another shard's rows (None: every game's).
        self.shards = shards
        self.store = store
        self.service = service
        self.clock = clock or service.clock
        self._sleep = sleep
        self._pool = asyncio.Semaphore(workers)
        self._workers: dict[int, asyncio.Task[_Pass]] = {}  # table -> its running worker
        self._queues: dict[int, deque[OutboxRecord]] = {}  # table -> its worker's rows
        self._queued: set[int] = set()  # rows in a worker's queue
        self._reading = asyncio.Lock()  # one read of the outbox at a time
        self._next_read: asyncio.Future[list[asyncio.Task[_Pass]]] | None = None
        self._tables: dict[int, int] = {}  # game -> table
        self._mine: dict[int, bool] = {}  # game -> whether this process owns it (shards)
        self._reported: set[int] = set()  # rows whose failure the hosts were told of
        self.rooms = MafiaRooms(service)
        #: Rows whose last attempt failed, with the time of their first failed attempt: they
        #: may have gone through, so their target's history is read before sending again.
        self._attempted: dict[int, datetime] = {}
        #: Per row being sent, the last message known to be ours in each of its targets.
        self._marks: dict[int, dict[tuple[str, int], int | None]] = {}
        self._last_sent: dict[tuple[str, int], int] = {}  # target -> our last message there
        #: Games whose rows fail (transiently), since when, without progress meanwhile.
        self._failing_since: dict[int, datetime] = {}
        self._told: set[int] = set()  # games whose hosts were told of this stuck episode
        self._retry: asyncio.Task[None] | None = None
        self._retry_round = 0  # failed passes in a row: the backoff's exponent
        self._retry_sleeping = False
        self._dm_channels: dict[int, int] = {}  # user -> his DM channel
        #: game_over rows whose files could not be built: sent without them, hosts told once.
        self._no_files: set[int] = set()

    def retry_delay(self) -> float:
        """The wait before the next retry: doubles with each failed pass, up to the maximum."""
        return min(RETRY_FIRST_SECONDS * 2.0**self._retry_round, RETRY_MAX_SECONDS)

    async def deliver(self) -> int:
        """Send every pending row; returns how many of the rows it found were marked sent.

        The rows are split by table, and each table's rows go out in order through one worker
        (its channels are the table's: #game, its mafia room, #host), at most ``workers``
        tables at a time, so one deadline's thousand games go out together under the global
        rate limit (:func:`global_rate_trace`) instead of one row after another. A game whose
        row fails is skipped for the rest of its worker's run (its order is kept); the timer
        tries again.

        Calls may overlap (the clock calls after each resolution, commands after theirs): a
        row already queued in a worker is not queued twice, each call waits for the workers
        holding the rows it found, and calls that arrive while the outbox is being read wait
        for the next read together (one read at a time, however many calls)."""
        return await self._finish(await self._dispatch())

    async def deliver_game(self, game_id: int) -> int:
        """Send the pending rows of one game (the clock, after acting on it): reads only its
        rows, so a thousand games resolved one after another do not each read the whole
        outbox. Returns how many of them were marked sent."""
        workers = await self._hand_out(await self._claim(game_id))
        return await self._finish(workers, covered={game_id})

    async def _claim(self, game_id: int | None = None) -> list[OutboxRecord]:
        """The pending rows (of one game, or of all) this deliverer may send: claimed for it,
        or renewed if it held them already; not those another live deliverer holds, nor
        (with ``shards``) those of another shard's games, left for their own process."""
        if self._slot is not None:
            slot, self._slot = self._slot, None
            taken = await self.store.expire_leases(slot, self.owner)
            if taken:
                log.info("taking over %d announcements of this process's last run", len(taken))
        shards = self.shards
        rows = await self.store.claim_outbox(
            self.owner,
            game_id=game_id,
            limit=CLAIM_LIMIT,
            lease_seconds=self.lease_seconds,
            shard_count=None if shards is None else shards.count,
            shard_ids=() if shards is None else shards.ids,
        )
        for row in rows:
            if row.retaken:  # its deliverer died, maybe after sending it: look first
                self._attempted.setdefault(row.id, row.created_at)
        return rows

    async def _keep_leases(self) -> None:
        """Renew this deliverer's leases when a third of their time has passed; a queued row
        no longer among them was taken over (this process was thought dead): not sent here."""
        if time.monotonic() - self._renewed < self.lease_seconds * RENEW_FRACTION:
            return
        self._renewed = time.monotonic()
        queued = set(self._queued)  # claimed before the renewal (a claim meanwhile is not)
        held = set(await self.store.renew_outbox(self.owner, lease_seconds=self.lease_seconds))
        self._lost = (self._lost | (queued - held)) & self._queued

    async def _finish(
        self, workers: list[asyncio.Task[_Pass]], covered: set[int] | None = None
    ) -> int:
        """Wait for ``workers``, then track the failures of the games ``covered`` (None:
        every game) and arm the retry timer if a row waits."""
        if workers:  # not gather: a caller cancelled never cancels the workers it shares
            await asyncio.wait(workers)
        outcome = _Pass()
        for worker in workers:
            if not worker.cancelled():  # the bot is closing
                outcome.merge(worker.result())
        await self._track_failures(outcome.failing, outcome.progressed, covered)
        self._schedule_retry(outcome.stuck, outcome.progressed, every_game=covered is None)
        return outcome.done

    async def _dispatch(self) -> list[asyncio.Task[_Pass]]:
        """Read the pending rows (or join the read about to start) and hand the new ones to
        their table's worker; the workers holding them."""
        if self._next_read is not None:  # a read not started yet: it will see our rows
            return await asyncio.shield(self._next_read)
        read = self._next_read = asyncio.get_running_loop().create_future()
        try:
            async with self._reading:
                self._next_read = None  # from here on, a new call needs a new read
                workers = await self._hand_out(await self._claim())
        except BaseException as exc:
            if self._next_read is read:
                self._next_read = None
            read.set_exception(exc)
            read.exception()  # retrieved: the callers sharing the read raise it themselves
            raise
        read.set_result(workers)
        return workers

    async def _hand_out(self, rows: list[OutboxRecord]) -> list[asyncio.Task[_Pass]]:
        workers: dict[int, asyncio.Task[_Pass]] = {}
        for row in rows:
            table_id = await self._table_of(row.game_id)
            if not self._mine.get(row.game_id, True):  # another shard's game (issue 15)
                continue
            worker = self._workers.get(table_id)
            if row.id in self._queued:  # a worker has it already
                if worker is not None:
                    workers[table_id] = worker
                continue
            # No await from here to the append: a running worker cannot end in between.
            if worker is None:
                queue: deque[OutboxRecord] = deque()
                worker = asyncio.get_running_loop().create_task(
                    self._work(table_id, queue), name=f"outbox-table-{table_id}"
                )
                self._workers[table_id] = worker
                self._queues[table_id] = queue
            self._queues[table_id].append(row)
            self._queued.add(row.id)
            workers[table_id] = worker
        return list(workers.values())

    async def _table_of(self, game_id: int) -> int:
        """The table of a game (a game never moves); a game gone from the store is its own."""
        table_id = self._tables.get(game_id)
        if table_id is None:
            game = await self.store.get_game(game_id)
            table_id = game.table_id if game is not None else -game_id
            self._tables[game_id] = table_id
            if self._owns is not None:  # a game gone from the store: shard 0's, as a DM's
                self._mine[game_id] = self._owns(game.guild_id if game is not None else 0)
        return table_id

    async def _work(self, table_id: int, queue: deque[OutboxRecord]) -> _Pass:
        """One table's rows, in order, including those handed to it while it runs."""
        outcome = _Pass()
        try:
            async with self._pool:
                while queue:
                    row = queue[0]
                    try:
                        if row.game_id not in outcome.stuck:
                            await self._deliver_one(row, outcome)
                    finally:
                        queue.popleft()
                        self._queued.discard(row.id)
        finally:
            # No await since the queue was found empty: nothing was handed to it meanwhile.
            for row in queue:
                self._queued.discard(row.id)
            del self._workers[table_id]
            del self._queues[table_id]
        return outcome

    async def _deliver_one(self, row: OutboxRecord, outcome: _Pass) -> None:
        """Send one row and mark it sent, or note its game as stuck (and why)."""
        try:
            await self._keep_leases()
            if row.id in self._lost:  # another deliverer has it (and the game's later rows)
                self._lost.discard(row.id)
                log.warning("outbox row %s (game %s): taken over elsewhere", row.id, row.game_id)
                return
            if await self._deliver_row(row):
                await self.store.mark_sent(row.id, self.owner)
                self._attempted.pop(row.id, None)
                self._marks.pop(row.id, None)
                outcome.progressed.add(row.game_id)
                outcome.done += 1
            else:
                outcome.stuck.add(row.game_id)
        except discord.Forbidden as exc:
            outcome.stuck.add(row.game_id)
            # The bot lost a permission in a game channel: the row stays pending (it is
            # sent once the permission is back) and the hosts are told, once.
            log.warning("outbox row %s (game %s): %s", row.id, row.game_id, exc.text)
            await self._report_forbidden(row)
        except Exception as exc:  # one row never stops the other games'
            outcome.stuck.add(row.game_id)
            outcome.failing.add(row.game_id)
            self._attempted.setdefault(row.id, self.clock())
            if isinstance(exc, TRANSIENT):
                log.warning(
                    "could not deliver outbox row %s (game %s), will retry: %r",
                    row.id,
                    row.game_id,
                    exc,
                )
            else:
                log.exception("could not deliver outbox row %s (game %s)", row.id, row.game_id)

    async def _track_failures(
        self, failing: set[int], progressed: set[int], covered: set[int] | None = None
    ) -> None:
        """Open, close and report the stuck episodes of the games ``covered`` (None: all)."""
        now = self.clock()
        for game_id in list(self._failing_since):
            if covered is not None and game_id not in covered:
                continue
            if game_id not in failing or game_id in progressed:  # the episode is over
                del self._failing_since[game_id]
                self._told.discard(game_id)
        for game_id in failing:
            since = self._failing_since.setdefault(game_id, now)
            stuck_for = (now - since).total_seconds()
            if (
                stuck_for >= STUCK_NOTICE_SECONDS
                and game_id not in self._told
                and await self._tell_stuck(game_id, stuck_for)
            ):
                self._told.add(game_id)

    def _schedule_retry(
        self, stuck: set[int], progressed: set[int], *, every_game: bool = True
    ) -> None:
        """Arm the retry timer while a row waits; disarm it when none does (known only
        after a pass over ``every_game``)."""
        current = asyncio.current_task()
        if not stuck and not every_game:
            return
        if not stuck:
            self._retry_round = 0
            if self._retry is not None and self._retry is not current and self._retry_sleeping:
                self._retry.cancel()
                self._retry = None
            return
        if stuck & progressed:  # a waiting game moved on: Discord works again, in part
            self._retry_round = 0
        if self._retry is None or self._retry.done() or self._retry is current:
            delay = self.retry_delay()
            self._retry_round += 1
            self._retry = asyncio.get_running_loop().create_task(
                self._retry_after(delay), name="outbox-retry"
            )

    async def _retry_after(self, delay: float) -> None:
        self._retry_sleeping = True
        try:
            await self._sleep(delay)
        finally:
            self._retry_sleeping = False
        try:
            await self.deliver()  # arms the next retry if rows still wait
        except Exception:
            log.exception("delivering the outbox failed")
            self._retry_round += 1
            self._retry = asyncio.get_running_loop().create_task(
                self._retry_after(self.retry_delay()), name="outbox-retry"
            )

    def stop(self) -> None:
        """Cancel the retry timer and the workers (the bot is closing)."""
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        for worker in list(self._workers.values()):
            worker.cancel()

    async def _tell_stuck(self, game_id: int, stuck_for: float) -> bool:
        """Tell the hosts that the game's announcements wait; True once they were told."""
        game = await self.store.get_game(game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None or game is None:
            return False
        settings = await self.store.get_table(game.table_id)
        host = slot_channel(guild, settings, "host")
        if host is None:
            return False
        lang = table_language(settings, guild)
        try:
            await host.send(
                t(lang, "delivery.stuck", minutes=int(stuck_for // 60)),
                allowed_mentions=NO_MENTIONS,
            )
        except TRANSIENT as exc:
            log.warning("could not tell the hosts of guild %s: %r", guild.id, exc)
            return False
        return True

    async def _deliver_row(self, row: OutboxRecord) -> bool:
        """True when the row is done with (sent, or undeliverable for good)."""
        game = await self.store.get_game(row.game_id)
        if game is None:
            return True
        guild = self.client.get_guild(game.guild_id)
        if guild is None:
            log.warning("outbox row %s: guild %s is not available", row.id, game.guild_id)
            return False
        settings = await self.store.get_table(game.table_id)  # the game's table
        lang = table_language(settings, guild)
        audience = str(row.payload.get("audience", PUBLIC))
        kind = str(row.payload.get("kind", row.kind))
        payload: Mapping[str, Any] = row.payload.get("payload") or {}

        if audience == HOST:  # the hosts' console: never a player's eyes (bot/secrecy.py)
            return await self._deliver_host(guild, settings, lang, row, kind, payload)

        if audience in (PUBLIC, MAFIA):
            slot = "game" if audience == PUBLIC else "mafia"
            channel = slot_channel(guild, settings, slot)
            if channel is None:
                log.warning("outbox row %s: no #%s channel in guild %s", row.id, slot, guild.id)
                return False
            if audience == PUBLIC:
                # The end-of-game picture goes with the final announcement (R15).
                files = (
                    partial(self._game_files, guild, game, lang, row.id)
                    if kind == "game_over"
                    else None
                )
                await self._send(channel, row.id, render_posts(lang, kind, payload), files=files)
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
            await self._send(room, row.id, render_posts(lang, kind, payload))
            if kind == "mafia_left":  # a dead member no longer takes part (told first)
                await self._room_member(room, row.game_id, nick, join=False)
            return True

        # A private message to the player behind the nickname.
        table = await self._dm_table(guild, game, settings, lang)
        posts = self._private_posts(lang, guild.name, row.game_id, kind, audience, payload, table)
        if posts is None:
            return True
        user_id = await self._user_of(row.game_id, audience)
        if user_id is None:
            log.warning("outbox row %s: no player %r in game %s", row.id, audience, row.game_id)
            return True
        try:
            dm = await self._dm_channel(user_id)
            view = (
                pistol_view(self.service, row.game_id, audience, lang) if kind == "pistol" else None
            )
            # R18: the pistol's prompt carries a menu of the living nicknames
            await self._send(dm, row.id, posts, view=view)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await self._tell_host(guild, settings, lang, audience, user_id)
        except discord.NotFound:
            await self._tell_host(guild, settings, lang, audience, user_id)
        return True

    async def _send(
        self,
        target: discord.abc.Messageable,
        row_id: int,
        posts: Sequence[Post],
        *,
        view: discord.ui.View | None = None,
        files: Callable[[], Awaitable[list[discord.File]]] | None = None,
    ) -> None:
        """Send a row's messages (a view goes with a row of one message), each with its
        nonce, skipping the messages a failed attempt already posted. ``files`` builds the
        files of the first message, only when that message is sent (a retry that finds it
        posted already sends them no more)."""
        if view is not None and len(posts) > 1:  # the view's prompt is one message
            posts = [Post(content="\n".join(post_text(p) for p in posts))]
        key = target_key(target)
        # The target's last message known to be ours before this row: what a lost answer
        # posted can only come after it.
        marks = self._marks.setdefault(row_id, {})
        mark = marks.setdefault(key, self._last_sent.get(key))
        first = 0
        attempted = self._attempted.get(row_id)
        if attempted is not None:
            first = await self._already_sent(target, posts, mark, attempted)
        for index in range(first, len(posts)):
            post = posts[index]
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if post.embeds:
                extra["embeds"] = list(post.embeds)
            attached = await files() if index == 0 and files is not None else []
            if attached:
                extra["files"] = attached
            message = await target.send(
                post.content or None,
                nonce=nonce_of(row_id, index),
                allowed_mentions=NO_MENTIONS,
                **extra,
            )
            self._last_sent[key] = message.id

    async def _already_sent(
        self,
        target: discord.abc.Messageable,
        posts: Sequence[Post],
        mark: int | None,
        since: datetime,
    ) -> int:
        """How many of the first ``posts`` the bot already posted to ``target`` after its
        message ``mark`` (or, unknown, since shortly before ``since``), read from its latest
        messages: a message is recognised by its signature (text and embeds, as text)."""
        me = self.client.user
        if me is None:
            return 0
        after: discord.abc.Snowflake | datetime = (
            discord.Object(mark) if mark is not None else since - CLOCK_SLACK
        )
        mine = [
            signature(Post(content=message.content, embeds=tuple(message.embeds)))
            async for message in target.history(
                limit=HISTORY_LIMIT + len(posts), after=after, oldest_first=True
            )
            if message.author.id == me.id
        ]
        done = 0
        for post in posts:  # the messages go out in order: what was sent is a prefix
            sig = signature(post)
            if sig not in mine:
                break
            mine = mine[mine.index(sig) + 1 :]
            done += 1
        if done:
            log.info("%d message(s) were already posted by an attempt whose answer was lost", done)
        return done

    def _private_posts(
        self,
        lang: Lang,
        server: str,
        game_id: int,
        kind: str,
        nick: str,
        payload: Mapping[str, Any],
        table: str | None = None,
    ) -> list[Post] | None:
        """A private message's posts, the server (and ``table``) and game named first (a text
        is cut into pieces after the header is added, so no piece is too long)."""
        if kind == "role_card":
            live = self.service.live.get(game_id)
            if live is None or nick not in live.engine.state.players:
                return None  # the game is over: the final reveal says it all
            text = render_role_card(lang, role_card(live.engine.state, nick))
        elif kind in EMBED_KINDS:
            posts = render_posts(lang, kind, payload)
            first = posts[0].content if posts else ""
            head = with_dm_header(lang, server, game_id, first, table=table)
            return [
                Post(content=head.rstrip(), embeds=posts[0].embeds if posts else ()),
                *posts[1:],
            ]
        else:
            text = render(lang, kind, payload)
        text = with_dm_header(lang, server, game_id, text, table=table)
        return [Post(content=piece) for piece in split_message(text)]

    async def _dm_table(
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

    async def _game_files(
        self, guild: discord.Guild, game: GameRecord, lang: Lang, row_id: int
    ) -> list[discord.File]:
        """The finished game's files (bot/attachments.py), or none if they cannot be built:
        the announcement never waits for them; the hosts are told once."""
        if row_id in self._no_files:
            return []
        try:
            return await game_files(self.store, game.id, lang, guild)
        except Exception:
            log.exception("game %s: could not build the end-of-game files", game.id)
            self._no_files.add(row_id)
            await self.tell_hosts(
                guild, t(lang, "picture.failed", game=game.id), table_id=game.table_id
            )
            return []

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel: opened once (a request), then known by its id, which Discord
        keeps for good. discord.py keeps only the last 128 DM channels, so a deadline's
        thousands of private messages would otherwise open each again (twice the requests)."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is not None:
            return self.client.get_partial_messageable(
                channel_id, type=discord.ChannelType.private
            )
        user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
        channel = await user.create_dm()
        self._dm_channels[user_id] = channel.id
        return channel

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
        settings: TableSettings | None,
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

    async def _report_forbidden(self, row: OutboxRecord) -> None:
        if row.id in self._reported:
            return
        self._reported.add(row.id)
        game = await self.store.get_game(row.game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None or game is None:
            return
        settings = await self.store.get_table(game.table_id)
        audience = str(row.payload.get("audience", PUBLIC))
        slot = "game" if audience == PUBLIC else "mafia"
        target = slot_channel(guild, settings, slot)
        host = slot_channel(guild, settings, "host")
        if host is None or target is None:
            return
        lang = table_language(settings, guild)
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
        """The game's mafia room in its table's #mafia (opened again if it is gone), or None
        without #mafia."""
        game = await self.store.get_game(game_id)
        settings = await self.store.get_table(game.table_id if game is not None else guild.id)
        parent = slot_channel(guild, settings, "mafia")
        if parent is None:
            return None
        return await self.rooms.ensure(parent, game_id, table_language(settings, guild))

    async def _close_room(
        self, guild: discord.Guild, settings: TableSettings | None, game_id: int
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

    async def _deliver_host(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        lang: Lang,
        row: OutboxRecord,
        kind: str,
        payload: Mapping[str, Any],
    ) -> bool:
        """A row for #host (the night's account, an audit line, R47, R56). A server without
        #host has nobody to tell: the row is done with."""
        channel = slot_channel(guild, settings, "host")
        if channel is None:
            log.warning("outbox row %s: no #host channel in guild %s", row.id, guild.id)
            return True
        text = render_console(lang, kind, payload)
        posts = [Post(content=piece) for piece in split_message(text)]
        # The host's review (bot/review.py): the draft carries its Add story / Publish buttons.
        view = review_view(row.game_id, row.turn, lang) if kind == DRAFT_KIND else None
        await self._send(channel, row.id, posts, view=view)
        return True


def signature(post: Post) -> str:
    """What tells a sent message apart: its text and each embed's title, description and
    fields (Discord gives them back as sent)."""
    return post_text(post)


def slot_channel(
    guild: discord.Guild, settings: TableSettings | None, slot: str
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
