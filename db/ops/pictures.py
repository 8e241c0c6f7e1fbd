"""The pictures of players' posts waiting to be shown."""

from __future__ import annotations

from db.models import OutboxItem
from db.ops.outbox import insert_outbox
from db.tx import Engine, Tx

#: The pictures of rows already sent (shown, or dropped): nothing reads them any more.
DROP_SENT = (
    "DELETE FROM post_pictures WHERE outbox_id IN "
    "(SELECT p.outbox_id FROM post_pictures p JOIN outbox o ON o.id = p.outbox_id "
    "WHERE o.sent)"
)


class PicturesOps(Engine):
    """The picture of a queued post (``/say``, ``core/images.py``), kept until it is shown."""

    async def queue_picture_post(
        self, game_id: int, turn: int, item: OutboxItem, filename: str, data: bytes
    ) -> int:
        """Queue ``item`` and keep its picture, in ONE transaction; the row's id."""
        now = self._now()

        async def body(tx: Tx) -> int:
            [row_id] = await insert_outbox(tx, game_id, turn, [item], now)
            await tx.execute(
                "INSERT INTO post_pictures (outbox_id, filename, data) VALUES ($1, $2, $3)",
                row_id,
                filename,
                data,
            )
            return row_id

        return await self._run_write(body)

    async def post_picture(self, outbox_id: int) -> tuple[str, bytes] | None:
        """The picture of the post of outbox row ``outbox_id`` (file name, bytes), or None."""
        row = await self._fetchrow(
            "SELECT filename, data FROM post_pictures WHERE outbox_id = $1", outbox_id
        )
        return None if row is None else (str(row["filename"]), bytes(row["data"]))

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        """Delete ``outbox_id``'s picture and those of every row sent; how many."""

        async def body(tx: Tx) -> int:
            dropped = 0
            if outbox_id is not None:
                dropped += await tx.execute(
                    "DELETE FROM post_pictures WHERE outbox_id = $1", outbox_id
                )
            return dropped + await tx.execute(DROP_SENT)

        return await self._run_write(body)
