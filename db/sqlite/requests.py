"""The request log (requests, host commands, shots), post counts, and the once-only stages of
a turn: its resolution and its pistol window (R18)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import aiosqlite

from db.errors import NotFound, StaleGame, StoreError
from db.models import (
    ACCEPTED,
    Fence,
    GameHead,
    JSONDict,
    LogEntry,
    OutboxItem,
    PostRecord,
    ResolutionRecord,
    Section,
)
from db.records import game_record, post_record, resolution_record
from db.records import log_entry as _entry
from db.sqlite.audit import insert_audit
from db.sqlite.base import SQLiteBase, fetch_one, foreign_key_to_not_found, game_exists
from db.sqlite.convert import (
    check_outcome,
    check_section,
    dumps,
    from_db_time,
    loads_dict,
    opt_db_time,
    to_db_time,
    utcnow,
)
from db.sqlite.games import FINISH_GAME, GAME_COLUMNS
from db.sqlite.loading import write_snapshot
from db.sqlite.outbox import insert_outbox

_ENTRY_COLUMNS = "id, game_id, turn, seq, section, payload, outcome, user_id, at"

#: One log entry; ``seq`` is the game's next number, taken inside the INSERT so that
#: concurrent writers keep their arrival order.
_INSERT_ENTRY = (
    "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, "
    "user_id, at) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ? "
    "FROM log_entries WHERE game_id = ? RETURNING id, seq"
)


#: The game's status, turn and phase, and its accepted log entries at its turn or later: what a
#: :class:`~db.models.Fence` compares (``log_entries_by_verb`` covers the count).
_FENCE = (
    "SELECT status, turn, phase, (SELECT COUNT(*) FROM log_entries l WHERE l.game_id = g.id "
    "AND l.turn >= g.turn AND l.outcome = 'accepted') AS entries FROM games g WHERE g.id = ?"
)


def _check_fence(row: sqlite3.Row | None, game_id: int, fence: Fence) -> None:
    """Raise :class:`StaleGame` unless the game (``_FENCE``'s row) is running as ``fence``
    says; :class:`NotFound` if there is no such game."""
    if row is None:
        raise NotFound(f"no game {game_id}")
    seen = (str(row["status"]), int(row["turn"]), str(row["phase"]), int(row["entries"]))
    if seen != ("running", fence.turn, fence.phase, fence.entries):
        raise StaleGame(
            f"game {game_id} is {seen[0]} at turn {seen[1]} ({seen[2]}, {seen[3]} entries), "
            f"not at turn {fence.turn} ({fence.phase}, {fence.entries} entries)"
        )


def _fence_now(conn: sqlite3.Connection, game_id: int, fence: Fence | None) -> None:
    if fence is not None:
        _check_fence(conn.execute(_FENCE, (game_id,)).fetchone(), game_id, fence)


async def _fence(db: aiosqlite.Connection, game_id: int, fence: Fence | None) -> None:
    if fence is not None:
        _check_fence(await fetch_one(db, _FENCE, (game_id,)), game_id, fence)


async def _insert_entry(
    db: aiosqlite.Connection,
    game_id: int,
    turn: int,
    section: Section,
    payload: JSONDict,
    payload_text: str,
    outcome: str,
    user_id: int | None,
    at: dt.datetime,
) -> LogEntry:
    """Append one entry; ``seq`` is the game's next number, taken inside the INSERT so that
    concurrent writers keep their arrival order."""
    try:
        rows = list(
            await db.execute_fetchall(
                _INSERT_ENTRY,
                (game_id, turn, section, payload_text, outcome, user_id, to_db_time(at), game_id),
            )
        )
    except sqlite3.IntegrityError as e:
        foreign_key_to_not_found(e, game_id)
        raise
    return _inserted(rows[0], game_id, turn, section, payload, outcome, user_id, at)


def _insert_entry_now(
    conn: sqlite3.Connection,
    game_id: int,
    turn: int,
    section: Section,
    payload: JSONDict,
    payload_text: str,
    outcome: str,
    user_id: int | None,
    at: dt.datetime,
) -> LogEntry:
    """:func:`_insert_entry` on the connection's own thread (inside
    :meth:`SQLiteBase._write_at_once`)."""
    try:
        rows = conn.execute(
            _INSERT_ENTRY,
            (game_id, turn, section, payload_text, outcome, user_id, to_db_time(at), game_id),
        ).fetchall()
    except sqlite3.IntegrityError as e:
        foreign_key_to_not_found(e, game_id)
        raise
    return _inserted(rows[0], game_id, turn, section, payload, outcome, user_id, at)


def _inserted(
    row: sqlite3.Row,
    game_id: int,
    turn: int,
    section: Section,
    payload: JSONDict,
    outcome: str,
    user_id: int | None,
    at: dt.datetime,
) -> LogEntry:
    return LogEntry(
        id=int(row["id"]),
        game_id=game_id,
        turn=turn,
        seq=int(row["seq"]),
        section=section,
        payload=payload,
        outcome=outcome,
        user_id=user_id,
        at=at,
    )


async def _require_running_turn(db: aiosqlite.Connection, game_id: int, turn: int) -> None:
    row = await fetch_one(db, "SELECT status, turn FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise NotFound(f"no game {game_id}")
    if row["status"] != "running":
        raise StoreError(f"game {game_id} is not running (it is {row['status']})")
    if int(row["turn"]) != turn:
        raise StoreError(f"game {game_id} is at turn {row['turn']}, not {turn}")


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
        if await game_exists(db, game_id):
            return False
        raise NotFound(f"no game {game_id}")
    await _require_running_turn(db, game_id, turn)
    return True


async def resolved(
    db: aiosqlite.Connection,
    table: Literal["resolutions", "pistol_windows"],
    game_id: int,
    turn: int,
) -> bool:
    """Whether the once-only stage ``table`` of ``(game_id, turn)`` has run."""
    sql = f"SELECT 1 FROM {table} WHERE game_id = ? AND turn = ?"
    return await fetch_one(db, sql, (game_id, turn)) is not None


class RequestLogMixin(SQLiteBase):
    """:class:`db.interface.RequestLog` on SQLite. The once-only stages are the primary keys
    (game_id, turn) of ``resolutions`` and ``pistol_windows``."""

    # --- the log ---------------------------------------------------------------------------

    async def add_request(
        self,
        game_id: int,
        turn: int,
        section: str,
        payload: Mapping[str, Any],
        user_id: int | None,
        outcome: str = ACCEPTED,
        *,
        fence: Fence | None = None,
    ) -> LogEntry:
        sec = check_section(section)
        check_outcome(outcome)
        data = dict(payload)
        text = dumps(data)
        now = utcnow()

        def body(conn: sqlite3.Connection) -> LogEntry:  # a hot path: one hop
            _fence_now(conn, game_id, fence)
            return _insert_entry_now(conn, game_id, turn, sec, data, text, outcome, user_id, now)

        return await self._write_at_once(body)

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
        fence: Fence | None = None,
    ) -> LogEntry:
        check_outcome(outcome)
        data = dict(payload)
        text = dumps(data)
        args_text = dumps(dict(args or {}))
        now = utcnow()

        async def body(db: aiosqlite.Connection) -> LogEntry:
            await _fence(db, game_id, fence)
            entry = await _insert_entry(
                db, game_id, turn, "host", data, text, outcome, actor_id, now
            )
            await insert_audit(db, None, game_id, actor_id, command, args_text, now)
            if outbox_items:
                await insert_outbox(db, game_id, turn, outbox_items, to_db_time(now))
            return entry

        return await self._write(body)

    async def log_entries(
        self, game_id: int, turn: int | None = None, *, accepted_only: bool = False
    ) -> list[LogEntry]:
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
        # verb and by_nick are generated columns, indexed by log_entries_by_verb (migration 2).
        rows = await self._read(
            "SELECT by_nick, COUNT(*) AS n FROM log_entries "
            "WHERE game_id = ? AND turn = ? AND verb = 'post' AND outcome = 'accepted' "
            "GROUP BY by_nick",
            (game_id, turn),
        )
        return {str(r["by_nick"]): int(r["n"]) for r in rows}

    # --- public posts (the archive) ---------------------------------------------------------

    async def add_post(
        self,
        game_id: int,
        turn: int,
        nick: str,
        text: str,
        *,
        ghost: bool = False,
        at: dt.datetime | None = None,
    ) -> PostRecord:
        if turn < 0:
            raise ValueError(f"turn must be at least 0, got {turn}")
        when = utcnow() if at is None else at
        stamp = to_db_time(when)  # ValueError for a naive datetime, before any write

        def body(conn: sqlite3.Connection) -> int:  # a hot path: one hop
            try:
                rows = conn.execute(
                    "INSERT INTO posts (game_id, turn, nick, text, ghost, at) "
                    "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (game_id, turn, nick, text, int(ghost), stamp),
                ).fetchall()
            except sqlite3.IntegrityError as e:
                foreign_key_to_not_found(e, game_id)
                raise
            return int(rows[0]["id"])

        post_id = await self._write_at_once(body)
        return PostRecord(post_id, game_id, turn, nick, text, ghost, from_db_time(stamp))

    async def posts(self, game_id: int) -> list[PostRecord]:
        rows = await self._read(
            "SELECT id, game_id, turn, nick, text, ghost, at FROM posts "
            "WHERE game_id = ? ORDER BY id",
            (game_id,),
        )
        return [post_record(r) for r in rows]

    # --- resolutions and pistol windows ----------------------------------------------------

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
        snapshot: Mapping[str, Any] | None = None,
        fence: Fence | None = None,
    ) -> bool:
        now = to_db_time(utcnow())
        result_text = dumps(dict(result))
        deadline_text = opt_db_time(next_deadline)
        snapshot_text = None if snapshot is None or winner is not None else dumps(dict(snapshot))

        async def body(db: aiosqlite.Connection) -> bool:
            if await resolved(db, "resolutions", game_id, turn):
                return False  # once only: the claim was lost, whatever the fence says
            await _fence(db, game_id, fence)
            if not await _claim_stage(
                db, "resolutions", "resolved_at", game_id, turn, result_text, now
            ):
                return False
            await insert_outbox(db, game_id, turn, outbox_items, now)
            if winner is None:
                await db.execute(
                    "UPDATE games SET turn = ?, phase = ?, deadline = ?, updated_at = ? "
                    "WHERE id = ?",
                    (next_turn, next_phase, deadline_text, now, game_id),
                )
            else:
                await db.execute(FINISH_GAME, (winner, now, game_id))
            await write_snapshot(db, game_id, next_turn, snapshot_text, now)
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
        return [resolution_record(r) for r in rows]

    async def begin_pistol_window(
        self,
        game_id: int,
        turn: int,
        partial_result: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem],
        window_deadline: dt.datetime | None,
        *,
        phase: str = "pistol",
        fence: Fence | None = None,
    ) -> bool:
        now = to_db_time(utcnow())
        text = dumps(dict(partial_result))
        deadline_text = opt_db_time(window_deadline)

        async def body(db: aiosqlite.Connection) -> bool:
            if await resolved(db, "pistol_windows", game_id, turn):
                return False
            await _fence(db, game_id, fence)
            if not await _claim_stage(db, "pistol_windows", "opened_at", game_id, turn, text, now):
                return False
            await insert_outbox(db, game_id, turn, outbox_items, now)
            await db.execute(
                "UPDATE games SET phase = ?, deadline = ?, updated_at = ? WHERE id = ?",
                (phase, deadline_text, now, game_id),
            )
            return True

        return await self._write(body)

    async def game_head(self, game_id: int) -> GameHead | None:
        rows = await self._read(
            f"SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM log_entries l WHERE l.game_id = g.id "
            "AND l.turn >= g.turn AND l.outcome = 'accepted') AS entries "
            "FROM games g WHERE g.id = ?",
            (game_id,),
        )
        if not rows:
            return None
        return GameHead(record=game_record(rows[0]), entries=int(rows[0]["entries"]))

    async def pistol_window(self, game_id: int, turn: int) -> JSONDict | None:
        row = await self._read_one(
            "SELECT result FROM pistol_windows WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return None if row is None else loads_dict(row["result"])
