"""The forum clock's arithmetic (R1, R4, R18) and what players know (R14, R19, R22)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from rules.engine import Game
from rules.knowledge import role_card, valid_targets
from rules.model import Request
from rules.schedule import (
    ScheduleError,
    first_deadline,
    hunts_open,
    make_schedule,
    next_deadline,
)


def msk(hour: int, minute: int = 0, day: int = 10) -> datetime:
    # Moscow is UTC+3 all year.
    return datetime(2026, 3, day, hour - 3, minute, tzinfo=UTC)


def test_R1_forum_deadline_is_21_moscow_same_day_when_started_in_the_morning() -> None:
    s = make_schedule("forum")
    assert first_deadline(s, msk(9)) == msk(21)


def test_R1_forum_turn_started_late_runs_to_next_day() -> None:
    s = make_schedule("forum")
    assert first_deadline(s, msk(18)) == msk(21, day=11)


def test_R1_next_deadline_is_next_day_and_missed_deadline_gives_a_whole_turn() -> None:
    s = make_schedule("forum")
    assert next_deadline(s, msk(21), msk(21, 1)) == msk(21, day=11)
    # The bot was down for two days: the next turn still lasts until a future deadline.
    assert next_deadline(s, msk(21), msk(22, day=12)) == msk(21, day=13)
    # Back at 19:00 after a missed deadline: not a two-hour turn, the next day's 21:00.
    assert next_deadline(s, msk(21), msk(19, day=12)) == msk(21, day=13)


def test_R1_time_zone_is_per_game() -> None:
    s = make_schedule("forum", "Europe/London")
    start = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
    assert first_deadline(s, start) == datetime(2026, 1, 5, 21, 0, tzinfo=UTC)


def test_R4_hunts_open_at_noon_of_the_deadline_day() -> None:
    s = make_schedule("forum")
    deadline = msk(21)
    assert not hunts_open(s, deadline, msk(11, 59))
    assert hunts_open(s, deadline, msk(12))


def test_R1_fast_schedule_uses_minutes() -> None:
    s = make_schedule("fast", turn_minutes=10)
    now = msk(10)
    d = first_deadline(s, now)
    assert d == now + timedelta(minutes=10)
    assert not hunts_open(s, d, now + timedelta(minutes=4))
    assert hunts_open(s, d, now + timedelta(minutes=5))
    assert s.pistol_window == timedelta(minutes=1)
    assert make_schedule("forum").pistol_window == timedelta(hours=1)


@pytest.mark.parametrize(
    ("kind", "tz", "code"),
    [("weekly", "UTC", "bad_schedule"), ("forum", "Mars/Olympus", "bad_timezone")],
)
def test_bad_schedule_is_refused_with_a_code(kind: str, tz: str, code: str) -> None:
    with pytest.raises(ScheduleError) as err:
        make_schedule(kind, tz)
    assert err.value.code == code


def test_schedule_round_trips_through_a_dict() -> None:
    s = make_schedule("fast", "Asia/Tokyo", turn_minutes=3)
    assert type(s).from_dict(s.to_dict()) == s


GAME = [
    ("Boss", "boss"),
    ("Mafi", "mafioso"),
    ("Kid", "foundling"),
    ("Com", "commissar"),
    ("Sarge", "sergeant"),
    ("Doc", "doctor"),
    ("V1", "villager"),
    ("V2", "villager"),
    ("Mob", "mafioso"),
]


def test_R22_foundling_is_told_he_is_a_villager_and_not_in_the_team() -> None:
    game = Game.new(GAME)
    card = role_card(game.state, "Kid")
    assert card.role == "villager"
    assert card.faction == "town"
    assert card.team == ()
    assert role_card(game.state, "Boss").team == ("Boss", "Mafi", "Mob")


def test_R19_sergeant_knows_the_commissar_and_R14_only_mafia_know_the_team() -> None:
    game = Game.new(GAME)
    assert role_card(game.state, "Sarge").commissar == "Com"
    assert role_card(game.state, "V1").team == ()
    assert role_card(game.state, "V1").commissar is None


def test_R22_converted_foundling_joins_the_team_card() -> None:
    game = Game.new(GAME)
    game.resolve_and_finish()
    game.submit(Request("V1", "hunt", target="Boss"))
    game.resolve_and_finish()
    card = role_card(game.state, "Kid")
    assert card.faction == "mafia"
    assert "Kid" in role_card(game.state, "Mafi").team
    assert "kill" in card.verbs


def test_autocomplete_targets_only_living_and_not_own_mafia() -> None:
    game = Game.new(GAME)
    assert "Mafi" not in valid_targets(game.state, "Boss", "kill")
    assert "Kid" in valid_targets(game.state, "Boss", "kill")  # R22, R55
    assert "Doc" in valid_targets(game.state, "Doc", "heal")
    assert "Com" not in valid_targets(game.state, "Com", "check")


def test_R19_sergeant_gets_the_check_of_the_night_the_commissar_is_killed() -> None:
    from rules.pipeline import resolve_turn

    game = Game.new(GAME)
    game.submit(Request("Mafi", "kill", target="Com"))
    game.submit(Request("Com", "check", target="Mafi"))
    result = resolve_turn(game.state)
    [check] = result.checks
    assert check.result == "mafia"
    assert check.recipients == ("Com", "Sarge")
    assert [p.player for p in result.promotions] == ["Sarge"]
