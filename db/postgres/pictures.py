"""The pictures of players' posts waiting to be shown, on PostgreSQL (see
:class:`db.interface.PostPictures` and ``db/sqlite/pictures.py``)."""

from __future__ import annotations

from db.models import OutboxItem
from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import utcnow
from db.postgres.outbox import insert_outbox
from db.sqlite.pictures import DROP_SENT


class PicturesMixin(PostgresBase):
    async def queue_picture_post(
        self, game_id: int, turn: int, item: OutboxItem, filename: str, data: bytes
    ) -> int:
        now = utcnow()

        async def body(db: Conn) -> int:
            [row_id] = await insert_outbox(db, game_id, turn, [item], now)
            await db.execute(
                "INSERT INTO post_pictures (outbox_id, filename, data) VALUES ($1, $2, $3)",
                row_id,
                filename,
                data,
            )
            return row_id

        return await self._write(body)

    async def post_picture(self, outbox_id: int) -> tuple[str, bytes] | None:
        row = await self._read_one(
            "SELECT filename, data FROM post_pictures WHERE outbox_id = $1", (outbox_id,)
        )
        return None if row is None else (str(row["filename"]), bytes(row["data"]))

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        async def body(db: Conn) -> int:
            dropped = 0
            if outbox_id is not None:
                status = await db.execute(
                    "DELETE FROM post_pictures WHERE outbox_id = $1", outbox_id
                )
                dropped += int(status.split()[-1])
            status = await db.execute(DROP_SENT)
            return dropped + int(status.split()[-1])

        return await self._write(body)
