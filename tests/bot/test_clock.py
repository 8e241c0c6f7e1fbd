"""The game clock without Discord: it wakes at the earliest deadline, resolves what is due
(at once when the deadline already passed, as after a restart) and delivers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import GameClock
from bot.render import resolve_preview
from core.clock import Event, due_events, last_hour_at, still_due
from core.i18n import Lang, t
from core.service import GameService
from db.store import SQLiteStore
from rules.schedule import make_schedule

START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


class Deliveries:
    """Counts the deliveries the clock asks for (no Discord here)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.deliveries = 0

    async def deliver(self) -> None:
        self.deliveries += 1


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def test_a_deadline_already_past_is_resolved_at_once(store: SQLiteStore) -> None:
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


async def test_nothing_to_do_without_a_running_game(store: SQLiteStore) -> None:
    bot = Deliveries(GameService(store, clock=lambda: START))
    clock = GameClock(bot.service, bot.deliver)
    assert clock.next_deadline() is None
    clock.rearm()
    await asyncio.sleep(0)
    assert bot.deliveries == 0
    clock.stop()


async def test_R4_the_clock_wakes_for_each_timed_event_in_order(store: SQLiteStore) -> None:
    """Forum schedule, turn 2: hunts open at 12:00 (R4), reminders at 18:00 (R31, R52),
    the last hour at 20:00, the deadline at 21:00; each acted on once, also after a restart."""
    now = [datetime(2026, 3, 10, 9, 0, tzinfo=UTC)]
    service = GameService(store, clock=lambda: now[0])
    await service.new_game(
        1, 99, "forum", "UTC", roles="mafioso=1 doctor=1 villager=2", activity_rules=False
    )
    for uid in range(1, 5):
        await service.join(1, uid)
    live = await service.start(1)
    first = live.record.deadline
    assert first == datetime(2026, 3, 10, 21, 0, tzinfo=UTC)
    clock = GameClock(service, Deliveries(service).deliver)
    # Turn 1 (R3: no hunts): reminders, the last hour, the deadline.
    event = clock.next_event()
    assert event is not None and (event.at, event.kind) == (first - timedelta(hours=3), "reminder")
    now[0] = first
    await service.deadline_reached(live.id)
    second = live.record.deadline
    assert second == first + timedelta(days=1)
    seen = []
    for _ in range(4):
        event = clock.next_event()
        assert event is not None
        seen.append((event.at.hour, event.kind))
        now[0] = event.at
        if event.kind is Event.DEADLINE:
            break
        if event.kind is Event.REMINDER:
            await service.send_reminders(live.id)
        else:
            assert await service.timed_notice(live.id, event.kind)
            assert not await service.timed_notice(live.id, event.kind)  # once
            if event.kind is Event.HUNTS_OPEN:  # a restart does not queue it again
                restarted = GameService(store, clock=lambda: now[0])
                [again] = await restarted.load()
                assert not await restarted.timed_notice(again.id, event.kind)
    assert seen == [(12, "hunts_open"), (18, "reminder"), (20, "last_hour"), (21, "deadline")]
    kinds = [o.kind for o in await store.outbox(live.id) if o.turn == 2]
    assert kinds.count("hunts_open") == 1 and kinds.count("last_hour") == 1
    # Fast turns: the last hour only for turns longer than two hours.
    assert last_hour_at(make_schedule("fast", turn_minutes=120), second) is None
    assert last_hour_at(make_schedule("fast", turn_minutes=121), second) == second - timedelta(
        hours=1
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R52_the_resolve_preview_of_99_silent_players_fits_one_message(
    store: SQLiteStore, lang: Lang
) -> None:
    service = GameService(store, clock=lambda: START)
    await service.new_game(1, 999, "fast", "UTC", roles="mafioso=25 villager=74")
    for uid in range(1, 100):
        await service.join(1, uid)
    live = await service.start(1)
    preview = resolve_preview(lang, live)
    assert len(preview) <= 2000  # Discord's limit for a message
    shown = preview.splitlines()[1]
    assert live.players[0].nick in shown and t(lang, "host.and_more", count=99)[:3] in shown


async def test_games_sharing_a_deadline_are_resolved_in_one_wake_up(store: SQLiteStore) -> None:
    """A thousand games share the forum's 21:00 deadline: the clock collects every event due
    in one look at the games and acts on each (core.clock.due_events), re-checking each just
    before acting, so a game whose host moved its deadline meanwhile is left alone."""
    now = [START]
    service = GameService(store, clock=lambda: now[0])
    games = []
    for guild in (1, 2, 3):
        await service.new_game(
            guild, 99, "fast", "UTC", roles="mafioso=1 doctor=1 villager=2", activity_rules=False
        )
        for uid in range(1, 5):
            await service.join(guild, guild * 100 + uid)
        games.append(await service.start(guild))
    deadline = games[0].record.deadline
    assert deadline is not None and all(g.record.deadline == deadline for g in games)
    now[0] = deadline + timedelta(seconds=1)
    due = due_events(service.live.values(), now[0])
    assert [(e.game_id, e.kind) for e in due] == [(g.id, Event.DEADLINE) for g in games]
    # The host of the third game extends it before the clock reaches it in the batch.
    await service.extend(3, 1, 30)
    assert [still_due(g, e, now[0]) for g, e in zip(games, due, strict=True)] == [
        True,
        True,
        False,
    ]
    bot = Deliveries(service)
    clock = GameClock(service, bot.deliver)
    clock.rearm()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if bot.deliveries >= 2:
            break
    clock.stop()
    resolved = {g.id: [r.turn for r in await store.resolutions(g.id)] for g in games}
    assert resolved == {games[0].id: [1], games[1].id: [1], games[2].id: []}


async def test_R4_R31_a_restart_in_the_forum_day_asks_the_store_once_per_notice(
    store: SQLiteStore,
) -> None:
    """Restarted at 19:30 in the forum day (R4: hunts opened at 12:00; R31: reminders at
    18:00): the games' notices of the turn queued before the restart come with the games
    (one batch read, ``RestartGame.turn_notices``), so the re-armed clock asks the store
    nothing for them; only what the batch did not find (one game's reminders) is looked up
    once (``last_outbox``) before it is queued; no game's whole outbox is read, nothing is
    queued twice; then it sleeps until the last hour (20:00)."""
    now = [datetime(2026, 3, 10, 9, 0, tzinfo=UTC)]
    service = GameService(store, clock=lambda: now[0])
    games = []
    for guild in (1, 2, 3):
        await service.new_game(
            guild, 99, "forum", "UTC", roles="mafioso=1 doctor=1 villager=2", activity_rules=False
        )
        for uid in range(1, 5):
            await service.join(guild, guild * 100 + uid)
        games.append(await service.start(guild))
    now[0] = datetime(2026, 3, 10, 21, 0, tzinfo=UTC)
    for game in games:
        await service.deadline_reached(game.id)  # turn 2, deadline 21:00 the next day
    now[0] = datetime(2026, 3, 11, 19, 30, tzinfo=UTC)
    for game in games:
        assert await service.timed_notice(game.id, Event.HUNTS_OPEN)
    for game in games[:2]:  # the third game's reminders were due but not queued yet
        assert await service.send_reminders(game.id) > 0
    before = {g.id: await store.outbox(g.id) for g in games}

    restarted = GameService(store, clock=lambda: now[0])
    statements: list[str] = []
    await store._db.set_trace_callback(statements.append)
    try:
        await restarted.load()
        clock = GameClock(restarted, Deliveries(restarted).deliver)
        clock.rearm()
        for _ in range(200):
            await asyncio.sleep(0.01)
            if clock._sleeping:
                break
    finally:
        await store._db.set_trace_callback(None)
    assert clock._sleeping
    event = clock.next_event()
    assert event is not None and (event.at.hour, event.kind) == (20, Event.LAST_HOUR)
    clock.stop()
    whole = [s for s in statements if "FROM outbox WHERE game_id" in s]
    assert whole == [], whole  # no game's whole outbox read
    lookups = [s for s in statements if "FROM outbox WHERE kind" in s]
    assert len(lookups) == 1, lookups  # the third game's reminders, before queuing them
    for game in games:
        after = await store.outbox(game.id)
        added = [o.kind for o in after[len(before[game.id]) :]]
        assert added == ([] if game is not games[2] else ["reminder"] * len(added)), added
    assert any(o.kind == "reminder" and o.turn == 2 for o in await store.outbox(games[2].id))
