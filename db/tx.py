"""The narrow interface every store operation is written against: a transaction (:class:`Tx`)
of four calls and a :class:`~db.dialect.Dialect`, and the :class:`Engine` that runs an
operation's body in one. Each operation of :mod:`db.ops` is written ONCE, as an ``async def``
body over a ``Tx``; the two engines run it:

- SQLite (:mod:`db.sqlite.base`): the body's calls never suspend (each runs its statement
  at once on the connection), so the whole body runs on the connection's thread in ONE hop,
  between ``BEGIN IMMEDIATE`` and ``COMMIT``;
- PostgreSQL (:mod:`db.postgres.base`): the body runs in an asyncpg transaction, one round
  trip per call.

Statements use numbered parameters (``$1``); the engine translates them for its driver. Every
driver error leaves a call as a :class:`db.errors.StoreError` (a refused constraint as
:class:`db.errors.UniqueViolation` or :class:`db.errors.ForeignKeyViolation`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from types import TracebackType
from typing import Any, Protocol, Self, TypeVar

from db.convert import machine_clock
from db.dialect import Dialect
from db.errors import StoreError
from db.tablecache import TableCache

T = TypeVar("T")

log = logging.getLogger(__name__)


class Row(Protocol):
    """A stored row (``sqlite3.Row``, ``asyncpg.Record``): its columns by name or position."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def __iter__(self) -> Any: ...

    def __len__(self) -> int: ...


class Tx(Protocol):
    """One open transaction (or, for a read, one connection)."""

    #: The engine's SQL differences.
    dialect: Dialect
    #: The games whose row this transaction has locked (:func:`db.ops.common.lock_game`),
    #: with their status and turn as locked.
    locked: dict[int, Row]

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        """Every row of one statement."""
        ...

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        """The first row of one statement, or None."""
        ...

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None."""
        ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of arguments."""
        ...


#: An operation's body: what runs inside one transaction.
Body = Callable[[Tx], Awaitable[T]]


def operation_name(body: Callable[..., object]) -> str:
    """The store operation a body belongs to: the method it is defined in (``add_request``),
    or ``read`` for a one-statement read (``Engine._fetch``)."""
    qualname = getattr(body, "__qualname__", "")
    owner = qualname.split(".<locals>", 1)[0].rsplit(".", 1)[-1]
    return owner.lstrip("_") or "read"


