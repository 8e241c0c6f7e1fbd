"""The service on a real SQLite file refuses what it cannot use: a blank post is not counted
(R52), a role list with more roles than a game seats is refused before it costs anything
(R43), a deadline is moved by a bounded number of minutes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.service import MAX_EXTEND_MINUTES, GameService, ServiceError
from db.store import SQLiteStore

GUILD = 1
HOST = 999
NOW = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await SQLiteStore.open(tmp_path / "game.db")
    yield GameService(store, lambda: NOW)
    await store.close()


async def started(service: GameService) -> None:
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 villager=3", seed=3, activity_rules=True
    )
    for uid in (1, 2, 3, 4):
        await service.join(GUILD, uid)
    await service.start(GUILD)


async def posts_logged(service: GameService) -> int:
    live = service.game_in(GUILD)
    assert live is not None
    entries = await service.store.log_entries(live.id)
    return sum(1 for e in entries if e.payload.get("do") == "post")


@pytest.mark.parametrize("text", ["", "   ", "\u200b\u200d", "\n\u3164\n"])
async def test_R52_a_blank_post_is_refused_and_not_counted(service: GameService, text: str) -> None:
    await started(service)
    with pytest.raises(ServiceError) as err:
        await service.post(GUILD, 1, text)
    assert err.value.key == "error.empty_text"
    live = service.game_in(GUILD)
    assert live is not None
    assert sum(live.engine.state.posts.values()) == 0
    assert await posts_logged(service) == 0


async def test_R52_a_post_with_text_counts(service: GameService) -> None:
    await started(service)
    assert await service.post(GUILD, 1, " hello\u200b ") is True
    live = service.game_in(GUILD)
    assert live is not None
    assert sum(live.engine.state.posts.values()) == 1
    assert await posts_logged(service) == 1


@pytest.mark.parametrize("roles", ["villager=1000000000000000000", "villager=8000000", "a=²"])
async def test_R43_a_huge_or_odd_role_list_is_refused(service: GameService, roles: str) -> None:
    await service.new_game(GUILD, HOST, "fast", "UTC")
    with pytest.raises(ServiceError) as err:
        await service.set_roles(GUILD, roles, None)
    assert err.value.key.startswith("error.setup.")
    with pytest.raises(ServiceError):
        await service.new_game(GUILD + 1, HOST, "fast", "UTC", roles=roles)


@pytest.mark.parametrize("minutes", [10**15, 2**53, MAX_EXTEND_MINUTES + 1, 0, -5])
async def test_extend_by_an_unbounded_number_of_minutes_is_refused(
    service: GameService, minutes: int
) -> None:
    await started(service)
    live = service.game_in(GUILD)
    assert live is not None
    before = live.record.deadline
    with pytest.raises(ServiceError) as err:
        await service.extend(GUILD, HOST, minutes)
    assert err.value.key == "error.bad_extend"
    assert live.record.deadline == before
    assert await service.extend(GUILD, HOST, MAX_EXTEND_MINUTES) > before  # type: ignore[operator]


@pytest.mark.parametrize("text", ["   ", "\u200b", "\n\u3164\n"])
async def test_R37_a_blank_death_note_is_refused_and_keeps_the_right(
    service: GameService, text: str
) -> None:
    await started(service)
    live = service.game_in(GUILD)
    assert live is not None
    nick = live.nick_of(1)
    to = next(p.nick for p in live.engine.state.living() if p.nick != nick)
    with pytest.raises(ServiceError) as err:
        await service.submit(GUILD, 1, {"do": "note", "to": to, "text": text})
    assert err.value.key == "error.empty_note"
    assert live.engine.state.players[nick].note is None
    await service.submit(GUILD, 1, {"do": "note", "to": to, "text": "It was the Raven."})
    assert live.engine.state.players[nick].note is not None
