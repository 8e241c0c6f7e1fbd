"""The host's review of a turn's results (``/mafia new review``) on PostgreSQL. See
:class:`db.interface.Reviews` and ``db/sqlite/reviews.py``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from db.models import OutboxItem, ReviewRecord
from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import aware, loads_dict, opt_aware, utcnow
from db.postgres.outbox import insert_outbox
from db.sqlite.reviews import PENDING_REVIEWS


class ReviewsMixin(PostgresBase):
    async def pending_reviews(self, game_id: int | None = None) -> list[ReviewRecord]:
        rows = await self._read(PENDING_REVIEWS)
        return [
            ReviewRecord(
                game_id=int(r["game_id"]),
                guild_id=int(r["guild_id"]),
                turn=int(r["turn"]),
                draft=dict(loads_dict(r["payload"]).get("payload") or {}),
                story=r["story"],
            )
            for r in rows
            if game_id is None or int(r["game_id"]) == game_id
        ]

    async def set_review_story(self, game_id: int, turn: int, story: str) -> bool:
        async def body(db: Conn) -> bool:
            if await _published(db, game_id, turn, lock=True):
                return False
            await db.execute(
                "INSERT INTO reviews (game_id, turn, story) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET story = excluded.story",
                game_id,
                turn,
                story,
            )
            return True

        return await self._write(body)

    async def publish_review(
        self,
        game_id: int,
        turn: int,
        outbox_turn: int,
        items: Sequence[OutboxItem],
        deadline: dt.datetime | None,
        at: dt.datetime,
    ) -> bool:
        now = utcnow()
        stamp = aware(at)
        when = opt_aware(deadline)

        async def body(db: Conn) -> bool:
            if await _published(db, game_id, turn, lock=True):
                return False  # once only: another click or the clock published it
            # Two processes at once: the row's key serialises them; the loser's insert
            # waits, then finds it published (ON CONFLICT ... WHERE).
            done = await db.fetchval(
                "INSERT INTO reviews (game_id, turn, published_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET published_at = excluded.published_at "
                "WHERE reviews.published_at IS NULL RETURNING 1",
                game_id,
                turn,
                stamp,
            )
            if done is None:
                return False
            await insert_outbox(db, game_id, outbox_turn, items, now)
            if when is not None:
                await db.execute(
                    "UPDATE games SET deadline = $1, updated_at = $2 "
                    "WHERE id = $3 AND status = 'running'",
                    when,
                    now,
                    game_id,
                )
            return True

        return await self._write(body)


async def _published(db: Conn, game_id: int, turn: int, *, lock: bool = False) -> bool:
    sql = "SELECT published_at FROM reviews WHERE game_id = $1 AND turn = $2"
    row = await db.fetchrow(sql + (" FOR UPDATE" if lock else ""), game_id, turn)
    return row is not None and row["published_at"] is not None
