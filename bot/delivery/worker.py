"""The delivery's worker: claims the outbox's rows, hands each table's rows to one worker that
sends them in order, per destination, and tries again on a timer while some fail.

Each game's rows go to destinations (``bot/delivery/router.py`` :func:`destination`): #game
(announcements and posts), the mafia's room, #host, and each player's DMs. Each destination
keeps its order, and one destination's trouble holds up only its own later rows: a #host or a
mafia room the bot can no longer post in never keeps the players from their results or the next
turn's opening.

Discord failing (a 5xx, a 429 past discord.py's own retries, a timeout, a dropped connection)
blocks only the failing row's destination; the other destinations and games go on. A timer
tries again with a backoff (:data:`RETRY_FIRST_SECONDS` doubling to
:data:`RETRY_MAX_SECONDS`), and the hosts read a notice once a destination's rows have been
stuck for :data:`STUCK_NOTICE_SECONDS`, once per stuck episode. A broken channel (deleted:
:class:`ChannelMissing`; a permission lost: ``discord.Forbidden``) keeps its rows waiting, never
marked sent, until ``/mafia setup`` (which delivers at once) or the permission is back; the
hosts are told at once, once per episode, naming the channel and the repair.

The tables deliver concurrently (a thousand games share the forum's 21:00 deadline):
each table's rows go out in order through one worker, at most :data:`WORKERS` tables at a
time. Every request waits on discord.py's bucket for its route (5 messages per 5 s in a
channel, read from Discord's ``X-RateLimit-*`` headers), then on one limiter for Discord's
global 50 requests per second (``bot/delivery/sender.py`` :func:`global_rate_trace`), so none
of them is answered 429 on the way.

Rows of one destination committed together (one transaction: the same turn and time, such as
the turn's results and the next turn's opening) whose kinds say they may share messages and add
nothing to them (``bot/kinds.py`` ``OutboxKind.coalesces``) go out as one group: their messages
share messages where Discord's limits allow (``sender.coalesce``), and the group is marked
sent in one write.

A player's post counts (R52) and is archived only once it was shown
(``bot/delivery/player_posts.py``): the author's command waits for it
(:meth:`Delivery.publish_post`, ``bot/delivery/outcomes.py``) and is told the truth: shown,
refused (the bot cannot post under nicknames in #game: the hosts are told), or not shown yet
(Discord fails: it stays queued and goes out with the retries, once).

Several processes may deliver one outbox: each claims the rows it sends under a lease, renewed
as it goes and checked just before each message (``bot/delivery/leases.py``).

What a kind adds to its delivery (a view, files, hooks around the send, a delivery of its own)
is its record (``bot/kinds.py``); the hooks see the row through a narrow port
(``bot/delivery/port.py``), never this class.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Final

import attrs
import discord

from bot import kinds
from bot.delivery.leases import LEASE_SECONDS, Leases
from bot.delivery.outcomes import MARKED, POST_FAILING, Done, PostWaits
from bot.delivery.port import DeliveryPort, row_posts, sending_of
from bot.delivery.router import ChannelMissing, Dest, Router, destination, is_private
from bot.delivery.sender import TRANSIENT, LeaseLost, Sender, coalesce
from bot.mafia_room import MafiaRooms
from bot.tables import table_language
from bot.webhooks import GameWebhooks
from core.i18n import t
from core.service import GameService
from core.shards import Shards
from db.interface import GameStore
from db.models import OutboxRecord

log = logging.getLogger(__name__)

#: How many tables deliver at once. Each sends in order, one request at a time, and may wait
#: on its channel's bucket (5 messages per 5 s): enough of them keep the global limit busy.
WORKERS: Final[int] = 200

#: The first retry after a failed delivery, doubling after each failed pass up to the maximum.
#: Longer than SimCord's 5-second settle timeout, so tests drive it with ``advance_time``.
RETRY_FIRST_SECONDS: Final[float] = 10.0
RETRY_MAX_SECONDS: Final[float] = 300.0
#: How long a game's announcements may fail before the hosts are told in #host.
STUCK_NOTICE_SECONDS: Final[float] = 300.0


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
        self.client = client
        #: Sends the messages, each once (nonces, the duplicate check; the posts' webhooks),
        #: each only while its row's lease is still this deliverer's (``Leases.hold``).
        self.sender = Sender(client, webhooks)
        self._queued: set[int] = set()  # rows in a worker's queue
        #: This deliverer's claims, renewed as it sends (``bot/delivery/leases.py``).
        self.leases = Leases(
            service,
            store,
            self.sender,
            self._queued,
            shards=shards,
            owner=owner,
            lease_seconds=lease_seconds,
        )
        self.owner = self.leases.owner
        self.sender.guard = self.leases.hold
        #: Finds each row's channel, and tells the hosts what cannot be delivered.
        self.router = Router(client, store, service)
        kinds.load()  # every kind's record (the pistol's menu, the mafia room's members...)
        #: The authors waiting for their posts (:meth:`publish_post`).
        self.posts = PostWaits(self.deliver_game)
        #: What the kinds' hooks may use of the delivery (``bot/kinds.py`` ``KindPort``), and
        #: what they keep between attempts, by their own keys (``kind_state``).
        self.port = DeliveryPort(service, store, self.router, self.sender, {}, self.posts.outcome)
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
        self._reading = asyncio.Lock()  # one read of the outbox at a time
        self._next_read: asyncio.Future[list[asyncio.Task[_Pass]]] | None = None
        self._tables: dict[int, int] = {}  # game -> table
        self._mine: dict[int, bool] = {}  # game -> whether this process owns it (shards)
        #: Destinations whose rows fail (transiently), since when, without progress meanwhile.
        self._failing_since: dict[Dest, datetime] = {}
        self._told: set[Dest] = set()  # destinations whose hosts were told of this episode
        self._retry: asyncio.Task[None] | None = None
        self._retry_round = 0  # failed passes in a row: the backoff's exponent
        self._retry_sleeping = False
        #: The bot is stopping (:meth:`drain`): a worker finishes its row and takes no other.
        self._closing = False
        #: Told each row's outcome (its kind; ``sent``, ``blocked`` or ``failed``; how many
        #: rows): ``bot/metrics.py``. None: nobody listens.
        self.on_delivered: Callable[[str, str, int], None] | None = None

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
        """The pending rows (of one game, or of all) this deliverer may send (``Leases.claim``)."""
        return await self.leases.claim(game_id)

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
                while queue and not self._closing:
                    row = queue[0]
                    try:  # a destination that failed holds back its own later rows only
                        if (row.game_id, destination(row)) not in outcome.blocked:
                            await self._deliver_one(row, outcome, self._group(row, queue))
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

    def _group(self, row: OutboxRecord, queue: deque[OutboxRecord]) -> tuple[OutboxRecord, ...]:
        """The rows after ``row`` in its destination's order that go out with it: committed
        in the same transaction (the same turn and time), each of a kind that may share its
        messages (``OutboxKind.coalesces``), up to the first that is not. Always the same rows
        for the same pending rows, so a retry (or another deliverer after a crash: the group
        is marked sent in one write) sends the same messages and finds what went out."""
        if not self._joins(row):
            return ()
        dest = destination(row)
        group: list[OutboxRecord] = []
        for other in list(queue)[1:]:
            if other.game_id != row.game_id or destination(other) != dest:
                continue
            if (
                other.turn != row.turn
                or other.created_at != row.created_at
                or other.id in self.leases.lost
                or not self._joins(other)
            ):
                break
            group.append(other)
        return tuple(group)

    def _forget(self, row: OutboxRecord) -> None:
        """A row sent with an earlier one: out of its worker's queue."""
        queue = self._queues.get(self._tables.get(row.game_id, -row.game_id))
        if queue is not None and row in queue:
            queue.remove(row)
        self._queued.discard(row.id)

    @staticmethod
    def _joins(row: OutboxRecord) -> bool:
        return kinds.entry(str(row.payload.get("kind", row.kind))).coalesces

    async def _deliver_one(
        self, row: OutboxRecord, outcome: _Pass, together: tuple[OutboxRecord, ...] = ()
    ) -> None:
        """Send one row (with the rows ``together`` with it) and mark it sent, or note its
        destination as blocked (and why)."""
        dest = (row.game_id, destination(row))
        try:
            await self.leases.keep()
            if row.id in self.leases.lost:  # another deliverer has it (its later rows too)
                self.leases.lost.discard(row.id)
                log.warning("outbox row %s (game %s): taken over elsewhere", row.id, row.game_id)
                return
            together = tuple(other for other in together if other.id not in self.leases.lost)
            done = await self._deliver_row(row, together)
            if done:
                message_id = self.sender.done(row.id)
                if done is not MARKED:
                    ids = [other.id for other in together]
                    await self.service.mark_sent(
                        row.id, self.owner, message_id=message_id, together=ids
                    )
                for other in together:  # sent: no longer this worker's to send
                    self.sender.done(other.id)
                    self._forget(other)
                self.router.broken.discard(dest)
                self._told_outcome(row, "sent", 1 + len(together))
                outcome.progressed.add(row.game_id)
                outcome.moved.add(dest)
                outcome.done += 1 + len(together)
            else:
                outcome.stuck.add(row.game_id)
                outcome.blocked.add(dest)
        except LeaseLost:  # stalled past the lease: another deliverer has the game's rows
            self.leases.lost.discard(row.id)
            outcome.blocked.add(dest)  # its later rows here are that deliverer's too
            log.warning("outbox row %s (game %s): taken over elsewhere", row.id, row.game_id)
        except (discord.Forbidden, ChannelMissing) as exc:
            outcome.stuck.add(row.game_id)
            outcome.blocked.add(dest)
            # A permission lost in a game channel, or the channel deleted: the row stays
            # pending (sent once the permission is back, or /mafia setup rebuilt the
            # channel, in order) and the hosts are told at once, once.
            log.warning("outbox row %s (game %s): %s", row.id, row.game_id, exc)
            self._told_outcome(row, "blocked")
            await self.router.report_broken(row, dest, missing=isinstance(exc, ChannelMissing))
        except Exception as exc:  # one row never stops the other games' nor destinations'
            outcome.stuck.add(row.game_id)
            outcome.blocked.add(dest)
            outcome.failing.add(dest)
            self.sender.attempted.setdefault(row.id, self.clock())
            self._told_outcome(row, "failed")
            if isinstance(exc, TRANSIENT):
                log.warning(
                    "could not deliver outbox row %s (game %s), will retry: %r",
                    row.id,
                    row.game_id,
                    exc,
                )
            else:
                log.exception("could not deliver outbox row %s (game %s)", row.id, row.game_id)
            self.posts.outcome(row.id, POST_FAILING)

    def _told_outcome(self, row: OutboxRecord, outcome: str, count: int = 1) -> None:
        if self.on_delivered is not None:
            self.on_delivered(str(row.payload.get("kind", row.kind)), outcome, count)

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

    async def drain(self, timeout: float) -> None:
        """The bot is stopping (SIGTERM, Ctrl-C): every worker finishes the row it is sending
        (sent and marked, or left pending) and starts no other; waits at most ``timeout``
        seconds for them. What was not started stays pending for the next start."""
        self._closing = True
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        running = [w for w in self._workers.values() if not w.done()]
        if running:
            await asyncio.wait(running, timeout=timeout)

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
        return await self.router.warn_hosts(
            guild, settings, lang, game_id, text, host=slot != "host"
        )

    async def _deliver_row(
        self, row: OutboxRecord, together: tuple[OutboxRecord, ...] = ()
    ) -> bool | Done:
        """True when the row is done with (sent, or undeliverable for good); ``MARKED`` when
        it is, and marked sent already (a post); False when it waits (no server). Raises
        :class:`ChannelMissing` or ``discord.Forbidden`` when its channel is broken.
        ``together``: the rows after it in its destination sent with it (:meth:`_group`),
        their messages sharing its own where they fit."""
        sending = await sending_of(self.port, self.client, row)
        if isinstance(sending, bool):
            return sending
        entry = kinds.entry(sending.kind)
        if entry.deliver is not None:  # a delivery of its own (a player's post)
            done: bool | Done = await entry.deliver(sending)
            return done
        if entry.prepare is not None:
            sending.payload = entry.prepare(sending)
        posts = await row_posts(self.router, sending, entry)
        if posts is None:  # nothing to say any more (a role card after the game)
            return True
        if together:
            rendered = [posts]
            for other in together:
                more = await sending_of(self.port, self.client, other)
                if isinstance(more, bool):  # cannot be: the same game as the row's
                    return False
                rendered.append(await row_posts(self.router, more, kinds.entry(more.kind)) or [])
            posts = coalesce(rendered)
        try:
            where = await self.router.route(sending)
            if isinstance(where, bool):
                return where
            sending.target = where
            for hook in entry.before:
                await hook(sending)
            files = entry.files
            await self.sender.send(
                where,
                row.id,
                posts,
                view=entry.view(sending) if entry.view is not None else None,
                files=(lambda: files(sending)) if files is not None else None,
            )
        except (discord.Forbidden, discord.NotFound):
            if not is_private(sending.audience):
                raise
            # Closed DMs (50007), a user gone: the hosts are told, the row is done with.
            await self.router.tell_dm_failed(sending, sending.user_id)
            return True
        for hook in entry.after:
            await hook(sending)
        return True

    # --- the hosts -----------------------------------------------------------------------
    async def tell_hosts(
        self, guild: discord.Guild, text: str, *, table_id: int | None = None
    ) -> bool:
        """A notice in the #host of the table ``table_id`` (default: the server's first
        table), pinging nobody; False if it could not be posted."""
        return await self.router.tell_hosts(guild, text, table_id=table_id)

    async def mafia_room(self, guild: discord.Guild, game_id: int) -> discord.Thread | None:
        """The game's mafia room in its table's #mafia (opened again if it is gone), or None
        without #mafia."""
        return await self.router.mafia_room(guild, game_id)

    @property
    def rooms(self) -> MafiaRooms:
        return self.router.rooms

    # --- the players' posts ----------------------------------------------------------------
    async def publish_post(
        self,
        game_id: int,
        row_id: int,
        *,
        later: Callable[[str], Awaitable[object]] | None = None,
    ) -> str:
        """Deliver the game's pending rows until the post of outbox row ``row_id`` is shown or
        refused, for the author's answer (:meth:`PostWaits.publish`)."""
        return await self.posts.publish(game_id, row_id, later=later)


def _episode(dest: Dest) -> Dest:
    """The stuck episode a destination's failures belong to: #host's, or the game's."""
    return (dest[0], "host" if dest[1] == "host" else "game")
