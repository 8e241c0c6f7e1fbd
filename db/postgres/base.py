"""The PostgreSQL engine of :mod:`db.ops`: the connection pool, opening (migrations),
closing, and the three ways a body runs (:class:`db.tx.Engine`):
:meth:`PostgresBase._engine_read` (a connection of the pool), :meth:`PostgresBase._engine_snapshot`
(a read-only ``REPEATABLE READ`` transaction) and :meth:`PostgresBase._engine_write` (a
transaction of its own, one at a time). A body's calls (:class:`PostgresTx`) are one round
trip each; a write's ``BEGIN`` goes with its first call (in the same round trip when that is
the game's row lock), its ``COMMIT`` is one more: a fenced vote is three round trips.

Concurrency. Reads run in parallel on a small asyncpg pool, each after the writes asked for
before it. The writes of one process are
applied one at a time, in the order the calls reach the store (an ``asyncio.Lock``, FIFO):
that is the interface's "one order", which a pool alone would not keep (two writes on two
connections may reach the server in either order). Across processes the database keeps the
invariants: every transaction that appends to a game's log, or claims a once-only stage of
its turn, first locks the game's row (``SELECT ... FOR UPDATE``, once per transaction:
:func:`db.ops.common.serialise`, :func:`db.ops.common.lock_game`), so two processes
appending at once get gap-free, ordered ``seq`` numbers; the claims themselves are unique
keys (``INSERT ... ON CONFLICT DO NOTHING``).

Every write runs in its own task shielded from cancellation, so a cancelled caller can never
leave half a transaction behind; it has committed when its coroutine returns. Every asyncpg
error (and a lost connection) leaves this package as a :class:`~db.errors.StoreError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Sequence
from typing import Any, Self, TypeAlias, TypeVar, cast

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from db.dialect import POSTGRES
from db.errors import (
    DatabaseUnusable,
    ForeignKeyViolation,
    StoreError,
    UniqueViolation,
)
from db.postgres.migrations import LATEST_VERSION, inspect_schema, migrate
from db.schema.migration import require_current
from db.tx import Body, Engine, Row
from db.urls import is_postgres_url, redact_url

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A connection of the pool, inside a transaction of ours.
Conn: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

#: The pool's size: a bot process needs few connections (writes go one at a time).
POOL_MIN, POOL_MAX = 1, 8

#: Seconds to wait for a connection to the server before giving up.
CONNECT_TIMEOUT = 10.0

#: Seconds a statement may take (waiting for another process's row lock included) before it
#: is cancelled and its transaction rolled back: a hung server or a stuck lock holder becomes a
#: StoreError ("try again") instead of a command that never answers.
COMMAND_TIMEOUT = 30.0

#: What asyncpg and the socket raise: all of it becomes a StoreError.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions._base.InternalClientError,
    OSError,
    TimeoutError,
)


class PostgresTx:
    """:class:`db.tx.Tx` on one connection of the pool (inside a transaction for a write):
    one round trip per call.

    A write's ``BEGIN`` is sent with its first statement: in the same simple query when that
    statement has no parameters (the game's row lock of :func:`db.ops.common.serialise`: the
    vote's ``BEGIN`` and lock are one round trip), else just before it. A row lock
    (``... FOR UPDATE`` without parameters) asked again in the same transaction is not sent
    again: the row stays locked until the transaction ends."""

    __slots__ = ("_begin", "_conn", "_row_locks", "begun", "locked")
    dialect = POSTGRES

    def __init__(self, conn: Conn, *, begin: bool = False) -> None:
        self._conn = conn
        self.locked: dict[int, Row] = {}
        #: ``BEGIN`` is still to be sent, with the first statement.
        self._begin = begin
        #: ``BEGIN`` went to the server: the engine commits or rolls back.
        self.begun = False
        self._row_locks: set[str] = set()

    async def _call(self, method: str, sql: str, *args: Any) -> Any:
        try:
            if self._begin:
                self._begin = False
                self.begun = True
                if method == "execute" and not args:
                    sql = f"BEGIN; {sql}"  # one simple query: one round trip for both
                else:
                    await self._conn.execute("BEGIN")
            return await getattr(self._conn, method)(sql, *args)
        except DRIVER_ERRORS as e:
            raise store_error(e) from e

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return cast(list[Row], await self._call("fetch", sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        return cast(Row | None, await self._call("fetchrow", sql, *args))

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._call("fetchval", sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        lock = not args and sql.endswith(" FOR UPDATE")
        if lock and sql in self._row_locks:
            return 0  # locked already, by this transaction
        done = affected(await self._call("execute", sql, *args))
        if lock:
            self._row_locks.add(sql)
        return done

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._call("executemany", sql, rows)


def affected(status: str) -> int:
    """The row count of a command status (``INSERT 0 1``, ``UPDATE 3``, ``DELETE 0``)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0


class PostgresBase(Engine):
    """The pool, the write lock and the transactions. Create with ``await cls.open(url)``."""

    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record], url: str, read_only: bool) -> None:
        super().__init__()
        self._pool = pool
        self.url = redact_url(url)  # no password shown
        self.read_only = read_only

    # --- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, url: str, *, read_only: bool = False, command_timeout: float = COMMAND_TIMEOUT
    ) -> Self:
        """Open the database at ``url`` (``postgresql://user:password@host:port/db``, with
        ``?search_path=schema`` to keep the bot's tables in a schema of their own), creating
        or migrating its schema as needed (every pending migration in one transaction, under
        an advisory lock: two processes opening at once migrate once).

        ``read_only`` (``main.py export``): no migration, and every transaction of the pool is
        read-only (``default_transaction_read_only``): every write fails with StoreError.
        Raises :class:`DatabaseUnusable` for a server that cannot be reached, a schema that is
        not ours or is newer (and, read only, an older or missing one).
        """
        if not is_postgres_url(url):
            raise ValueError("the PostgreSQL store needs a postgresql:// URL")
        where = redact_url(url)  # no password in any message
        settings = {"default_transaction_read_only": "on"} if read_only else {}
        try:
            pool: asyncpg.Pool[asyncpg.Record] = await asyncpg.create_pool(
                url,
                min_size=POOL_MIN,
                max_size=POOL_MAX,
                timeout=CONNECT_TIMEOUT,
                command_timeout=command_timeout,
                server_settings=settings,
                reset=_keep_session,
            )
        except DRIVER_ERRORS as e:
            raise DatabaseUnusable(f"{where}: cannot connect ({one_line(e)})") from e
        try:
            async with pool.acquire() as conn:
                if read_only:
                    version = await inspect_schema(conn, where)
                    require_current(where, version, LATEST_VERSION)
                else:
                    old, new = await migrate(conn, where)
                    if old != new:
                        log.info("migrated %s from schema v%d to v%d", where, old, new)
        except BaseException as e:
            await _terminate(pool)
            if isinstance(e, DRIVER_ERRORS):
                raise DatabaseUnusable(f"{where}: {one_line(e)}") from e
            raise
        return cls(pool, url, read_only)

    async def _release(self) -> None:
        try:
            await asyncio.wait_for(self._pool.close(), CONNECT_TIMEOUT)
        except DRIVER_ERRORS:
            await _terminate(self._pool)

    # --- the engine of db/ops ----------------------------------------------------------------

    async def _engine_read(self, body: Body[T]) -> T:
        await self._after_writes()
        try:
            async with self._pool.acquire() as conn:
                return await body(PostgresTx(conn))
        except DRIVER_ERRORS as e:
            raise store_error(e) from e

    async def _engine_snapshot(self, body: Body[T]) -> T:
        """One read-only ``REPEATABLE READ`` transaction."""
        await self._after_writes()
        try:
            async with (
                self._pool.acquire() as conn,
                conn.transaction(isolation="repeatable_read", readonly=True),
            ):
                return await body(PostgresTx(conn))
        except DRIVER_ERRORS as e:
            raise store_error(e) from e

    async def _engine_write(self, body: Body[T]) -> T:
        """The transaction runs in its own task, shielded: if the caller is cancelled, it
        still finishes (committed or rolled back as a whole) and the write lock is only
        released then."""
        self._check_open()
        return await self._shielded(self._transaction(body))

    # --- plumbing --------------------------------------------------------------------------

    async def _after_writes(self) -> None:
        """Wait for the writes asked for before this read (one order: a read sees every
        write called before it, even one whose caller was cancelled and no longer waits)."""
        self._check_open()
        if self._inflight:
            await asyncio.wait(set(self._inflight))

    async def _transaction(self, body: Body[T]) -> T:
        """``body`` in one transaction (``BEGIN`` sent with its first statement, see
        :class:`PostgresTx`), committed if it returns, rolled back if it raises."""
        async with self._lock:
            try:
                async with self._pool.acquire() as conn:
                    tx = PostgresTx(conn, begin=True)
                    try:
                        result = await body(tx)
                    except BaseException:
                        if tx.begun:
                            await _roll_back(conn)
                        raise
                    if tx.begun:
                        await conn.execute("COMMIT")
                    return result
            except DRIVER_ERRORS as e:
                raise store_error(e) from e


