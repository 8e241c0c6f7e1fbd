"""Delivering the game's outbox: every announcement the service queued, rendered in its table's
language and sent where its audience is, in the channels of the game's table, and the players'
posts under their nicknames.

An outbox row's payload is ``{"kind", "audience", "payload"}`` (``rules/announce.py``):
audience ``public`` is a bot message in #game, ``mafia`` a bot message in the game's mafia room
(a private thread in #mafia, ``bot/mafia_room.py``), ``host`` one in #host, anything else
a player's nickname, sent to that player's Discord user as a private message. A row of kind
``post`` (``GameService.queue_post``: ``/say``, ``/post``) is a player's post, shown in #game
through the bot's webhook. A row is marked sent only after Discord accepted it (delivery is at
least once), with the id of the last message it posted. A private message that Discord
refuses (closed DMs) is reported plainly in #host, without its text, and still marked sent: the
player reads his card and his news with ``/role`` and ``/status``.

Each game's rows go to destinations (:func:`destination`): #game (announcements and posts),
the mafia's room, #host, and each player's DMs. Each destination keeps its order, and one
destination's trouble holds up only its own later rows: a #host or a mafia room the bot can no
longer post in never keeps the players from their results or the next turn's opening.

Discord failing (a 5xx, a 429 past discord.py's own retries, a timeout, a dropped connection)
blocks only the failing row's destination; the other destinations and games go on. A timer
tries again with a backoff (:data:`RETRY_FIRST_SECONDS` doubling to
:data:`RETRY_MAX_SECONDS`), and the hosts read a notice once a destination's rows have been
stuck for :data:`STUCK_NOTICE_SECONDS`, once per stuck episode. A broken channel (deleted:
:class:`ChannelMissing`; a permission lost: ``discord.Forbidden``) keeps its rows waiting, never
marked sent, until ``/mafia setup`` (which delivers at once) or the permission is back; the
hosts are told at once, once per episode, naming the channel and the repair: in #host, or, when
it is #host that broke (or #host refuses the notice), in private to each of the table's hosts
(:func:`table_hosts`).

The tables deliver concurrently (a thousand games share the forum's 21:00 deadline):
each table's rows go out in order through one worker, at most :data:`WORKERS` tables at a
time. Every request waits on discord.py's bucket for its route (5 messages per 5 s in a
channel, read from Discord's ``X-RateLimit-*`` headers), then on one limiter for Discord's
global 50 requests per second (:func:`global_rate_trace`), so none of them is answered 429 on
the way.

A send whose answer was lost may have gone through. Every bot message carries a nonce derived
from its outbox row and piece (:func:`nonce_of`), which Discord enforces (discord.py sends
``enforce_nonce`` with it) for a few minutes; and before sending a row again after a failed
attempt, the bot reads the target's history after its last message known there (this process's,
or for a dead deliverer's row the last one the store recorded in that destination), through as
many pages as the players' posts since then fill (up to :data:`HISTORY_LIMIT` messages), and
skips the pieces it finds, so a retry long after the nonce window sends nothing twice either. A
webhook takes no nonce: a post is found the same way, by its nickname and text.

A player's post counts (R52) and is archived only once it was shown: ``GameService.post_shown``
counts it, then archives it and marks its row sent in one write. The author's command waits
for it (:meth:`Delivery.publish_post`) and is told the truth: shown, refused (the bot cannot
post under nicknames in #game: the hosts are told), or not shown yet (Discord fails: it stays
queued and goes out with the retries, once).

Several processes may deliver one outbox: each claims the rows it sends
(``GameStore.claim_outbox``) under a lease named by its own owner id (:func:`process_owner`),
so two deliverers never send the same row at once and a game's rows go out through one of them
at a time. A live deliverer renews its leases as it goes (:data:`RENEW_FRACTION`); a crashed
one's rows are claimed by another once their lease (:data:`LEASE_SECONDS`) expires, and the
nonces and the history check above keep a row it sent but did not mark from going out twice.

Nothing public ever names a Discord user: nicknames only.
"""

from __future__ import annotations

