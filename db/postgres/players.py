"""Sign-ups in the lobby, and the seats of a started game with their anonymous profiles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from db.errors import NotFound, SignupFull, StoreError
from db.models import KEEP, Keep, OutboxItem, PlayerRecord
from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import utcnow
from db.postgres.outbox import insert_outbox
from db.records import player_record

PLAYER_COLUMNS = "game_id, seat, user_id, nick, role, avatar_url, signature"


class PlayersMixin(PostgresBase):
    """The sign-up and player half of :class:`db.interface.GameRepository` on PostgreSQL.
    Sign-up order is the ``signups.joined`` identity; nicknames compare with ``lower()``
    (which folds every letter the database's locale knows, Cyrillic included, where SQLite's
    ``NOCASE`` folds ASCII only)."""

    # --- sign-ups --------------------------------------------------------------------------

    async def add_signup(self, game_id: int, user_id: int, *, limit: int | None = None) -> bool:
        now = utcnow()

        async def body(db: Conn) -> bool:
            if limit is not None:
                # The game's row locked first: a sign-up racing in another process waits for
                # this transaction, then counts the row it added.
                await db.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
                row = await db.fetchrow(
                    "SELECT COUNT(*) AS n, bool_or(user_id = $2) AS me "
                    "FROM signups WHERE game_id = $1",
                    game_id,
                    user_id,
                )
                assert row is not None
                if not row["me"] and int(row["n"]) >= limit:
                    raise SignupFull(f"the sign-up of game {game_id} is full ({limit})")
            status = await db.execute(
                "INSERT INTO signups (game_id, user_id, joined_at) "
                "SELECT id, $1, $2 FROM games WHERE id = $3 AND status = 'lobby' "
                "ON CONFLICT (game_id, user_id) DO NOTHING",
                user_id,
                now,
                game_id,
            )
            return affected(status) > 0

        return await self._write(body)

    async def remove_signup(self, game_id: int, user_id: int) -> bool:
        async def body(db: Conn) -> bool:
            status = await db.execute(
                "DELETE FROM signups WHERE game_id = $1 AND user_id = $2 "
                "AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = 'lobby')",
                game_id,
                user_id,
            )
            return affected(status) > 0

        return await self._write(body)

    async def set_wish(self, game_id: int, user_id: int, wish: str | None) -> bool:
        async def body(db: Conn) -> bool:
            status = await db.execute(
                "UPDATE signups SET wish = $3 WHERE game_id = $1 AND user_id = $2 "
                "AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = 'lobby')",
                game_id,
                user_id,
                wish,
            )
            return affected(status) > 0

        return await self._write(body)

    async def wishes(self, game_id: int) -> dict[int, str]:
        rows = await self._read(
            "SELECT user_id, wish FROM signups WHERE game_id = $1 AND wish IS NOT NULL "
            "ORDER BY user_id",
            (game_id,),
        )
        return {int(r["user_id"]): str(r["wish"]) for r in rows}

    async def signups(self, game_id: int) -> list[int]:
        rows = await self._read(
            "SELECT user_id FROM signups WHERE game_id = $1 ORDER BY joined", (game_id,)
        )
        return [int(r["user_id"]) for r in rows]

    # --- players ---------------------------------------------------------------------------

    async def players(self, game_id: int) -> list[PlayerRecord]:
        rows = await self._read(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 ORDER BY seat", (game_id,)
        )
        return [player_record(r) for r in rows]

    async def player_by_user(self, game_id: int, user_id: int) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 AND user_id = $2",
            (game_id, user_id),
        )
        return None if row is None else player_record(row)

    async def player_by_nick(self, game_id: int, nick: str) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 AND lower(nick) = lower($2)",
            (game_id, nick),
        )
        return None if row is None else player_record(row)

    async def set_profile(
        self,
        game_id: int,
        user_id: int,
        *,
        avatar_url: str | Keep | None = KEEP,
        signature: str | Keep | None = KEEP,
    ) -> PlayerRecord:
        columns: dict[str, Any] = {}
        if not isinstance(avatar_url, Keep):
            columns["avatar_url"] = avatar_url
        if not isinstance(signature, Keep):
            columns["signature"] = signature
        if not columns:
            player = await self.player_by_user(game_id, user_id)
            if player is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=3))

        async def body(db: Conn) -> PlayerRecord:
            row = await db.fetchrow(
                f"UPDATE players SET {sets} WHERE game_id = $1 AND user_id = $2 "
                f"RETURNING {PLAYER_COLUMNS}",
                game_id,
                user_id,
                *columns.values(),
            )
            if row is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player_record(row)

        return await self._write(body)

    async def replace_player(
        self,
        game_id: int,
        nick: str,
        new_user_id: int,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> PlayerRecord:
        now = utcnow()

        async def body(db: Conn) -> PlayerRecord:
            try:
                row = await db.fetchrow(
                    "UPDATE players SET user_id = $1 WHERE game_id = $2 "
                    f"AND lower(nick) = lower($3) RETURNING {PLAYER_COLUMNS}",
                    new_user_id,
                    game_id,
                    nick,
                )
            except asyncpg.UniqueViolationError as e:
                raise StoreError(f"user {new_user_id} already plays in game {game_id}") from e
            if row is None:
                raise NotFound(f"no player {nick!r} in game {game_id}")
            if outbox_items:
                turn = await db.fetchval("SELECT turn FROM games WHERE id = $1", game_id)
                await insert_outbox(db, game_id, int(turn), outbox_items, now)
            return player_record(row)

        return await self._write(body)


def affected(status: str) -> int:
    """The row count of a command status (``INSERT 0 1``, ``UPDATE 3``, ``DELETE 0``)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0
