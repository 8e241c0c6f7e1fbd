"""Restart from snapshots: the service on a real SQLite file.

Each resolution commits the game's state with it (migration 6, ``snapshots``); the start loads
every running game with one batch of reads (``load_restart``) and replays only the current
turn's log on top of its snapshot. The log stays the truth: the game restored so equals the
game rebuilt from its full log, and a snapshot that is missing, stale or of another format is
not used.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from core.service import GameService, LiveGame
from db.store import SQLiteStore
from rules.engine import rebuild
from rules.model import HostAction
from tests.db.conftest import raw_rows
from tests.integration.test_service import GUILD, HOST, FakeClock

ROLES = "mafioso=2 commissar=1 doctor=1 villager=4"
PLAYERS = 8


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "game.db"


@pytest.fixture
async def store(path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(path)
    yield s
    await s.close()


async def _play(service: GameService, clock: FakeClock, table: int, turns: int) -> LiveGame:
    """A game at ``table`` with ``turns`` resolved turns (posts, votes, a kill and a heal on
    one villager: nobody dies) and requests standing in the next one."""
    await service.new_game(table, HOST, "fast", "UTC", roles=ROLES, seed=table, activity_rules=True)
    for uid in range(1, PLAYERS + 1):
        await service.join(table, table * 100 + uid)
    live = await service.start(table)
    for turn in range(1, turns + 2):
        state = live.engine.state
        for i, p in enumerate(live.players):
            await service.post(table, p.user_id, f"turn {turn}")
            if turn > 1:
                target = live.players[(i + 1) % PLAYERS].nick
                await service.submit(table, p.user_id, {"do": "vote", "target": target})
        if turn == turns + 1:
            break
        villagers = [p.nick for p in live.players if state.players[p.nick].role == "villager"]
        victim = villagers[turn % len(villagers)]  # R20: never the same heal twice running
        for p in live.players:
            role = state.players[p.nick].role
            if role == "mafioso":
                await service.submit(table, p.user_id, {"do": "kill", "target": victim})
            elif role == "doctor":
                await service.submit(table, p.user_id, {"do": "heal", "target": victim})
        clock.now = live.record.deadline or clock.now
        await service.deadline_reached(live.id)
        assert service.live[live.id] is live and live.engine.turn == turn + 1
    return live


def _view(live: LiveGame) -> Any:
    return (live.engine.state, live.engine.history, live.players, live.record)


async def _full_log_game(store: SQLiteStore, live: LiveGame) -> Any:
    """The game rebuilt from its whole log, as a store without snapshots would give it."""
    entries = await store.log_entries(live.id, accepted_only=True)
    rec = await store.require_game(live.id)
    return rebuild(
        [(p.nick, p.role) for p in live.players],
        rec.seed,
        rec.activity_rules,
        [(e.turn, e.section, e.payload) for e in entries],
        {r.turn for r in await store.resolutions(live.id)},
        {rec.turn} if rec.phase == "pistol" else set(),
    ).state


async def test_a_resolution_commits_the_state_the_next_turn_starts_from(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    live = await _play(service, clock, GUILD, turns=2)
    rows = await raw_rows(str(store.path), "SELECT game_id, turn, state FROM snapshots")
    assert [(game_id, turn) for game_id, turn, _ in rows] == [(live.id, 3)]
    [item] = await store.load_restart()
    assert item.snapshot == json.loads(str(rows[0][2]))
    # Only the current turn's entries are read: the rest is in the snapshot.
    assert item.log and {turn for turn, _, _ in item.log} == {3}
    assert item.resolved_turns == {1, 2} and item.cards_queued


async def test_restart_from_the_snapshot_equals_the_full_log(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    games = [await _play(service, clock, GUILD + t, turns=t) for t in range(3)]
    fresh = GameService(store, clock)
    await fresh.load()
    assert sorted(fresh.live) == sorted(g.id for g in games)
    for live in games:
        restored = fresh.live[live.id]
        assert _view(restored) == _view(live)
        assert restored.engine.state == await _full_log_game(store, live)


@pytest.mark.parametrize("damage", ["missing", "stale", "other format", "other setup"])
async def test_an_unusable_snapshot_falls_back_to_the_full_log(
    store: SQLiteStore, clock: FakeClock, path: Path, damage: str
) -> None:
    service = GameService(store, clock)
    live = await _play(service, clock, GUILD, turns=2)
    conn = sqlite3.connect(path, isolation_level=None)
    if damage == "missing":  # an old database: no snapshot was ever kept
        conn.execute("DELETE FROM snapshots")
    elif damage == "stale":  # a resolution recorded without one: the kept one is older
        conn.execute("UPDATE snapshots SET turn = turn - 1")
    elif damage == "other format":  # an older build's snapshot
        conn.execute("UPDATE snapshots SET state = json_set(state, '$.format', 0)")
    else:  # the state of another game: the seats do not match
        conn.execute("UPDATE snapshots SET state = json_set(state, '$.seed', 12345)")
    conn.close()
    [item] = await store.load_restart()
    if damage in ("missing", "stale"):
        assert item.snapshot is None
        assert {turn for turn, _, _ in item.log} == {1, 2, 3}  # the whole log instead
    fresh = GameService(store, clock)
    await fresh.load()
    assert _view(fresh.live[live.id]) == _view(live)


async def test_the_start_reads_with_the_same_queries_for_one_game_or_many(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """Batch reads: no query per game (one per kind of row, for every running game)."""
    service = GameService(store, clock)
    await _play(service, clock, GUILD, turns=1)

    async def statements() -> list[str]:
        seen: list[str] = []
        await store._db.set_trace_callback(seen.append)
        try:
            await GameService(store, clock).load()
        finally:
            await store._db.set_trace_callback(None)
        return seen[:-1]  # the last is the call that removes the callback

    one = await statements()
    for table in range(GUILD + 1, GUILD + 4):
        await _play(service, clock, table, turns=2)
    many = await statements()
    assert len(service.live) == 4
    assert many == one
    assert len(one) <= 10  # BEGIN, seven SELECTs, COMMIT


async def test_a_finished_game_keeps_no_snapshot(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    live = await _play(service, clock, GUILD, turns=1)
    assert await raw_rows(str(store.path), "SELECT 1 FROM snapshots WHERE game_id = ?", live.id)
    await service.end(GUILD, HOST)
    assert not await raw_rows(str(store.path), "SELECT 1 FROM snapshots")


@pytest.mark.parametrize("closed", [False, True], ids=["in the window", "window closed"])
async def test_R18_R36_R54_host_commands_in_a_pistol_window_survive_a_restart(
    store: SQLiteStore, clock: FakeClock, closed: bool
) -> None:
    """Host commands given while a killed commissar may shoot take effect from the next turn
    and are logged there; the live game applied them between the shots. A restart (in the
    window, or after it closed with a shot at the deprived player) gives the same game, from
    the snapshot and from the full log."""
    service = GameService(store, clock)
    roles = "mafioso=2 commissar=1 villager=5"
    await service.new_game(GUILD, HOST, "fast", "UTC", roles=roles, seed=3, activity_rules=False)
    for uid in range(1, PLAYERS + 1):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    role = {p.user_id: live.engine.state.players[p.nick].role for p in live.players}
    commissar = next(p for p in live.players if role[p.user_id] == "commissar")
    villager = next(p for p in live.players if role[p.user_id] == "villager")
    for p in live.players:
        if role[p.user_id] == "mafioso":
            await service.submit(GUILD, p.user_id, {"do": "kill", "target": commissar.nick})
    clock.now = live.record.deadline or clock.now
    await service.deadline_reached(live.id)
    assert live.engine.phase.value == "pistol"
    await service.host_action(GUILD, HOST, HostAction(do="deprive_vote", player=villager.nick))
    await service.host_action(GUILD, HOST, HostAction(do="double_kill"))
    if closed:  # the only shot closes the window: the deprived villager dies after the command
        await service.submit(GUILD, commissar.user_id, {"do": "shoot", "target": villager.nick})
        assert live.engine.turn == 2 and not live.engine.state.players[villager.nick].alive
        [item] = await store.load_restart()
        assert item.snapshot is not None and item.log == []  # the commands are in its state
    fresh = GameService(store, clock)
    await fresh.load()
    assert _view(fresh.live[live.id]) == _view(live)
    assert live.engine.state == await _full_log_game(store, live)
