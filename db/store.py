"""The game store: every query of the bot, over one aiosqlite connection.

Design (see docs/STORAGE.md): a game is event-sourced. Its history is the *script* of
SCENARIOS.md (setup + per turn: host commands, requests in arrival order, pistol shots); the
rules engine rebuilds the game state by replaying it. The store keeps that log plus what only
Discord needs (channels, user ids, avatars), the result of each resolved turn, and an outbox of
announcements written in the same transaction as the resolution that produced them.

Concurrency: one connection per ``Store``; an ``asyncio.Lock`` serialises every statement, and
every write runs as ``BEGIN IMMEDIATE ... COMMIT`` shielded from cancellation, so a cancelled
caller can never leave half a transaction behind. A write has committed when its coroutine
returns. Arrival order (``seq``) is assigned inside the writing statement.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import enum
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, TypeVar, cast

import aiosqlite

from db import migrations
from db.errors import DatabaseUnusable, NotFound, OpenGameExists, StoreError
from db.models import (
    ACCEPTED,
    SECTIONS,
    AuditRecord,
    GameRecord,
    GameStatus,
    GuildSettings,
    JSONDict,
    LoadedGame,
    LogEntry,
    OutboxItem,
    OutboxRecord,
    PlayerRecord,
    PlayerSpec,
    ResolutionRecord,
    Section,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_DB_PATH: Final = "mafia.db"


def default_db_path() -> str:
    """``$MAFIA_DB``, or ``./mafia.db``."""
    return os.environ.get("MAFIA_DB") or DEFAULT_DB_PATH


class _Keep(enum.Enum):
    KEEP = "keep"


KEEP: Final = _Keep.KEEP  # "leave this column as it is" for optional update arguments

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


# --- conversions -----------------------------------------------------------------------------


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def to_db_time(value: dt.datetime) -> str:
    """A timezone-aware datetime as sortable UTC text."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: pass a timezone-aware time")
    return value.astimezone(dt.UTC).isoformat(timespec="microseconds")


def from_db_time(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC)


def _opt_time(text: str | None) -> dt.datetime | None:
    return None if text is None else from_db_time(text)


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"not JSON-serialisable: {e}") from e


def _loads_dict(text: str) -> JSONDict:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise StoreError(f"stored JSON is not an object: {text[:60]}")
    return value


def _int64(name: str, value: int) -> int:
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name} {value} does not fit in a signed 64-bit integer")
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _game(row: sqlite3.Row) -> GameRecord:
    return GameRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        status=cast(GameStatus, row["status"]),
        seed=int(row["seed"]),
        schedule_kind=str(row["schedule_kind"]),
        schedule_params=_loads_dict(row["schedule_params"]),
        timezone=str(row["timezone"]),
        activity_rules=bool(row["activity_rules"]),
        roles=None if row["roles"] is None else json.loads(row["roles"]),
        host_user_id=_opt_int(row["host_user_id"]),
        signup_message_id=_opt_int(row["signup_message_id"]),
        turn=int(row["turn"]),
        phase=str(row["phase"]),
        deadline=_opt_time(row["deadline"]),
        paused=bool(row["paused"]),
        paused_remaining=(
            None if row["paused_remaining"] is None else float(row["paused_remaining"])
        ),
        winner=row["winner"],
        created_at=from_db_time(row["created_at"]),
        updated_at=from_db_time(row["updated_at"]),
    )


def _player(row: sqlite3.Row) -> PlayerRecord:
    return PlayerRecord(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        nick=str(row["nick"]),
        role=str(row["role"]),
        avatar_url=row["avatar_url"],
        signature=row["signature"],
    )


def _entry(row: sqlite3.Row) -> LogEntry:
    return LogEntry(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        seq=int(row["seq"]),
        section=cast(Section, row["section"]),
        payload=_loads_dict(row["payload"]),
        outcome=str(row["outcome"]),
        user_id=_opt_int(row["user_id"]),
        at=from_db_time(row["at"]),
    )


def _outbox(row: sqlite3.Row) -> OutboxRecord:
    return OutboxRecord(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        kind=str(row["kind"]),
        payload=_loads_dict(row["payload"]),
        sent=bool(row["sent"]),
        created_at=from_db_time(row["created_at"]),
        sent_at=_opt_time(row["sent_at"]),
    )


def _audit(row: sqlite3.Row) -> AuditRecord:
    return AuditRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        game_id=_opt_int(row["game_id"]),
        actor_id=int(row["actor_id"]),
        command=str(row["command"]),
        args=_loads_dict(row["args"]),
        at=from_db_time(row["at"]),
    )


def _check_section(section: str) -> Section:
    if section not in SECTIONS:
        raise ValueError(f"section must be one of {SECTIONS}, not {section!r}")
    return section


def _check_outcome(outcome: str) -> str:
    if outcome != ACCEPTED and not (outcome.startswith("refused:") and len(outcome) > 8):
        raise ValueError(f"outcome must be 'accepted' or 'refused:<code>', not {outcome!r}")
    return outcome


