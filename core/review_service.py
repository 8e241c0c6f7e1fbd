"""The host's review of a turn's results before they are published (``core/review.py``: the
drafts, held in the store): the story, and the publication, once. Part of
:class:`core.service.GameService`.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

import attrs

from core.review import MAX_STORY, held_items
from core.service_base import ServiceBase, ServiceError, items
from db.models import ReviewRecord
from rules.announce import turn_open_announcement
from rules.schedule import next_deadline
from rules.text import is_blank


class ReviewService(ServiceBase):
    """The drafts awaiting review (``reviews``) and their publication."""

    def pending_review(self, game_id: int, turn: int) -> ReviewRecord:
        review = self.reviews.get((game_id, turn))
        if review is None:
            raise ServiceError("error.review_published")
        return review

    async def set_story(self, game_id: int, turn: int, story: str) -> None:
        """The host's story of a pending draft (shown above the results when published);
        editable until then."""
        review = self.pending_review(game_id, turn)
        if is_blank(story) or len(story) > MAX_STORY:
            raise ServiceError("error.empty_text")
        if not await self.store.set_review_story(game_id, turn, story):
            self.reviews.pop((game_id, turn), None)
            raise ServiceError("error.review_published")
        self.reviews[(game_id, turn)] = attrs.evolve(review, story=story)
        live = self.live.get(game_id)
        if live is not None and live.review is not None and live.review.turn == turn:
            live.review = self.reviews[(game_id, turn)]

    async def publish(self, game_id: int, turn: int, *, if_due: bool = False) -> bool:
        """Publish a pending draft (the host's button, or the review clock with ``if_due``
        once its time is over): the story, the held results and the next turn's opening,
        its deadline counted from now, in one transaction and exactly once. False: it was
        published already (another click, the clock, another process), or is not due."""
        review = self.reviews.get((game_id, turn))
        if review is None:
            return False
        game = self.live.get(game_id)
        lock = game.lock if game is not None else asyncio.Lock()
        async with lock:
            review = self.reviews.get((game_id, turn))
            if review is None:
                return False
            now = self.clock()
            if if_due and datetime.fromisoformat(str(review.draft["until"])) > now:
                return False
            stored = await self.store.pending_reviews(game_id)
            current = next((r for r in stored if r.turn == turn), None)
            queued = held_items(review, current.story if current is not None else review.story)
            deadline: datetime | None = None
            next_turn = turn
            if game is not None and self.live.get(game_id) is game and game.review is not None:
                deadline = next_deadline(game.schedule, now, now)
                next_turn = game.engine.turn
                opening = turn_open_announcement(game.engine.state, next_turn, deadline.isoformat())
                queued.extend(items([opening]))
            done = current is not None and await self.store.publish_review(
                game_id, turn, next_turn, queued, deadline, now
            )
            self.reviews.pop((game_id, turn), None)
            if game is not None:
                game.review = None
                if done and self.live.get(game_id) is game:
                    game.record = await self.store.require_game(game_id)
                elif not done:
                    await self._refresh(game)
            return bool(done)
