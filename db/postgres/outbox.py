"""The outbox: announcements waiting to be delivered, at least once, and the leases under
which several deliverers (processes) share it.

Leases are timed by the SERVER's clock (``now()``, the claiming transaction's start), not by
the processes': deliverers on hosts whose clocks disagree still agree on when a lease ends.

A claim never waits for another. It picks the candidate rows (pending, of a game without a
live lease of another owner, oldest first), then locks them ``FOR UPDATE SKIP LOCKED`` in a
new statement that checks each row's lease again on its latest version: a row another claim
is taking right now is skipped, and so is one leased by a claim that committed in between. A
game's rows are taken from its first pending row on and without a gap (only one claim can
lock that first row, and the other finds it locked or leased and takes none of the game's), so
a game's rows stay with one deliverer, in order, and two claims at once get disjoint rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import asyncpg
import attrs

from db.models import OutboxItem, OutboxRecord, PostRecord
from db.postgres.audit import insert_audit
from db.postgres.base import Conn, PostgresBase, foreign_key_to_not_found
from db.postgres.convert import aware, dumps, utcnow
from db.records import outbox_record as _outbox
from db.sqlite.outbox import check_claim

_OUTBOX_COLUMNS = "id, game_id, turn, kind, payload, sent, created_at, sent_at, message_id"


async def insert_outbox(
    db: Conn,
    game_id: int,
    turn: int,
    items: Sequence[OutboxItem],
    now: dt.datetime,
) -> list[int]:
    """Queue ``items`` inside the caller's transaction (a resolution, a host action...), in
    one statement; ids follow the order given. Each item's audit row goes with it
    (``OutboxItem.audit``)."""
    if not items:
        return []
    for item in items:
        if item.audit is not None:
            spec = item.audit
            args = dumps(dict(spec.args))
            await insert_audit(db, None, game_id, spec.actor_id, spec.command, args, now)
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

    async def last_outbox(
        self, game_id: int, kind: str, turn: int | None = None
    ) -> OutboxRecord | None:
        # outbox_by_kind (kind, game_id): the game's few rows of that kind, newest first.
        of_turn = "" if turn is None else " AND turn = $3"
        rows = await self._read(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE kind = $1 AND game_id = $2{of_turn} "
            "ORDER BY id DESC LIMIT 1",
            (kind, game_id) if turn is None else (kind, game_id, turn),
        )
        return _outbox(rows[0]) if rows else None

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
        params: list[object] = [owner, limit]
        pick = "SELECT o.id, o.game_id FROM outbox o WHERE NOT o.sent"
        if game_id is not None:
            params.append(game_id)
            pick += f" AND o.game_id = ${len(params)}"
        if shard_count is not None:  # Discord's formula on the game's server (core/shards.py)
            params += [shard_count, list(shard_ids)]
            pick += (
                " AND EXISTS (SELECT 1 FROM games g WHERE g.id = o.game_id AND "
                f"(g.guild_id >> 22) % ${len(params) - 1} = ANY(${len(params)}::bigint[]))"
            )
        pick += (
            " AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.game_id = o.game_id AND NOT b.sent "
            "AND b.lease_owner <> $1 AND b.lease_until > now()) ORDER BY o.id LIMIT $2"
        )
        lock = (
            f"SELECT {_OUTBOX_COLUMNS}, lease_owner FROM outbox WHERE id = ANY($1::bigint[]) "
            "AND NOT sent AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until <= now()) "
            "ORDER BY id FOR UPDATE SKIP LOCKED"
        )

        async def body(db: Conn) -> list[OutboxRecord]:
            candidates = await db.fetch(pick, *params)
            if not candidates:
                return []
            locked = {
                int(r["id"]): r
                for r in await db.fetch(lock, [int(c["id"]) for c in candidates], owner)
            }
            kept: list[asyncpg.Record] = []
            gap: set[int] = set()  # games with a row not taken: none of their later rows
            for c in candidates:  # in queue order
                game = int(c["game_id"])
                row = locked.get(int(c["id"]))
                if row is None:
                    gap.add(game)
                elif game not in gap:
                    kept.append(row)
            if kept:
                await db.execute(
                    "UPDATE outbox SET lease_owner = $1, "
                    "lease_until = now() + $2::float8 * interval '1 second' "
                    "WHERE id = ANY($3::bigint[])",
                    owner,
                    lease_seconds,
                    [int(r["id"]) for r in kept],
                )
            return [
                attrs.evolve(_outbox(r), retaken=r["lease_owner"] not in (None, owner))
                for r in kept
            ]

        return await self._write(body)

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        if lease_seconds <= 0:
            raise ValueError(f"bad lease: {lease_seconds} s")

        async def body(db: Conn) -> list[int]:
            rows = await db.fetch(
                "UPDATE outbox SET lease_until = now() + $1::float8 * interval '1 second' "
                "WHERE lease_owner = $2 AND NOT sent RETURNING id",
                lease_seconds,
                owner,
            )
            return sorted(int(r["id"]) for r in rows)

        return await self._write(body)

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        if not slot.endswith("#") or not keep.startswith(slot):
            raise ValueError(f"bad lease slot {slot!r} for owner {keep!r}")

        async def body(db: Conn) -> list[int]:
            rows = await db.fetch(
                "UPDATE outbox SET lease_until = now() - interval '1 second' "
                "WHERE NOT sent AND lease_until > now() AND lease_owner <> $1 "
                "AND left(lease_owner, $2) = $3 RETURNING id",
                keep,
                len(slot),
                slot,
            )
            return sorted(int(r["id"]) for r in rows)

        return await self._write(body)

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        now = utcnow()
        others = [int(i) for i in together if i != outbox_id]

        async def body(db: Conn) -> bool:
            status = await db.execute(
                "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                "lease_until = NULL, message_id = $3 WHERE id = $2 AND NOT sent",
                now,
                outbox_id,
                message_id,
            )
            if others:  # the same transaction: all of them, or none
                await db.execute(
                    "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                    "lease_until = NULL, message_id = $3 WHERE id = ANY($2::bigint[]) "
                    "AND NOT sent",
                    now,
                    others,
                    message_id,
                )
            return status.endswith(" 1")

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
        when = now if at is None else aware(at)  # ValueError for a naive datetime

        async def body(db: Conn) -> int | None:
            status = await db.execute(
                "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                "lease_until = NULL, message_id = $4 WHERE id = $2 AND game_id = $3 AND NOT sent",
                now,
                outbox_id,
                game_id,
                message_id,
            )
            if not status.endswith(" 1"):
                return None
            post_id = await db.fetchval(
                "INSERT INTO posts (game_id, turn, nick, text, ghost, at) "
                "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                game_id,
                turn,
                nick,
                text,
                bool(ghost),
                when,
            )
            return int(post_id)

        post_id = await self._write(body)
        if post_id is None:
            return None
        return PostRecord(post_id, game_id, turn, nick, text, ghost, when)
