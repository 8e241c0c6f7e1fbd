"""The game clock: one task per bot that sleeps until the earliest deadline of the running
games, resolves what fell due (``GameService.deadline_reached``), delivers the outbox and
sleeps again.

Re-armed (:meth:`GameClock.rearm`) at start, after a game starts, and after every command that
moves a deadline (extend, pause, resume, resolve). A deadline already past is resolved at once.
The task only sleeps with ``asyncio.sleep`` (virtual time under SimCord) and reads the time from
the service's clock (``discord.utils.utcnow``), so tests drive it with ``advance_time``.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bot.client import MafiaBot

log = logging.getLogger(__name__)

#: After an unexpected failure, wait this long before trying again (never a hot loop).
RETRY_SECONDS: Final[float] = 60.0


class GameClock:
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False

    def next_deadline(self) -> tuple[datetime, int, bool] | None:
        """The earliest (moment, game id, is_reminder) among running, unpaused games: a
        deadline, or the time of a turn's reminders (they sort first on a tie)."""
        due: list[tuple[datetime, int, bool]] = []
        for g in self.bot.service.live.values():
            if g.record.deadline is None or g.record.paused:
                continue
            due.append((g.record.deadline, g.id, False))
            remind = g.reminder_due_at(self.bot.service.clock())
            if remind is not None:
                due.append((remind, g.id, True))
        return min(due, key=lambda d: (d[0], not d[2], d[1])) if due else None

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
            delay = (deadline - self.bot.service.clock()).total_seconds()
            if delay > 0:
                self._sleeping = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._sleeping = False
                continue  # a deadline may have moved meanwhile: look again
            try:
                if is_reminder:
                    await self.bot.service.send_reminders(game_id)
                else:
                    await self.bot.service.deadline_reached(game_id, if_due=True)
            except Exception:
                log.exception("the deadline of game %s could not be resolved", game_id)
                self._sleeping = True
                try:
                    await asyncio.sleep(RETRY_SECONDS)
                finally:
                    self._sleeping = False
            await self.bot.deliver()