def build_script(
    seed: int,
    activity_rules: bool,
    players: Iterable[tuple[str, str]],
    entries: Iterable[tuple[int, str, JSONDict]],
    last_turn: int = 0,
) -> JSONDict:
    """A SCENARIOS.md script from accepted ``(turn, section, payload)`` entries in seq order.

    The script has one element per turn from 1 to the last turn that has an entry (or to
    ``last_turn`` if later, e.g. a resolved turn in which nothing was sent).
    """
    by_turn: dict[int, dict[str, list[JSONDict]]] = {}
    for turn, section, payload in entries:
        sections = by_turn.get(turn)
        if sections is None:
            sections = by_turn[turn] = {s: [] for s in SECTIONS}
        sections[section].append(payload)
    count = max([last_turn, *by_turn])
    turns: list[JSONDict] = []
    for number in range(1, count + 1):
        sections = by_turn.get(number, {s: [] for s in SECTIONS})
        turns.append({s: sections[s] for s in SECTIONS})
    return {
        "seed": seed,
        "activity_rules": activity_rules,
        "players": [{"nick": nick, "role": role} for nick, role in players],
        "turns": turns,
    }


_GAME_COLUMNS = (
    "id, guild_id, status, seed, schedule_kind, schedule_params, timezone, activity_rules, "
    "roles, host_user_id, signup_message_id, turn, phase, deadline, paused, paused_remaining, "
    "winner, created_at, updated_at"
)
_PLAYER_COLUMNS = "game_id, seat, user_id, nick, role, avatar_url, signature"
_ENTRY_COLUMNS = "id, game_id, turn, seq, section, payload, outcome, user_id, at"
_OUTBOX_COLUMNS = "id, game_id, turn, kind, payload, sent, created_at, sent_at"


