"""The SQLite engine of :mod:`db.ops`: opening (migrations, PRAGMAs), closing, and the
three ways a body runs (:class:`db.tx.Engine`): :meth:`SQLiteBase._engine_read`,
:meth:`SQLiteBase._engine_snapshot` and :meth:`SQLiteBase._engine_write`.

Each ``await`` on the aiosqlite connection is a hop to its thread and back (a queue, a thread
switch, a future resolved on the event loop). So a body never awaits the connection: it runs
over :class:`SQLiteTx`, whose calls run their statement at once on the ``sqlite3`` connection
and never suspend, and the whole body (``BEGIN IMMEDIATE``, its statements, ``COMMIT`` for a
write) is driven to its end on the connection's thread in ONE hop (:func:`_drive`).

Concurrency: one aiosqlite connection per store; an ``asyncio.Lock`` serialises every
transaction, and a write is queued on the connection's thread before anything can cancel it
(or runs in its own shielded task when it must wait for the lock), so a cancelled caller can
never leave half a transaction behind. A write has committed when its coroutine returns.
Every ``sqlite3`` error leaves this package as a :class:`~db.errors.StoreError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar, cast

import aiosqlite

import db.sqlite.migrations as migrations
from db.dialect import SQLITE
from db.errors import (
    DatabaseUnusable,
    ForeignKeyViolation,
    StoreError,
    UniqueViolation,
)
from db.schema.migration import require_current
from db.tx import Body, Engine, Row

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Writes between two checkpoints of the write-ahead log, each run off the writers' path: on a
#: connection of its own, in a worker thread, PASSIVE (it waits for nobody and nobody waits for
#: it). SQLite's own automatic checkpoint runs inside whichever commit fills the log past 1,000
#: pages, and made that player's vote wait 20 ms to a second (the p99 of ``make bench``).
CHECKPOINT_EVERY = 200
#: SQLite's automatic checkpoint, kept only as a safety net should the background ones fall
#: behind (pages of the log; about 40 MB).
AUTOCHECKPOINT_PAGES = 10_000


class SQLiteTx:
    """:class:`db.tx.Tx` on the ``sqlite3`` connection, on the connection's own thread: every
    call runs its statement at once and never suspends, so a body over it runs to its end in
    one ``coro.send(None)`` (:func:`_drive`). Every row is fetched (a statement left in
    progress would make the COMMIT fail)."""

    __slots__ = ("_conn", "locked")
    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.locked: dict[int, Row] = {}

    def _run(self, sql: str, args: Sequence[Any]) -> tuple[sqlite3.Cursor, list[Any]]:
        """The statement's cursor and every row it gives (a statement left in progress would
        make the COMMIT fail)."""
        try:
            cur = self._conn.execute(SQLITE.sql(sql), args)
            return cur, cur.fetchall()
        except sqlite3.DatabaseError as e:
            raise store_error(e) from e

    async def fetch(self, sql: str, *args: Any) -> list[Row]:
        return cast(list[Row], self._run(sql, args)[1])

    async def fetchrow(self, sql: str, *args: Any) -> Row | None:
        rows = await self.fetch(sql, *args)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self.fetch(sql, *args)
        return rows[0][0] if rows else None

    async def execute(self, sql: str, *args: Any) -> int:
        return self._run(sql, args)[0].rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self._conn.executemany(SQLITE.sql(sql), rows)
        except sqlite3.DatabaseError as e:
            raise store_error(e) from e


def _drive(body: Body[T], conn: sqlite3.Connection) -> T:
    """Run ``body`` to its end on the connection's thread: its calls never suspend, so the
    coroutine finishes at its first ``send``."""
    coro = body(SQLiteTx(conn))
    try:
        coro.send(None)  # type: ignore[attr-defined]
    except StopIteration as stop:
        return cast(T, stop.value)
    coro.close()  # type: ignore[attr-defined]
    raise RuntimeError("a store operation suspended inside a SQLite transaction")


def _snapshot_of(body: Body[T], conn: sqlite3.Connection) -> T:
    """``body`` inside one read transaction (``BEGIN`` ... ``COMMIT``), on the thread."""
    conn.execute("BEGIN")
    try:
        return _drive(body, conn)
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("COMMIT")


class SQLiteBase(Engine):
    """The connection, its lock and its transactions. Create with ``await cls.open(path)``."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        super().__init__()
        self._db = conn
        self.path = path
        self._writes_since_checkpoint = 0
        self._checkpointing = False
        #: Whether opening ran SQLite's integrity check: only after a run that did not close
        #: cleanly (``db.sqlite.migrations.closed_cleanly``); never for a read-only store.
        self.integrity_checked = False
        self._writable = False

    # --- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, synchronous: str = "FULL", read_only: bool = False
    ) -> Self:
        """Open (creating or migrating as needed) the database at ``path``.

        ``synchronous`` is SQLite's durability setting: ``FULL`` (default) makes every commit
        survive a power cut; ``NORMAL`` survives a crash of the bot only, and is faster.
        ``read_only`` (``main.py export``) opens an existing database of the current schema
        without changing a byte of it: no creation, no migration, no new files; every write
        fails. Raises :class:`DatabaseUnusable` for a corrupt, foreign or newer file (and, read
        only, for a missing, empty or older one).
        """
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        db_path = Path(path)
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("the store needs a database file path")
        if read_only:
            return cls(await _connect_read_only(db_path), db_path)
        report = await asyncio.to_thread(migrations.migrate, db_path)
        if report.old_version != report.new_version:
            log.info(
                "migrated %s from schema v%d to v%d (backup: %s)",
                db_path,
                report.old_version,
                report.new_version,
                report.backup,
            )
        pragmas = (
            f"PRAGMA busy_timeout = {migrations.BUSY_TIMEOUT_MS}",
            "PRAGMA foreign_keys = ON",
            f"PRAGMA synchronous = {synchronous.upper()}",
            "PRAGMA journal_mode = WAL",
            f"PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}",
        )
        store = cls(await _connect(db_path, str(db_path), pragmas), db_path)
        store.integrity_checked = report.checked
        store._writable = True
        return store

    async def _release(self) -> None:
        """A clean close (the last connection to the file) leaves the marker that spares the
        next start its integrity check (:func:`db.sqlite.migrations.mark_closed_cleanly`)."""
        await self._db.close()
        if self._writable:
            await asyncio.to_thread(migrations.mark_closed_cleanly, self.path)

    # --- the engine of db/ops: every body in one hop -----------------------------------------

    async def _engine_read(self, body: Body[T]) -> T:
        return await self._at_once(functools.partial(_drive, body))

    async def _engine_snapshot(self, body: Body[T]) -> T:
        return await self._at_once(functools.partial(_snapshot_of, body))

    async def _at_once(self, run: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``run`` (a plain function of the ``sqlite3`` connection) in ONE call on the
        connection's thread, under the store's lock."""
        self._check_open()
        async with self._lock:  # taken at once when free: no suspension before the queueing
            try:
                return await _on_thread(self._db, run)
            except sqlite3.DatabaseError as e:
                raise store_error(e) from e

    async def _engine_write(self, body: Body[T]) -> T:
        return await self._write_at_once(functools.partial(_drive, body))

    # --- plumbing --------------------------------------------------------------------------

    async def _write_at_once(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` (a plain function of the ``sqlite3`` connection) in one ``BEGIN
        IMMEDIATE`` transaction, committed on return, all of it in ONE call on the connection's
        thread (see the module's docstring): committed or rolled back as a whole, committed
        when this returns, run to its end even if the caller is cancelled, in the order the
        writes were asked for. ``body`` must fetch every row it asks for (a statement left in
        progress makes the COMMIT fail).

        When nobody holds or waits for the lock (the usual case) no task is made (each costs
        the event loop several callbacks): the lock is taken and the transaction queued on the
        connection's thread before the first suspension, so nothing can cancel it any more;
        the thread runs what is queued in order, so a cancelled caller releasing the lock
        early lets nothing run before the transaction ends (nor :meth:`close` close before
        it). Otherwise the write waits its turn in a shielded task of its own."""
        self._check_open()
        transaction = functools.partial(_transaction_of, body)
        if not self._lock.locked() and not self._lock._waiters:
            return await self._transaction_at_once(transaction)
        return await self._shielded(self._transaction_at_once(transaction))

    async def _transaction_at_once(self, transaction: Callable[[sqlite3.Connection], T]) -> T:
        result = await self._at_once(transaction)
        self._count_write()
        return result

    def _count_write(self) -> None:
        """Every :data:`CHECKPOINT_EVERY` writes, checkpoint the log in the background (one
        at a time; :meth:`close` waits for it)."""
        self._writes_since_checkpoint += 1
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or self._checkpointing or self._closed:
            return
        self._writes_since_checkpoint = 0
        self._checkpointing = True
        task = asyncio.ensure_future(asyncio.to_thread(_checkpoint, self.path))
        self._inflight.add(task)
        task.add_done_callback(self._checkpoint_done)

    def _checkpoint_done(self, task: asyncio.Task[Any]) -> None:
        self._inflight.discard(task)
        self._checkpointing = False
        if not task.cancelled() and task.exception() is not None:
            log.warning("checkpoint of %s failed: %s", self.path, task.exception())


def _checkpoint(path: Path) -> None:
    """A PASSIVE checkpoint of ``path``'s write-ahead log on a connection of its own: it copies
    what no reader still needs into the database file and waits for no reader or writer (the
    log's commits are durable already; this only bounds its size)."""
    conn = sqlite3.connect(path, timeout=migrations.BUSY_TIMEOUT_MS / 1000)
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    finally:
        conn.close()


def _transaction_of(body: Callable[[sqlite3.Connection], T], conn: sqlite3.Connection) -> T:
    """``BEGIN IMMEDIATE``, ``body``, ``COMMIT`` (``ROLLBACK`` on any error): runs on the
    connection's thread."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:  # pragma: no cover - rollback after a failed commit
                log.exception("rollback failed")
        raise
    return result


async def _on_thread(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """``fn(conn)`` on the connection's own thread, where every statement of ``db`` runs, in
    its turn: one hop. aiosqlite has no public call for it; ``Connection._execute`` is what
    each of its own methods uses (aiosqlite 0.22, pinned in requirements.txt)."""
    run = cast(Callable[..., Awaitable[T]], db._execute)
    return await run(fn, db._conn)


# --- read-only opening -------------------------------------------------------------------------


def _read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` read-only, after checking it is a current database of ours.

    ``mode=ro`` alone is not enough to leave the folder untouched: reading a WAL database
    creates its ``-wal`` and ``-shm`` files, and a read-only connection cannot remove them.
    When no ``-wal`` file exists, no connection has the database open (the last one to close
    removes it), so the file is opened ``immutable``: SQLite then takes no lock and creates
    nothing. A bot that starts meanwhile writes into its new ``-wal``, not into the file.
    """
    if not path.exists():
        raise DatabaseUnusable(f"{path}: no such database file")
    if not path.is_file():
        raise DatabaseUnusable(f"{path}: not a file")
    try:
        size = path.stat().st_size
    except OSError as e:
        raise DatabaseUnusable(f"{path}: cannot read the database file ({e.strerror})") from e
    if size == 0:
        raise DatabaseUnusable(f"{path}: an empty file, not a database")
    migrations._check_header(path)
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if not path.with_name(path.name + "-wal").exists():
        uri += "&immutable=1"
    try:
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as e:
        raise DatabaseUnusable(f"{path}: cannot open the database ({e})") from e
    try:
        version = migrations.inspect(conn, path)
    finally:
        conn.close()
    require_current(path, version, migrations.LATEST_VERSION)
    return uri


async def _connect_read_only(path: Path) -> aiosqlite.Connection:
    uri = await asyncio.to_thread(_read_only_uri, path)
    pragmas = (f"PRAGMA busy_timeout = {migrations.BUSY_TIMEOUT_MS}", "PRAGMA query_only = ON")
    return await _connect(path, uri, pragmas, uri=True)


async def _connect(
    path: Path, target: str, pragmas: Sequence[str], *, uri: bool = False
) -> aiosqlite.Connection:
    """A connection to ``target`` (the file, or a ``file:`` URI) with rows as ``sqlite3.Row``
    and ``pragmas`` applied; a failure is one line naming ``path``."""
    try:
        conn = await aiosqlite.connect(target, uri=uri, isolation_level=None)
    except sqlite3.Error as e:
        raise DatabaseUnusable(f"{path}: cannot open the database ({e})") from e
    try:
        conn.row_factory = sqlite3.Row
        for pragma in pragmas:
            # Close each cursor at once: a cursor left to the garbage collector keeps a
            # statement in progress, and a later COMMIT fails.
            async with conn.execute(pragma):
                pass
    except sqlite3.Error as e:
        await conn.close()
        raise DatabaseUnusable(f"{path}: cannot configure the database ({e})") from e
    return conn


# --- helpers for the statements of every concern ---------------------------------------------


def store_error(e: sqlite3.DatabaseError) -> StoreError:
    text = str(e)
    if "locked" in text or "busy" in text:
        return StoreError(f"the database is busy ({text}); try again")
    if isinstance(e, sqlite3.IntegrityError):
        refused = f"the database refused the change ({text})"
        if text.startswith("UNIQUE"):
            return UniqueViolation(refused)
        if "FOREIGN KEY" in text:
            return ForeignKeyViolation(refused)
        return StoreError(refused)
    return StoreError(f"database error ({text})")
