"""What falls due when: the arithmetic of the game clock, with no asyncio and no Discord.

The task that sleeps until the moment computed here and then acts is ``bot/clock.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from core.service import LiveGame


def next_deadline(games: Iterable[LiveGame], now: datetime) -> tuple[datetime, int, bool] | None:
    """The earliest (moment, game id, is_reminder) among running, unpaused games: a
    deadline, or the time of a turn's reminders (they sort first on a tie)."""
    due: list[tuple[datetime, int, bool]] = []
    for g in games:
        if g.record.deadline is None or g.record.paused:
            continue
        due.append((g.record.deadline, g.id, False))
        remind = g.reminder_due_at(now)
        if remind is not None:
            due.append((remind, g.id, True))
    return min(due, key=lambda d: (d[0], not d[2], d[1])) if due else None
