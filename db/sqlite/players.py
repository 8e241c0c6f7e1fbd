"""Sign-ups in the lobby, and the seats of a started game with their anonymous profiles."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

import aiosqlite

from db.errors import NotFound, SignupFull, StoreError
from db.models import KEEP, Keep, OutboxItem, PlayerRecord
from db.records import player_record
from db.sqlite.base import SQLiteBase
from db.sqlite.convert import to_db_time, utcnow
from db.sqlite.outbox import insert_outbox

PLAYER_COLUMNS = "game_id, seat, user_id, nick, role, avatar_url, signature"


class PlayersMixin(SQLiteBase):
    """The sign-up and player half of :class:`db.interface.GameRepository` on SQLite.
    Sign-up order is the ``signups`` table's rowid; nicknames compare with ``NOCASE``."""

    # --- sign-ups --------------------------------------------------------------------------

    async def add_signup(self, game_id: int, user_id: int, *, limit: int | None = None) -> bool:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            # One writer at a time (the write transaction): the count and the insert agree.
            if limit is not None:
                row = await (
                    await db.execute(
                        "SELECT COUNT(*) AS n, "
                        "EXISTS (SELECT 1 FROM signups WHERE game_id = ? AND user_id = ?) AS me "
                        "FROM signups WHERE game_id = ?",
                        (game_id, user_id, game_id),
                    )
                ).fetchone()
                assert row is not None
                if not row["me"] and int(row["n"]) >= limit:
                    raise SignupFull(f"the sign-up of game {game_id} is full ({limit})")
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

    async def set_wish(self, game_id: int, user_id: int, wish: str | None) -> bool:
        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "UPDATE signups SET wish = ? WHERE game_id = ? AND user_id = ? "
                "AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'lobby')",
                (wish, game_id, user_id, game_id),
            )
            return cur.rowcount > 0

        return await self._write(body)

    async def wishes(self, game_id: int) -> dict[int, str]:
        rows = await self._read(
            "SELECT user_id, wish FROM signups WHERE game_id = ? AND wish IS NOT NULL "
            "ORDER BY user_id",
            (game_id,),
        )
        return {int(r["user_id"]): str(r["wish"]) for r in rows}

    async def signups(self, game_id: int) -> list[int]:
        rows = await self._read(
            "SELECT user_id FROM signups WHERE game_id = ? ORDER BY rowid", (game_id,)
        )
        return [int(r["user_id"]) for r in rows]

    # --- players ---------------------------------------------------------------------------

    async def players(self, game_id: int) -> list[PlayerRecord]:
        rows = await self._read(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [player_record(r) for r in rows]

    async def player_by_user(self, game_id: int, user_id: int) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND user_id = ?",
            (game_id, user_id),
        )
        return None if row is None else player_record(row)

    async def player_by_nick(self, game_id: int, nick: str) -> PlayerRecord | None:
        row = await self._read_one(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = ? AND nick = ? COLLATE NOCASE",
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
        sets = ", ".join(f"{name} = ?" for name in columns)

        async def body(db: aiosqlite.Connection) -> PlayerRecord:
            rows = list(
                await db.execute_fetchall(
                    f"UPDATE players SET {sets} WHERE game_id = ? AND user_id = ? "
                    f"RETURNING {PLAYER_COLUMNS}",
                    (*columns.values(), game_id, user_id),
                )
            )
            if not rows:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player_record(rows[0])

        return await self._write(body)

    async def replace_player(
        self,
        game_id: int,
        nick: str,
        new_user_id: int,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> PlayerRecord:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> PlayerRecord:
            try:
                rows = list(
                    await db.execute_fetchall(
                        "UPDATE players SET user_id = ? WHERE game_id = ? AND nick = ? "
                        f"COLLATE NOCASE RETURNING {PLAYER_COLUMNS}",
                        (new_user_id, game_id, nick),
                    )
                )
            except sqlite3.IntegrityError as e:
                raise StoreError(f"user {new_user_id} already plays in game {game_id}") from e
            if not rows:
                raise NotFound(f"no player {nick!r} in game {game_id}")
            if outbox_items:
                games = list(
                    await db.execute_fetchall("SELECT turn FROM games WHERE id = ?", (game_id,))
                )
                await insert_outbox(db, game_id, int(games[0]["turn"]), outbox_items, now)
            return player_record(rows[0])

        return await self._write(body)
