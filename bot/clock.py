"""The game clock's runner: one task per bot that sleeps until the earliest deadline of the
running games (computed by ``core/clock.py``), resolves what fell due
(``GameService.deadline_reached``), delivers the outbox and sleeps again.

Re-armed (:meth:`GameClock.rearm`) at start, after a game starts, and after every command that
moves a deadline (extend, pause, resume, resolve). A deadline already past is resolved at once.
The task only sleeps with ``asyncio.sleep`` (virtual time under SimCord) and reads the time from
the service's clock (``discord.utils.utcnow``), so tests drive it with ``advance_time``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Final

from core.clock import next_deadline
from core.service import GameService

log = logging.getLogger(__name__)

#: After an unexpected failure, wait this long before trying again (never a hot loop).
RETRY_SECONDS: Final[float] = 60.0


class GameClock:
    """``deliver`` sends the outbox after each resolution and must not raise."""

    def __init__(self, service: GameService, deliver: Callable[[], Awaitable[object]]) -> None:
        self.service = service
        self.deliver = deliver
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False

    def next_deadline(self) -> tuple[datetime, int, bool] | None:
        """The next wake-up (see :func:`core.clock.next_deadline`)."""
        return next_deadline(self.service.live.values(), self.service.clock())

    def rearm(self) -> None:
        """Recompute the next wake-up. A task busy resolving re-reads the deadlines itself."""
        task = self._task
        if task is not None and not task.done():
            if not self._sleeping:
                return  # resolving now: it looks at the deadlines again when done
            task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="game-clock")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            upcoming = self.next_deadline()
            if upcoming is None:
                return
            deadline, game_id, is_reminder = upcoming
            delay = (deadline - self.service.clock()).total_seconds()
            if delay > 0:
                self._sleeping = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._sleeping = False
                continue  # a deadline may have moved meanwhile: look again
            try:
                if is_reminder:
                    await self.service.send_reminders(game_id)
                else:
                    await self.service.deadline_reached(game_id, if_due=True)
            except Exception:
                log.exception("the deadline of game %s could not be resolved", game_id)
                self._sleeping = True
                try:
                    await asyncio.sleep(RETRY_SECONDS)
                finally:
                    self._sleeping = False
            await self.deliver()
