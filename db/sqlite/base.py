"""The SQLite connection every concern's queries run on: opening (migrations, PRAGMAs),
closing, and the ways in: :meth:`SQLiteBase._read`, :meth:`SQLiteBase._write` and
:meth:`SQLiteBase._write_at_once`.

Concurrency: one aiosqlite connection per store; an ``asyncio.Lock`` serialises every
statement, and every write runs as ``BEGIN IMMEDIATE ... COMMIT`` in its own task shielded from
cancellation, so a cancelled caller can never leave half a transaction behind. A write has
committed when its coroutine returns. Every ``sqlite3`` error leaves this package as a
:class:`~db.errors.StoreError`.

Each ``await`` on the aiosqlite connection is a hop to its thread and back (a queue, a thread
switch, a future resolved on the event loop). :meth:`SQLiteBase._write` makes at least three
(BEGIN, the statements, COMMIT); :meth:`SQLiteBase._write_at_once` runs the whole transaction
as one plain function on the connection's thread: one hop, for the hot paths (a player's
request, a post).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar, cast

import aiosqlite

from db import migrations
from db.errors import DatabaseUnusable, NotFound, StoreError
from db.sqlite.tablecache import TableCache

log = logging.getLogger(__name__)

T = TypeVar("T")


class SQLiteBase:
    """The connection, its lock and its transactions. Create with ``await cls.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._db = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self._inflight: set[asyncio.Task[Any]] = set()
        #: Whether opening ran SQLite's integrity check: only after a run that did not close
        #: cleanly (``db.migrations.closed_cleanly``); never for a read-only store.
        self.integrity_checked = False
        self._writable = False
        #: The servers' tables, read once (db/sqlite/tablecache.py): every write to
        #: ``game_tables`` must forget what it changed.
        self._table_cache = TableCache()

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
        )
        store = cls(await _connect(db_path, str(db_path), pragmas), db_path)
        store.integrity_checked = report.checked
        store._writable = True
        return store

    async def close(self) -> None:
        """Wait for writes in flight, then close the connection. Idempotent. A clean close
        (the last connection to the file) leaves the marker that spares the next start its
        integrity check (:func:`db.migrations.mark_closed_cleanly`)."""
        if self._closed:
            return
        if self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
        self._closed = True
        async with self._lock:
            await self._db.close()
        if self._writable:
            await asyncio.to_thread(migrations.mark_closed_cleanly, self.path)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- plumbing --------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        self._check_open()
        async with self._lock:
            try:
                return list(await self._db.execute_fetchall(sql, params))
            except sqlite3.DatabaseError as e:
                raise store_error(e) from e

    async def _read_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._read(sql, params)
        return rows[0] if rows else None

    @contextlib.asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, locked, inside one read transaction: several SELECTs see one state
        even if another process writes meanwhile. sqlite3 errors become StoreError."""
        self._check_open()
        async with self._lock, _snapshot(self._db):
            try:
                yield self._db
            except sqlite3.DatabaseError as e:
                raise store_error(e) from e

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run ``body`` in one ``BEGIN IMMEDIATE`` transaction, committed on return.

        The transaction runs in its own task, shielded: if the caller is cancelled, the
        transaction still finishes (committed or rolled back as a whole) and the lock is only
        released then.
        """
        self._check_open()
        task = asyncio.ensure_future(self._transaction(body))
        self._inflight.add(task)
        task.add_done_callback(self._write_done)
        return await asyncio.shield(task)

    async def _write_at_once(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``body`` (a plain function of the ``sqlite3`` connection) in one ``BEGIN
        IMMEDIATE`` transaction, committed on return, all of it in ONE call on the connection's
        thread (see the module's docstring). Same guarantees as :meth:`_write`: committed or
        rolled back as a whole, committed when this returns, run to its end even if the caller
        is cancelled, in the order the writes were asked for. ``body`` must fetch every row it
        asks for (a statement left in progress makes the COMMIT fail).

        When nobody holds or waits for the lock (the usual case) no task is made (each costs
        the event loop several callbacks): the lock is taken and the transaction queued on the
        connection's thread before the first suspension, so nothing can cancel it any more;
        the thread runs what is queued in order, so a cancelled caller releasing the lock
        early lets nothing run before the transaction ends (nor :meth:`close` close before
        it). Otherwise the write waits its turn in a shielded task of its own, as
        :meth:`_write` does."""
        self._check_open()
        transaction = functools.partial(_transaction_of, body)
        if not self._lock.locked() and not self._lock._waiters:
            return await self._transaction_at_once(transaction)
        task = asyncio.ensure_future(self._transaction_at_once(transaction))
        self._inflight.add(task)
        task.add_done_callback(self._write_done)
        return await asyncio.shield(task)

    async def _transaction_at_once(self, transaction: Callable[[sqlite3.Connection], T]) -> T:
        async with self._lock:  # taken at once when free: no suspension before the queueing
            try:
                return await _on_thread(self._db, transaction)
            except sqlite3.DatabaseError as e:
                raise store_error(e) from e

    def _write_done(self, task: asyncio.Task[Any]) -> None:
        self._inflight.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Retrieved here so that a write whose caller was cancelled logs nothing twice;
            # the caller (if still waiting) gets the exception through the shield.
            log.debug("write failed: %s", task.exception())

    async def _transaction(self, body: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        async with self._lock:
            db = self._db
            try:
                await db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as e:
                raise store_error(e) from e
            try:
                result = await body(db)
                await db.execute("COMMIT")
            except BaseException as e:
                if db.in_transaction:
                    try:
                        await db.execute("ROLLBACK")
                    except sqlite3.Error:  # pragma: no cover - rollback after a failed commit
                        log.exception("rollback failed")
                if isinstance(e, sqlite3.DatabaseError):
                    raise store_error(e) from e
                raise
            return result


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
    if version != migrations.LATEST_VERSION:
        raise DatabaseUnusable(
            f"{path}: schema version {version}, but this bot reads version "
            f"{migrations.LATEST_VERSION} only; run the bot on it once to upgrade it"
            if version
            else f"{path}: not a forum-mafia database (no schema)"
        )
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
        return StoreError(f"the database refused the change ({text})")
    return StoreError(f"database error ({text})")


@contextlib.asynccontextmanager
async def _snapshot(db: aiosqlite.Connection) -> AsyncIterator[None]:
    try:
        await db.execute("BEGIN")
    except sqlite3.DatabaseError as e:
        raise store_error(e) from e
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            await db.execute("COMMIT")


async def fetch_one(
    db: aiosqlite.Connection, sql: str, params: Sequence[Any] = ()
) -> sqlite3.Row | None:
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def game_exists(db: aiosqlite.Connection, game_id: int) -> bool:
    return await fetch_one(db, "SELECT 1 FROM games WHERE id = ?", (game_id,)) is not None


def foreign_key_to_not_found(e: sqlite3.IntegrityError, game_id: int) -> None:
    """Raise :class:`NotFound` for a row whose game does not exist (the FOREIGN KEY refused
    it); other integrity errors are left to the caller."""
    if "FOREIGN KEY" in str(e):
        raise NotFound(f"no game {game_id}") from e