class Store:
    """Typed async access to the bot's database. Create with ``await Store.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._db = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False
        self._inflight: set[asyncio.Task[Any]] = set()

    # --- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, synchronous: str = "FULL") -> Store:
        """Open (creating or migrating as needed) the database at ``path``.

        ``synchronous`` is SQLite's durability setting: ``FULL`` (default) makes every commit
        survive a power cut; ``NORMAL`` survives a crash of the bot only, and is faster.
        Raises :class:`DatabaseUnusable` for a corrupt, foreign or newer file.
        """
        if synchronous.upper() not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        db_path = Path(path)
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("the store needs a database file path")
        report = await asyncio.to_thread(migrations.migrate, db_path)
        if report.old_version != report.new_version:
            log.info(
                "migrated %s from schema v%d to v%d (backup: %s)",
                db_path,
                report.old_version,
                report.new_version,
                report.backup,
            )
        try:
            conn = await aiosqlite.connect(db_path, isolation_level=None)
        except sqlite3.Error as e:
            raise DatabaseUnusable(f"{db_path}: cannot open the database ({e})") from e
        try:
            conn.row_factory = sqlite3.Row
            for pragma in (
                f"PRAGMA busy_timeout = {migrations.BUSY_TIMEOUT_MS}",
                "PRAGMA foreign_keys = ON",
                f"PRAGMA synchronous = {synchronous.upper()}",
                "PRAGMA journal_mode = WAL",
            ):
                # Close each cursor at once: a cursor left to the garbage collector keeps a
                # statement in progress, and a later COMMIT fails.
                async with conn.execute(pragma):
                    pass
        except sqlite3.Error as e:
            await conn.close()
            raise DatabaseUnusable(f"{db_path}: cannot configure the database ({e})") from e
        return cls(conn, db_path)

    async def close(self) -> None:
        """Wait for writes in flight, then close the connection. Idempotent."""
        if self._closed:
            return
        if self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
        self._closed = True
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Store:
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
                raise _store_error(e) from e

    async def _read_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._read(sql, params)
        return rows[0] if rows else None

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
                raise _store_error(e) from e
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
                    raise _store_error(e) from e
                raise
            return result

    # --- guild settings --------------------------------------------------------------------

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._read_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return None
        return GuildSettings(
            guild_id=int(row["guild_id"]),
            language=str(row["language"]),
            host_role_id=_opt_int(row["host_role_id"]),
            category_id=_opt_int(row["category_id"]),
            game_channel_id=_opt_int(row["game_channel_id"]),
            discussion_channel_id=_opt_int(row["discussion_channel_id"]),
            mafia_channel_id=_opt_int(row["mafia_channel_id"]),
            host_channel_id=_opt_int(row["host_channel_id"]),
            webhook_id=_opt_int(row["webhook_id"]),
            default_schedule=str(row["default_schedule"]),
            timezone=str(row["timezone"]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace the settings of ``settings.guild_id``."""
        s = settings
        params = (
            s.guild_id,
            s.language,
            s.host_role_id,
            s.category_id,
            s.game_channel_id,
            s.discussion_channel_id,
            s.mafia_channel_id,
            s.host_channel_id,
            s.webhook_id,
            s.default_schedule,
            s.timezone,
            to_db_time(_utcnow()),
        )

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, host_role_id, category_id, "
                "game_channel_id, discussion_channel_id, mafia_channel_id, host_channel_id, "
                "webhook_id, default_schedule, timezone, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "host_role_id = excluded.host_role_id, category_id = excluded.category_id, "
                "game_channel_id = excluded.game_channel_id, "
                "discussion_channel_id = excluded.discussion_channel_id, "
                "mafia_channel_id = excluded.mafia_channel_id, "
                "host_channel_id = excluded.host_channel_id, webhook_id = excluded.webhook_id, "
                "default_schedule = excluded.default_schedule, timezone = excluded.timezone, "
                "updated_at = excluded.updated_at",
                params,
            )

        await self._write(body)

    # --- games -----------------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: int,
        *,
        seed: int,
        schedule_kind: str,
        timezone: str,
        schedule_params: Mapping[str, Any] | None = None,
        activity_rules: bool = False,
        roles: Any = None,
        host_user_id: int | None = None,
    ) -> GameRecord:
        """Open a new game in the lobby. Raises :class:`OpenGameExists` if the guild has one."""
        now = to_db_time(_utcnow())
        params = (
            guild_id,
            _int64("seed", seed),
            schedule_kind,
            _dumps(dict(schedule_params or {})),
            timezone,
            int(activity_rules),
            None if roles is None else _dumps(roles),
            host_user_id,
            now,
            now,
        )

        async def body(db: aiosqlite.Connection) -> GameRecord:
            try:
                rows = await db.execute_fetchall(
                    "INSERT INTO games (guild_id, status, seed, schedule_kind, schedule_params, "
                    "timezone, activity_rules, roles, host_user_id, turn, phase, created_at, "
                    "updated_at) VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, 0, 'lobby', ?, ?) "
                    f"RETURNING {_GAME_COLUMNS}",
                    params,
                )
            except sqlite3.IntegrityError as e:
                if "games.guild_id" in str(e):
                    raise OpenGameExists(
                        f"guild {guild_id} already has a game in the lobby or running"
                    ) from e
                raise
            return _game(next(iter(rows)))

        return await self._write(body)

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._read_one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def require_game(self, game_id: int) -> GameRecord:
        game = await self.get_game(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    async def open_game(self, guild_id: int) -> GameRecord | None:
        """The guild's game in the lobby or running, if any (there is at most one)."""
        row = await self._read_one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status <> 'finished'",
            (guild_id,),
        )
        return None if row is None else _game(row)

    async def latest_game(self, guild_id: int | None = None) -> GameRecord | None:
        """The most recently created game (of ``guild_id``, or of any guild)."""
        if guild_id is None:
            row = await self._read_one(
                f"SELECT {_GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1"
            )
        else:
            row = await self._read_one(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? ORDER BY id DESC LIMIT 1",
                (guild_id,),
            )
        return None if row is None else _game(row)

    async def list_games(
        self, *, guild_id: int | None = None, status: GameStatus | None = None
    ) -> list[GameRecord]:
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._read(f"SELECT {_GAME_COLUMNS} FROM games {clause} ORDER BY id", params)
        return [_game(r) for r in rows]

    async def running_games(self) -> list[GameRecord]:
        """Every running game, soonest deadline first (paused games, without one, last).

        Used at start to re-arm each game's clock.
        """
        rows = await self._read(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' "
            "ORDER BY deadline IS NULL, deadline, id"
        )
        return [_game(r) for r in rows]

    async def _update_game(self, game_id: int, columns: Mapping[str, Any]) -> GameRecord:
        sets = ", ".join(f"{name} = ?" for name in columns)
        params = [*columns.values(), to_db_time(_utcnow()), game_id]

        async def body(db: aiosqlite.Connection) -> GameRecord:
            rows = list(
                await db.execute_fetchall(
                    f"UPDATE games SET {sets}, updated_at = ? WHERE id = ? "
                    f"RETURNING {_GAME_COLUMNS}",
                    params,
                )
            )
            if not rows:
                raise NotFound(f"no game {game_id}")
            return _game(rows[0])

        return await self._write(body)

    async def update_lobby(
        self,
        game_id: int,
        *,
        roles: Any = KEEP,
        signup_message_id: int | _Keep | None = KEEP,
        schedule_kind: str | _Keep = KEEP,
        schedule_params: Mapping[str, Any] | _Keep = KEEP,
        timezone: str | _Keep = KEEP,
        activity_rules: bool | _Keep = KEEP,
        seed: int | _Keep = KEEP,
    ) -> GameRecord:
        """Change the setup of a game (normally while in the lobby); ``KEEP`` leaves a field."""
        columns: dict[str, Any] = {}
        if roles is not KEEP:
            columns["roles"] = None if roles is None else _dumps(roles)
        if not isinstance(signup_message_id, _Keep):
            columns["signup_message_id"] = signup_message_id
        if not isinstance(schedule_kind, _Keep):
            columns["schedule_kind"] = schedule_kind
        if not isinstance(schedule_params, _Keep):
            columns["schedule_params"] = _dumps(dict(schedule_params))
        if not isinstance(timezone, _Keep):
            columns["timezone"] = timezone
        if not isinstance(activity_rules, _Keep):
            columns["activity_rules"] = int(activity_rules)
        if not isinstance(seed, _Keep):
            columns["seed"] = _int64("seed", seed)
        if not columns:
            return await self.require_game(game_id)
        return await self._update_game(game_id, columns)

    async def start_game(
        self,
        game_id: int,
        players: Sequence[PlayerSpec],
        *,
        deadline: dt.datetime | None,
        turn: int = 1,
        phase: str = "day",
        seed: int | None = None,
    ) -> GameRecord:
        """Seat ``players`` (in script order) and move the game from the lobby to running."""
        now = to_db_time(_utcnow())
        seat_rows = [
            (game_id, seat, p.user_id, p.nick, p.role, p.avatar_url, p.signature)
            for seat, p in enumerate(players)
        ]
        deadline_text = None if deadline is None else to_db_time(deadline)
        seed_value = None if seed is None else _int64("seed", seed)

        async def body(db: aiosqlite.Connection) -> GameRecord:
            rows = list(
                await db.execute_fetchall(
                    "UPDATE games SET status = 'running', turn = ?, phase = ?, deadline = ?, "
                    "seed = COALESCE(?, seed), paused = 0, paused_remaining = NULL, "
                    f"updated_at = ? WHERE id = ? AND status = 'lobby' RETURNING {_GAME_COLUMNS}",
                    (turn, phase, deadline_text, seed_value, now, game_id),
                )
            )
            if not rows:
                raise NotFound(f"no game {game_id} in the lobby")
            try:
                await db.executemany(
                    f"INSERT INTO players ({_PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    seat_rows,
                )
            except sqlite3.IntegrityError as e:
                raise StoreError(f"cannot seat the players of game {game_id}: {e}") from e
            return _game(rows[0])

        return await self._write(body)

    async def set_deadline(self, game_id: int, deadline: dt.datetime | None) -> GameRecord:
        """Move the deadline (``/mafia extend``)."""
        return await self._update_game(
            game_id, {"deadline": None if deadline is None else to_db_time(deadline)}
        )

    async def set_phase(
        self, game_id: int, phase: str, deadline: dt.datetime | _Keep | None = KEEP
    ) -> GameRecord:
        columns: dict[str, Any] = {"phase": phase}
        if not isinstance(deadline, _Keep):
            columns["deadline"] = None if deadline is None else to_db_time(deadline)
        return await self._update_game(game_id, columns)

    async def pause_game(self, game_id: int, remaining_seconds: float) -> GameRecord:
        """Stop the clock: keep the time left, clear the deadline."""
        return await self._update_game(
            game_id,
            {"paused": 1, "paused_remaining": float(remaining_seconds), "deadline": None},
        )

    async def resume_game(self, game_id: int, deadline: dt.datetime) -> GameRecord:
        return await self._update_game(
            game_id, {"paused": 0, "paused_remaining": None, "deadline": to_db_time(deadline)}
        )

    async def finish_game(
        self,
        game_id: int,
        winner: str | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """End the game (``/mafia end``, or a winner found outside a resolution).

        Returns False, writing nothing, if it had already finished.
        """
        now = to_db_time(_utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            rows = list(
                await db.execute_fetchall(
                    "UPDATE games SET status = 'finished', phase = 'finished', winner = ?, "
                    "deadline = NULL, paused = 0, paused_remaining = NULL, updated_at = ? "
                    "WHERE id = ? AND status <> 'finished' RETURNING turn",
                    (winner, now, game_id),
                )
            )
            if not rows:
                if await _game_exists(db, game_id):
                    return False
                raise NotFound(f"no game {game_id}")
            await _insert_outbox(db, game_id, int(rows[0]["turn"]), outbox_items, now)
            return True

        return await self._write(body)

    # --- sign-ups --------------------------------------------------------------------------

    async def add_signup(self, game_id: int, user_id: int) -> bool:
        """Sign ``user_id`` up. False if already signed up or the game is not in the lobby."""
        now = to_db_time(_utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "INSERT INTO signups (game_id, user_id, joined_at) "
                "SELECT id, ?, ? FROM games WHERE id = ? AND status = 'lobby' "
                "ON CONFLICT (game_id, user_id) DO NOTHING",
                (user_id, now, game_id),
            )
            return cur.rowcount > 0

        return await self._write(body)

    async def remove_signup(self, game_id: int, user_id: int) -> bool:
        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "DELETE FROM signups WHERE game_id = ? AND user_id = ? "
                "AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'lobby')",
                (game_id, user_id, game_id),
            )
            return cur.rowcount > 0

        return await self._write(body)

    async def signups(self, game_id: int) -> list[int]:
        """User ids signed up, in sign-up order."""
        rows = await self._read(
            "SELECT user_id FROM signups WHERE game_id = ? ORDER BY rowid", (game_id,)
        )
        return [int(r["user_id"]) for r in rows]

    # --- players ---------------------------------------------------------------------------

    async def players(self, game_id: int) -> list[PlayerRecord]:
        rows = await self._read(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_player(r) for r in rows]

    async def player_by_user(self, game_id: int, user_id: int) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return None if row is None else _player(row)

    async def player_by_nick(self, game_id: int, nick: str) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {_PLAYER_COLUMNS} FROM players WHERE game_id = ? AND nick = ? COLLATE NOCASE",
            (game_id, nick),
        )
        return None if row is None else _player(row)

    async def set_profile(
        self,
        game_id: int,
        user_id: int,
        *,
        avatar_url: str | _Keep | None = KEEP,
        signature: str | _Keep | None = KEEP,
    ) -> PlayerRecord:
        """Change a player's anonymous profile (R10); ``KEEP`` leaves a field as it is."""
        columns: dict[str, Any] = {}
        if not isinstance(avatar_url, _Keep):
            columns["avatar_url"] = avatar_url
        if not isinstance(signature, _Keep):
            columns["signature"] = signature
        if not columns:
            player = await self.player_by_user(game_id, user_id)
            if player is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player
        sets = ", ".join(f"{name} = ?" for name in columns)

        async def body(db: aiosqlite.Connection) -> PlayerRecord:
            rows = list(
                await db.execute_fetchall(
                    f"UPDATE players SET {sets} WHERE game_id = ? AND user_id = ? "
                    f"RETURNING {_PLAYER_COLUMNS}",
                    (*columns.values(), game_id, user_id),
                )
            )
            if not rows:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return _player(rows[0])

        return await self._write(body)

    async def replace_player(self, game_id: int, nick: str, new_user_id: int) -> PlayerRecord:
        """A substitute takes over ``nick`` (``/mafia replace``). The log keeps who sent what."""

        async def body(db: aiosqlite.Connection) -> PlayerRecord:
            try:
                rows = list(
                    await db.execute_fetchall(
                        "UPDATE players SET user_id = ? WHERE game_id = ? AND nick = ? "
                        f"COLLATE NOCASE RETURNING {_PLAYER_COLUMNS}",
                        (new_user_id, game_id, nick),
                    )
                )
            except sqlite3.IntegrityError as e:
                raise StoreError(f"user {new_user_id} already plays in game {game_id}") from e
            if not rows:
                raise NotFound(f"no player {nick!r} in game {game_id}")
            return _player(rows[0])

        return await self._write(body)

    # --- the log ---------------------------------------------------------------------------

    async def add_request(
        self,
        game_id: int,
        turn: int,
        section: str,
        payload: Mapping[str, Any],
        user_id: int | None,
        outcome: str = ACCEPTED,
    ) -> LogEntry:
        """Append a request (or host command, or shot) to the game's log; committed on return.

        ``seq`` (arrival order within the game) is assigned inside the writing statement, so
        concurrent callers keep the order in which their calls reached the store.
        """
        sec = _check_section(section)
        _check_outcome(outcome)
        data = dict(payload)
        text = _dumps(data)
        now = _utcnow()

        async def body(db: aiosqlite.Connection) -> LogEntry:
            row = await _insert_entry(db, game_id, turn, sec, text, outcome, user_id, now)
            return LogEntry(
                id=int(row["id"]),
                game_id=game_id,
                turn=turn,
                seq=int(row["seq"]),
                section=sec,
                payload=data,
                outcome=outcome,
                user_id=user_id,
                at=now,
            )

        return await self._write(body)

    async def add_host_action(
        self,
        game_id: int,
        turn: int,
        payload: Mapping[str, Any],
        *,
        actor_id: int,
        command: str,
        args: Mapping[str, Any] | None = None,
        outcome: str = ACCEPTED,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> LogEntry:
        """A host command that is part of the script (``host`` section) plus its audit row
        and the announcements it causes, in one transaction."""
        _check_outcome(outcome)
        data = dict(payload)
        text = _dumps(data)
        args_text = _dumps(dict(args or {}))
        now = _utcnow()

        async def body(db: aiosqlite.Connection) -> LogEntry:
            row = await _insert_entry(db, game_id, turn, "host", text, outcome, actor_id, now)
            await _insert_audit(db, None, game_id, actor_id, command, args_text, now)
            if outbox_items:
                await _insert_outbox(db, game_id, turn, outbox_items, to_db_time(now))
            return LogEntry(
                id=int(row["id"]),
                game_id=game_id,
                turn=turn,
                seq=int(row["seq"]),
                section="host",
                payload=data,
                outcome=outcome,
                user_id=actor_id,
                at=now,
            )

        return await self._write(body)

    async def log_entries(
        self, game_id: int, turn: int | None = None, *, accepted_only: bool = False
    ) -> list[LogEntry]:
        """The log of a game (or of one turn), in arrival order."""
        sql = f"SELECT {_ENTRY_COLUMNS} FROM log_entries WHERE game_id = ?"
        params: list[Any] = [game_id]
        if turn is not None:
            sql += " AND turn = ?"
            params.append(turn)
        if accepted_only:
            sql += " AND outcome = 'accepted'"
        rows = await self._read(sql + " ORDER BY seq", params)
        return [_entry(r) for r in rows]

    async def post_counts(self, game_id: int, turn: int) -> dict[str, int]:
        """Accepted ``post`` requests per nickname in a turn (R52 reminders)."""
        rows = await self._read(
            "SELECT by_nick, COUNT(*) AS n FROM log_entries "
            "WHERE game_id = ? AND turn = ? AND verb = 'post' AND outcome = 'accepted' "
            "GROUP BY by_nick",
            (game_id, turn),
        )
        return {str(r["by_nick"]): int(r["n"]) for r in rows}

    # --- resolutions -----------------------------------------------------------------------

    async def record_resolution(
        self,
        game_id: int,
        turn: int,
        result: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem],
        next_turn: int,
        next_deadline: dt.datetime | None,
        *,
        next_phase: str = "day",
        winner: str | None = None,
    ) -> bool:
        """Store a turn's result, its announcements and the next turn, in ONE transaction.

        Idempotent: if ``(game_id, turn)`` was already resolved, nothing is written and False
        is returned; a turn is never resolved twice. With ``winner`` the game finishes instead
        (status ``finished``, no deadline, ``turn`` stays the last turn played).
        Raises :class:`StoreError` (writing nothing) if the game is not running at ``turn``.
        """
        now = to_db_time(_utcnow())
        result_text = _dumps(dict(result))
        deadline_text = None if next_deadline is None else to_db_time(next_deadline)

        async def body(db: aiosqlite.Connection) -> bool:
            if not await _claim_stage(
                db, "resolutions", "resolved_at", game_id, turn, result_text, now
            ):
                return False
            await _insert_outbox(db, game_id, turn, outbox_items, now)
            if winner is None:
                await db.execute(
                    "UPDATE games SET turn = ?, phase = ?, deadline = ?, updated_at = ? "
                    "WHERE id = ?",
                    (next_turn, next_phase, deadline_text, now, game_id),
                )
            else:
                await db.execute(
                    "UPDATE games SET status = 'finished', phase = 'finished', winner = ?, "
                    "deadline = NULL, paused = 0, paused_remaining = NULL, updated_at = ? "
                    "WHERE id = ?",
                    (winner, now, game_id),
                )
            return True

        return await self._write(body)

    async def resolution_exists(self, game_id: int, turn: int) -> bool:
        row = await self._read_one(
            "SELECT 1 FROM resolutions WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return row is not None

    async def resolutions(self, game_id: int) -> list[ResolutionRecord]:
        rows = await self._read(
            "SELECT game_id, turn, result, resolved_at FROM resolutions WHERE game_id = ? "
            "ORDER BY turn",
            (game_id,),
        )
        return [
            ResolutionRecord(
                game_id=int(r["game_id"]),
                turn=int(r["turn"]),
                result=_loads_dict(r["result"]),
                resolved_at=from_db_time(r["resolved_at"]),
            )
            for r in rows
        ]

    async def begin_pistol_window(
        self,
        game_id: int,
        turn: int,
        partial_result: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem],
        window_deadline: dt.datetime | None,
        *,
        phase: str = "pistol",
    ) -> bool:
        """Steps 0-5 of a turn are resolved and a killed commissar may shoot (R18).

        Stores the partial result and its announcements, and sets the phase and the window's
        deadline, in one transaction. Idempotent like :meth:`record_resolution`.
        """
        now = to_db_time(_utcnow())
        text = _dumps(dict(partial_result))
        deadline_text = None if window_deadline is None else to_db_time(window_deadline)

        async def body(db: aiosqlite.Connection) -> bool:
            if not await _claim_stage(db, "pistol_windows", "opened_at", game_id, turn, text, now):
                return False
            await _insert_outbox(db, game_id, turn, outbox_items, now)
            await db.execute(
                "UPDATE games SET phase = ?, deadline = ?, updated_at = ? WHERE id = ?",
                (phase, deadline_text, now, game_id),
            )
            return True

        return await self._write(body)

    async def pistol_window(self, game_id: int, turn: int) -> JSONDict | None:
        """The partial result stored when the turn's pistol window opened, if it did."""
        row = await self._read_one(
            "SELECT result FROM pistol_windows WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return None if row is None else _loads_dict(row["result"])

    # --- outbox ----------------------------------------------------------------------------

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        """Queue announcements on their own (e.g. the host's narrative, R47)."""
        now = to_db_time(_utcnow())

        async def body(db: aiosqlite.Connection) -> list[int]:
            return await _insert_outbox(db, game_id, turn, items, now)

        return await self._write(body)

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        """Announcements not yet marked sent, oldest first (of one game, or of all games).

        Delivery is at least once: after a crash between sending and :meth:`mark_sent`, an
        item comes back here and is sent again.
        """
        if game_id is None:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE sent = 0 ORDER BY id"
            )
        else:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? AND sent = 0 ORDER BY id",
                (game_id,),
            )
        return [_outbox(r) for r in rows]

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        """Every announcement of a game, sent or not."""
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_outbox(r) for r in rows]

    async def mark_sent(self, outbox_id: int) -> bool:
        """Mark an announcement delivered. False if it already was (or does not exist)."""
        now = to_db_time(_utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "UPDATE outbox SET sent = 1, sent_at = ? WHERE id = ? AND sent = 0",
                (now, outbox_id),
            )
            return cur.rowcount > 0

        return await self._write(body)

    # --- audit -----------------------------------------------------------------------------

    async def add_audit(
        self,
        guild_id: int,
        game_id: int | None,
        actor_id: int,
        command: str,
        args: Mapping[str, Any] | None = None,
    ) -> int:
        """Record a host command (whether or not it touches the script)."""
        args_text = _dumps(dict(args or {}))
        now = _utcnow()

        async def body(db: aiosqlite.Connection) -> int:
            return await _insert_audit(db, guild_id, game_id, actor_id, command, args_text, now)

        return await self._write(body)

    async def audit_log(
        self, *, game_id: int | None = None, guild_id: int | None = None
    ) -> list[AuditRecord]:
        where: list[str] = []
        params: list[Any] = []
        if game_id is not None:
            where.append("game_id = ?")
            params.append(game_id)
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._read(
            "SELECT id, guild_id, game_id, actor_id, command, args, at FROM audit_log "
            f"{clause} ORDER BY id",
            params,
        )
        return [_audit(r) for r in rows]

    # --- scripts ---------------------------------------------------------------------------

    async def load_script(self, game_id: int) -> JSONDict:
        """The game as a SCENARIOS.md script: setup plus accepted log entries by turn.

        Turns run from 1 to the last turn with an entry or a resolution; replaying the script
        reproduces the game (an unresolved current turn in it would be resolved by a replay).
        """
        self._check_open()
        async with self._lock, _snapshot(self._db):
            try:
                game = await _fetch_one(
                    self._db, "SELECT seed, activity_rules FROM games WHERE id = ?", (game_id,)
                )
                if game is None:
                    raise NotFound(f"no game {game_id}")
                players = await self._db.execute_fetchall(
                    "SELECT nick, role FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
                )
                entries = await self._db.execute_fetchall(
                    "SELECT turn, section, payload FROM log_entries "
                    "WHERE game_id = ? AND outcome = 'accepted' ORDER BY seq",
                    (game_id,),
                )
                last = await _fetch_one(
                    self._db,
                    "SELECT COALESCE(MAX(turn), 0) AS t FROM resolutions WHERE game_id = ?",
                    (game_id,),
                )
            except sqlite3.DatabaseError as e:
                raise _store_error(e) from e
        return build_script(
            int(game["seed"]),
            bool(game["activity_rules"]),
            ((str(p["nick"]), str(p["role"])) for p in players),
            ((int(e["turn"]), str(e["section"]), _loads_dict(e["payload"])) for e in entries),
            0 if last is None else int(last["t"]),
        )

    async def load_running(self) -> list[LoadedGame]:
        """Every running game with its players, script and resolved turns (a few queries)."""
        self._check_open()
        async with self._lock, _snapshot(self._db):
            db = self._db
            try:
                games = await db.execute_fetchall(
                    f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'running' "
                    "ORDER BY deadline IS NULL, deadline, id"
                )
                players = await db.execute_fetchall(
                    f"SELECT {', '.join('p.' + c.strip() for c in _PLAYER_COLUMNS.split(','))} "
                    "FROM players p JOIN games g ON g.id = p.game_id "
                    "WHERE g.status = 'running' ORDER BY p.game_id, p.seat"
                )
                # One JSON array per game, [[seq, turn, section, payload], ...], built by
                # SQLite: decoding one document per game is much faster than one per entry.
                # (group_concat's order is unspecified, hence seq inside and a sort below.)
                entries = await db.execute_fetchall(
                    "SELECT e.game_id, '[' || group_concat('[' || e.seq || ',' || e.turn || "
                    "',\"' || e.section || '\",' || e.payload || ']', ',') || ']' AS log "
                    "FROM games g JOIN log_entries e ON e.game_id = g.id "
                    "WHERE g.status = 'running' AND e.outcome = 'accepted' GROUP BY e.game_id"
                )
                resolved = await db.execute_fetchall(
                    "SELECT r.game_id, r.turn FROM games g JOIN resolutions r "
                    "ON r.game_id = g.id WHERE g.status = 'running'"
                )
                windows = await db.execute_fetchall(
                    "SELECT w.game_id, w.turn FROM games g JOIN pistol_windows w "
                    "ON w.game_id = g.id WHERE g.status = 'running'"
                )
            except sqlite3.DatabaseError as e:
                raise _store_error(e) from e
        seats: dict[int, list[PlayerRecord]] = {}
        for row in players:
            player = _player(row)
            seats.setdefault(player.game_id, []).append(player)
        logs: dict[int, list[tuple[int, str, JSONDict]]] = {}
        for row in entries:
            items: list[list[Any]] = json.loads(row["log"])
            items.sort(key=lambda item: int(item[0]))
            logs[int(row["game_id"])] = [(int(t), str(sec), p) for _, t, sec, p in items]
        turns_done: dict[int, set[int]] = {}
        for row in resolved:
            turns_done.setdefault(int(row["game_id"]), set()).add(int(row["turn"]))
        opened: dict[int, set[int]] = {}
        for row in windows:
            opened.setdefault(int(row["game_id"]), set()).add(int(row["turn"]))
        loaded = []
        for row in games:
            game = _game(row)
            seated = seats.get(game.id, [])
            done = frozenset(turns_done.get(game.id, ()))
            script = build_script(
                game.seed,
                game.activity_rules,
                ((p.nick, p.role) for p in seated),
                logs.get(game.id, []),
                max(done, default=0),
            )
            loaded.append(
                LoadedGame(game, seated, script, done, frozenset(opened.get(game.id, ())))
            )
        return loaded


