"""R59, downtime, on the real stores (SQLite and PostgreSQL): the heartbeat kept in the store
survives a crash; the time the bot could not serve a game is measured at the turn's deadline;
a turn that lost a tenth of its length or more removes nobody for inactivity (R52) and charges
no missed vote (R53), says so with its results, and the hosts get the downtime in #host; a
deadline missed while the bot was down is resolved once, at start; a rebuild from the log
decides the same."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import attrs

from core.service import (
    DOWNTIME_GAP,
    HEARTBEAT_SECONDS,
    MAX_BEAT_SECONDS,
    GameService,
    beat_period,
    downtime_gap,
)
from db.interface import GameStore
from tests.integration.test_service import GUILD, HOST, FakeClock

ROLES = "mafioso=1 commissar=1 villager=2"


async def activity_game(service: GameService, minutes: int = 10) -> int:
    """Four players, activity rules on (R52, R53), a fast game: 10-minute turns."""
    await service.new_game(
        GUILD,
        HOST,
        "fast",
        "UTC",
        roles=ROLES,
        seed=11,
        activity_rules=True,
        turn_minutes=minutes,
    )
    for uid in range(1, 5):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    return live.id


async def beats(service: GameService, clock: FakeClock, minutes: float) -> None:
    """The bot runs and beats every half minute for ``minutes``."""
    for _ in range(int(minutes * 2)):
        clock.advance(seconds=30)
        await service.heartbeat("all", cause="discord")


def kinds(rows: list[Any]) -> list[tuple[str, str]]:
    return [(r.kind, r.payload["audience"]) for r in rows]


async def test_R59_a_restart_that_lost_a_tenth_of_the_turn_removes_nobody(
    store: GameStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await service.load()
    await service.heartbeat("all", cause="down")
    game_id = await activity_game(service)
    await beats(service, clock, 2)
    # The process dies here (no more beats); a new one starts three minutes later.
    clock.advance(minutes=3)
    restarted = GameService(store, clock)
    [live] = await restarted.load()
    assert await restarted.heartbeat("all", cause="down") is not None
    await beats(restarted, clock, 4)
    assert live.record.deadline is not None
    clock.now = live.record.deadline
    await restarted.deadline_reached(game_id, if_due=True)
    assert live.engine.turn == 2
    assert len(live.engine.state.living()) == 4  # nobody posted, nobody removed (R59)
    rows = [r for r in await store.outbox(game_id) if r.turn == 1]
    order = kinds(rows)
    assert order.index(("results", "public")) + 1 == order.index(("downtime", "public"))
    [public] = [r for r in rows if r.kind == "downtime"]
    assert public.payload["payload"] == {"turn": 1, "minutes": 3}
    [hosts] = [r for r in rows if r.kind == "downtime_host"]
    assert hosts.payload["audience"] == "host"
    assert hosts.payload["payload"] == {"turn": 1, "minutes": 3, "percent": 30, "excused": True}
    # The log holds the measure: a rebuild from the store decides the same.
    again = GameService(store, clock)
    [rebuilt] = await again.load()
    fresh = await again._rebuild(rebuilt.record)
    assert len(fresh.engine.state.living()) == 4
    # Turn 2 with no downtime: nobody posts, everyone leaves (R52) as usual.
    await beats(again, clock, 10)
    clock.now = max(clock.now, rebuilt.record.deadline or clock.now)
    await again.deadline_reached(game_id, if_due=True)
    assert again.game_in(GUILD) is None  # the game ended: nobody was left
    later = [r for r in await store.outbox(game_id) if r.turn == 2]
    assert not [r for r in later if r.kind.startswith("downtime")]


async def test_R59_a_short_outage_is_told_to_the_hosts_only(
    store: GameStore, clock: FakeClock
) -> None:
    """Less than a tenth of a 30-minute turn lost: R52 removes as usual, the players hear
    nothing of it, the hosts get the downtime."""
    service = GameService(store, clock)
    await service.heartbeat("all", cause="down")
    game_id = await activity_game(service, minutes=30)
    live = service.game_in(GUILD)
    assert live is not None and live.record.deadline is not None
    await service.submit(GUILD, 1, {"do": "post"})
    await service.submit(GUILD, 2, {"do": "post"})
    await service.submit(GUILD, 3, {"do": "post"})
    clock.advance(seconds=40)
    await service.heartbeat("all", cause="discord")
    clock.advance(seconds=40 + DOWNTIME_GAP.total_seconds())  # Discord did not answer
    await service.heartbeat("all", cause="discord")
    clock.now = live.record.deadline
    await service.deadline_reached(game_id, if_due=True)
    removed = [n for n, p in live.engine.state.players.items() if not p.alive]
    assert removed == [live.nick_of(4)]
    rows = [r for r in await store.outbox(game_id) if r.turn == 1]
    assert ("downtime", "public") not in kinds(rows)
    [hosts] = [r for r in rows if r.kind == "downtime_host"]
    assert hosts.payload["payload"] == {"turn": 1, "minutes": 3, "percent": 7, "excused": False}


async def test_R59_a_deadline_missed_while_down_is_resolved_once_at_start(
    store: GameStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await service.heartbeat("all", cause="down")
    game_id = await activity_game(service)
    await beats(service, clock, 5)
    live = service.game_in(GUILD)
    assert live is not None and live.record.deadline is not None
    deadline = live.record.deadline
    clock.now = deadline + timedelta(minutes=7)  # the bot was down over the deadline
    restarted = GameService(store, clock)
    [again] = await restarted.load()
    await restarted.heartbeat("all", cause="down")  # first, before the clock acts
    await restarted.deadline_reached(game_id, if_due=True)
    await restarted.deadline_reached(game_id, if_due=True)
    assert [r.turn for r in await store.resolutions(game_id)] == [1]
    assert again.engine.turn == 2 and len(again.engine.state.living()) == 4
    [hosts] = [r for r in await store.outbox(game_id) if r.kind == "downtime_host"]
    assert hosts.payload["payload"]["minutes"] == 5  # within the turn: up to its deadline
    assert hosts.payload["payload"]["excused"] is True


async def test_R59_the_beats_follow_the_shortest_running_turn(
    store: GameStore, clock: FakeClock
) -> None:
    """The heartbeat's pace: ten minutes with no game, a minute for ten-minute turns (a gap
    of 90 s is downtime: two minutes down are seen), never slower than ten minutes."""
    service = GameService(store, clock)
    assert beat_period(service.live.values()) == MAX_BEAT_SECONDS
    await activity_game(service)
    assert beat_period(service.live.values()) == HEARTBEAT_SECONDS == 60
    assert downtime_gap(HEARTBEAT_SECONDS) == DOWNTIME_GAP == timedelta(seconds=90)
    [game] = service.live.values()
    game.schedule = attrs.evolve(game.schedule, turn_minutes=24 * 60)  # a day-long fast turn
    assert beat_period(service.live.values()) == MAX_BEAT_SECONDS
    game.schedule = attrs.evolve(game.schedule, turn_minutes=200)
    assert beat_period(service.live.values()) == 120
