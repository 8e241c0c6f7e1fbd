"""The game clock without Discord: it wakes at the earliest deadline, resolves what is due
(at once when the deadline already passed, as after a restart) and delivers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import GameClock
from core.service import GameService
from db.store import Store

START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


class Deliveries:
    """Counts the deliveries the clock asks for (no Discord here)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.deliveries = 0

    async def deliver(self) -> None:
        self.deliveries += 1


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "game.db")
    yield s
    await s.close()


async def test_a_deadline_already_past_is_resolved_at_once(store: Store) -> None:
    now = [START]
    service = GameService(store, clock=lambda: now[0])
    await service.new_game(
        1, 99, "fast", "UTC", roles="mafioso=1 doctor=1 villager=2", activity_rules=False
    )
    for uid in range(1, 5):
        await service.join(1, uid)
    live = await service.start(1)
    assert live.record.deadline == START + timedelta(minutes=10)

    # The bot was down past the deadline: a new service loads the game, the clock resolves it.
    now[0] = START + timedelta(hours=1)
    restarted = GameService(store, clock=lambda: now[0])
    [game] = await restarted.load()
    bot = Deliveries(restarted)
    clock = GameClock(bot.service, bot.deliver)
    clock.rearm()
    for _ in range(50):
        await asyncio.sleep(0.01)
        if bot.deliveries:
            break
    assert bot.deliveries == 1
    assert [r.turn for r in await store.resolutions(game.id)] == [1]
    # Next: turn 2's reminders (R31, R52), two minutes before its deadline.
    assert clock.next_deadline() == (now[0] + timedelta(minutes=8), game.id, True)
    clock.stop()


async def test_nothing_to_do_without_a_running_game(store: Store) -> None:
    bot = Deliveries(GameService(store, clock=lambda: START))
    clock = GameClock(bot.service, bot.deliver)
    assert clock.next_deadline() is None
    clock.rearm()
    await asyncio.sleep(0)
    assert bot.deliveries == 0
    clock.stop()
