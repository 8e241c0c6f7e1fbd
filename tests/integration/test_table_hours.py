"""R61, the table's hours through the game service on both engines: the hours the host sets are
stored with the game and survive a restart (a new store and service on the same database), the
deadline of every turn follows them, also after the bot was down (R59), and hours that make no
sense are refused without opening anything."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.clock import Event, game_events
from core.service import GameService, ServiceError
from db.interface import GameStore
from db.store import open_store
from rules.schedule import make_schedule
from tests.integration.test_service import HOST, FakeClock

BERLIN = ZoneInfo("Europe/Berlin")
TABLE = 7
ROLES = "mafioso=1 commissar=1 villager=2"


def berlin(month: int, day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2026, month, day, hh, mm, tzinfo=BERLIN).astimezone(UTC)


async def test_R61_the_hosts_hours_survive_a_restart_and_shape_every_deadline(
    store: GameStore, target: str
) -> None:
    clock = FakeClock()
    clock.now = berlin(3, 27, 9)  # Friday 27 March 2026; Berlin springs forward on Sunday
    service = GameService(store, clock)
    await service.new_game(
        TABLE,
        HOST,
        "forum",
        "Europe/Berlin",
        roles=ROLES,
        seed=5,
        activity_rules=False,
        deadline="18:30",
        hunts_from="17:00",
        turn_days=2,
        days_off="сб вс",
    )
    for uid in range(1, 5):
        await service.join(TABLE, uid)
    live = await service.start(TABLE)
    hours = make_schedule(
        "forum",
        "Europe/Berlin",
        deadline=time(18, 30),
        hunt_open=time(17),
        turn_days=2,
        days_off={5, 6},
    )
    assert live.schedule == hours
    # Two days from Friday's 18:30 is Saturday: a day off, so Monday 18:30 (summer time now).
    assert live.record.deadline == berlin(3, 30, 18, 30)

    # A restart: another store and service on the same database read the same hours.
    other = await open_store(target)
    try:
        fresh = GameService(other, clock)
        await fresh.load()
        restored = fresh.live[live.id]
        assert restored.schedule == hours
        assert restored.record.deadline == berlin(3, 30, 18, 30)
        moments = {e.kind: e.at for e in game_events(restored, clock.now)}
        assert moments[Event.REMINDER] == berlin(3, 30, 15, 30)  # three hours before
        assert moments[Event.LAST_HOUR] == berlin(3, 30, 17, 30)
        assert Event.HUNTS_OPEN not in moments  # R3: turn 1 has no hunts

        # The bot was down over the deadline: turn 1 is resolved two hours late, and turn 2
        # still gets two whole days from then, to Wednesday 18:30, its hunts from 17:00.
        clock.now = berlin(3, 30, 20, 30)
        await fresh.deadline_reached(live.id)
        restored = fresh.live[live.id]
        assert restored.engine.turn == 2
        assert restored.record.deadline == berlin(4, 1, 18, 30)
        moments = {e.kind: e.at for e in game_events(restored, clock.now)}
        assert moments[Event.HUNTS_OPEN] == berlin(4, 1, 17)
    finally:
        await other.close()


@pytest.mark.parametrize(
    ("kind", "options", "key"),
    [
        ("forum", {"hunts_from": "22:00"}, "error.bad_hunt_time"),
        ("forum", {"deadline": "9 pm"}, "error.bad_time"),
        ("forum", {"days_off": "mon tue wed thu fri sat sun"}, "error.no_working_day"),
        ("forum", {"days_off": "weekend"}, "error.bad_days_off"),
        ("forum", {"turn_days": 9}, "error.bad_turn_days"),
        ("fast", {"deadline": "18:30"}, "error.fast_hours"),
    ],
)
async def test_R61_hours_that_make_no_sense_open_nothing(
    store: GameStore, kind: str, options: dict[str, object], key: str
) -> None:
    service = GameService(store, FakeClock())
    with pytest.raises(ServiceError) as err:
        await service.new_game(TABLE, HOST, kind, "Europe/Berlin", **options)  # type: ignore[arg-type]
    assert err.value.key == key
    assert await store.open_game(TABLE) is None


async def test_R61_a_host_who_sets_nothing_plays_the_originals_hours(store: GameStore) -> None:
    clock = FakeClock()  # 09:00 in Moscow
    service = GameService(store, clock)
    await service.new_game(TABLE, HOST, "forum", "Europe/Moscow", roles=ROLES, seed=5)
    for uid in range(1, 5):
        await service.join(TABLE, uid)
    live = await service.start(TABLE)
    assert live.schedule == make_schedule("forum")
    assert live.record.deadline == clock.now + timedelta(hours=12)  # 21:00 the same day
