"""The host's clock changes and double kill are announced (R56, R36): the outbox row is
committed with the change, on a real SQLite file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from core.service import GameService
from db.store import SQLiteStore
from rules.model import HostAction, Phase
from tests.integration.test_service import GUILD, HOST, START, FakeClock, started


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def _drain(store: SQLiteStore) -> None:
    for row in await store.pending_outbox():
        await store.mark_sent(row.id)


async def _queued(store: SQLiteStore) -> list[tuple[str, str, object]]:
    return [
        (o.kind, o.payload["audience"], o.payload["payload"]) for o in await store.pending_outbox()
    ]


async def test_R56_extend_pause_resume_queue_a_public_notice(
    store: SQLiteStore, tmp_path: Path
) -> None:
    clock = FakeClock()
    service = GameService(store, clock)
    await started(service, "mafioso=1 doctor=1 villager=2", 4)
    await _drain(store)
    extended = await service.extend(GUILD, HOST, 5)
    assert extended == START + timedelta(minutes=15)
    assert await _queued(store) == [  # the audit line for #host in the same transaction
        ("audit", "host", {"command": "extend", "actor": HOST, "args": {"minutes": 5}}),
        ("clock_extended", "public", {"deadline": extended.isoformat()}),
    ]
    await _drain(store)
    clock.advance(minutes=3, seconds=30)  # 11.5 minutes left: told as 12
    await service.pause(GUILD, HOST)
    assert await _queued(store) == [
        ("audit", "host", {"command": "pause", "actor": HOST, "args": {}}),
        ("clock_paused", "public", {"minutes": 12}),
    ]
    await _drain(store)
    clock.advance(hours=2)
    resumed = await service.resume(GUILD, HOST)
    assert await _queued(store) == [
        ("audit", "host", {"command": "resume", "actor": HOST, "args": {}}),
        ("clock_resumed", "public", {"deadline": resumed.isoformat()}),
    ]
    # Committed with the change: another connection to the file finds both.
    other = await SQLiteStore.open(tmp_path / "game.db")
    try:
        game = await other.get_game(1)
        assert game is not None and game.deadline == resumed and not game.paused
        assert [k for k, _a, _p in await _queued(other)] == ["audit", "clock_resumed"]
    finally:
        await other.close()


async def test_R36_double_kill_is_told_to_the_mafia_room_only(store: SQLiteStore) -> None:
    clock = FakeClock()
    service = GameService(store, clock)
    await started(service, "mafioso=1 doctor=1 villager=2", 4)
    await _drain(store)
    await service.host_action(GUILD, HOST, HostAction("double_kill"))
    audit = (
        "audit",
        "host",
        {"command": "double_kill", "actor": HOST, "args": {"do": "double_kill"}},
    )
    assert await _queued(store) == [audit, ("double_kill", "mafia", {"night": "this"})]


async def test_R36_double_kill_after_requests_close_is_for_the_next_night(
    store: SQLiteStore,
) -> None:
    clock = FakeClock()
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    live = service.game_in(GUILD)
    assert live is not None
    commissar = live.nick_of(roles["commissar"])
    await service.submit(GUILD, roles["mafioso"], {"do": "kill", "target": commissar})
    clock.now = live.record.deadline or clock.now
    await service.deadline_reached(live.id)
    assert live.engine.phase is Phase.PISTOL  # R18: requests are closed
    await _drain(store)
    await service.host_action(GUILD, HOST, HostAction("double_kill"))
    audit = (
        "audit",
        "host",
        {"command": "double_kill", "actor": HOST, "args": {"do": "double_kill"}},
    )
    assert await _queued(store) == [audit, ("double_kill", "mafia", {"night": "next"})]
