"""Numbered schema migrations, tracked with ``PRAGMA user_version``.

``MIGRATIONS[i]`` takes a database from version ``i`` to version ``i + 1``. Never edit a
migration that has shipped: append a new one. All pending migrations run in ONE transaction
(SQLite DDL is transactional), so a failure leaves the file exactly as it was.

Before an existing database is migrated it is copied, with SQLite's online backup API (safe
with WAL and with other readers), to ``FILE.bak-v{old_version}``; an existing backup of that
name is never overwritten (a time stamp is appended instead).

The file is recognised as ours by ``PRAGMA application_id`` (set by migration 1) and by its
tables: anything else (not SQLite, damaged, another program's database, or a schema newer than
this build) raises :class:`db.errors.DatabaseUnusable` with a one-line message.

This module is synchronous on purpose: it runs once at start-up (``Store.open`` calls it in a
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

# 'MAFA' in ASCII: marks the file as a forum-mafia database (``PRAGMA application_id``).
APPLICATION_ID = 0x4D414641

BUSY_TIMEOUT_MS = 5000

_SQLITE_MAGIC = b"SQLite format 3\x00"

# --------------------------------------------------------------------------------------------
# The migrations. Times are UTC ISO-8601 text with microseconds
# ("2025-01-02T21:00:00.000000+00:00"), so that they sort as text. JSON columns hold plain
# dicts and lists.
# --------------------------------------------------------------------------------------------

_V1_SCHEMA = """
CREATE TABLE guild_settings (
    guild_id              INTEGER PRIMARY KEY,
    language              TEXT NOT NULL DEFAULT 'ru',
    host_role_id          INTEGER,
    category_id           INTEGER,
    game_channel_id       INTEGER,
    discussion_channel_id INTEGER,
    mafia_channel_id      INTEGER,
    host_channel_id       INTEGER,
    webhook_id            INTEGER,
    default_schedule      TEXT NOT NULL DEFAULT 'forum',
    timezone              TEXT NOT NULL DEFAULT 'Europe/Moscow',
    updated_at            TEXT NOT NULL
) STRICT;

CREATE TABLE games (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id          INTEGER NOT NULL,
    status            TEXT NOT NULL DEFAULT 'lobby'
                      CHECK (status IN ('lobby', 'running', 'finished')),
    seed              INTEGER NOT NULL,
    schedule_kind     TEXT NOT NULL,
    schedule_params   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(schedule_params)),
    timezone          TEXT NOT NULL,
    activity_rules    INTEGER NOT NULL DEFAULT 0 CHECK (activity_rules IN (0, 1)),
    roles             TEXT CHECK (roles IS NULL OR json_valid(roles)),
    host_user_id      INTEGER,
    signup_message_id INTEGER,
    turn              INTEGER NOT NULL DEFAULT 0 CHECK (turn >= 0),
    phase             TEXT NOT NULL DEFAULT 'lobby',
    deadline          TEXT,
    paused            INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    paused_remaining  REAL,
    winner            TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
) STRICT;
-- At most one game in the lobby or running per guild.
CREATE UNIQUE INDEX games_one_open_per_guild ON games (guild_id) WHERE status <> 'finished';
CREATE INDEX games_by_status ON games (status, deadline);

CREATE TABLE signups (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT;

CREATE TABLE players (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    user_id    INTEGER NOT NULL,
    nick       TEXT NOT NULL,
    role       TEXT NOT NULL,
    avatar_url TEXT,
    signature  TEXT,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id),
    UNIQUE (game_id, nick COLLATE NOCASE)
) STRICT;

-- The game's event log: host commands, requests and pistol shots in arrival order.
CREATE TABLE log_entries (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL CHECK (turn >= 1),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    section TEXT NOT NULL CHECK (section IN ('host', 'requests', 'after')),
    payload TEXT NOT NULL CHECK (json_valid(payload)),
    outcome TEXT NOT NULL CHECK (outcome = 'accepted' OR substr(outcome, 1, 8) = 'refused:'),
    user_id INTEGER,
    at      TEXT NOT NULL,
    UNIQUE (game_id, seq)
) STRICT;

CREATE TABLE resolutions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL CHECK (turn >= 1),
    result      TEXT NOT NULL CHECK (json_valid(result)),
    resolved_at TEXT NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT, WITHOUT ROWID;
"""

_V1 = f"PRAGMA application_id = {APPLICATION_ID};\n{_V1_SCHEMA}"

_V2 = """
-- Announcements to send, written in the same transaction as what caused them.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 0),
    kind       TEXT NOT NULL,
    payload    TEXT NOT NULL CHECK (json_valid(payload)),
    sent       INTEGER NOT NULL DEFAULT 0 CHECK (sent IN (0, 1)),
    created_at TEXT NOT NULL,
    sent_at    TEXT
) STRICT;
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE sent = 0;

-- Every host command, whoever ran it (R56).
CREATE TABLE audit_log (
    id       INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    game_id  INTEGER REFERENCES games (id) ON DELETE SET NULL,
    actor_id INTEGER NOT NULL,
    command  TEXT NOT NULL,
    args     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
    at       TEXT NOT NULL
) STRICT;
CREATE INDEX audit_by_game ON audit_log (game_id, id);

