"""The SQLite runner of the numbered schema migrations, tracked with ``PRAGMA user_version``.

The migrations themselves (both engines' DDL, one module per version) are in :mod:`db.schema`;
this module runs their SQLite side. Never edit a migration that has shipped: append a new one
(docs/STORAGE.md). All pending migrations run in ONE transaction (SQLite DDL is
transactional), so a failure leaves the file exactly as it was.

Before an existing database is migrated it is copied, with SQLite's online backup API (safe
with WAL and with other readers), to ``FILE.bak-v{old_version}``; an existing backup of that
name is never overwritten (a time stamp is appended instead).

The file is recognised as ours by ``PRAGMA application_id`` (:data:`APPLICATION_ID`, set by
migration 1) and by its tables: anything else (not SQLite, damaged, another program's
database, or a schema newer than this build) raises :class:`db.errors.DatabaseUnusable` with
a one-line message.

This module is synchronous on purpose: it runs once at start-up (``SQLiteStore.open`` calls it in a
worker thread) and the tests use it to build files of older versions.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
import time
from functools import cache
from pathlib import Path

import attrs

from db.errors import DatabaseUnusable
from db.schema import APPLICATION_ID, VERSIONS
from db.schema.migration import check_tables, check_version, goal_version

BUSY_TIMEOUT_MS = 5000

_SQLITE_MAGIC = b"SQLite format 3\x00"

#: The SQLite DDL of every version, in order (``MIGRATIONS[i]`` takes a file from version ``i``
#: to ``i + 1``): read from the one list of versions, :data:`db.schema.VERSIONS`.
MIGRATIONS: tuple[str, ...] = tuple(m.sqlite for m in VERSIONS)
LATEST_VERSION = len(MIGRATIONS)


@attrs.frozen
class MigrationReport:
    """What :func:`migrate` did to a file."""

    old_version: int
    new_version: int
    backup: Path | None  # the copy taken before migrating, if any
    #: Whether SQLite's integrity check ran (skipped when the last run closed cleanly).
    checked: bool = True


# --------------------------------------------------------------------------------------------
# The clean-shutdown marker. ``PRAGMA quick_check`` reads every page (tens of milliseconds
# per 10 MB): it runs at start only when the last run may not have closed cleanly. The marker
# is a small file next to the database, ``FILE-clean``, written by the store's ``close`` once
# the last connection is gone (SQLite then has removed the ``-wal`` file) and holding the
# database file's size and modification time. Opening removes it before anything is written,
# so a run killed while open leaves none; a ``-wal`` file, or a database changed since (copied
# over, restored, damaged on disk), also means "check".
# --------------------------------------------------------------------------------------------


def clean_marker(path: Path) -> Path:
    return path.with_name(path.name + "-clean")


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _identity(path: Path) -> str:
    st = path.stat()
    return f"{st.st_size} {st.st_mtime_ns}"


def closed_cleanly(path: Path) -> bool:
    """Whether the last run on ``path`` closed it cleanly and nothing changed it since."""
    try:
        text = clean_marker(path).read_text(encoding="ascii")
        return not _wal(path).exists() and text == _identity(path)
    except (OSError, UnicodeDecodeError):
        return False


def mark_closed_cleanly(path: Path) -> bool:
    """After the store closed ``path``: leave the marker if no connection is left (no
    ``-wal`` file). False (no marker: the next start checks) otherwise or on any error."""
    try:
        if _wal(path).exists():
            return False
        clean_marker(path).write_text(_identity(path), encoding="ascii")
    except OSError:
        return False
    return True


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


@cache
def expected_tables(version: int) -> frozenset[str]:
    """The tables a database of schema ``version`` holds (built in memory from MIGRATIONS)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for script in MIGRATIONS[:version]:
            conn.executescript(script)
        return _tables(conn)
    finally:
        conn.close()


