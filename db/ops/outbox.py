"""The outbox: announcements waiting to be delivered, at least once, and the leases under
which several deliverers (processes) share it.

Leases are timed by the lease clock (:meth:`db.dialect.Dialect.lease_clock`): the database
server's on PostgreSQL (``now()``, the claiming transaction's start: deliverers on hosts whose
clocks disagree still agree on when a lease ends), the machine's on SQLite (one host: every
process on it shares it). A lease coordinates processes, whose game clocks are each their own
(injectable): it is never a game's time, and no game decision reads it. Every other time the
outbox keeps (a row's ``created_at``, ``sent_at``, a post's ``at``) is the store's clock (the
game's, bound by the service) on both engines.

A claim never waits for another. It picks the candidate rows (pending, of a game without a
live lease of another owner, oldest first). On SQLite that is the claim (one writer at a time:
nobody writes in between). On PostgreSQL it then locks them ``FOR UPDATE SKIP LOCKED`` in a
new statement that checks each row's lease again on its latest version: a row another claim is
taking right now is skipped, and so is one leased by a claim that committed in between. A
game's rows are taken from its first pending row on and without a gap (only one claim can lock
that first row, and the other finds it locked or leased and takes none of the game's), so a
game's rows stay with one deliverer, in order, and two claims at once get disjoint rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import attrs

from db.convert import dumps, stored_time
from db.errors import ForeignKeyViolation, NotFound
from db.models import OutboxItem, OutboxRecord, PostRecord
from db.ops.audit import insert_audit
from db.records import columns
from db.records import outbox_record as _outbox
from db.tx import Engine, Row, Tx

_OUTBOX_COLUMNS = columns(OutboxRecord, "retaken")


def check_claim(
    owner: str,
    limit: int,
    lease_seconds: float,
    shard_count: int | None,
    shard_ids: Sequence[int],
) -> None:
    """``ValueError`` for the arguments of a claim no store accepts."""
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
    tx: Tx,
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
            await insert_audit(tx, None, game_id, spec.actor_id, spec.command, args, now)
    values = ", ".join(
        f"($1, $2, ${4 + 2 * i}, ${5 + 2 * i}, FALSE, $3)" for i in range(len(items))
    )
    args_list: list[object] = [game_id, turn, tx.dialect.time(now)]
    for item in items:
        args_list += [item.kind, dumps(dict(item.payload))]
    try:
        rows = await tx.fetch(
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at) "
            f"VALUES {values} RETURNING id",
            *args_list,
        )
    except ForeignKeyViolation as e:
        raise NotFound(f"no game {game_id}") from e
    return sorted(int(r["id"]) for r in rows)


class OutboxOps(Engine):
    """Announcements to deliver, queued in the transaction of what caused them.

    At least once: a row stays pending until :meth:`mark_sent`. Queue order is insertion order:
    ``id`` (SQLite: AUTOINCREMENT; PostgreSQL: an identity, and the writes of a process go one
    at a time, so its ids increase with insertion). Deliverers (processes) share it through
    leases (:meth:`claim_outbox`); a dead one's rows are claimed again once their leases
    expire."""

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        """Queue announcements on their own (the host's narrative, R47), in one transaction;
        their ids, in the order given. ``NotFound`` if there is no such game."""
        now = self._now()

        async def body(tx: Tx) -> list[int]:
            return await insert_outbox(tx, game_id, turn, items, now)

        return await self._run_write(body)

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        """Announcements not yet marked sent, in queue order (of one game, or of all games)."""
        unsent = self.dialect.unsent("sent")
        if game_id is None:
            rows = await self._fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE {unsent} ORDER BY id"
            )
        else:
            rows = await self._fetch(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = $1 AND {unsent} ORDER BY id",
                game_id,
            )
        return [_outbox(r) for r in rows]

    async def outbox_backlog(self) -> tuple[int, dt.datetime | None]:
        """How many announcements wait (every game's), and when the oldest was queued."""
        row = await self._fetchrow(
            f"SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox "
            f"WHERE {self.dialect.unsent('sent')}"
        )
        if row is None or not row["n"]:
            return 0, None
        return int(row["n"]), stored_time(row["oldest"])

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        """Every announcement of a game, sent or not, in queue order."""
        rows = await self._fetch(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id = $1 ORDER BY id", game_id
        )
        return [_outbox(r) for r in rows]

    async def last_outbox(
        self, game_id: int, kind: str, turn: int | None = None
    ) -> OutboxRecord | None:
        """The game's latest announcement of ``kind`` (of ``turn`` if given), sent or not."""
        # outbox_by_kind (kind, game_id): the game's few rows of that kind, newest first.
        of_turn = "" if turn is None else " AND turn = $3"
        row = await self._fetchrow(
            f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE kind = $1 AND game_id = $2{of_turn} "
            "ORDER BY id DESC LIMIT 1",
            *((kind, game_id) if turn is None else (kind, game_id, turn)),
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
        """Lease at most ``limit`` pending rows, oldest first, to ``owner`` for
        ``lease_seconds``, in ONE transaction (with ``shard_count``/``shard_ids``: only those
        of servers on these shards, ``core/shards.py``). A row with a live lease of another
        owner is not claimable, nor is any row of its game (one deliverer per game keeps its
        order); two claims never return the same row while its lease lives."""
        check_claim(owner, limit, lease_seconds, shard_count, shard_ids)
        d = self.dialect
        now = self._lease_now()
        clock = d.lease_arg(now, 0.0)
        until = d.lease_arg(now, lease_seconds)
        params: list[object] = [owner, limit, clock]
        pick = f"SELECT {_OUTBOX_COLUMNS}, lease_owner FROM outbox o WHERE {d.unsent('o.sent')}"
        if game_id is not None:
            params.append(game_id)
            pick += f" AND o.game_id = ${len(params)}"
        if shard_count is not None:  # Discord's formula on the game's server (core/shards.py)
            params += [shard_count, d.ids(shard_ids)]
            pick += (
                " AND EXISTS (SELECT 1 FROM games g WHERE g.id = o.game_id AND "
                f"(g.guild_id >> 22) % ${len(params) - 1} {d.in_ids(f'${len(params)}')})"
            )
        # A game with a live lease of another owner on a pending row is skipped whole (its
        # order is that owner's).
        pick += (
            f" AND NOT EXISTS (SELECT 1 FROM outbox b WHERE b.game_id = o.game_id AND "
            f"{d.unsent('b.sent')} AND b.lease_owner <> $1 AND b.lease_until > "
            f"{d.lease_clock('$3')}) ORDER BY o.id LIMIT $2"
        )
        lock = (
            f"SELECT {_OUTBOX_COLUMNS}, lease_owner FROM outbox WHERE id {d.in_ids('$1')} "
            f"AND {d.unsent('sent')} AND (lease_owner IS NULL OR lease_owner = $2 "
            f"OR lease_until <= {d.lease_clock('$3')}) ORDER BY id FOR UPDATE SKIP LOCKED"
        )

        async def body(tx: Tx) -> list[OutboxRecord]:
            candidates = await tx.fetch(pick, *params)
            if not candidates:
                return []
            kept: list[Row] = candidates
            if tx.dialect.row_locks:  # PostgreSQL: another process may be claiming them
                ids = tx.dialect.ids([int(c["id"]) for c in candidates])
                locked = {int(r["id"]): r for r in await tx.fetch(lock, ids, owner, clock)}
                kept = []
                gap: set[int] = set()  # games with a row not taken: none of their later rows
                for c in candidates:  # in queue order
                    game = int(c["game_id"])
                    row = locked.get(int(c["id"]))
                    if row is None:
                        gap.add(game)
                    elif game not in gap:
                        kept.append(row)
            if kept:
                await tx.execute(
                    f"UPDATE outbox SET lease_owner = $1, lease_until = {d.lease_clock('$2')} "
                    f"WHERE id {d.in_ids('$3')}",
                    owner,
                    until,
                    tx.dialect.ids([int(r["id"]) for r in kept]),
                )
            return [
                attrs.evolve(_outbox(r), retaken=r["lease_owner"] not in (None, owner))
                for r in kept
            ]

        return await self._run_write(body)

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        """Extend every lease ``owner`` holds on a pending row; the ids of those rows (one
        missing was taken over, or sent)."""
        if lease_seconds <= 0:
            raise ValueError(f"bad lease: {lease_seconds} s")
        d = self.dialect
        until = d.lease_arg(self._lease_now(), lease_seconds)

        async def body(tx: Tx) -> list[Row]:
            return await tx.fetch(
                f"UPDATE outbox SET lease_until = {d.lease_clock('$1')} "
                f"WHERE lease_owner = $2 AND {d.unsent('sent')} RETURNING id",
                until,
                owner,
            )

        return sorted(int(r["id"]) for r in await self._run_write(body))

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        """End every live lease of an owner whose id starts with ``slot``, except ``keep``'s:
        those of an earlier, killed run of this process. Its rows are claimable at once, as
        taken over (``retaken``); their ids."""
        if not slot.endswith("#") or not keep.startswith(slot):
            raise ValueError(f"bad lease slot {slot!r} for owner {keep!r}")
        d = self.dialect
        now = self._lease_now()
        past, clock = d.lease_arg(now, -1.0), d.lease_arg(now, 0.0)

        async def body(tx: Tx) -> list[Row]:
            return await tx.fetch(
                f"UPDATE outbox SET lease_until = {d.lease_clock('$1')} "
                f"WHERE {d.unsent('sent')} AND lease_until > {d.lease_clock('$2')} "
                "AND lease_owner <> $3 AND substr(lease_owner, 1, $4) = $5 RETURNING id",
                past,
                clock,
                keep,
                len(slot),
                slot,
            )

        return sorted(int(r["id"]) for r in await self._run_write(body))

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        """Mark a row delivered (whoever holds its lease), with the last message it posted;
        True once. ``together``: the rows sent in the same messages, marked in the same write."""
        d = self.dialect
        now = d.time(self._now())
        others = [int(i) for i in together if i != outbox_id]

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                f"lease_until = NULL, message_id = $2 WHERE id = $3 AND {d.unsent('sent')}",
                now,
                message_id,
                outbox_id,
            )
            if others:  # the same transaction: all of them, or none
                await tx.execute(
                    "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                    f"lease_until = NULL, message_id = $2 WHERE {d.unsent('sent')} "
                    f"AND id {d.in_ids('$3')}",
                    now,
                    message_id,
                    d.ids(others),
                )
            return changed > 0

        return await self._run_write(body)

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
        """A queued post was shown in #game: archive it and mark its row sent, in ONE
        transaction; None, writing nothing, if the row was marked sent already."""
        if turn < 0:
            raise ValueError(f"turn must be at least 0, got {turn}")
        d = self.dialect
        now = self._now()
        when = now if at is None else at
        stamp = d.time(when)  # ValueError for a naive datetime
        sent_at = d.time(now)

        async def body(tx: Tx) -> int | None:
            marked = await tx.execute(
                "UPDATE outbox SET sent = TRUE, sent_at = $1, lease_owner = NULL, "
                "lease_until = NULL, message_id = $2 WHERE id = $3 AND game_id = $4 "
                f"AND {d.unsent('sent')}",
                sent_at,
                message_id,
                outbox_id,
                game_id,
            )
            if marked == 0:
                return None
            post_id = await tx.fetchval(
                "INSERT INTO posts (game_id, turn, nick, text, ghost, at) "
                "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                game_id,
                turn,
                nick,
                text,
                bool(ghost),
                stamp,
            )
            return int(post_id)

        post_id = await self._run_write(body)
        if post_id is None:
            return None
        return PostRecord(post_id, game_id, turn, nick, text, ghost, stored(when))


def stored(when: dt.datetime) -> dt.datetime:
    """A time as it reads back from either engine: UTC, to the microsecond."""
    return when.astimezone(dt.UTC)