async def _roll_back(conn: Conn) -> None:
    """End a failed write's transaction, if the connection still has one open (a lost
    connection is the pool's to drop)."""
    with contextlib.suppress(*DRIVER_ERRORS):
        if not conn.is_closed() and conn.is_in_transaction():
            await conn.execute("ROLLBACK")


async def _keep_session(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """What a connection given back to the pool needs beyond asyncpg's own rollback of an
    open transaction: nothing. The store sets no session state (no ``SET``, no ``LISTEN``, no
    cursor outside a transaction, advisory locks only for a transaction), so asyncpg's default
    reset (``RESET ALL``, ``UNLISTEN *``, ...: one more round trip after every commit) is
    skipped."""


async def _terminate(pool: asyncpg.Pool[asyncpg.Record]) -> None:
    with contextlib.suppress(*DRIVER_ERRORS):
        pool.terminate()


# --- helpers for the statements of every concern ---------------------------------------------


def one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def store_error(e: BaseException) -> StoreError:
    text = one_line(e)
    if isinstance(e, TimeoutError):
        return StoreError("the database did not answer in time; try again")
    if isinstance(e, asyncpg.ReadOnlySQLTransactionError):
        return StoreError(f"the store is read-only ({text})")
    if isinstance(e, asyncpg.UniqueViolationError):
        return UniqueViolation(f"the database refused the change ({text})")
    if isinstance(e, asyncpg.ForeignKeyViolationError):
        return ForeignKeyViolation(f"the database refused the change ({text})")
    if isinstance(e, asyncpg.IntegrityConstraintViolationError):
        return StoreError(f"the database refused the change ({text})")
    if isinstance(e, asyncpg.PostgresError) and not isinstance(
        e, asyncpg.PostgresConnectionError | asyncpg.exceptions.OperatorInterventionError
    ):
        return StoreError(f"database error ({text})")
    return StoreError(f"the database server cannot be reached ({text}); try again")
