"""R61, the table's hours: the deadline, the hunts' opening, the turn's days and the days off
the host sets, in the game's own time zone, across daylight saving (rules/schedule.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.clock import last_hour_at
from rules.schedule import (
    Schedule,
    ScheduleError,
    first_deadline,
    forum_hours,
    hunt_opens_at,
    make_schedule,
    next_deadline,
    parse_days_off,
    parse_time,
    reminder_at,
)

#: Zones with daylight saving (Berlin, New York: opposite ends of March; Sydney: the southern
#: one, whose clocks go back in April) and Moscow without it.
ZONES = ("Europe/Berlin", "America/New_York", "Australia/Sydney", "Europe/Moscow")


def local(dt: datetime, tz: str) -> datetime:
    return dt.astimezone(ZoneInfo(tz))


def wall(day: date, moment: time, tz: str) -> datetime:
    """The moment of ``moment`` on ``day`` as the schedule reads it (fold 0), in UTC."""
    return datetime.combine(day, moment, tzinfo=ZoneInfo(tz)).astimezone(UTC)


def original(schedule: Schedule, after: datetime) -> datetime:
    """The original's arithmetic before R61 (one day, no day off): the first deadline hour at
    or after ``after``."""
    zone = schedule.zone
    loc = after.astimezone(zone)
    candidate = datetime.combine(loc.date(), schedule.deadline, tzinfo=zone)
    if candidate.astimezone(UTC) < after:
        candidate = datetime.combine(loc.date() + timedelta(days=1), schedule.deadline, tzinfo=zone)
    return candidate.astimezone(UTC)


minutes = st.integers(min_value=0, max_value=24 * 60 - 1)


@st.composite
def schedules(draw: st.DrawFn) -> Schedule:
    a, b = sorted(draw(st.lists(minutes, min_size=2, max_size=2, unique=True)))
    off = draw(st.frozensets(st.integers(0, 6), max_size=6))
    return make_schedule(
        "forum",
        draw(st.sampled_from(ZONES)),
        hunt_open=time(a // 60, a % 60),
        deadline=time(b // 60, b % 60),
        turn_days=draw(st.integers(1, 7)),
        days_off=off,
    )


#: The changes of the clocks of 2026 (UTC): Berlin, New York, Sydney, each way.
CHANGES = (
    datetime(2026, 3, 29, 1, tzinfo=UTC),
    datetime(2026, 10, 25, 1, tzinfo=UTC),
    datetime(2026, 3, 8, 7, tzinfo=UTC),
    datetime(2026, 11, 1, 6, tzinfo=UTC),
    datetime(2026, 4, 4, 16, tzinfo=UTC),
    datetime(2026, 10, 3, 16, tzinfo=UTC),
)

#: Moments over three years (every change of the clocks of 2025-2027 in each zone), half of
#: them within a week before one (so turns of up to seven days span it).
moments = st.one_of(
    st.datetimes(
        min_value=datetime(2025, 1, 1), max_value=datetime(2027, 12, 31), timezones=st.just(UTC)
    ),
    st.builds(
        lambda change, seconds: change - timedelta(seconds=seconds),
        st.sampled_from(CHANGES),
        st.integers(0, 8 * 24 * 3600),
    ),
)


def test_the_changes_of_the_clocks_are_where_the_test_says() -> None:
    def offset(moment: datetime, tz: str) -> timedelta | None:
        return moment.astimezone(ZoneInfo(tz)).utcoffset()

    for change in CHANGES:
        before, after = change - timedelta(minutes=1), change + timedelta(minutes=1)
        assert any(offset(before, tz) != offset(after, tz) for tz in ZONES[:3]), change


def assert_is_a_deadline(s: Schedule, d: datetime, earliest_day: date) -> None:
    """``d`` is the deadline hour (fold 0) of its local day, not a day off, and the days from
    ``earliest_day`` (the turn's nominal last day) to it are all days off."""
    day = local(d, s.tz).date()
    assert d == wall(day, s.deadline, s.tz)
    assert day.weekday() not in s.days_off
    assert day >= earliest_day
    skipped = day - earliest_day
    assert skipped < timedelta(days=7)
    for n in range(skipped.days):
        assert (earliest_day + timedelta(days=n)).weekday() in s.days_off


@settings(max_examples=250, deadline=None)
@given(schedules(), moments)
def test_R61_the_first_deadline_is_the_hosts_hour_turn_days_on_moved_past_days_off(
    s: Schedule, now: datetime
) -> None:
    d = first_deadline(s, now)
    base = original(s, now + s.min_first_turn)  # turn 1 lasts as any turn: its first day
    nominal = local(base, s.tz).date() + timedelta(days=s.turn_days - 1)
    assert_is_a_deadline(s, d, nominal)
    assert d >= now + s.min_first_turn


@settings(max_examples=250, deadline=None)
@given(schedules(), moments, st.integers(0, 3 * 24 * 60))
def test_R61_each_next_deadline_comes_turn_days_later_also_after_downtime(
    s: Schedule, start: datetime, late_minutes: int
) -> None:
    previous = first_deadline(s, start)
    now = previous + timedelta(minutes=late_minutes)  # resolved late: the bot was down (R59)
    d = next_deadline(s, previous, now)
    base = original(s, now + s.min_first_turn)
    assert_is_a_deadline(s, d, local(base, s.tz).date() + timedelta(days=s.turn_days - 1))
    assert d >= now + s.min_first_turn  # a whole turn from now, never a burst of turns
    if late_minutes == 0 and not s.days_off:  # on time: exactly turn_days later, same hour
        assert local(d, s.tz).date() == local(previous, s.tz).date() + timedelta(s.turn_days)


@settings(max_examples=250, deadline=None)
@given(schedules(), moments)
def test_R61_hunts_reminders_and_the_last_hour_follow_the_deadline(
    s: Schedule, now: datetime
) -> None:
    d = first_deadline(s, now)
    day = local(d, s.tz).date()
    hunts = hunt_opens_at(s, d)
    assert hunts == wall(day, s.hunt_open, s.tz)  # R4: the deadline's day, the host's hour
    assert hunts < d
    assert reminder_at(s, d) == d - timedelta(hours=3)
    assert last_hour_at(s, d) == d - timedelta(hours=1)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ZONES), moments, moments)
