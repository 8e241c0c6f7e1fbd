"""The game clock's runner: one task per bot that sleeps until the earliest timed event of the
running games (computed by ``core/clock.py``: a deadline, the reminders, the hunts-open and
last-hour notices), acts on it (``GameService.deadline_reached``, ``send_reminders``,
``timed_notice``), delivers the outbox and sleeps again.

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

from core.clock import Event, TimedEvent, due_events, next_deadline, next_event, still_due
from core.service import GameService

log = logging.getLogger(__name__)

#: After an unexpected failure, wait this long before trying again (never a hot loop).
RETRY_SECONDS: Final[float] = 60.0


class GameClock:
    """``deliver`` sends the outbox after each resolution and must not raise.

    The runner does not wait for the delivery: at one deadline shared by a thousand games it
    resolves one game after another while the delivery of the first ones is under way (each
    call hands the new rows to the table workers of ``bot/delivery/``, which send them
    concurrently under Discord's rate limits)."""

    def __init__(
        self,
        service: GameService,
        deliver: Callable[[], Awaitable[object]],
        *,
        deliver_game: Callable[[int], Awaitable[object]] | None = None,
    ) -> None:
        self.service = service
        self.deliver = deliver
        #: Sends one game's rows (``Delivery.deliver_game``): what the runner uses, if given,
        #: after acting on a game, instead of reading the whole outbox each time.
        self.deliver_game = deliver_game
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._deliveries: set[asyncio.Task[object]] = set()  # under way (kept referenced)
        #: Told the seconds from a deadline to its results handed to the delivery and sent
        #: (``bot/metrics.py``), on the service's clock. None: nobody listens.
        self.on_results_lag: Callable[[float], None] | None = None
        #: Told at each re-arm (a game started or ended, a deadline moved): the heartbeat's
        #: pace follows the running games (``bot/heartbeat.py``).
        self.on_rearm: Callable[[], None] | None = None

    def next_deadline(self) -> tuple[datetime, int, bool] | None:
        """The next deadline or reminders (see :func:`core.clock.next_deadline`)."""
        return next_deadline(self.service.live.values(), self.service.clock())

    def next_event(self) -> TimedEvent | None:
        """The next wake-up, of any kind (see :func:`core.clock.next_event`)."""
        return next_event(self.service.live.values(), self.service.clock())

    def rearm(self) -> None:
        """Recompute the next wake-up. A task busy resolving re-reads the deadlines itself."""
        if self.on_rearm is not None:
            self.on_rearm()
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
        for delivery in list(self._deliveries):
            delivery.cancel()

    def _deliver_soon(self, game_id: int, deadline: datetime | None = None) -> None:
        """Start delivering what the last event queued, without waiting for it (``deadline``:
        the deadline it resolved, whose lag to the results is told)."""
        delivery: asyncio.Task[object] = asyncio.get_running_loop().create_task(
            self._deliver(game_id, deadline), name="clock-delivery"
        )
        self._deliveries.add(delivery)
        delivery.add_done_callback(self._deliveries.discard)

    async def _deliver(self, game_id: int, deadline: datetime | None = None) -> object:
        if self.deliver_game is None:
            done = await self.deliver()
        else:
            try:
                done = await self.deliver_game(game_id)
            except Exception:  # what fails stays pending: the delivery's timer tries again
                log.exception("delivering the outbox of game %s failed", game_id)
                return None
        if deadline is not None and self.on_results_lag is not None:
            self.on_results_lag((self.service.clock() - deadline).total_seconds())
        return done

    async def _run(self) -> None:
        while True:
            upcoming = self.next_event()
            if upcoming is None:
                return
            delay = (upcoming.at - self.service.clock()).total_seconds()
            if delay > 0:
                self._sleeping = True
                try:
                    await asyncio.sleep(delay)
                finally:
                    self._sleeping = False
                continue  # a deadline may have moved meanwhile: look again
            # Everything due now in one look at the games (a thousand games share a deadline),
            # each checked again just before it is acted on.
            failed = False
            for event in due_events(self.service.live.values(), self.service.clock()):
                game = self.service.live.get(event.game_id)
                if game is None or not still_due(game, event, self.service.clock()):
                    continue
                acted = await self._act(event)
                failed |= not acted
                resolved = acted and event.kind is Event.DEADLINE
                self._deliver_soon(event.game_id, event.at if resolved else None)
            if failed:
                self._sleeping = True
                try:
                    await asyncio.sleep(RETRY_SECONDS)
                finally:
                    self._sleeping = False

    async def _act(self, event: TimedEvent) -> bool:
        """Act on one due event; False (logged) if it failed: it stays due, and the runner
        waits :data:`RETRY_SECONDS` before trying again, never in a hot loop."""
        game_id, kind = event.game_id, event.kind
        try:
            if kind is Event.DEADLINE:
                await self.service.deadline_reached(game_id, if_due=True)
            elif kind is Event.REMINDER:
                await self.service.send_reminders(game_id)
            else:
                await self.service.timed_notice(game_id, kind)
        except Exception:
            log.exception("the %s of game %s could not be acted on", kind, game_id)
            return False
        return True
