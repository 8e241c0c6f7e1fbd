"""The host's review of a turn's results (``/mafia new review``) on SQLite: the pending drafts,
the host's story, publication exactly once. See :class:`db.interface.Reviews`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import aiosqlite

from db.models import OutboxItem, ReviewRecord
from db.sqlite.base import SQLiteBase
from db.sqlite.convert import loads_dict, opt_db_time, to_db_time, utcnow
from db.sqlite.outbox import insert_outbox

#: Every draft whose review row is not published (the drafts are found by the outbox's
#: ``outbox_by_kind`` index).
PENDING_REVIEWS = (
    "SELECT o.game_id, g.guild_id, o.turn, o.payload, r.story FROM outbox o "
    "JOIN games g ON g.id = o.game_id "
    "LEFT JOIN reviews r ON r.game_id = o.game_id AND r.turn = o.turn "
    "WHERE o.kind = 'review_draft' AND r.published_at IS NULL ORDER BY o.id"
)


class ReviewsMixin(SQLiteBase):
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
        async def body(db: aiosqlite.Connection) -> bool:
            if await _published(db, game_id, turn):
                return False
            await db.execute(
                "INSERT INTO reviews (game_id, turn, story) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET story = excluded.story",
                (game_id, turn, story),
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
        now = to_db_time(utcnow())
        stamp = to_db_time(at)
        deadline_text = opt_db_time(deadline)

        async def body(db: aiosqlite.Connection) -> bool:
            if await _published(db, game_id, turn):
                return False  # once only: another click or the clock published it
            await db.execute(
                "INSERT INTO reviews (game_id, turn, published_at) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET published_at = excluded.published_at",
                (game_id, turn, stamp),
            )
            await insert_outbox(db, game_id, outbox_turn, items, now)
            if deadline_text is not None:
                await db.execute(
                    "UPDATE games SET deadline = ?, updated_at = ? "
                    "WHERE id = ? AND status = 'running'",
                    (deadline_text, now, game_id),
                )
            return True

        return await self._write(body)


async def _published(db: aiosqlite.Connection, game_id: int, turn: int) -> bool:
    rows = list(
        await db.execute_fetchall(
            "SELECT published_at FROM reviews WHERE game_id = ? AND turn = ?", (game_id, turn)
        )
    )
    return bool(rows) and rows[0]["published_at"] is not None
