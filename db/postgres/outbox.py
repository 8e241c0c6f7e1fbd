"""The outbox: announcements waiting to be delivered, at least once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import asyncpg

from db.models import OutboxItem, OutboxRecord
from db.postgres.base import Conn, PostgresBase, foreign_key_to_not_found
from db.postgres.convert import dumps, loads_dict, opt_utc, utc, utcnow

_OUTBOX_COLUMNS = "id, game_id, turn, kind, payload, sent, created_at, sent_at"


def _outbox(row: asyncpg.Record) -> OutboxRecord:
    return OutboxRecord(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        kind=str(row["kind"]),
        payload=loads_dict(row["payload"]),
        sent=bool(row["sent"]),
        created_at=utc(row["created_at"]),
        sent_at=opt_utc(row["sent_at"]),
    )


async def insert_outbox(
    db: Conn,
    game_id: int,
    turn: int,
    items: Sequence[OutboxItem],
    now: dt.datetime,
) -> list[int]:
    """Queue ``items`` inside the caller's transaction (a resolution, a host action...), in
    one statement; ids follow the order given."""
    if not items:
        return []
    payloads = [dumps(dict(item.payload)) for item in items]
    try:
        rows = await db.fetch(
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) "
            "SELECT $1, $2, k, p::json, FALSE, $3 "
            "FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS i (k, p, n) "
            "ORDER BY n RETURNING id",
            game_id,
            turn,
            now,
            [item.kind for item in items],
            payloads,
        )
    except asyncpg.ForeignKeyViolationError as e:
        foreign_key_to_not_found(e, game_id)
        raise
    return sorted(int(r["id"]) for r in rows)


class OutboxMixin(PostgresBase):
    """:class:`db.interface.Outbox` on PostgreSQL. ``id`` (an identity) is the queue order:
    the writes of a process go one at a time, so its ids increase with insertion."""

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        now = utcnow()

        async def body(db: Conn) -> list[int]:
            return await insert_outbox(db, game_id, turn, items, now)

        return await self._write(body)

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        if game_id is None:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE NOT sent ORDER BY id"
            )
        else:
            rows = await self._read(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = $1 AND NOT sent ORDER BY id",
                (game_id,),
            )
        return [_outbox(r) for r in rows]

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = $1 ORDER BY id", (game_id,)
        )
        return [_outbox(r) for r in rows]

    async def mark_sent(self, outbox_id: int) -> bool:
        now = utcnow()

        async def body(db: Conn) -> bool:
            status = await db.execute(
                "UPDATE outbox SET sent = TRUE, sent_at = $1 WHERE id = $2 AND NOT sent",
                now,
                outbox_id,
            )
            return status.endswith(" 1")

        return await self._write(body)