def test_R61_a_host_who_sets_nothing_plays_the_originals_clock(
    tz: str, start: datetime, late: datetime
) -> None:
    s = forum_hours("forum", tz)
    assert (s.deadline, s.hunt_open, s.turn_days, s.days_off) == (
        time(21),
        time(12),
        1,
        frozenset(),
    )
    assert s == make_schedule("forum", tz)
    d = first_deadline(s, start)
    assert d == original(s, start + s.min_first_turn)
    now = max(d, late)
    assert next_deadline(s, d, now) == original(s, now + s.min_first_turn)


def berlin(y: int, m: int, d: int, hh: int, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=ZoneInfo("Europe/Berlin")).astimezone(UTC)


def new_york(y: int, m: int, d: int, hh: int, mm: int = 0) -> datetime:
    return datetime(y, m, d, hh, mm, tzinfo=ZoneInfo("America/New_York")).astimezone(UTC)


def test_R61_the_deadline_keeps_its_hour_across_the_change_of_clocks() -> None:
    """Berlin goes to summer time on 2026-03-29: the turn around it is an hour shorter, the
    deadline stays 18:30 on the wall; New York goes back on 2026-11-01: an hour longer."""
    s = forum_hours("forum", "Europe/Berlin", deadline="18:30", turn_days=2)
    d = next_deadline(s, berlin(2026, 3, 27, 18, 30), berlin(2026, 3, 27, 18, 30))
    assert d == berlin(2026, 3, 29, 18, 30)
    assert d - berlin(2026, 3, 27, 18, 30) == timedelta(hours=47)
    ny = forum_hours("forum", "America/New_York", deadline="20:00")
    d = next_deadline(ny, new_york(2026, 10, 31, 20), new_york(2026, 10, 31, 20))
    assert d == new_york(2026, 11, 1, 20)
    assert d - new_york(2026, 10, 31, 20) == timedelta(hours=25)


def test_R61_a_time_the_clocks_skip_or_repeat_is_read_as_calendars_read_it() -> None:
    """02:30 does not exist in Berlin on 2026-03-29 (02:00 -> 03:00): the deadline is 03:30,
    the offset before the jump; 02:30 on 2026-10-25 happens twice: the first one."""
    s = forum_hours("forum", "Europe/Berlin", deadline="02:30", hunts_from="00:00")
    d = next_deadline(s, berlin(2026, 3, 28, 2, 30), berlin(2026, 3, 28, 2, 30))
    assert d == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 03:30 summer time
    d = next_deadline(s, berlin(2026, 10, 24, 2, 30), berlin(2026, 10, 24, 2, 30))
    assert d == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # the first 02:30 (summer time)


