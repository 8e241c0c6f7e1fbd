"""Games: the lobby, the start, the clock (deadline, phase, pause) and the end."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from db.convert import dumps, int64
from db.errors import ConstraintViolation, NotFound, OpenGameExists, StoreError, UniqueViolation
from db.models import KEEP, GameRecord, GameStatus, Keep, OutboxItem, PlayerSpec
from db.ops.common import game_exists
from db.ops.outbox import insert_outbox
from db.ops.players import PLAYER_COLUMNS
from db.records import columns, game_record, lobby_columns
from db.tx import Engine, Tx

GAME_COLUMNS = columns(GameRecord)

# Sets a game to finished; the parameters are ($1 winner, $2 updated_at, $3 game id).
FINISH_GAME = (
    "UPDATE games SET status = 'finished', phase = 'finished', winner = $1, "
    "deadline = NULL, paused = FALSE, paused_remaining = NULL, updated_at = $2 WHERE id = $3"
)


class GamesOps(Engine):
    """Games: lobby, start, clock, end (sign-ups and players: :mod:`db.ops.players`). A table
    has at most one game that is not finished (in the lobby or running), enforced atomically
    by a partial unique index on ``games.table_id``, not by a check-then-insert."""

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
        """Open a new game in the lobby (turn 0, no deadline) at ``table_id`` (default: the
        server's first table). Raises :class:`~db.errors.OpenGameExists`, writing nothing, if
        the table has a game in the lobby or running. Game ids increase with creation."""
        now = self.dialect.time(self._now())
        table = guild_id if table_id is None else table_id
        params = (
            guild_id,
            table,
            int64("seed", seed),
            schedule_kind,
            dumps(dict(schedule_params or {})),
            timezone,
            bool(activity_rules),
            None if roles is None else dumps(roles),
            host_user_id,
            bool(reveal),
            now,
            bool(wishes),
        )

        async def body(tx: Tx) -> GameRecord:
            try:
                row = await tx.fetchrow(
                    "INSERT INTO games (guild_id, table_id, status, seed, schedule_kind, "
                    "schedule_params, timezone, activity_rules, roles, host_user_id, reveal, "
                    "turn, phase, created_at, updated_at, wishes) "
                    "VALUES ($1, $2, 'lobby', $3, $4, $5, $6, $7, $8, $9, $10, 0, 'lobby', "
                    f"$11, $11, $12) RETURNING {GAME_COLUMNS}",
                    *params,
                )
            except UniqueViolation as e:
                raise OpenGameExists(
                    f"table {table} already has a game in the lobby or running"
                ) from e
            assert row is not None
            return game_record(row)

        return await self._run_write(body)

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None if there is none with that id."""
        row = await self._fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        return None if row is None else game_record(row)

    async def require_game(self, game_id: int) -> GameRecord:
        """The game; raises :class:`~db.errors.NotFound` if there is none with that id."""
        game = await self.get_game(game_id)
        if game is None:
            raise NotFound(f"no game {game_id}")
        return game

    async def open_game(self, table_id: int) -> GameRecord | None:
        """The table's game in the lobby or running, if any (there is at most one)."""
        row = await self._fetchrow(
            f"SELECT {GAME_COLUMNS} FROM games WHERE table_id = $1 AND status <> 'finished'",
            table_id,
        )
        return None if row is None else game_record(row)

    async def latest_game(self, guild_id: int | None = None) -> GameRecord | None:
        """The most recently created game (of ``guild_id``, or of any guild), whatever its
        status."""
        if guild_id is None:
            row = await self._fetchrow(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id DESC LIMIT 1")
        else:
            row = await self._fetchrow(
                f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = $1 ORDER BY id DESC LIMIT 1",
                guild_id,
            )
        return None if row is None else game_record(row)

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        status: GameStatus | None = None,
        table_id: int | None = None,
    ) -> list[GameRecord]:
        """Games matching every filter given, oldest (lowest id) first."""
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("guild_id", guild_id), ("table_id", table_id), ("status", status)):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._fetch(f"SELECT {GAME_COLUMNS} FROM games {clause} ORDER BY id", *params)
        return [game_record(r) for r in rows]

    async def running_games(self) -> list[GameRecord]:
        """Every running game, soonest deadline first, games without a deadline (paused) last,
        ties by id. Used at start to re-arm each game's clock."""
        rows = await self._fetch(
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
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=1))
        n = len(columns)
        now = self._now()
        params = [*columns.values(), self.dialect.time(now), game_id]

        async def body(tx: Tx) -> GameRecord:
            row = await tx.fetchrow(
                f"UPDATE games SET {sets}, updated_at = ${n + 1} WHERE id = ${n + 2} "
                f"RETURNING {GAME_COLUMNS}",
                *params,
            )
            if row is None:
                raise NotFound(f"no game {game_id}")
            record = game_record(row)
            await insert_outbox(tx, game_id, record.turn, outbox_items, now)
            return record

        return await self._run_write(body)

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
        """Change the setup of a game (normally while in the lobby); ``KEEP`` leaves a field
        as it is, None clears a nullable one. Returns the game as written (unchanged, without
        a write, if every field is ``KEEP``). Raises :class:`~db.errors.NotFound`."""
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
        """Seat ``players`` (seat ``i`` is ``players[i]``) and move the game from the lobby to
        running at this turn, phase and deadline, with ``outbox_items`` queued at ``turn``, in
        one transaction. Raises :class:`~db.errors.NotFound` if the game is not in the lobby,
        :class:`~db.errors.StoreError` if two seats share a user or a nickname (compared
        case-insensitively); either way nothing is written."""
        d = self.dialect
        now = self._now()
        started = d.time(started_at if started_at is not None else now)
        seat_rows = [
            (game_id, seat, p.user_id, p.nick, p.role, p.avatar_url, p.signature)
            for seat, p in enumerate(players)
        ]
        when = d.opt_time(deadline)
        seed_value = None if seed is None else int64("seed", seed)

        async def body(tx: Tx) -> GameRecord:
            row = await tx.fetchrow(
                "UPDATE games SET status = 'running', turn = $1, phase = $2, deadline = $3, "
                "seed = COALESCE($4, seed), paused = FALSE, paused_remaining = NULL, "
                "started_at = $5, "
                f"updated_at = $6 WHERE id = $7 AND status = 'lobby' RETURNING {GAME_COLUMNS}",
                turn,
                phase,
                when,
                seed_value,
                started,
                d.time(now),
                game_id,
            )
            if row is None:
                raise NotFound(f"no game {game_id} in the lobby")
            try:
                await tx.executemany(
                    f"INSERT INTO players ({PLAYER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    seat_rows,
                )
            except ConstraintViolation as e:
                raise StoreError(f"cannot seat the players of game {game_id}: {e}") from e
            await insert_outbox(tx, game_id, turn, outbox_items, now)
            return game_record(row)

        return await self._run_write(body)

    async def set_deadline(
        self,
        game_id: int,
        deadline: dt.datetime | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Move the deadline (``/mafia extend``). Raises :class:`~db.errors.NotFound`."""
        columns = {"deadline": self.dialect.opt_time(deadline)}
        return await self._update_game(game_id, columns, outbox_items)

    async def pause_game(
        self,
        game_id: int,
        remaining_seconds: float,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Stop the clock: keep the time left, clear the deadline. Raises ``NotFound``."""
        return await self._update_game(
            game_id,
            {"paused": True, "paused_remaining": float(remaining_seconds), "deadline": None},
            outbox_items,
        )

    async def resume_game(
        self,
        game_id: int,
        deadline: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Restart the clock with ``deadline``, clearing the pause. Raises ``NotFound``."""
        return await self._update_game(
            game_id,
            {"paused": False, "paused_remaining": None, "deadline": self.dialect.time(deadline)},
            outbox_items,
        )

    async def finish_game(
        self,
        game_id: int,
        winner: str | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """End the game (``/mafia end``, or a winner found outside a resolution); it keeps
        its turn. Once only: False, writing nothing (not the announcements either), if it had
        finished already. Raises :class:`~db.errors.NotFound`."""
        now = self._now()
        stamp = self.dialect.time(now)

        async def body(tx: Tx) -> bool:
            turn = await tx.fetchval(
                FINISH_GAME + " AND status <> 'finished' RETURNING turn", winner, stamp, game_id
            )
            if turn is None:
                if await game_exists(tx, game_id):
                    return False
                raise NotFound(f"no game {game_id}")
            await insert_outbox(tx, game_id, int(turn), outbox_items, now)
            # A finished game is never restored: its state snapshot goes (the log stays).
            await tx.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
            return True

        return await self._run_write(body)
