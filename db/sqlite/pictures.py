"""The pictures of players' posts waiting to be shown, on SQLite (see
:class:`db.interface.PostPictures`)."""

from __future__ import annotations

import aiosqlite

from db.models import OutboxItem
from db.sqlite.base import SQLiteBase
from db.sqlite.convert import to_db_time, utcnow
from db.sqlite.outbox import insert_outbox

#: The pictures of rows already sent (shown, or dropped): nothing reads them any more.
DROP_SENT = (
    "DELETE FROM post_pictures WHERE outbox_id IN "
    "(SELECT p.outbox_id FROM post_pictures p JOIN outbox o ON o.id = p.outbox_id "
    "WHERE o.sent)"
)


class PicturesMixin(SQLiteBase):
    async def queue_picture_post(
        self, game_id: int, turn: int, item: OutboxItem, filename: str, data: bytes
    ) -> int:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> int:
            [row_id] = await insert_outbox(db, game_id, turn, [item], now)
            await db.execute(
                "INSERT INTO post_pictures (outbox_id, filename, data) VALUES (?, ?, ?)",
                (row_id, filename, data),
            )
            return row_id

        return await self._write(body)

    async def post_picture(self, outbox_id: int) -> tuple[str, bytes] | None:
        row = await self._read_one(
            "SELECT filename, data FROM post_pictures WHERE outbox_id = ?", (outbox_id,)
        )
        return None if row is None else (str(row["filename"]), bytes(row["data"]))

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        async def body(db: aiosqlite.Connection) -> int:
            dropped = 0
            if outbox_id is not None:
                cur = await db.execute(
                    "DELETE FROM post_pictures WHERE outbox_id = ?", (outbox_id,)
                )
                dropped += cur.rowcount
            cur = await db.execute(DROP_SENT)
            return dropped + cur.rowcount

        return await self._write(body)
