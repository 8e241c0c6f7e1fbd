"""Games: the lobby, the start, the clock (deadline, phase, pause) and the end."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

from db.errors import NotFound, OpenGameExists, StoreError
from db.models import KEEP, GameRecord, GameStatus, Keep, OutboxItem, PlayerSpec
from db.records import game_record, lobby_columns
from db.sqlite.base import SQLiteBase, game_exists
from db.sqlite.convert import (
    dumps,
    int64,
    opt_db_time,
    to_db_time,
    utcnow,
)
from db.sqlite.outbox import insert_outbox
from db.sqlite.players import PLAYER_COLUMNS

GAME_COLUMNS = (
    "id, guild_id, status, seed, schedule_kind, schedule_params, timezone, activity_rules, "
    "roles, host_user_id, signup_message_id, turn, phase, deadline, paused, paused_remaining, "
    "winner, created_at, updated_at, reveal, started_at, table_id, wishes"
)

# Sets a game to finished; the parameters are (winner, updated_at, game id).
FINISH_GAME = (
    "UPDATE games SET status = 'finished', phase = 'finished', winner = ?, "
    "deadline = NULL, paused = 0, paused_remaining = NULL, updated_at = ? WHERE id = ?"
)


class GamesMixin(SQLiteBase):
    """The game half of :class:`db.interface.GameRepository` on SQLite (players: see
    :mod:`db.sqlite.players`). At most one non-finished game per table is a partial unique
    index on ``games.table_id``."""

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
        reveal: bool = True,
        table_id: int | None = None,
        wishes: bool = False,
    ) -> GameRecord:
        now = to_db_time(utcnow())
        table = guild_id if table_id is None else table_id
        params = (
            guild_id,
            table,
            int64("seed", seed),
            schedule_kind,
            dumps(dict(schedule_params or {})),
            timezone,
            int(activity_rules),
            None if roles is None else dumps(roles),
            host_user_id,
            int(reveal),
            int(wishes),
            now,
            now,
        )

        async def body(db: aiosqlite.Connection) -> GameRecord:
            try:
                rows = await db.execute_fetchall(
                    "INSERT INTO games (guild_id, table_id, status, seed, schedule_kind, "
                    "schedule_params, timezone, activity_rules, roles, host_user_id, reveal, "
                    "wishes, turn, phase, created_at, updated_at) "
                    "VALUES (?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 'lobby', ?, ?) "
                    f"RETURNING {GAME_COLUMNS}",
                    params,
                )
            except sqlite3.IntegrityError as e:
                if "games.table_id" in str(e):
                    raise OpenGameExists(
                        f"table {table} already has a game in the lobby or running"
                    ) from e
                raise
            return game_record(next(iter(rows)))

        return await self._write(body)

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._read_one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else game_record(row)

    async def require_game(self, game_id: int) -> GameRecord:
        game = await self.get_game(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    async def open_game(self, table_id: int) -> GameRecord | None:
        row = await self._read_one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE table_id = ? AND status <> 'finished'",
            (table_id,),
        )
        return None if row is None else game_record(row)

    async def latest_game(self, guild_id: int | None = None) -> GameRecord | None:
        if guild_id is None:
            row = await self._read_one(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1")
        else:
            row = await self._read_one(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? ORDER BY id DESC LIMIT 1",
                (guild_id,),
            )
        return None if row is None else game_record(row)

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        status: GameStatus | None = None,
        table_id: int | None = None,
    ) -> list[GameRecord]:
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if table_id is not None:
            where.append("table_id = ?")
            params.append(table_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._read(f"SELECT {GAME_COLUMNS} FROM games {clause} ORDER BY id", params)
        return [game_record(r) for r in rows]

    async def running_games(self) -> list[GameRecord]:
        rows = await self._read(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' "
            "ORDER BY deadline IS NULL, deadline, id"
        )
        return [game_record(r) for r in rows]

    async def _update_game(
        self,
        game_id: int,
        columns: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """One UPDATE of the game row; ``outbox_items`` (what the change announces) are
        queued at the game's turn in the same transaction."""
        sets = ", ".join(f"{name} = ?" for name in columns)
        now = to_db_time(utcnow())
        params = [*columns.values(), now, game_id]

        async def body(db: aiosqlite.Connection) -> GameRecord:
            rows = list(
                await db.execute_fetchall(
                    f"UPDATE games SET {sets}, updated_at = ? WHERE id = ? "
                    f"RETURNING {GAME_COLUMNS}",
                    params,
                )
            )
            if not rows:
                raise NotFound(f"no game {game_id}")
            record = game_record(rows[0])
            await insert_outbox(db, game_id, record.turn, outbox_items, now)
            return record

        return await self._write(body)

    async def update_lobby(
        self,
        game_id: int,
        *,
        roles: Any = KEEP,
        signup_message_id: int | Keep | None = KEEP,
        schedule_kind: str | Keep = KEEP,
        schedule_params: Mapping[str, Any] | Keep = KEEP,
        timezone: str | Keep = KEEP,
        activity_rules: bool | Keep = KEEP,
        seed: int | Keep = KEEP,
    ) -> GameRecord:
        columns = lobby_columns(
            roles=roles,
            signup_message_id=signup_message_id,
            schedule_kind=schedule_kind,
            schedule_params=schedule_params,
            timezone=timezone,
            activity_rules=activity_rules,
            seed=seed,
        )
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
        started_at: dt.datetime | None = None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        now = to_db_time(utcnow())
        started = to_db_time(started_at) if started_at is not None else now
        seat_rows = [
            (game_id, seat, p.user_id, p.nick, p.role, p.avatar_url, p.signature)
            for seat, p in enumerate(players)
        ]
        deadline_text = opt_db_time(deadline)
        seed_value = None if seed is None else int64("seed", seed)

        async def body(db: aiosqlite.Connection) -> GameRecord:
            rows = list(
                await db.execute_fetchall(
                    "UPDATE games SET status = 'running', turn = ?, phase = ?, deadline = ?, "
                    "seed = COALESCE(?, seed), paused = 0, paused_remaining = NULL, "
                    "started_at = ?, "
                    f"updated_at = ? WHERE id = ? AND status = 'lobby' RETURNING {GAME_COLUMNS}",
                    (turn, phase, deadline_text, seed_value, started, now, game_id),
                )
            )
            if not rows:
                raise NotFound(f"no game {game_id} in the lobby")
            try:
                await db.executemany(
                    f"INSERT INTO players ({PLAYER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    seat_rows,
                )
            except sqlite3.IntegrityError as e:
                raise StoreError(f"cannot seat the players of game {game_id}: {e}") from e
            await insert_outbox(db, game_id, turn, outbox_items, now)
            return game_record(rows[0])

        return await self._write(body)

    async def set_deadline(
        self,
        game_id: int,
        deadline: dt.datetime | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        return await self._update_game(game_id, {"deadline": opt_db_time(deadline)}, outbox_items)

    async def set_phase(
        self, game_id: int, phase: str, deadline: dt.datetime | Keep | None = KEEP
    ) -> GameRecord:
        columns: dict[str, Any] = {"phase": phase}
        if not isinstance(deadline, Keep):
            columns["deadline"] = opt_db_time(deadline)
        return await self._update_game(game_id, columns)

    async def pause_game(
        self,
        game_id: int,
        remaining_seconds: float,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        return await self._update_game(
            game_id,
            {"paused": 1, "paused_remaining": float(remaining_seconds), "deadline": None},
            outbox_items,
        )

    async def resume_game(
        self,
        game_id: int,
        deadline: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        return await self._update_game(
            game_id,
            {"paused": 0, "paused_remaining": None, "deadline": to_db_time(deadline)},
            outbox_items,
        )

    async def finish_game(
        self,
        game_id: int,
        winner: str | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            rows = list(
                await db.execute_fetchall(
                    FINISH_GAME + " AND status <> 'finished' RETURNING turn",
                    (winner, now, game_id),
                )
            )
            if not rows:
                if await game_exists(db, game_id):
                    return False
                raise NotFound(f"no game {game_id}")
            await insert_outbox(db, game_id, int(rows[0]["turn"]), outbox_items, now)
            # A finished game is never restored: its state snapshot goes (the log stays).
            await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
            return True

        return await self._write(body)