def _tables(conn: sqlite3.Connection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    return frozenset(str(r[0]) for r in rows)


def _check_header(path: Path) -> None:
    """A non-empty file must start with SQLite's magic string."""
    try:
        with path.open("rb") as f:
            head = f.read(len(_SQLITE_MAGIC))
    except OSError as e:
        raise DatabaseUnusable(f"{path}: cannot read the database file ({e.strerror})") from e
    if head and head != _SQLITE_MAGIC:
        raise DatabaseUnusable(f"{path}: not a SQLite database (corrupt or some other file)")


def inspect(conn: sqlite3.Connection, path: Path, *, integrity: bool = True) -> int:
    """Check that ``conn`` is a database of this bot; return its schema version.
    ``integrity``: also run SQLite's ``quick_check`` (every page read)."""
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = _tables(conn)
        check = conn.execute("PRAGMA quick_check(1)").fetchone()[0] if integrity else "ok"
    except sqlite3.DatabaseError as e:
        raise DatabaseUnusable(f"{path}: damaged or not a SQLite database ({e})") from e
    if check != "ok":
        raise DatabaseUnusable(f"{path}: the database is damaged ({check})")
    if app_id not in (0, APPLICATION_ID) or (version > 0 and app_id != APPLICATION_ID):
        raise DatabaseUnusable(
            f"{path}: a SQLite database of another program (application_id {app_id:#x})"
        )
    check_version(path, version, LATEST_VERSION, "use a backup")
    check_tables(path, tables, expected_tables(version))
    return version


def backup_path(path: Path, version: int) -> Path:
    """``FILE.bak-v{version}``, or a time-stamped name if that backup already exists."""
    candidate = path.with_name(f"{path.name}.bak-v{version}")
    if not candidate.exists():
        return candidate
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
    return path.with_name(f"{path.name}.bak-v{version}-{stamp}")


def _backup(conn: sqlite3.Connection, target: Path) -> None:
    dest = sqlite3.connect(target)
    try:
        conn.backup(dest)
    finally:
        dest.close()


def _switch_to_wal(conn: sqlite3.Connection) -> str:
    """``PRAGMA journal_mode = WAL``; the journal mode it is in afterwards. A new file is
    still in rollback mode, where another process creating its tables at the same moment
    (shards starting together) holds a lock that SQLite does not wait for on this pragma:
    it is tried again until the busy timeout has passed."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _statements(script: str) -> list[str]:
    """The SQL statements of ``script``, one by one (``executescript`` would commit the
    transaction they must run in)."""
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer)
            buffer = ""
    rest = [ln for ln in buffer.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if rest:
        raise ValueError(f"a migration ends without a semicolon: {rest[0]!r}")
    return statements


def migrate(path: str | Path, target: int | None = None) -> MigrationReport:
    """Create or upgrade the database at ``path`` to ``target`` (default: the latest version).

    Raises :class:`DatabaseUnusable` for a file that is not ours. Leaves the file in WAL mode.
    """
    path = Path(path)
    goal = goal_version(target, LATEST_VERSION)
    if path.exists():
        _check_header(path)
    clean = closed_cleanly(path)
    try:  # this run is not closed yet: a kill from here on leaves no marker
        clean_marker(path).unlink(missing_ok=True)
    except OSError as e:
        raise DatabaseUnusable(f"{path}: cannot remove {clean_marker(path).name} ({e})") from e
    try:
        conn = _connect(path)
    except sqlite3.Error as e:
        raise DatabaseUnusable(f"{path}: cannot open the database ({e})") from e
    try:
        version = inspect(conn, path, integrity=not clean)
        if version > goal:
            raise ValueError(f"{path}: already at version {version}, above {goal}")
        try:
            mode = _switch_to_wal(conn)
        except sqlite3.DatabaseError as e:
            raise DatabaseUnusable(f"{path}: cannot switch to WAL mode ({e})") from e
        if str(mode).lower() != "wal" and str(path) != ":memory:":
            raise DatabaseUnusable(f"{path}: cannot switch to WAL mode (got {mode})")
        if version == goal:
            return MigrationReport(version, version, None, checked=not clean)
        backup = None
        if version > 0:
            backup = backup_path(path, version)
            _backup(conn, backup)
        try:
            # Under the write lock, the version is read again: another process opening the
            # same file at the same moment (shards) may have migrated it meanwhile.
            conn.execute("BEGIN IMMEDIATE")
            now = int(conn.execute("PRAGMA user_version").fetchone()[0])
            if now < goal:
                for statement in _statements("\n".join(MIGRATIONS[now:goal])):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {goal}")
            conn.execute("COMMIT")
        except sqlite3.Error as e:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise DatabaseUnusable(
                f"{path}: migration from version {version} to {goal} failed ({e}); "
                "the file is unchanged"
            ) from e
        return MigrationReport(version, goal, backup, checked=not clean)
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
