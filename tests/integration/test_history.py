"""core.history: a finished game as the archive, picture and stats read it, derived from the
stored log (a real SQLite file)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.history import load_finished
from core.service import GameService
from db.errors import NotFound
from db.store import SQLiteStore
from rules.model import HostAction

GUILD = 1
HOST = 999
NOW = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def _started(service: GameService, *, reveal: bool) -> int:
    await service.new_game(
        GUILD,
        HOST,
        "fast",
        "UTC",
        roles="mafioso=1 commissar=1 villager=2",
        seed=5,
        activity_rules=False,
        reveal=reveal,
    )
    for uid in range(1, 5):
        await service.join(GUILD, uid)
    return (await service.start(GUILD)).id


@pytest.mark.parametrize("reveal", [True, False])
async def test_R15_a_won_game_matches_its_final_announcement(
    store: SQLiteStore, reveal: bool
) -> None:
    service = GameService(store, lambda: NOW)
    game_id = await _started(service, reveal=reveal)
    live = service.game_in(GUILD)
    assert live is not None
    mafioso = next(p for p in live.players if p.role == "mafioso")
    await service.host_action(GUILD, HOST, HostAction("exclude", mafioso.nick))

    game = await load_finished(store, game_id)
    announced = next(o for o in await store.outbox(game_id) if o.kind == "game_over")
    payload = announced.payload["payload"]
    assert game.winner == "town" and game.summary["winner"] == "town"
    assert game.summary["roles"] == payload["roles"]  # the same facts, fates and members
    assert game.summary["reason"] == payload["reason"]
    assert [p["nick"] for p in game.script["players"]] == [p.nick for p in game.players]
    assert game.outcome["turns"][0]["deaths"][0]["cause"] == "excluded"
    # Members: named to others only when the host chose to reveal them.
    assert game.member_of(mafioso.nick) == (mafioso.user_id if reveal else None)
    assert all(("member" in r) == reveal for r in game.summary["roles"])
    assert game.members[mafioso.nick] == mafioso.user_id


async def test_a_game_ended_by_the_host_has_no_winner_and_a_cancelled_signup_is_no_game(
    store: SQLiteStore,
) -> None:
    service = GameService(store, lambda: NOW)
    game_id = await _started(service, reveal=True)
    await service.end(GUILD, HOST)
    game = await load_finished(store, game_id)
    assert game.winner is None and game.summary["reason"] == "host_ended"
    assert all(r["alive"] for r in game.summary["roles"])

    await service.new_game(GUILD, HOST, "fast", "UTC")
    cancelled = await service.end(GUILD, HOST)
    assert cancelled is not None
    with pytest.raises(NotFound):
        await load_finished(store, cancelled.id)  # a sign-up the host cancelled never played
    with pytest.raises(NotFound):
        await load_finished(store, 9999)