class Engine:
    """What an engine gives the operations (:mod:`db.ops`): three ways to run a body, the
    servers' tables cache, and its dialect. :class:`db.sqlite.base.SQLiteBase` and
    :class:`db.postgres.base.PostgresBase` implement it."""

    dialect: Dialect
    #: The servers' tables, read once per process (:mod:`db.ops.settings`).
    _table_cache: TableCache
    #: The clock of every time the store stamps by itself (a row's creation, a resolution, a
    #: sent mark): the game's one injectable clock once the service that
    #: uses the store bound it (:meth:`use_clock`); until then (a tool, a store test) the
    #: machine's.
    _clock: Callable[[], dt.datetime] | None = None

    def use_clock(self, clock: Callable[[], dt.datetime]) -> None:
        """Read ``clock`` for every time the store stamps by itself (a row's creation, a
        resolution, a sent mark) from now on (an outbox lease is process coordination, on the
        machine's or the database server's clock). The game service binds its own, the one
        injectable clock, so that the store and the game never read two clocks (R59 compares
        their times); until then, the machine's UTC time."""
        self._clock = clock

    @staticmethod
    def _lease_now() -> dt.datetime:
        """The clock of the outbox's leases on SQLite: the machine's, which every process on
        the host shares (each process's game clock is its own: a lease coordinates processes,
        and is never a game's time). PostgreSQL's leases are on the server's clock."""
        return machine_clock()

    def _now(self) -> dt.datetime:
        """The store's clock now (timezone-aware: ``ValueError`` for a naive one)."""
        now = (self._clock or machine_clock)()
        if now.tzinfo is None or now.utcoffset() is None:
            raise ValueError(f"the store's clock gave a naive datetime {now!r}")
        return now

    #: Told how long each store operation took, by its name (``bot/metrics.py``: the
    #: operations' latency); None (the default): nobody listens, nothing is timed.
    observer: Callable[[str, float], None] | None = None

    def __init__(self) -> None:
        #: Serialises the engine's transactions (SQLite: every one; PostgreSQL: the writes).
        self._lock = asyncio.Lock()
        self._closed = False
        #: The writes (and SQLite's checkpoints) running in tasks of their own: :meth:`close`
        #: waits for them.
        self._inflight: set[asyncio.Task[Any]] = set()
        self._table_cache = TableCache()

    async def close(self) -> None:
        """Wait for the writes in flight, then release the connection. Idempotent."""
        if self._closed:
            return
        while self._inflight:  # a write finishing may start a checkpoint: wait for it too
            await asyncio.gather(*self._inflight, return_exceptions=True)
        self._closed = True
        async with self._lock:
            await self._release()

    async def _release(self) -> None:
        """Close the engine's connection (or pool): once, after the last write."""
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    async def _shielded(self, write: Coroutine[Any, Any, T]) -> T:
        """``write`` in a task of its own, shielded: a cancelled caller leaves it to finish
        (committed or rolled back as a whole); :meth:`close` waits for it.

        The caller waits on a future the task settles as its last step (one turn of the event
        loop after it, where ``asyncio.shield`` of the task takes two); cancelling the caller
        cancels that future only, never the task."""
        outcome: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(_settling(write, outcome))
        self._inflight.add(task)
        task.add_done_callback(self._write_done)
        return await outcome

    def _write_done(self, task: asyncio.Task[Any]) -> None:
        self._inflight.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here so that a write whose caller was cancelled logs nothing twice;
            # the caller (if still waiting) gets the exception through its future.
            log.debug("write failed: %s", task.exception())

    async def _run_read(self, body: Body[T]) -> T:
        """Run ``body`` (reads only) after every write asked for before it. Several statements
        need not see one state: use :meth:`_run_snapshot` for that."""
        return await self._observed(self._engine_read, body)

    async def _run_snapshot(self, body: Body[T]) -> T:
        """Run ``body`` (reads only) in one read transaction: its statements see one state
        even while another process writes."""
        return await self._observed(self._engine_snapshot, body)

    async def _run_write(self, body: Body[T]) -> T:
        """Run ``body`` in one write transaction, committed when this returns, committed or
        rolled back as a whole even if the caller is cancelled, in the order the writes were
        asked for."""
        return await self._observed(self._engine_write, body)

    async def _engine_read(self, body: Body[T]) -> T:
        raise NotImplementedError

    async def _engine_snapshot(self, body: Body[T]) -> T:
        raise NotImplementedError

    async def _engine_write(self, body: Body[T]) -> T:
        raise NotImplementedError

    async def _observed(self, run: Callable[[Body[T]], Awaitable[T]], body: Body[T]) -> T:
        """``run(body)``, its duration told to :attr:`observer` under the operation's name
        (the method whose body it is: ``add_request`` for ``OpsX.add_request.<locals>.body``).
        A duration for a metric, measured on the monotonic counter: no game time. Nobody
        listening (the default): just ``run(body)``."""
        if self.observer is None:
            return await run(body)
        started = time.perf_counter()
        try:
            return await run(body)
        finally:
            observer = self.observer
            if observer is not None:
                observer(operation_name(body), time.perf_counter() - started)

    async def _fetch(self, sql: str, *args: Any) -> list[Row]:
        async def body(tx: Tx) -> list[Row]:
            return await tx.fetch(sql, *args)

        return await self._run_read(body)

    async def _fetchrow(self, sql: str, *args: Any) -> Row | None:
        async def body(tx: Tx) -> Row | None:
            return await tx.fetchrow(sql, *args)

        return await self._run_read(body)


async def _settling(write: Coroutine[Any, Any, T], outcome: asyncio.Future[T]) -> T:
    """Run ``write``, then settle ``outcome`` with what it returned or raised (unless the
    caller waiting on it was cancelled)."""
    try:
        result = await write
    except BaseException as e:
        if not outcome.done():
            if isinstance(e, asyncio.CancelledError):
                outcome.cancel()
            else:
                outcome.set_exception(e)
        raise
    if not outcome.done():
        outcome.set_result(result)
    return result