def test_R61_a_weekend_moves_the_deadline_to_monday_at_the_same_hour() -> None:
    s = forum_hours("forum", "Europe/Berlin", deadline="18:30", days_off="sat sun")
    friday = berlin(2026, 6, 5, 18, 30)
    assert next_deadline(s, friday, friday) == berlin(2026, 6, 8, 18, 30)
    # Opened on Friday morning: Friday's deadline; on Friday evening: Monday's.
    assert first_deadline(s, berlin(2026, 6, 5, 9)) == friday
    assert first_deadline(s, berlin(2026, 6, 5, 15)) == berlin(2026, 6, 8, 18, 30)
    # Two-day turns: Thursday's deadline is followed by Saturday's, moved to Monday.
    two = forum_hours("forum", "Europe/Berlin", deadline="18:30", turn_days=2, days_off="сб вс")
    thursday = berlin(2026, 6, 4, 18, 30)
    assert next_deadline(two, thursday, thursday) == berlin(2026, 6, 8, 18, 30)


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("sat sun", {5, 6}),
        ("Sat, Sun", {5, 6}),
        ("сб вс", {5, 6}),
        ("Сб., ВС", {5, 6}),
        ("saturday воскресенье", {5, 6}),
        ("mon", {0}),
        ("пн вт ср чт пт", {0, 1, 2, 3, 4}),
        ("", set()),
    ],
)
def test_R61_days_off_in_english_or_russian(text: str, days: set[int]) -> None:
    assert parse_days_off(text) == frozenset(days)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"deadline": "25:00"}, "bad_time"),
        ({"deadline": "1830"}, "bad_time"),
        ({"deadline": "18:60"}, "bad_time"),
        ({"deadline": "six"}, "bad_time"),
        ({"hunts_from": "12"}, "bad_time"),
        ({"hunts_from": "22:00"}, "bad_hunt_time"),  # hunts after the deadline
        ({"deadline": "12:00", "hunts_from": "12:00"}, "bad_hunt_time"),
        ({"turn_days": 0}, "bad_turn_days"),
        ({"turn_days": 8}, "bad_turn_days"),
        ({"days_off": "sat holiday"}, "bad_days_off"),
        ({"days_off": "mon tue wed thu fri sat sun"}, "no_working_day"),
        ({"days_off": "пн вт ср чт пт сб вс"}, "no_working_day"),
    ],
)
def test_R61_hours_that_make_no_sense_are_refused_with_the_reason(
    options: dict[str, object], code: str
) -> None:
    with pytest.raises(ScheduleError) as err:
        forum_hours("forum", **options)  # type: ignore[arg-type]
    assert err.value.code == code


@pytest.mark.parametrize(
    "options",
    [{"deadline": "18:30"}, {"hunts_from": "10:00"}, {"turn_days": 1}, {"days_off": "sun"}],
)
def test_R61_the_fast_schedule_refuses_the_forum_hours(options: dict[str, object]) -> None:
    """A fast game counts minutes: an hour given with it would be silently ignored, so the
    host is told instead (and the fast game without them still opens)."""
    with pytest.raises(ScheduleError) as err:
        forum_hours("fast", **options)  # type: ignore[arg-type]
    assert err.value.code == "fast_hours"
    assert forum_hours("fast", turn_minutes=5).turn_minutes == 5


def test_R61_times_as_a_host_types_them() -> None:
    assert parse_time("9:05") == time(9, 5)
    assert parse_time(" 18:30 ") == time(18, 30)
    assert parse_time("00:00") == time(0, 0)


@settings(max_examples=200, deadline=None)
@given(schedules())
def test_R61_the_hours_round_trip_through_the_stored_dict(s: Schedule) -> None:
    assert Schedule.from_dict(s.to_dict()) == s


def test_R61_a_game_stored_before_the_hours_reads_as_the_originals() -> None:
    old = {"kind": "forum", "tz": "Europe/Moscow", "hunt_open": "12:00", "deadline": "21:00"}
    assert Schedule.from_dict(old) == make_schedule("forum")
