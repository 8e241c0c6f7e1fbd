"""The forum clock's arithmetic (R1, R4, R18 pistol window, R61 the table's hours), pure: "now"
is always passed in.

Datetimes in and out are timezone-aware (UTC is what the store keeps); the game's time zone
decides the local wall-clock times of the forum schedule. R61: the host sets the deadline, the
hunts' opening, the turn's length in days and the days without a deadline; the defaults are the
original's (21:00, hunts from 12:00, one day, no day off).

Daylight saving: a deadline is a wall-clock time of the game's zone, so it stays at 21:00 across
a change of the clocks (the turn around it is an hour shorter or longer). A wall-clock time the
clocks skip (02:30 when they jump from 02:00 to 03:00) is read with the offset before the jump
(03:30), and one they pass twice is the first of the two, as calendars read them (RFC 5545).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import attrs

DEFAULT_TZ = "Europe/Moscow"

#: R61: a forum turn lasts 1 to this many days.
MAX_TURN_DAYS: Final = 7

#: The weekdays by number (Monday 0, as ``date.weekday``), their short English names.
WEEKDAYS: Final[tuple[str, ...]] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

#: Every name a host may type for a weekday (R61 ``days_off``), folded: English and Russian,
#: short and full.
_WEEKDAY_NAMES: Final[dict[str, int]] = {
    name: number
    for number, names in enumerate(
        (
            ("mon", "monday", "пн", "пон", "понедельник"),
            ("tue", "tues", "tuesday", "вт", "вто", "вторник"),
            ("wed", "wednesday", "ср", "сре", "среда"),
            ("thu", "thur", "thurs", "thursday", "чт", "чет", "четверг"),
            ("fri", "friday", "пт", "пят", "пятница"),
            ("sat", "saturday", "сб", "суб", "суббота"),
            ("sun", "sunday", "вс", "воск", "воскресенье"),
        )
    )
    for name in names
}

_HHMM = re.compile(r"(\d{1,2}):(\d{2})")


class ScheduleError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@attrs.frozen
class Schedule:
    """`forum`: one turn a day, hunts from 12:00, deadline 21:00 local (R1, R4).
    `fast`: turns of `turn_minutes`, hunts open after half the turn."""

    kind: str = "forum"
    tz: str = DEFAULT_TZ
    hunt_open: time = time(12, 0)
    deadline: time = time(21, 0)
    turn_minutes: int = 10
    #: R61: a forum turn lasts this many days (its deadline this many days after the last).
    turn_days: int = 1
    #: R61: the weekdays (Monday 0) without a deadline: one falling on them moves to the next
    #: day that is not one, at the same hour.
    days_off: frozenset[int] = frozenset()
    # A forum turn opened less than this before the deadline runs to the next day's deadline.
    min_first_turn: timedelta = timedelta(hours=6)

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.tz)

    @property
    def pistol_window(self) -> timedelta:
        """R18 Decision: one hour on the forum schedule, one minute on the fast one."""
        return timedelta(hours=1) if self.kind == "forum" else timedelta(minutes=1)

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "tz": self.tz,
            "hunt_open": self.hunt_open.strftime("%H:%M"),
            "deadline": self.deadline.strftime("%H:%M"),
            "turn_minutes": self.turn_minutes,
            "turn_days": self.turn_days,
            "days_off": [WEEKDAYS[d] for d in sorted(self.days_off)],
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Schedule:
        return make_schedule(
            str(data.get("kind", "forum")),
            str(data.get("tz", DEFAULT_TZ)),
            turn_minutes=int(str(data.get("turn_minutes", 10))),
            hunt_open=_parse_hhmm(str(data.get("hunt_open", "12:00"))),
            deadline=_parse_hhmm(str(data.get("deadline", "21:00"))),
            # Games stored before R61 have neither: the original's one day, no day off.
            turn_days=int(str(data.get("turn_days", 1))),
            days_off=parse_days_off(_as_names(data.get("days_off", ()))),
        )


def _as_names(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Iterable):
        return " ".join(str(v) for v in value)
    return str(value)


def _parse_hhmm(text: str) -> time:
    match = _HHMM.fullmatch(text.strip())
    try:
        if match is None:
            raise ValueError(text)
        return time(int(match[1]), int(match[2]))
    except ValueError:
        raise ScheduleError("bad_time", f"bad time of day {text!r} (HH:MM)") from None


def parse_time(text: str) -> time:
    """R61: a time of day as a host types it, ``HH:MM`` (``9:30`` too), 00:00 to 23:59."""
    return _parse_hhmm(text)


def parse_days_off(text: str) -> frozenset[int]:
    """R61: the weekdays a host names (``sat sun``, ``сб, вс``, ``Saturday``), any case, split
    by spaces or commas; an empty text is none. A name not known is refused with it."""
    days: set[int] = set()
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        number = _WEEKDAY_NAMES.get(word.casefold().rstrip("."))
        if number is None:
            raise ScheduleError("bad_days_off", f"not a weekday: {word!r}")
        days.add(number)
    return frozenset(days)


def make_schedule(
    kind: str,
    tz: str = DEFAULT_TZ,
    *,
    turn_minutes: int = 10,
    hunt_open: time = time(12, 0),
    deadline: time = time(21, 0),
    turn_days: int = 1,
    days_off: Iterable[int] = (),
) -> Schedule:
    off = frozenset(days_off)
    if kind not in ("forum", "fast"):
        raise ScheduleError("bad_schedule", f"unknown schedule {kind!r} (forum or fast)")
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: "America" is a directory
        raise ScheduleError("bad_timezone", f"unknown time zone {tz!r}") from None
    if not 1 <= turn_minutes <= 24 * 60:
        raise ScheduleError("bad_turn_length", "a fast turn lasts 1 to 1440 minutes")
    if hunt_open >= deadline:
        raise ScheduleError("bad_hunt_time", "hunts must open before the deadline")
    if not 1 <= turn_days <= MAX_TURN_DAYS:
        raise ScheduleError("bad_turn_days", f"a turn lasts 1 to {MAX_TURN_DAYS} days")
    if not off <= frozenset(range(7)):
        raise ScheduleError("bad_days_off", f"weekdays are 0 to 6, not {sorted(off)}")
    if len(off) == 7:
        raise ScheduleError("no_working_day", "every day is a day off: no deadline ever")
    return Schedule(kind, tz, hunt_open, deadline, turn_minutes, turn_days=turn_days, days_off=off)


def forum_hours(
    kind: str,
    tz: str = DEFAULT_TZ,
    *,
    turn_minutes: int = 10,
    deadline: str | None = None,
    hunts_from: str | None = None,
    turn_days: int | None = None,
    days_off: str | None = None,
) -> Schedule:
    """R61: the schedule from ``/mafia new``'s options as the host typed them; an option left
    out is the original's (21:00, hunts from 12:00, one day, no day off). The hours belong to
    the forum schedule: a fast game given any of them is refused (``fast_hours``), so a host
    never believes his hours apply where they do not."""
    given = (deadline, hunts_from, turn_days, days_off)
    if kind == "fast" and any(v is not None for v in given):
        raise ScheduleError("fast_hours", "the hours shape the forum schedule, not the fast one")
    return make_schedule(
        kind,
        tz,
        turn_minutes=turn_minutes,
        hunt_open=time(12, 0) if hunts_from is None else parse_time(hunts_from),
        deadline=time(21, 0) if deadline is None else parse_time(deadline),
        turn_days=1 if turn_days is None else turn_days,
        days_off=parse_days_off(days_off or ""),
    )


def _wall(day: date, moment: time, zone: ZoneInfo) -> datetime:
    """The moment of the wall-clock time ``moment`` on ``day`` in ``zone`` (see the module's
    note on daylight saving: fold 0)."""
    return datetime.combine(day, moment, tzinfo=zone)


def _at_local(day: datetime, moment: time, zone: ZoneInfo) -> datetime:
    return _wall(day.date(), moment, zone)


def first_deadline(schedule: Schedule, now: datetime) -> datetime:
    """The deadline of the turn that opens at `now`."""
    if schedule.kind == "fast":
        return now + timedelta(minutes=schedule.turn_minutes)
    return _next_forum_deadline(schedule, now + schedule.min_first_turn)


def next_deadline(schedule: Schedule, previous: datetime, now: datetime) -> datetime:
    """The deadline of the turn after one whose deadline was `previous`.

    A deadline missed while the bot was down is resolved at once; the next turn still gets
    a whole turn from `now` (not a burst of empty turns that would remove everyone, R52)."""
    start = max(previous, now)
    if schedule.kind == "fast":
        return start + timedelta(minutes=schedule.turn_minutes)
    return _next_forum_deadline(schedule, start + schedule.min_first_turn)


def _next_forum_deadline(schedule: Schedule, after: datetime) -> datetime:
    """The deadline of a turn whose first day is the first deadline hour at or after
    ``after``: that day plus ``turn_days - 1`` days, moved past the days off (R61)."""
    zone = schedule.zone
    local = after.astimezone(zone)
    day = local.date()
    if _wall(day, schedule.deadline, zone) < after:
        day += timedelta(days=1)
    day += timedelta(days=schedule.turn_days - 1)
    while day.weekday() in schedule.days_off:  # never all seven (make_schedule)
        day += timedelta(days=1)
    return _wall(day, schedule.deadline, zone).astimezone(after.tzinfo)


def hunt_opens_at(schedule: Schedule, deadline: datetime) -> datetime:
    """R4: hunts are accepted from 12:00 of the deadline's day (half a fast turn)."""
    if schedule.kind == "fast":
        return deadline - timedelta(minutes=schedule.turn_minutes) / 2
    local = deadline.astimezone(schedule.zone)
    return _at_local(local, schedule.hunt_open, schedule.zone).astimezone(deadline.tzinfo)


def reminder_at(schedule: Schedule, deadline: datetime) -> datetime:
    """When players who have not voted or posted are reminded (R31, R52, R53): three hours
    before a forum deadline, a fifth of a fast turn before its deadline."""
    if schedule.kind == "fast":
        return deadline - max(timedelta(seconds=30), timedelta(minutes=schedule.turn_minutes) / 5)
    return deadline - timedelta(hours=3)


def hunts_open(schedule: Schedule, deadline: datetime, now: datetime) -> bool:
    return now >= hunt_opens_at(schedule, deadline)
