"""The DM channel of each user the bot wrote to in private (migration 14)."""

from __future__ import annotations

import sqlite3

from db.sqlite.base import SQLiteBase


class DMChannelsMixin(SQLiteBase):
    """:class:`db.interface.DMChannels` on SQLite."""

    async def dm_channel(self, bot_id: int, user_id: int) -> int | None:
        row = await self._read_one(
            "SELECT channel_id FROM dm_channels WHERE bot_id = ? AND user_id = ?",
            (bot_id, user_id),
        )
        return None if row is None else int(row["channel_id"])

    async def save_dm_channel(self, bot_id: int, user_id: int, channel_id: int) -> None:
        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO dm_channels (bot_id, user_id, channel_id) VALUES (?, ?, ?) "
                "ON CONFLICT (bot_id, user_id) DO UPDATE SET channel_id = excluded.channel_id",
                (bot_id, user_id, channel_id),
            ).fetchall()

        await self._write_at_once(body)