# --- statements shared by several transactions -----------------------------------------------


def _store_error(e: sqlite3.DatabaseError) -> StoreError:
    text = str(e)
    if "locked" in text or "busy" in text:
        return StoreError(f"the database is busy ({text}); try again")
    if isinstance(e, sqlite3.IntegrityError):
        return StoreError(f"the database refused the change ({text})")
    return StoreError(f"database error ({text})")


@contextlib.asynccontextmanager
async def _snapshot(db: aiosqlite.Connection) -> AsyncIterator[None]:
    """A read transaction, so that several SELECTs see one state even if another process
    writes meanwhile."""
    try:
        await db.execute("BEGIN")
    except sqlite3.DatabaseError as e:
        raise _store_error(e) from e
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            await db.execute("COMMIT")


async def _fetch_one(
    db: aiosqlite.Connection, sql: str, params: Sequence[Any]
) -> sqlite3.Row | None:
    rows = list(await db.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def _game_exists(db: aiosqlite.Connection, game_id: int) -> bool:
    return await _fetch_one(db, "SELECT 1 FROM games WHERE id = ?", (game_id,)) is not None


async def _require_running_turn(db: aiosqlite.Connection, game_id: int, turn: int) -> None:
    row = await _fetch_one(db, "SELECT status, turn FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise NotFound(f"no game {game_id}")
    if row["status"] != "running":
        raise StoreError(f"game {game_id} is not running (it is {row['status']})")
    if int(row["turn"]) != turn:
        raise StoreError(f"game {game_id} is at turn {row['turn']}, not {turn}")


async def _insert_entry(
    db: aiosqlite.Connection,
    game_id: int,
    turn: int,
    section: Section,
    payload_text: str,
    outcome: str,
    user_id: int | None,
    at: dt.datetime,
) -> sqlite3.Row:
    try:
        rows = list(
            await db.execute_fetchall(
                "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, "
                "user_id, at) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? "
                "FROM log_entries WHERE game_id = ? RETURNING id, seq",
                (game_id, turn, section, payload_text, outcome, user_id, to_db_time(at), game_id),
            )
        )
    except sqlite3.IntegrityError as e:
        if "FOREIGN KEY" in str(e):
            raise NotFound(f"no game {game_id}") from e
        raise
    return rows[0]


async def _claim_stage(
    db: aiosqlite.Connection,
    table: Literal["resolutions", "pistol_windows"],
    stamp: Literal["resolved_at", "opened_at"],
    game_id: int,
    turn: int,
    result_text: str,
    now: str,
) -> bool:
    """Insert the (game, turn) row of a once-only stage of a turn. False if it was there
    already (the stage ran: do nothing); raises if the game is missing or not at ``turn``."""
    cur = await db.execute(
        f"INSERT INTO {table} (game_id, turn, result, {stamp}) "
        "SELECT id, ?, ?, ? FROM games WHERE id = ? "
        "ON CONFLICT (game_id, turn) DO NOTHING",
        (turn, result_text, now, game_id),
    )
    if cur.rowcount == 0:
        if await _game_exists(db, game_id):
            return False
        raise NotFound(f"no game {game_id}")
    await _require_running_turn(db, game_id, turn)
    return True


async def _insert_outbox(
    db: aiosqlite.Connection,
    game_id: int,
    turn: int,
    items: Sequence[OutboxItem],
    now: str,
) -> list[int]:
    ids = []
    for item in items:
        try:
            rows = list(
                await db.execute_fetchall(
                    "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) "
                    "VALUES (?, ?, ?, ?, 0, ?) RETURNING id",
                    (game_id, turn, item.kind, _dumps(dict(item.payload)), now),
                )
            )
        except sqlite3.IntegrityError as e:
            if "FOREIGN KEY" in str(e):
                raise NotFound(f"no game {game_id}") from e
            raise
        ids.append(int(rows[0]["id"]))
    return ids


async def _insert_audit(
    db: aiosqlite.Connection,
    guild_id: int | None,
    game_id: int | None,
    actor_id: int,
    command: str,
    args_text: str,
    at: dt.datetime,
) -> int:
    """Insert an audit row; ``guild_id`` None takes the game's guild."""
    if guild_id is None:
        row = await _fetch_one(db, "SELECT guild_id FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise NotFound(f"no game {game_id}")
        guild_id = int(row["guild_id"])
    rows = list(
        await db.execute_fetchall(
            "INSERT INTO audit_log (guild_id, game_id, actor_id, command, args, at) "
            "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            (guild_id, game_id, actor_id, command, args_text, to_db_time(at)),
        )
    )
    return int(rows[0]["id"])
