"""The outbox: announcements waiting to be delivered, at least once."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence

import aiosqlite
import attrs

from db.models import OutboxItem, OutboxRecord, PostRecord
from db.records import outbox_record as _outbox
from db.sqlite.audit import insert_audit
from db.sqlite.base import SQLiteBase, foreign_key_to_not_found
from db.sqlite.convert import dumps, from_db_time, to_db_time, utcnow

_OUTBOX_COLUMNS = "id, game_id, turn, kind, payload, sent, created_at, sent_at, message_id"


def check_claim(
    owner: str,
    limit: int,
    lease_seconds: float,
    shard_count: int | None,
    shard_ids: Sequence[int],
) -> None:
    """``ValueError`` for the arguments of a claim no store accepts (both engines)."""
    if not owner:
        raise ValueError("a claim needs an owner")
    if limit < 1 or lease_seconds <= 0:
        raise ValueError(f"bad claim: limit {limit}, lease {lease_seconds} s")
    if shard_count is None:
        if shard_ids:
            raise ValueError("shard ids need a shard count")
    elif shard_count < 1 or not shard_ids or any(not 0 <= i < shard_count for i in shard_ids):
        raise ValueError(f"bad shards: {list(shard_ids)} of {shard_count}")


async def insert_outbox(
    db: aiosqlite.Connection,
    game_id: int,
    turn: int,
    items: Sequence[OutboxItem],
    now: str,
) -> list[int]:
    """Queue ``items`` inside the caller's transaction (a resolution, a host action...), each
    item's audit row with it (``OutboxItem.audit``)."""
    ids = []
    for item in items:
        if item.audit is not None:
            spec = item.audit
            args = dumps(dict(spec.args))
            await insert_audit(
                db, None, game_id, spec.actor_id, spec.command, args, from_db_time(now)
            )
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

    async def last_outbox(
        self, game_id: int, kind: str, turn: int | None = None
    ) -> OutboxRecord | None:
        # outbox_by_kind (kind, game_id) holds the rowid too: the newest rows come first.
        of_turn = "" if turn is None else " AND turn = ?"
        row = await self._read_one(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE kind = ? AND game_id = ?{of_turn} "
            "ORDER BY id DESC LIMIT 1",
            (kind, game_id) if turn is None else (kind, game_id, turn),
        )
        return None if row is None else _outbox(row)

    async def claim_outbox(
        self,
        owner: str,
        *,
        game_id: int | None = None,
        limit: int = 100,
        lease_seconds: float = 60.0,
        shard_count: int | None = None,
        shard_ids: Sequence[int] = (),
    ) -> list[OutboxRecord]:
        check_claim(owner, limit, lease_seconds, shard_count, shard_ids)
        now = utcnow()
        stamp = to_db_time(now)
        until = to_db_time(now + dt.timedelta(seconds=lease_seconds))
        # Times are ISO text of one width: they compare as text. A game with a live lease
        # of another owner on a pending row is skipped whole (its order is that owner's).
        # Chosen, then leased, in one write transaction (SQLite: nobody writes in between).
        shards = ""
        if shard_count is not None:  # Discord's formula on the game's server (core/shards.py)
            marks = ", ".join("?" * len(shard_ids))
            shards = (
                " AND o.game_id IN (SELECT g.id FROM games g "
                f"WHERE (g.guild_id >> 22) % ? IN ({marks}))"
            )
        pick = (
            f"SELECT {_OUTBOX_COLUMNS}, lease_owner FROM outbox o WHERE o.sent = 0"
            + ("" if game_id is None else " AND o.game_id = ?")
            + shards
            + " AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.game_id = o.game_id "
            "AND b.sent = 0 AND b.lease_owner <> ? AND b.lease_until > ?) "
            "ORDER BY o.id LIMIT ?"
        )
        params: list[object] = [] if game_id is None else [game_id]
        if shard_count is not None:
            params += [shard_count, *shard_ids]
        params += [owner, stamp, limit]

        def body(conn: sqlite3.Connection) -> list[OutboxRecord]:
            rows = conn.execute(pick, params).fetchall()
            conn.executemany(
                "UPDATE outbox SET lease_owner = ?, lease_until = ? WHERE id = ?",
                [(owner, until, r["id"]) for r in rows],
            )
            return [
                attrs.evolve(_outbox(r), retaken=r["lease_owner"] not in (None, owner))
                for r in rows
            ]

        return await self._write_at_once(body)

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        if lease_seconds <= 0:
            raise ValueError(f"bad lease: {lease_seconds} s")
        until = to_db_time(utcnow() + dt.timedelta(seconds=lease_seconds))

        def body(conn: sqlite3.Connection) -> list[int]:
            rows = conn.execute(
                "UPDATE outbox SET lease_until = ? WHERE lease_owner = ? AND sent = 0 RETURNING id",
                (until, owner),
            ).fetchall()
            return sorted(int(r["id"]) for r in rows)

        return await self._write_at_once(body)

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        if not slot.endswith("#") or not keep.startswith(slot):
            raise ValueError(f"bad lease slot {slot!r} for owner {keep!r}")
        now = utcnow()
        stamp, past = to_db_time(now), to_db_time(now - dt.timedelta(seconds=1))

        def body(conn: sqlite3.Connection) -> list[int]:
            rows = conn.execute(
                "UPDATE outbox SET lease_until = ? WHERE sent = 0 AND lease_until > ? "
                "AND lease_owner <> ? AND substr(lease_owner, 1, ?) = ? RETURNING id",
                (past, stamp, keep, len(slot), slot),
            ).fetchall()
            return sorted(int(r["id"]) for r in rows)

        return await self._write_at_once(body)

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        now = to_db_time(utcnow())
        others = [int(i) for i in together if i != outbox_id]

        async def body(db: aiosqlite.Connection) -> bool:
            cur = await db.execute(
                "UPDATE outbox SET sent = 1, sent_at = ?, lease_owner = NULL, "
                "lease_until = NULL, message_id = ? WHERE id = ? AND sent = 0",
                (now, message_id, outbox_id),
            )
            marked = cur.rowcount > 0
            if others:  # the same transaction: all of them, or none
                await db.execute(
                    "UPDATE outbox SET sent = 1, sent_at = ?, lease_owner = NULL, "
                    "lease_until = NULL, message_id = ? WHERE sent = 0 AND id IN "
                    f"({', '.join('?' * len(others))})",
                    (now, message_id, *others),
                )
            return marked

        return await self._write(body)

    async def publish_post(
        self,
        outbox_id: int,
        game_id: int,
        turn: int,
        nick: str,
        text: str,
        *,
        ghost: bool = False,
        at: dt.datetime | None = None,
        message_id: int | None = None,
    ) -> PostRecord | None:
        if turn < 0:
            raise ValueError(f"turn must be at least 0, got {turn}")
        now = utcnow()
        stamp = to_db_time(now if at is None else at)  # ValueError for a naive datetime
        sent_at = to_db_time(now)

        def body(conn: sqlite3.Connection) -> int | None:
            marked = conn.execute(
                "UPDATE outbox SET sent = 1, sent_at = ?, lease_owner = NULL, "
                "lease_until = NULL, message_id = ? WHERE id = ? AND game_id = ? AND sent = 0",
                (sent_at, message_id, outbox_id, game_id),
            )
            if marked.rowcount == 0:
                return None
            rows = conn.execute(
                "INSERT INTO posts (game_id, turn, nick, text, ghost, at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (game_id, turn, nick, text, int(ghost), stamp),
            ).fetchall()
            return int(rows[0]["id"])

        post_id = await self._write_at_once(body)
        if post_id is None:
            return None
        return PostRecord(post_id, game_id, turn, nick, text, ghost, from_db_time(stamp))
