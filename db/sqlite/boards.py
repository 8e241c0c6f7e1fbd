"""The mafia's kill board: the id of each turn's board message in the mafia's room."""

from __future__ import annotations

import sqlite3

from db.sqlite.base import SQLiteBase


class BoardsMixin(SQLiteBase):
    """:class:`db.interface.KillBoards` on SQLite."""

    async def kill_board(self, game_id: int, turn: int) -> int | None:
        row = await self._read_one(
            "SELECT message_id FROM kill_boards WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
        return None if row is None else int(row["message_id"])

    async def set_kill_board(self, game_id: int, turn: int, message_id: int) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO kill_boards (game_id, turn, message_id) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET message_id = excluded.message_id",
                (game_id, turn, message_id),
            ).fetchall()

        await self._write_at_once(body)