-- The pistol window of a turn (R18): steps 0-5 published, shots awaited.
CREATE TABLE pistol_windows (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn      INTEGER NOT NULL CHECK (turn >= 1),
    result    TEXT NOT NULL CHECK (json_valid(result)),
    opened_at TEXT NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT, WITHOUT ROWID;

-- Cheap per-turn post counters for the R52 reminders.
ALTER TABLE log_entries ADD COLUMN verb TEXT AS (json_extract(payload, '$.do')) VIRTUAL;
ALTER TABLE log_entries ADD COLUMN by_nick TEXT AS (json_extract(payload, '$.by')) VIRTUAL;
CREATE INDEX log_entries_by_verb ON log_entries (game_id, turn, verb, by_nick)
    WHERE outcome = 'accepted';
"""

_V3 = """
-- Whether the members behind the nicknames are named when the game ends (the host's choice at
-- /mafia new; forum hosts usually do, so existing games keep naming them).
ALTER TABLE games ADD COLUMN reveal INTEGER NOT NULL DEFAULT 1 CHECK (reveal IN (0, 1));
-- When the game started (/mafia start, on the service's clock); NULL for games started before.
ALTER TABLE games ADD COLUMN started_at TEXT;
"""

_V4 = """
-- Tables: several games on one server, each with its own category, channels, language, host
-- role and settings. A table's key is a Discord id unique everywhere: the server's own id for
-- its first table (so every server set up before tables keeps its key and its games), the id of
-- the category built for any other. ``name`` is empty for a server's first, unnamed table.
CREATE TABLE game_tables (
    table_id              INTEGER PRIMARY KEY,
    guild_id              INTEGER NOT NULL,
    name                  TEXT NOT NULL DEFAULT '',
    language              TEXT NOT NULL DEFAULT 'ru',
    host_role_id          INTEGER,
    category_id           INTEGER,
    game_channel_id       INTEGER,
    discussion_channel_id INTEGER,
    mafia_channel_id      INTEGER,
    host_channel_id       INTEGER,
    webhook_id            INTEGER,
    default_schedule      TEXT NOT NULL DEFAULT 'forum',
    timezone              TEXT NOT NULL DEFAULT 'Europe/Moscow',
    updated_at            TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX game_tables_by_name ON game_tables (guild_id, name COLLATE NOCASE);
INSERT INTO game_tables (table_id, guild_id, name, language, host_role_id, category_id,
    game_channel_id, discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id,
    default_schedule, timezone, updated_at)
SELECT guild_id, guild_id, '', language, host_role_id, category_id, game_channel_id,
    discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id, default_schedule,
    timezone, updated_at
FROM guild_settings;
DROP TABLE guild_settings;

-- A game belongs to a table; at most one game in the lobby or running per table.
ALTER TABLE games ADD COLUMN table_id INTEGER NOT NULL DEFAULT 0;
UPDATE games SET table_id = guild_id;
DROP INDEX games_one_open_per_guild;
CREATE UNIQUE INDEX games_one_open_per_table ON games (table_id) WHERE status <> 'finished';
CREATE INDEX games_by_guild ON games (guild_id, id);

-- A table's #host reads only its own host commands (/mafia log).
ALTER TABLE audit_log ADD COLUMN table_id INTEGER NOT NULL DEFAULT 0;
UPDATE audit_log SET table_id = guild_id;
CREATE INDEX audit_by_table ON audit_log (table_id, id);
"""

_V5 = """
-- Every public post of #game (/say, /post) as published: the archive of a finished game shows
-- them in order with their nicknames and turns. ``ghost``: posted by a dead player.
CREATE TABLE posts (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL CHECK (turn >= 0),
    nick    TEXT NOT NULL,
    text    TEXT NOT NULL,
    ghost   INTEGER NOT NULL DEFAULT 0 CHECK (ghost IN (0, 1)),
    at      TEXT NOT NULL
) STRICT;
CREATE INDEX posts_by_game ON posts (game_id, id);
"""

_V6 = """
-- The state of each running game once its last turn was closed (rules.snapshot.state_to_dict),
-- written in the transaction of that resolution: a restart loads it and replays only the
-- log entries logged after it (``seq`` above the snapshot's: the current turn's, and none
-- that the state already holds) on top. The log stays the truth: a snapshot whose turn is not
-- the game's turn, or of another format, is ignored and the game rebuilt from its full log.
CREATE TABLE snapshots (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL CHECK (turn >= 1),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    state    TEXT NOT NULL,
    taken_at TEXT NOT NULL
) STRICT;
-- Whether a game's role cards were queued (the start), for every running game at once.
CREATE INDEX outbox_by_kind ON outbox (kind, game_id);
"""

_V7 = """
-- Outbox rows claimed by one deliverer at a time (several processes may deliver): the owner
-- (a per-process id) and until when its claim holds. A row whose lease has expired (its
-- deliverer died) is claimed again by another; NULL: never claimed.
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
-- The pending rows in queue order, whichever game (a claim walks them oldest first; the sent
-- rows, kept for the record, are never read by it).
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent = 0;
"""

_V8 = """
-- Role wishes (R58): whether the game's sign-up takes them (the host's choice at /mafia new),
-- and each signed-up member's wish (a role code; NULL: none). A wish lives with its sign-up:
-- leaving the sign-up drops it. Kept after the start, for the hosts and the revealed archive.
ALTER TABLE games ADD COLUMN wishes INTEGER NOT NULL DEFAULT 0 CHECK (wishes IN (0, 1));
ALTER TABLE signups ADD COLUMN wish TEXT;
"""

_V9 = """
-- The id of the last Discord message an outbox row posted, recorded when it is marked sent:
-- after a restart, the bot's last message known in a destination is where it reads on from
-- to find what a send whose answer was lost did post (NULL: unknown, or sent before).
ALTER TABLE outbox ADD COLUMN message_id INTEGER;
"""

_V10 = """
-- Downtime (R59): when each process last served its games (a heartbeat every half minute
-- while it is connected to Discord; the key names the shards it runs), and the spans a game
-- was not served (``down``: the bot was not running; ``discord``: Discord did not answer it),
-- written when the bot is back. A turn's resolution measures what it lost from them.
CREATE TABLE heartbeats (
    process TEXT PRIMARY KEY,
    beat_at TEXT NOT NULL
) STRICT;
CREATE TABLE downtime (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    started_at TEXT NOT NULL,
    ended_at   TEXT NOT NULL,
    cause      TEXT NOT NULL CHECK (cause IN ('down', 'discord'))
) STRICT;
CREATE INDEX downtime_by_game ON downtime (game_id, ended_at);
-- A host's confirmation whose options do not fit in its button's id (an /mafia exclude
-- reason), until it expires: a restart keeps it.
CREATE TABLE confirmations (
    token      TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL,
    data       TEXT NOT NULL
) STRICT;
"""

_V11 = """
-- The mafia's kill board: one message per game and turn in the mafia's room, edited in place
-- as the kill requests change. Its message id is kept so that the board is posted once, also
-- across restarts and whichever process serves the game; 0 while the first post is on its way
-- (a crash then: the board is looked for in the room before it is posted again).
CREATE TABLE kill_boards (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 1),
    message_id INTEGER NOT NULL CHECK (message_id >= 0),
    PRIMARY KEY (game_id, turn)
) STRICT;
"""

_V12 = """
-- The host's review of a turn's results (``/mafia new review``): the draft itself is the
-- #host outbox row of kind 'review_draft' queued with the resolution (it holds the results
-- and when they go out unreviewed); this row keeps the host's story and, once the results are
-- out, when they were published. Publication sets ``published_at`` once, in the transaction
-- that queues the held results: a second click or the clock finds it set and does nothing.
CREATE TABLE reviews (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL CHECK (turn >= 1),
    story        TEXT,
    published_at TEXT,
    PRIMARY KEY (game_id, turn)
) STRICT;
"""

_V13 = """
-- A game's whole outbox (``outbox(game_id)``: the #host notices already given, the history,
-- a retaken row's predecessors) in queue order, read from the game's own rows instead of a
-- scan of every game's (the partial outbox_pending holds the unsent rows only).
CREATE INDEX outbox_by_game ON outbox (game_id, id);
"""

_V14_RESERVED = """
-- Number 14 is another change's (it lands with it); kept empty here so that 15 keeps its number.
"""

_V15 = """
-- The picture of a player's post (/say with an image), re-encoded from its pixels alone (no
-- metadata, core/images.py), kept from the moment the post is queued (in the transaction that
-- queues its outbox row) until it is shown: a restart in between still posts it. Deleted once
-- delivered, and with its outbox row. ``filename`` is neutral ("picture.jpg"), never the one
-- the player uploaded.
CREATE TABLE post_pictures (
    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    filename  TEXT NOT NULL,
    data      BLOB NOT NULL
) STRICT;
"""

MIGRATIONS: tuple[str, ...] = (
    *(_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10, _V11, _V12),
    *(_V13, _V14_RESERVED, _V15),
)
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
    if version > LATEST_VERSION:
        raise DatabaseUnusable(
            f"{path}: schema version {version} is newer than this bot knows "
            f"({LATEST_VERSION}); upgrade the bot or use a backup"
        )
    expected = expected_tables(version)
    unknown = sorted(tables - expected)
    if unknown:
        raise DatabaseUnusable(
            f"{path}: not a forum-mafia database (unknown tables: {', '.join(unknown[:5])})"
        )
    missing = sorted(expected - tables)
    if missing:
        raise DatabaseUnusable(
            f"{path}: the database is damaged (missing tables: {', '.join(missing[:5])})"
        )
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
    goal = LATEST_VERSION if target is None else target
    if not 0 <= goal <= LATEST_VERSION:
        raise ValueError(f"no schema version {goal}")
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
