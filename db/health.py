"""``main.py health``: is a bot alive on this store? The probe of Docker's ``HEALTHCHECK``,
systemd and any monitor.

A running bot beats in the store every ``HEARTBEAT_SECONDS`` (30 s) while Discord answers it
(R59, ``bot/heartbeat.py``). The probe opens the store read-only (as ``export`` does: it never
creates, migrates or changes it), reads the newest beat of any process, and compares it with
the machine's time, which is the probe's to read: it is a separate process looking at the bot
from outside, and the bot stamps its beats with the real time when it runs on Discord.

Exit 0 when a bot beat within ``max_age`` seconds, 1 when none did, or the store cannot be
read; one line on standard output says which, and how long ago.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
from typing import Final

import attrs

from db.errors import StoreError
from db.urls import redact_secrets

#: A bot beats every 30 s; three missed beats and it is not healthy.
DEFAULT_MAX_AGE: Final[float] = 90.0


@attrs.frozen
class Health:
    """What the probe found: ``ok``, and the line that says it."""

    ok: bool
    line: str


def judge(last_beat: dt.datetime | None, now: dt.datetime, max_age: float) -> Health:
    """The verdict on the newest beat ``last_beat`` at ``now``."""
    if last_beat is None:
        return Health(False, "unhealthy: no bot has ever beaten in this store")
    age = (now - last_beat).total_seconds()
    shown_age = _age(age)
    if age < -max_age:  # a beat from the future: the clocks disagree
        return Health(False, f"unhealthy: the last beat is {_age(-age)} ahead of this clock")
    if age > max_age:
        return Health(False, f"unhealthy: the last beat was {shown_age} ago (over {max_age:g} s)")
    return Health(True, f"healthy: the last beat was {shown_age} ago")


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
    except StoreError as error:
        return Health(False, f"unhealthy: cannot read the store: {error}")
    finally:
        await store.close()
    return judge(last, now, max_age)


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
