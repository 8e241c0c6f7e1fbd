"""What falls due when: the arithmetic of the game clock, with no asyncio and no Discord.

Each running, unpaused game has a small set of timed events in its open turn, each acted on
once (the service keeps a mark per event, rebuilt from the outbox after a restart):

- ``hunts_open`` (R4): a public notice when hunt requests open, from turn 2 (R3: none on
  turn 1); 12:00 local on the forum schedule, half the turn on the fast one.
- ``reminder`` (R31, R52, R53): the private reminders, as before.
- ``last_hour``: a public notice one hour before the deadline. Only where an hour is a part of
  the turn worth a notice: always on the forum schedule, on the fast one only for turns longer
  than two hours (a 10-minute turn has its reminders instead). Once per turn; if the host then
  moves the deadline by more than an hour (extend, or pause and resume), a new one is due one
  hour before the new deadline (a smaller move: the host's own notice names the new deadline).
- ``deadline``: the resolution (or the end of the pistol window).

On a tie they are acted on in that order. A notice whose moment passed while the bot was down is
sent at once if the deadline is still ahead; once the deadline has passed, only the resolution
is left (no notice about a turn already over).

The task that sleeps until the moment computed here and then acts is ``bot/clock.py``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Final

import attrs

from core.live import LiveGame
from rules.model import Phase
from rules.schedule import Schedule, hunt_opens_at


class Event(enum.StrEnum):
    HUNTS_OPEN = "hunts_open"
    REMINDER = "reminder"
    LAST_HOUR = "last_hour"
    DEADLINE = "deadline"


#: The order of events due at the same moment.
TIE_ORDER: Final[tuple[Event, ...]] = (
    Event.HUNTS_OPEN,
    Event.REMINDER,
    Event.LAST_HOUR,
    Event.DEADLINE,
)

#: The public notices (the reminders are private and keep their own mark).
NOTICES: Final[tuple[Event, ...]] = (Event.HUNTS_OPEN, Event.LAST_HOUR)

LAST_HOUR: Final[timedelta] = timedelta(hours=1)
#: A fast turn gets the last-hour notice only if it is longer than this.
LAST_HOUR_MIN_TURN: Final[timedelta] = timedelta(hours=2)


@attrs.frozen
class NoticeMark:
    """A notice already queued: its turn and the deadline it named."""

    turn: int
    deadline: datetime


@attrs.frozen
class TimedEvent:
    at: datetime
    game_id: int
    kind: Event

    def sort_key(self) -> tuple[datetime, int, int]:
        return (self.at, TIE_ORDER.index(self.kind), self.game_id)


def last_hour_at(schedule: Schedule, deadline: datetime) -> datetime | None:
    """One hour before the deadline; None for a fast turn of two hours or less."""
    if schedule.kind == "fast" and timedelta(minutes=schedule.turn_minutes) <= LAST_HOUR_MIN_TURN:
        return None
    return deadline - LAST_HOUR


def notice_moment(
    schedule: Schedule, kind: Event, turn: int, deadline: datetime
) -> datetime | None:
    """When the notice ``kind`` of a turn with this deadline is due (None: never)."""
    if kind is Event.HUNTS_OPEN:
        return hunt_opens_at(schedule, deadline) if turn >= 2 else None  # R3, R4
    if kind is Event.LAST_HOUR:
        return last_hour_at(schedule, deadline)
    raise ValueError(f"not a notice: {kind}")


def notice_done(kind: Event, mark: NoticeMark | None, turn: int, deadline: datetime) -> bool:
    """Whether the notice ``kind`` was already queued for this turn (and, for the last hour,
    for a deadline at most an hour earlier than this one)."""
    if mark is None or mark.turn < turn:
        return False
    if kind is Event.LAST_HOUR:
        return deadline - mark.deadline <= LAST_HOUR
    return True


def pending_notice(game: LiveGame, kind: Event, now: datetime) -> datetime | None:
    """When the game's notice ``kind`` is due, if it still is: the game runs, is not paused,
    its turn is open with the deadline ahead, and the notice was not queued yet."""
    rec = game.record
    deadline = rec.deadline
    if (
        deadline is None
        or rec.paused
        or now >= deadline
        or game.engine.phase is not Phase.OPEN
        or notice_done(kind, game.notices.get(kind.value), game.engine.turn, deadline)
    ):
        return None
    return notice_moment(game.schedule, kind, game.engine.turn, deadline)


def game_events(game: LiveGame, now: datetime) -> list[TimedEvent]:
    """The game's events still to act on, in the order of their moments."""
    rec = game.record
    if rec.deadline is None or rec.paused:
        return []
    events = [TimedEvent(rec.deadline, game.id, Event.DEADLINE)]
    remind = game.reminder_due_at(now)
    if remind is not None:
        events.append(TimedEvent(remind, game.id, Event.REMINDER))
    for kind in NOTICES:
        at = pending_notice(game, kind, now)
        if at is not None:
            events.append(TimedEvent(at, game.id, kind))
    return sorted(events, key=TimedEvent.sort_key)


def next_event(games: Iterable[LiveGame], now: datetime) -> TimedEvent | None:
    """The earliest event among the running, unpaused games."""
    due = [e for g in games for e in game_events(g, now)]
    return min(due, key=TimedEvent.sort_key) if due else None


def due_events(games: Iterable[LiveGame], now: datetime) -> list[TimedEvent]:
    """Every event already due (its moment at or before ``now``), in the order to act on them:
    one look at every game when a thousand games share a deadline, instead of one look at
    every game per event."""
    due = [e for g in games for e in game_events(g, now) if e.at <= now]
    return sorted(due, key=TimedEvent.sort_key)


def still_due(game: LiveGame, event: TimedEvent, now: datetime) -> bool:
    """Whether ``event`` (found due a moment ago) is still due for ``game``: acting on the
    events of a batch takes time, during which a host may move or pause a deadline."""
    return any(e.kind is event.kind and e.at <= now for e in game_events(game, now))


def next_deadline(games: Iterable[LiveGame], now: datetime) -> tuple[datetime, int, bool] | None:
    """The earliest (moment, game id, is_reminder) among running, unpaused games: a
    deadline, or the time of a turn's reminders (they sort first on a tie). The public
    notices are left out (see :func:`next_event`)."""
    due = [
        e for g in games for e in game_events(g, now) if e.kind in (Event.DEADLINE, Event.REMINDER)
    ]
    if not due:
        return None
    first = min(due, key=TimedEvent.sort_key)
    return (first.at, first.game_id, first.kind is Event.REMINDER)