import asyncio
import enum
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
from bot.avatars import usable_avatar
from bot.mafia_room import ROOM_NEEDS, MafiaRooms
from bot.pictures import with_files
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
from bot.webhooks import GameWebhooks, split_message, webhook_username
from core.i18n import Lang, t
from core.quoting import quote_player_line
from core.review import DRAFT_KIND
from core.service import POST_KIND, GameService
from core.shards import Shards
from db.interface import GameStore
from db.models import GameRecord, OutboxRecord, PlayerRecord, TableSettings
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
#: The most messages read after the last one known to be ours in a target, to find a piece
#: an attempt whose answer was lost did post (100 a page; read only after a failed attempt,
#: and only until every piece is found): a busy #game's posts of a long outage fit.
HISTORY_LIMIT: Final[int] = 2000
#: The outcome of a player's post (:meth:`Delivery.publish_post`): shown in #game, refused
#: for good (the bot cannot post under nicknames there), or not shown yet (Discord fails).
POST_SHOWN: Final[str] = "shown"
POST_NO_WEBHOOK: Final[str] = "no_webhook"
POST_FAILING: Final[str] = "failing"
#: How long the author's answer waits for each attempt to show his post.
POST_WAIT_SECONDS: Final[float] = 20.0
#: How many outcomes of posts delivered while nobody waited are kept for a late waiter.
POST_RESULTS_KEPT: Final[int] = 1000
#: The most hosts told in private when #host cannot be reached.
HOST_DMS: Final[int] = 10


class _Done(enum.Enum):
    MARKED = "marked"


#: A row delivered and marked sent already (a post: archived and marked in one write).
MARKED: Final = _Done.MARKED
#: Clocks disagree a little: a message a bit older than the failed attempt still counts.
CLOCK_SLACK: Final[timedelta] = timedelta(seconds=30)

#: How long a claimed outbox row stays this process's: longer than a table's
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
    return f"dm:{audience}"


class ChannelMissing(Exception):
    """One of the game's channels is gone (deleted): its rows wait for ``/mafia setup``."""

    def __init__(self, slot: str) -> None:
        super().__init__(f"no #{slot} channel")
        self.slot = slot


