"""The host's review of a turn's results (``/mafia new review``): the pending drafts, the
host's story, publication exactly once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from db.convert import loads_dict, opt_stored_time
from db.models import OutboxItem, ReviewRecord
from db.ops.outbox import insert_outbox
from db.tx import Engine, Tx

#: Every draft whose review row is not published (the drafts are found by the outbox's
#: ``outbox_by_kind`` index).
PENDING_REVIEWS = (
    "SELECT o.game_id, g.guild_id, o.turn, o.payload, r.story FROM outbox o "
    "JOIN games g ON g.id = o.game_id "
    "LEFT JOIN reviews r ON r.game_id = o.game_id AND r.turn = o.turn "
    "WHERE o.kind = 'review_draft' AND r.published_at IS NULL ORDER BY o.id"
)


async def _published(tx: Tx, game_id: int, turn: int) -> bool:
    """Whether the turn's review is published; its row locked where the engine locks rows."""
    row = await tx.fetchrow(
        "SELECT published_at FROM reviews WHERE game_id = $1 AND turn = $2" + tx.dialect.for_update,
        game_id,
        turn,
    )
    return row is not None and row["published_at"] is not None


class ReviewsOps(Engine):
    """The host's review of a turn's results (``core/review.py``): the draft is the #host row
    of kind ``review_draft`` the resolution queued; its held results are published once."""

    async def pending_reviews(self, game_id: int | None = None) -> list[ReviewRecord]:
        """Every draft not yet published, oldest first, with the host's story so far."""
        rows = await self._fetch(PENDING_REVIEWS)
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

    async def review_published_at(self, game_id: int, turn: int) -> dt.datetime | None:
        """When the results of ``turn`` were published (the next turn opened then, R59), if
        they were reviewed and are out; None otherwise."""
        row = await self._fetchrow(
            "SELECT published_at FROM reviews WHERE game_id = $1 AND turn = $2", game_id, turn
        )
        return None if row is None else opt_stored_time(row["published_at"])

    async def set_review_story(self, game_id: int, turn: int, story: str) -> bool:
        """Keep the host's story of ``turn``'s draft; False once it is published."""

        async def body(tx: Tx) -> bool:
            if await _published(tx, game_id, turn):
                return False
            await tx.execute(
                "INSERT INTO reviews (game_id, turn, story) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET story = excluded.story",
                game_id,
                turn,
                story,
            )
            return True

        return await self._run_write(body)

    async def publish_review(
        self,
        game_id: int,
        turn: int,
        outbox_turn: int,
        items: Sequence[OutboxItem],
        deadline: dt.datetime | None,
        at: dt.datetime,
    ) -> bool:
        """Publish ``turn``'s draft once, in ONE transaction: mark it, queue ``items`` under
        ``outbox_turn``, set the deadline (None: leave it). False if published already."""
        d = self.dialect
        now = self._now()
        stamp = d.time(at)
        when = d.opt_time(deadline)

        async def body(tx: Tx) -> bool:
            if await _published(tx, game_id, turn):
                return False  # once only: another click or the clock published it
            # Two processes at once (PostgreSQL): the row's key serialises them; the loser's
            # insert waits, then finds it published (ON CONFLICT ... WHERE).
            done = await tx.fetchval(
                "INSERT INTO reviews (game_id, turn, published_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET published_at = excluded.published_at "
                "WHERE reviews.published_at IS NULL RETURNING 1",
                game_id,
                turn,
                stamp,
            )
            if done is None:
                return False
            await insert_outbox(tx, game_id, outbox_turn, items, now)
            if when is not None:
                await tx.execute(
                    "UPDATE games SET deadline = $1, paused = FALSE, paused_remaining = NULL, "
                    "updated_at = $2 WHERE id = $3 AND status = 'running'",
                    when,
                    d.time(now),
                    game_id,
                )
            return True

        return await self._run_write(body)
