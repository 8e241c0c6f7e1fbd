"""``main.py health``: is a bot alive on this store? The probe of Docker's ``HEALTHCHECK``,
systemd and any monitor.

A running bot beats in the store while Discord answers it (R59, ``bot/heartbeat.py``): every
minute while it serves ten-minute turns, every ten minutes when it serves only forum days or
nothing (:func:`core.turn_service.pace_of`, a hundredth of the shortest running turn). The
probe opens the store read-only (as ``export`` does: it never creates, migrates or changes
it), reads the newest beat of any process and the running games, and compares the beat with
the machine's time, which is the probe's to read: it is a separate process looking at the bot
from outside, and the bot stamps its beats with the real time when it runs on Discord.

A beat is fresh when it is no older than ``max_age`` seconds, or than one and a half of the
pace the running games give (the gap the bot itself calls downtime), whichever is longer: a
bot serving forum days is not stale between two of its beats.

Exit 0 when fresh, 1 when not, when no bot ever beat, or when the store cannot be read; one
line on standard output says which, and how long ago.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from typing import Final

import attrs

from core.live import schedule_of
from core.turn_service import GAP_BEATS, pace_of
from db.errors import StoreError
from db.urls import redact_secrets

#: A bot serving ten-minute turns beats every minute: one and a half of that.
DEFAULT_MAX_AGE: Final[float] = 90.0


@attrs.frozen
class Health:
    """What the probe found: ``ok``, and the line that says it."""

    ok: bool
    line: str


def judge(
    last_beat: dt.datetime | None, now: dt.datetime, max_age: float, pace: float = 0.0
) -> Health:
    """The verdict on the newest beat ``last_beat`` at ``now``, for a bot beating every
    ``pace`` seconds."""
    if last_beat is None:
        return Health(False, "unhealthy: no bot has ever beaten in this store")
    allowed = max(max_age, GAP_BEATS * pace)
    age = (now - last_beat).total_seconds()
    if age < -allowed:  # a beat from the future: the clocks disagree
        return Health(False, f"unhealthy: the last beat is {_age(-age)} ahead of this clock")
    if age > allowed:
        return Health(False, f"unhealthy: the last beat was {_age(age)} ago (over {_age(allowed)})")
    return Health(True, f"healthy: the last beat was {_age(age)} ago")


def _age(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


async def probe(database: str | os.PathLike[str], now: dt.datetime, max_age: float) -> Health:
    """Open ``database`` read-only and judge its newest beat."""
    from db.store import open_store

    try:
        store = await open_store(database, read_only=True)
    except StoreError as error:
        return Health(False, f"unhealthy: cannot read the store: {error}")
    try:
        last = await store.last_beat()
        running = await store.running_games()
    except StoreError as error:
        return Health(False, f"unhealthy: cannot read the store: {error}")
    finally:
        await store.close()
    return judge(last, now, max_age, pace_of(schedule_of(g) for g in running))


def health_main(
    database: str | os.PathLike[str],
    max_age: float = DEFAULT_MAX_AGE,
    *,
    now: dt.datetime,
    secrets: tuple[str, ...] = (),
) -> int:
    """The command: one line on standard output, status 0 (healthy) or 1."""
    result = asyncio.run(probe(database, now, max_age))
    print(redact_secrets(result.line, secrets), file=sys.stdout)
    return 0 if result.ok else 1
