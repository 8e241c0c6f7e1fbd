"""The outbox: announcements waiting to be delivered, at least once."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import aiosqlite

from db.models import OutboxItem, OutboxRecord
from db.sqlite.base import SQLiteBase, foreign_key_to_not_found
from db.sqlite.convert import dumps, from_db_time, loads_dict, opt_time, to_db_time, utcnow

_OUTBOX_COLUMNS = "id, game_id, turn, kind, payload, sent, created_at, sent_at"


def _outbox(row: sqlite3.Row) -> OutboxRecord:
    return OutboxRecord(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        kind=str(row["kind"]),
        payload=loads_dict(row["payload"]),
        sent=bool(row["sent"]),
        created_at=from_db_time(row["created_at"]),
        sent_at=opt_time(row["sent_at"]),
    )


async def insert_outbox(
    db: aiosqlite.Connection,
    game_id: int,
    turn: int,
    items: Sequence[OutboxItem],
    now: str,
) -> list[int]:
    """Queue ``items`` inside the caller's transaction (a resolution, a host action...)."""
    ids = []
    for item in items:
        try:
            rows = list(
                await db.execute_fetchall(
                    "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) "
                    "VALUES (?, ?, ?, ?, 0, ?) RETURNING id",
                    (game_id, turn, item.kind, dumps(dict(item.payload)), now),
                )
            )
        except sqlite3.IntegrityError as e:
            foreign_key_to_not_found(e, game_id)
            raise
        ids.append(int(rows[0]["id"]))
    return ids


class OutboxMixin(SQLiteBase):
    """:class:`db.interface.Outbox` on SQLite. ``id`` (AUTOINCREMENT) is the queue order."""

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> list[int]:
            return await insert_outbox(db, game_id, turn, items, now)

        return await self._write(body)

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        if game_id is None:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE sent = 0 ORDER BY id"
            )
        else:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? AND sent = 0 ORDER BY id",
                (game_id,),
            )
        return [_outbox(r) for r in rows]

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_outbox(r) for r in rows]

    async def mark_sent(self, outbox_id: int) -> bool:
        now = to_db_time(utcnow())

        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "UPDATE outbox SET sent = 1, sent_at = ? WHERE id = ? AND sent = 0",
                (now, outbox_id),
            )
            return cur.rowcount > 0

        return await self._write(body)
