"""What became of a row (``MARKED``: delivered and marked sent by its own delivery), and of a
player's post, for its author's answer (:class:`PostWaits`): shown in #game, refused for good
(the bot cannot post under nicknames there), or not shown yet (Discord fails: it stays queued
and goes out with the retries, once; the author hears what became of it then).
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

log = logging.getLogger(__name__)


class Done(enum.Enum):
    MARKED = "marked"


#: A row delivered and marked sent already (a post: archived and marked in one write).
MARKED: Final = Done.MARKED

#: The outcome of a player's post (:meth:`PostWaits.publish`).
POST_SHOWN: Final[str] = "shown"
POST_NO_WEBHOOK: Final[str] = "no_webhook"
POST_FAILING: Final[str] = "failing"
#: How long the author's answer waits for each attempt to show his post.
POST_WAIT_SECONDS: Final[float] = 20.0
#: How many outcomes of posts delivered while nobody waited are kept for a late waiter.
POST_RESULTS_KEPT: Final[int] = 1000


class PostWaits:
    """The authors waiting for their posts (``bot/delivery/player_posts.py`` says what became
    of each); ``deliver_game`` delivers a game's pending rows."""

    def __init__(self, deliver_game: Callable[[int], Coroutine[Any, Any, int]]) -> None:
        self._deliver_game = deliver_game
        #: Posts whose author waits for the outcome (:meth:`publish`), by outbox row.
        self._waiters: dict[int, asyncio.Future[str]] = {}
        self._results: dict[int, str] = {}  # what became of posts nobody waited for
        #: Posts whose author was told they wait: how to tell him what became of them.
        self._late_answers: dict[int, Callable[[str], Awaitable[object]]] = {}

    async def publish(
        self,
        game_id: int,
        row_id: int,
        *,
        later: Callable[[str], Awaitable[object]] | None = None,
    ) -> str:
        """Deliver the game's pending rows until the post of outbox row ``row_id`` (queued by
        ``GameService.queue_post``) is shown or refused, for the author's answer: at most two
        attempts (the second reads #game first, so a post whose answer was lost is found and
        not sent again), each waited for at most :data:`POST_WAIT_SECONDS`. Returns
        :data:`POST_SHOWN`, :data:`POST_NO_WEBHOOK`, or :data:`POST_FAILING` (it waits in the
        outbox and goes out with the retries, in #game's order; ``later`` is then called with
        what became of it once it is known, so the author hears that too)."""
        outcome = await self._publish(game_id, row_id)
        if outcome == POST_FAILING and later is not None:
            late = self._results.pop(row_id, None)  # decided in between
            if late is not None:
                return late
            self._late_answers[row_id] = later
            while len(self._late_answers) > POST_RESULTS_KEPT:
                del self._late_answers[next(iter(self._late_answers))]
        return outcome

    async def _publish(self, game_id: int, row_id: int) -> str:
        loop = asyncio.get_running_loop()
        for _attempt in range(2):
            waiter: asyncio.Future[str] = loop.create_future()
            self._waiters[row_id] = waiter
            try:
                attempt = loop.create_task(self._deliver_game(game_id), name=f"post-{row_id}")
                attempt.add_done_callback(log_failure)
                either: set[asyncio.Future[Any]] = {attempt, waiter}
                first = asyncio.FIRST_COMPLETED
                await asyncio.wait(either, timeout=POST_WAIT_SECONDS, return_when=first)
            finally:
                self._waiters.pop(row_id, None)
            outcome = waiter.result() if waiter.done() else self._results.pop(row_id, None)
            if outcome in (POST_SHOWN, POST_NO_WEBHOOK):
                return outcome
            if not attempt.done():  # this pass goes on: wait for it before trying again
                await asyncio.wait({attempt}, timeout=POST_WAIT_SECONDS)
                outcome = self._results.pop(row_id, None)
                if outcome in (POST_SHOWN, POST_NO_WEBHOOK):
                    return outcome
                if not attempt.done():  # slow: the post waits its turn in #game's queue
                    return POST_FAILING
        return POST_FAILING

    def outcome(self, row_id: int, outcome: str) -> None:
        """Give the author's answer what became of his post (kept a while for a waiter that
        comes late: another pass may deliver the row first)."""
        waiter = self._waiters.get(row_id)
        later = self._late_answers.pop(row_id, None) if outcome != POST_FAILING else None
        if later is not None:  # the author was told it waits: now he hears what became of it
            task = asyncio.ensure_future(later(outcome))
            task.add_done_callback(log_failure)
        elif waiter is not None and not waiter.done():
            waiter.set_result(outcome)
        elif outcome != POST_FAILING:
            self._results[row_id] = outcome
            while len(self._results) > POST_RESULTS_KEPT:
                del self._results[next(iter(self._results))]


def log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("delivering a post failed", exc_info=task.exception())
