"""R59, downtime: the bot's heartbeat in the store. Each process beats once at start (before
the clock resolves the deadlines it missed, so a turn resolved at start knows what the bot
lost of it), then at the pace of the shortest turn it serves (:func:`core.service.beat_period`:
every minute for ten-minute turns, every ten minutes for forum days) while Discord answers
it (the gateway is connected). A gap of one and a half paces between two beats is downtime of
every running game the process holds (``GameService.heartbeat``): the time the bot was not running,
or Discord did not answer it. The pace follows the games: the clock re-paces it whenever it
re-arms (a game started, ended, a deadline moved). The beats are in the store, so a crash
loses nothing: the first beat of the next run sees the last one of the crashed run.

Every beat is stamped with the service's clock (the one injectable clock: the store's
downtime spans, a turn's opening and its resolution are all on it). The beats are paced by a
``discord.ext.tasks`` loop, which waits on discord.py's clock (``discord.utils.utcnow``, what
the service reads in the bot): under SimCord that wait is virtual time only, fired by
``advance_time`` and never by the wall clock in the middle of another call (a plain
``asyncio.sleep`` of a minute would wake on the wall clock while a long test runs, and move the
virtual time on under it). So the bot under test beats as the bot in production does."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from discord.ext import tasks

from core.service import GameService, beat_period, downtime_gap
from core.shards import Shards

log = logging.getLogger(__name__)


def process_key(shards: Shards | None) -> str:
    """The heartbeat's key: the shards the process runs (the same after a restart), or
    ``all`` for one process owning every server."""
    if shards is None:
        return "all"
    return f"shards:{shards.count}:{','.join(str(i) for i in shards.ids)}"


class Heartbeat:
    """``connected``: whether Discord answers the bot now (its gateway is up). ``pace``: the
    seconds between two beats for the games running now (by default
    :func:`core.service.beat_period` of the service's running games)."""

    def __init__(
        self,
        service: GameService,
        key: str,
        connected: Callable[[], bool],
        *,
        pace: Callable[[], float] | None = None,
    ) -> None:
        self.service = service
        self.key = key
        self.connected = connected
        self._pace = pace or (lambda: beat_period(service.live.values()))
        period = self._pace()
        #: The pace in force at the last beat: the gap that is downtime follows the slower of
        #: it and the pace since (:meth:`_gap`).
        self._beat_period = period
        # reconnect=False: a beat never raises (``_beat`` logs its failure; the next one
        # tries again), so the loop has no exception of its own to retry on.
        self._loop: tasks.Loop[Any] = tasks.loop(seconds=period, reconnect=False)(self._tick)

    @property
    def period(self) -> float:
        """The seconds between two beats now."""
        return float(self._loop.seconds or 0.0)

    async def start(self) -> None:
        """The first beat of this run (what the bot was not running is downtime), then the
        periodic ones."""
        await self._beat("down")
        if not self._loop.is_running():
            self._loop.start()

    def stop(self) -> None:
        self._loop.cancel()

    @property
    def running(self) -> bool:
        return self._loop.is_running()

    def repace(self) -> None:
        """The running games changed (one started, one ended): the beats follow their pace
        from now on; the next beat is due a new period after the last one (at once if that
        is past already)."""
        period = self._pace()
        if period != self.period:
            self._loop.change_interval(seconds=period)

    async def beat_now(self) -> None:
        """A beat at once (Discord answers again: the gap ends now, not at the next beat)."""
        if self.connected():
            await self._beat("discord")

    async def _tick(self) -> None:
        if self._loop.current_loop == 0:
            return  # the loop's first pass comes at its start: ``start`` beat already
        if self.connected():
            # Its own task: the loop's task only waits for it (and SimCord's settling sees
            # the beat end, instead of polling a task that never ends).
            await asyncio.get_running_loop().create_task(self._beat("discord"), name="beat")
        self.repace()

    def _gap(self) -> timedelta:
        return downtime_gap(max(self._beat_period, self.period))

    async def _beat(self, cause: str) -> None:
        gap = self._gap()
        self._beat_period = self.period
        try:
            await self.service.heartbeat(
                self.key, cause="down" if cause == "down" else "discord", gap=gap
            )
        except Exception:  # a missed beat: the next one tries again (a long gap is downtime)
            log.warning("heartbeat %s failed", self.key, exc_info=True)
