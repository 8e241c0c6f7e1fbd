"""R59, downtime: the bot's heartbeat in the store. Each process beats once at start (before
the clock resolves the deadlines it missed, so a turn resolved at start knows what the bot
lost of it), then every :data:`core.service.HEARTBEAT_SECONDS` while Discord answers it (the
gateway is connected). A gap between two beats is downtime of every running game the process
holds (``GameService.heartbeat``): the time the bot was not running, or Discord did not answer
it. The beats are in the store, so a crash loses nothing: the first beat of the next run sees
the last one of the crashed run.

The task sleeps with ``asyncio.sleep`` and reads the service's clock: virtual time under
SimCord."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from core.service import HEARTBEAT_SECONDS, GameService
from core.shards import Shards

log = logging.getLogger(__name__)


def process_key(shards: Shards | None) -> str:
    """The heartbeat's key: the shards the process runs (the same after a restart), or
    ``all`` for one process owning every server."""
    if shards is None:
        return "all"
    return f"shards:{shards.count}:{','.join(str(i) for i in shards.ids)}"


class Heartbeat:
    """``connected``: whether Discord answers the bot now (its gateway is up)."""

    def __init__(
        self,
        service: GameService,
        key: str,
        connected: Callable[[], bool],
        *,
        every: float = HEARTBEAT_SECONDS,
    ) -> None:
        self.service = service
        self.key = key
        self.connected = connected
        self.every = every
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """The first beat of this run (what the bot was not running is downtime), then the
        periodic ones."""
        await self._beat("down")
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="heartbeat")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def beat_now(self) -> None:
        """A beat at once (Discord answers again: the gap ends now, not at the next beat)."""
        if self.connected():
            await self._beat("discord")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if self.connected():
                await self._beat("discord")

    async def _beat(self, cause: str) -> None:
        try:
            await self.service.heartbeat(self.key, cause="down" if cause == "down" else "discord")
        except Exception:  # a missed beat: the next one tries again (a long gap is downtime)
            log.warning("heartbeat %s failed", self.key, exc_info=True)
