"""The forum clock's arithmetic (R1, R4, R18 pistol window), pure: "now" is always passed in.

Datetimes in and out are timezone-aware (UTC is what the store keeps); the game's time zone
decides the local wall-clock times of the forum schedule.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import attrs

DEFAULT_TZ = "Europe/Moscow"


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
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Schedule:
        return make_schedule(
            str(data.get("kind", "forum")),
            str(data.get("tz", DEFAULT_TZ)),
            turn_minutes=int(str(data.get("turn_minutes", 10))),
            hunt_open=_parse_hhmm(str(data.get("hunt_open", "12:00"))),
            deadline=_parse_hhmm(str(data.get("deadline", "21:00"))),
        )


def _parse_hhmm(text: str) -> time:
    try:
        hh, mm = text.split(":")
        return time(int(hh), int(mm))
    except ValueError:
        raise ScheduleError("bad_time", f"bad time of day {text!r}") from None


def make_schedule(
    kind: str,
    tz: str = DEFAULT_TZ,
    *,
    turn_minutes: int = 10,
    hunt_open: time = time(12, 0),
    deadline: time = time(21, 0),
) -> Schedule:
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
    return Schedule(kind, tz, hunt_open, deadline, turn_minutes)


def _at_local(day: datetime, moment: time, zone: ZoneInfo) -> datetime:
    return datetime.combine(day.date(), moment, tzinfo=zone)


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
    zone = schedule.zone
    local = after.astimezone(zone)
    candidate = _at_local(local, schedule.deadline, zone)
    if candidate < local:
        candidate = _at_local(local + timedelta(days=1), schedule.deadline, zone)
    return candidate.astimezone(after.tzinfo)


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