@attrs.define
class _Pass:
    """What a worker's run (or a whole delivery) did: rows marked sent, games whose row
    waits (``stuck``), the destinations holding their later rows back (``blocked``), of
    those the ones Discord failed (``failing``), the games and destinations that moved on."""

    done: int = 0
    stuck: set[int] = attrs.Factory(set)
    blocked: set[Dest] = attrs.Factory(set)
    failing: set[Dest] = attrs.Factory(set)
    progressed: set[int] = attrs.Factory(set)
    moved: set[Dest] = attrs.Factory(set)

    def merge(self, other: _Pass) -> None:
        self.done += other.done
        self.stuck |= other.stuck
        self.blocked |= other.blocked
        self.failing |= other.failing
        self.progressed |= other.progressed
        self.moved |= other.moved


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
        webhooks: GameWebhooks | None = None,
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
        #: The anonymous posts' webhooks (the players' posts go out through the outbox too).
        self.webhooks = webhooks or GameWebhooks()
        #: Posts whose author waits for the outcome (:meth:`publish_post`), by outbox row.
        self._post_waiters: dict[int, asyncio.Future[str]] = {}
        self._post_results: dict[int, str] = {}  # what became of posts nobody waited for
        #: Posts whose author was told they wait: how to tell him what became of them.
        self._late_answers: dict[int, Callable[[str], Awaitable[object]]] = {}
        #: Shards: the servers whose games' rows this process sends (None: all);
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
        #: Destinations whose hosts were told they are broken (a channel gone, a permission
        #: lost), until a row goes out there again: told once per episode.
        self._broken: set[Dest] = set()
        self.rooms = MafiaRooms(service)
        #: Rows whose last attempt failed, with the time of their first failed attempt: they
        #: may have gone through, so their target's history is read before sending again.
        self._attempted: dict[int, datetime] = {}
        #: Per row being sent, the last message known to be ours in each of its targets.
        self._marks: dict[int, dict[tuple[str, int], int | None]] = {}
        self._last_sent: dict[tuple[str, int], int] = {}  # target -> our last message there
        #: Retaken rows (a dead deliverer's): the last message of their destination recorded
        #: in the store before them (:meth:`_recall_marks`).
        self._stored_marks: dict[int, int] = {}
        #: Per row being sent, the last message it posted: recorded when it is marked sent.
        self._row_messages: dict[int, int] = {}
        #: Destinations whose rows fail (transiently), since when, without progress meanwhile.
        self._failing_since: dict[Dest, datetime] = {}
        self._told: set[Dest] = set()  # destinations whose hosts were told of this episode
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
            taken = await self.service.expire_leases(slot, self.owner)
            if taken:
                log.info("taking over %d announcements of this process's last run", len(taken))
        shards = self.shards
        rows = await self.service.claim_outbox(
            self.owner,
            game_id=game_id,
            limit=CLAIM_LIMIT,
            lease_seconds=self.lease_seconds,
            shard_count=None if shards is None else shards.count,
            shard_ids=() if shards is None else shards.ids,
        )
        retaken = [row for row in rows if row.retaken and row.id not in self._attempted]
        for row in retaken:  # its deliverer died, maybe after sending it: look first
            self._attempted[row.id] = row.created_at
        for game in sorted({row.game_id for row in retaken}):
            await self._recall_marks(game, [row for row in retaken if row.game_id == game])
        return rows

    async def _recall_marks(self, game_id: int, rows: list[OutboxRecord]) -> None:
        """Where to read on from in each retaken row's destination: the last message recorded
        there by the game's rows sent before it (a destination's rows go out in order, so
        what the dead deliverer may have posted for the row comes after it), kept in the
        store (``message_id``) so a restart knows it too."""
        last: dict[str, int] = {}
        pending = {row.id for row in rows}
        for row in await self.store.outbox(game_id):
            dest = destination(row)
            if row.id in pending:
                if dest in last:
                    self._stored_marks[row.id] = last[dest]
            elif row.sent and row.message_id is not None:
                last[dest] = max(last.get(dest, 0), row.message_id)

    async def _keep_leases(self) -> None:
        """Renew this deliverer's leases when a third of their time has passed; a queued row
        no longer among them was taken over (this process was thought dead): not sent here."""
        if time.monotonic() - self._renewed < self.lease_seconds * RENEW_FRACTION:
            return
        self._renewed = time.monotonic()
        queued = set(self._queued)  # claimed before the renewal (a claim meanwhile is not)
        held = set(await self.service.renew_outbox(self.owner, lease_seconds=self.lease_seconds))
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
        await self._track_failures(outcome.failing, outcome.moved, covered)
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
            if not self._mine.get(row.game_id, True):  # another shard's game
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
                    try:  # a destination that failed holds back its own later rows only
                        if (row.game_id, destination(row)) not in outcome.blocked:
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
        """Send one row and mark it sent, or note its destination as blocked (and why)."""
        dest = (row.game_id, destination(row))
        try:
            await self._keep_leases()
            if row.id in self._lost:  # another deliverer has it (and the game's later rows)
                self._lost.discard(row.id)
                log.warning("outbox row %s (game %s): taken over elsewhere", row.id, row.game_id)
                return
            done = await self._deliver_row(row)
            if done:
                message_id = self._row_messages.pop(row.id, None)
                if done is not MARKED:
                    await self.service.mark_sent(row.id, self.owner, message_id=message_id)
                self._attempted.pop(row.id, None)
                self._marks.pop(row.id, None)
                self._stored_marks.pop(row.id, None)
                self._broken.discard(dest)
                outcome.progressed.add(row.game_id)
                outcome.moved.add(dest)
                outcome.done += 1
            else:
                outcome.stuck.add(row.game_id)
                outcome.blocked.add(dest)
        except (discord.Forbidden, ChannelMissing) as exc:
            outcome.stuck.add(row.game_id)
            outcome.blocked.add(dest)
            # A permission lost in a game channel, or the channel deleted: the row stays
            # pending (sent once the permission is back, or /mafia setup rebuilt the
            # channel, in order) and the hosts are told at once, once.
            log.warning("outbox row %s (game %s): %s", row.id, row.game_id, exc)
            await self._report_broken(row, dest, missing=isinstance(exc, ChannelMissing))
        except Exception as exc:  # one row never stops the other games' nor destinations'
            outcome.stuck.add(row.game_id)
            outcome.blocked.add(dest)
            outcome.failing.add(dest)
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
            self._post_outcome(row.id, POST_FAILING)

    async def _track_failures(
        self, failing: set[Dest], moved: set[Dest], covered: set[int] | None = None
    ) -> None:
        """Open, close and report the stuck episodes of the games ``covered`` (None: all):
        one episode for a game's #host, one for its other destinations together (a Discord
        outage failing #game and twenty DMs is one notice, not twenty-one)."""
        failing, moved = {_episode(d) for d in failing}, {_episode(d) for d in moved}
        now = self.clock()
        for dest in list(self._failing_since):
            if covered is not None and dest[0] not in covered:
                continue
            if dest not in failing or dest in moved:  # the episode is over
                del self._failing_since[dest]
                self._told.discard(dest)
        for dest in sorted(failing):
            since = self._failing_since.setdefault(dest, now)
            stuck_for = (now - since).total_seconds()
            if (
                stuck_for >= STUCK_NOTICE_SECONDS
                and dest not in self._told
                and await self._tell_stuck(dest, stuck_for)
            ):
                self._told.add(dest)

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

    async def _tell_stuck(self, dest: Dest, stuck_for: float) -> bool:
        """Tell the hosts that the game's announcements wait; True once they were told (in
        #host, or in private when the stuck ones are #host's)."""
        game_id, slot = dest
        game = await self.store.get_game(game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None or game is None:
            return False
        settings = await self.store.get_table(game.table_id)
        lang = table_language(settings, guild)
        text = t(lang, "delivery.stuck", minutes=int(stuck_for // 60))
        return await self._warn_hosts(guild, settings, lang, game_id, text, host=slot != "host")

    async def _deliver_row(self, row: OutboxRecord) -> bool | _Done:
        """True when the row is done with (sent, or undeliverable for good); ``MARKED`` when
        it is, and marked sent already (a post); False when it waits (no server). Raises
        :class:`ChannelMissing` or ``discord.Forbidden`` when its channel is broken."""
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

        if kind == POST_KIND:  # a player's post, in #game's order
            return await self._deliver_post(guild, game, settings, lang, row, payload)

        if audience in (PUBLIC, MAFIA):
            slot = "game" if audience == PUBLIC else "mafia"
            if settings is None:  # the table was dropped: nowhere to send it
                log.warning("outbox row %s: game %s has no table", row.id, row.game_id)
                return False
            channel = slot_channel(guild, settings, slot)
            if channel is None:
                raise ChannelMissing(slot)
            if audience == PUBLIC:
                # The end-of-game picture goes with the final announcement (R15).
                files = (
                    partial(self._game_files, guild, game, lang, row.id)
                    if kind == "game_over"
                    else None
                )
                readers = kind == "game_over" and payload.get("reveal") is True
                mafia = slot_channel(guild, settings, "mafia")
                if readers and mafia is not None:  # the end links #mafia, where the room is
                    payload = {**payload, "mafia_channel": mafia.id}
                await self._send(channel, row.id, render_posts(lang, kind, payload), files=files)
                if kind == "game_over":  # the mafia's room is kept, read-only, for the record
                    # With the members revealed, the players may read it.
                    await self._close_room(guild, settings, row.game_id, readers=readers)
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
        except (discord.Forbidden, discord.NotFound):  # closed DMs (50007), a user gone
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
        mark = marks.setdefault(key, self._mark_for(row_id, key))
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
            self._last_sent[key] = self._row_messages[row_id] = message.id

    def _mark_for(self, row_id: int, key: tuple[str, int]) -> int | None:
        """The target's last message known to be ours before this row: this process's own
        last one there, or the one the store recorded before a retaken row (the later)."""
        known = [m for m in (self._last_sent.get(key), self._stored_marks.get(row_id)) if m]
        return max(known) if known else None

    async def _already_sent(
        self,
        target: discord.abc.Messageable,
        posts: Sequence[Post],
        mark: int | None,
        since: datetime,
        mine: Callable[[discord.Message], bool] | None = None,
        files: Sequence[Sequence[str]] | None = None,
    ) -> int:
        """How many of the first ``posts`` the bot already posted to ``target`` after its
        message ``mark`` (or, unknown, since shortly before ``since``), read from the
        target's history after it, page after page (however many players posted meanwhile,
        up to :data:`HISTORY_LIMIT` messages, newest first down to the mark): a message is
        recognised by its author (``mine``; by default the bot itself) and its signature
        (text and embeds, as text; with ``files``, the names of each post's files too)."""
        if mine is None:
            me = self.client.user
            if me is None:
                return 0
            me_id = me.id

            def mine(message: discord.Message) -> bool:
                return message.author.id == me_id

        after: discord.abc.Snowflake | datetime = (
            discord.Object(mark) if mark is not None else since - CLOCK_SLACK
        )
        found = [
            seen_signature(message, files is not None)
            async for message in target.history(
                limit=HISTORY_LIMIT, after=after, oldest_first=False
            )
            if mine(message)
        ]
        found.reverse()  # oldest first
        done = 0
        for index, post in enumerate(posts):  # the messages go out in order: a prefix
            sig = signature(post) if files is None else with_files(signature(post), files[index])
            if sig not in found:
                break
            found = found[found.index(sig) + 1 :]
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
            text = render_role_card(
                lang,
                role_card(live.engine.state, nick),
                live.schedule,
                live.record.activity_rules,
            )
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
            return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
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
        log.info("could not DM user %s (player %s) in guild %s", user_id, nick, guild.id)
        text = t(lang, "delivery.dm_failed", nick=nick, user=f"<@{user_id}>")
        await self._warn_hosts(guild, settings, lang, None, text)

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

    async def _report_broken(self, row: OutboxRecord, dest: Dest, *, missing: bool) -> None:
        """Tell the hosts, once per episode, that a destination of the game is broken: its
        channel deleted (``missing``) or a permission lost there, and how to repair it. About
        #host, and when #host cannot be reached, they are told in private."""
        if dest in self._broken:
            return
        slot = dest[1]
        if slot not in ("game", "mafia", "host"):
            return  # a player's DMs: handled with the row (closed DMs)
        self._broken.add(dest)
        game = await self.store.get_game(row.game_id)
        guild = self.client.get_guild(game.guild_id) if game is not None else None
        if guild is None or game is None:
            return
        settings = await self.store.get_table(game.table_id)
        lang = table_language(settings, guild)
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
        await self._warn_hosts(guild, settings, lang, row.game_id, text, host=slot != "host")

    async def _warn_hosts(
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
                dm = await self._dm_channel(member.id)
                await dm.send(body, allowed_mentions=NO_MENTIONS)
                told = True
            except (discord.HTTPException, *TRANSIENT) as exc:
                log.info("guild %s: could not tell host %s: %r", guild.id, member.id, exc)
        if not told:
            log.warning("guild %s: nobody could be told: %.80s", guild.id, text)
        return told

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
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        game_id: int,
        *,
        readers: bool = False,
    ) -> None:
        """The room is locked for the record; with ``readers`` (the members were revealed)
        every player of the game is let in to read it first (``MafiaRooms.open_for_reading``)."""
        parent = slot_channel(guild, settings, "mafia")
        room = await self.rooms.find(parent, game_id) if parent is not None else None
        if room is not None and readers and not room.locked:
            players = await self.store.players(game_id)
            await self.rooms.open_for_reading(room, [p.user_id for p in players])
            return
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
        """A row for #host (the night's account, an audit line, R47, R56). A table without
        one (dropped) has nobody to tell: the row is done with; a #host deleted keeps it
        waiting (:class:`ChannelMissing`) until ``/mafia setup`` rebuilds it."""
        if settings is None or settings.host_channel_id is None:
            log.warning("outbox row %s: no #host channel in guild %s", row.id, guild.id)
            return True
        channel = slot_channel(guild, settings, "host")
        if channel is None:
            raise ChannelMissing("host")
        text = render_console(lang, kind, payload)
        posts = [Post(content=piece) for piece in split_message(text)]
        # The host's review (bot/review.py): the draft carries its Add story / Publish buttons.
        view = review_view(row.game_id, row.turn, lang) if kind == DRAFT_KIND else None
        await self._send(channel, row.id, posts, view=view)
        return True

    # --- the players' posts ----------------------------------------------------------------
    async def publish_post(
        self,
        game_id: int,
        row_id: int,
        *,
        later: Callable[[str], Awaitable[object]] | None = None,
    ) -> str:
        """Deliver the game's pending rows until the post of outbox row ``row_id`` (queued by
        ``GameService.queue_post``) is shown or refused, for the author's answer: at most two
        attempts (the second reads #game first, so a post whose answer was lost is found and
        not sent again), each waited for at most :data:`POST_WAIT_SECONDS`. Returns
        :data:`POST_SHOWN`, :data:`POST_NO_WEBHOOK`, or :data:`POST_FAILING` (it waits in the
        outbox and goes out with the retries, in #game's order; ``later`` is then called with
        what became of it once it is known, so the author hears that too)."""
        outcome = await self._publish_post(game_id, row_id)
        if outcome == POST_FAILING and later is not None:
            late = self._post_results.pop(row_id, None)  # decided in between
            if late is not None:
                return late
            self._late_answers[row_id] = later
            while len(self._late_answers) > POST_RESULTS_KEPT:
                del self._late_answers[next(iter(self._late_answers))]
        return outcome

    async def _publish_post(self, game_id: int, row_id: int) -> str:
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            waiter: asyncio.Future[str] = loop.create_future()
            self._post_waiters[row_id] = waiter
            try:
                attempt = loop.create_task(self.deliver_game(game_id), name=f"post-{row_id}")
                attempt.add_done_callback(_log_failure)
                either: set[asyncio.Future[Any]] = {attempt, waiter}
                first = asyncio.FIRST_COMPLETED
                await asyncio.wait(either, timeout=POST_WAIT_SECONDS, return_when=first)
            finally:
                self._post_waiters.pop(row_id, None)
            outcome = waiter.result() if waiter.done() else self._post_results.pop(row_id, None)
            if outcome in (POST_SHOWN, POST_NO_WEBHOOK):
                return outcome
            if not attempt.done():  # this pass goes on: wait for it before trying again
                await asyncio.wait({attempt}, timeout=POST_WAIT_SECONDS)
                outcome = self._post_results.pop(row_id, None)
                if outcome in (POST_SHOWN, POST_NO_WEBHOOK):
                    return outcome
                if not attempt.done():  # slow: the post waits its turn in #game's queue
                    return POST_FAILING
        return POST_FAILING

    def _post_outcome(self, row_id: int, outcome: str) -> None:
        """Give the author's answer what became of his post (kept a while for a waiter that
        comes late: another pass may deliver the row first)."""
        waiter = self._post_waiters.get(row_id)
        later = self._late_answers.pop(row_id, None) if outcome != POST_FAILING else None
        if later is not None:  # the author was told it waits: now he hears what became of it
            task = asyncio.ensure_future(later(outcome))
            task.add_done_callback(_log_failure)
        elif waiter is not None and not waiter.done():
            waiter.set_result(outcome)
        elif outcome != POST_FAILING:
            self._post_results[row_id] = outcome
            while len(self._post_results) > POST_RESULTS_KEPT:
                del self._post_results[next(iter(self._post_results))]

    async def _deliver_post(
        self,
        guild: discord.Guild,
        game: GameRecord,
        settings: TableSettings | None,
        lang: Lang,
        row: OutboxRecord,
        payload: Mapping[str, Any],
    ) -> bool | _Done:
        """A player's post in #game through the bot's webhook, under his nickname (R6), once:
        after a failed attempt #game is read first (a webhook takes no nonce) and a post
        found there is not sent again. Once shown it counts (R52) and is archived, with its
        row marked sent (``GameService.post_shown``). A bot that cannot post under nicknames
        there (no Manage Webhooks, its webhook gone) drops it: the author is told, and the
        hosts, once."""
        channel = slot_channel(guild, settings, "game") if settings is not None else None
        if channel is None:
            if settings is None:
                return False
            raise ChannelMissing("game")
        nick = str(payload.get("nick", ""))
        ghost = bool(payload.get("ghost"))
        seat = await self._seat(row.game_id, nick)
        # R6: a post never shows a real account, not even as a mention someone typed.
        body = discord.utils.escape_mentions(str(payload.get("text", "")))
        if seat is not None and seat.signature:
            body = f"{body}\n\n{quote_player_line(seat.signature)}"  # literal, never markup
        username = webhook_username(t(lang, "say.ghost_name", nick=nick) if ghost else nick)
        # R10: an avatar saved before the avatar checks and refused by them now is not worn.
        avatar = usable_avatar(seat.avatar_url if seat is not None else None)
        picture = await self.store.post_picture(row.id) if payload.get("picture") else None
        pieces = [Post(content=piece) for piece in split_message(body)]
        if picture is not None and not pieces:
            pieces = [Post()]  # a picture alone
        if not pieces:  # nothing left to show (its picture was dropped): done with
            log.warning("outbox row %s: a post with nothing to show", row.id)
            return True
        # The picture goes with the last piece (the duplicate check knows it by its name).
        names: list[list[str]] = [[] for _ in pieces]
        if picture is not None:
            names[-1] = [picture[0]]
        key = target_key(channel)
        marks = self._marks.setdefault(row.id, {})
        mark = marks.setdefault(key, self._mark_for(row.id, key))
        first = 0
        attempted = self._attempted.get(row.id)
        if attempted is not None:

            def ours(message: discord.Message) -> bool:
                return message.webhook_id is not None and message.author.name == username

            first = await self._already_sent(channel, pieces, mark, attempted, ours, names)
        try:
            for index in range(first, len(pieces)):
                [message] = await self.webhooks.post(
                    channel,
                    pieces[index].content,
                    username=username,
                    avatar_url=avatar,
                    picture=picture if names[index] else None,
                )
                self._last_sent[key] = self._row_messages[row.id] = message.id
                first += 1
        except discord.Forbidden as exc:
            if first:  # a part is shown: the post stands as shown
                log.warning("outbox row %s: the rest of a post was refused: %s", row.id, exc)
            else:
                log.warning("outbox row %s: cannot post under a nickname: %s", row.id, exc)
                await self._report_no_webhook(guild, settings, lang, row, channel)
                if picture is not None:  # dropped: the author posts it again after the repair
                    await self.service.drop_post_pictures(row.id)
                self._post_outcome(row.id, POST_NO_WEBHOOK)
                return True
        await self.service.post_shown(
            row.id,
            row.game_id,
            row.turn,
            dict(payload),
            message_id=self._row_messages.get(row.id),
        )
        if picture is not None:  # shown: its bytes are kept no longer (privacy, size)
            await self.service.drop_post_pictures(row.id)
        self._broken.discard((row.game_id, "webhook"))
        self._post_outcome(row.id, POST_SHOWN)
        return MARKED

    async def _report_no_webhook(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        lang: Lang,
        row: OutboxRecord,
        channel: discord.TextChannel,
    ) -> None:
        dest = (row.game_id, "webhook")
        if dest in self._broken:
            return
        self._broken.add(dest)
        text = t(lang, "delivery.no_webhook", channel=channel.mention)
        await self._warn_hosts(guild, settings, lang, row.game_id, text)

    async def _seat(self, game_id: int, nick: str) -> PlayerRecord | None:
        live = self.service.live.get(game_id)
        if live is not None:
            seat = next((p for p in live.players if p.nick == nick), None)
            if seat is not None:
                return seat
        return await self.store.player_by_nick(game_id, nick)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("delivering a post failed", exc_info=task.exception())


def _episode(dest: Dest) -> Dest:
    """The stuck episode a destination's failures belong to: #host's, or the game's."""
    return (dest[0], "host" if dest[1] == "host" else "game")


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


def signature(post: Post) -> str:
    """What tells a sent message apart: its text and each embed's title, description and
    fields (Discord gives them back as sent)."""
    return post_text(post)


def seen_signature(message: discord.Message, files: bool) -> str:
    """A message read back from a channel's history, as :func:`signature` (with ``files``,
    with the names of its files as well: a picture post's)."""
    sig = signature(Post(content=message.content, embeds=tuple(message.embeds)))
    return with_files(sig, [a.filename for a in message.attachments]) if files else sig


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
