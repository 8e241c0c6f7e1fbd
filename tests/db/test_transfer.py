"""``main.py migrate-store FROM TO`` (db/transfer.py): a whole store copied into an empty one,
SQLite to SQLite and SQLite to PostgreSQL and back, every game the same afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.errors import StoreError
from db.models import OutboxItem
from db.sqlite import migrations
from db.store import SQLiteStore, open_store
from db.transfer import TABLES, migrate_store
from main import main as cli
from tests import pgserver

from .conftest import game_script, running_game
from .crash_driver import play_game


async def _filled(path: Path, tmp_path: Path) -> dict[int, object]:
    """A store with a finished game, a running one with a pending announcement, a lobby and
    an audit record; returns every game's export."""
    store = await SQLiteStore.open(path)
    try:
        await play_game(store, 1, game_script(), tmp_path / "sent.log")
        running = await running_game(store, guild_id=2, seed=5)
        await store.add_request(running, 1, "requests", {"by": "Anna", "do": "post"}, 1000)
        await store.add_outbox(running, 1, [OutboxItem(kind="notice", payload={"text": "hi"})])
        lobby = await store.create_game(3, seed=9, schedule_kind="forum", timezone="Europe/Moscow")
        for user in (30, 10, 20):  # the sign-up order is not the order of the ids
            await store.add_signup(lobby.id, user)
        await store.add_audit(2, running, actor_id=7, command="extend", args={"hours": 2})
        return {g.id: await store.load_script(g.id) for g in await store.list_games()}
    finally:
        await store.close()


async def _snapshot(target: str) -> tuple[dict[int, object], list[object], list[object]]:
    store = await open_store(target)
    try:
        games = await store.list_games()
        scripts = {g.id: await store.load_script(g.id) for g in games}
        return (
            scripts,
            [(g.id, g.status, g.turn, g.table_id, await store.signups(g.id)) for g in games],
            [(r.id, r.kind, r.payload, r.sent) for g in games for r in await store.outbox(g.id)],
        )
    finally:
        await store.close()


def test_tables_are_the_whole_schema() -> None:
    assert set(TABLES) == migrations.expected_tables(migrations.LATEST_VERSION)


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return pgserver.fresh_url()
    return str(tmp_path / "copy.db")


async def test_copy_keeps_every_game_and_continues_ids(tmp_path: Path, target: str) -> None:
    source = tmp_path / "mafia.db"
    scripts = await _filled(source, tmp_path)
    before = await _snapshot(str(source))
    report = await migrate_store(str(source), target)
    assert report.rows["games"] == 3 and report.total > 50
    after = await _snapshot(target)
    assert after == before and after[0] == scripts
    # And back again (PostgreSQL -> SQLite, or SQLite -> SQLite): the same games.
    back = tmp_path / "back.db"
    await migrate_store(target, str(back))
    assert (await _snapshot(str(back)))[0] == scripts
    # The copy is a working store: a new game gets the next number, not a copied one.
    store = await open_store(target)
    try:
        game = await store.create_game(4, seed=1, schedule_kind="fast", timezone="UTC")
        assert game.id == max(scripts) + 1
        pending = await store.pending_outbox()
        assert [r.payload for r in pending] == [{"text": "hi"}]
    finally:
        await store.close()


async def test_refuses_a_target_that_holds_games(tmp_path: Path, target: str) -> None:
    source = tmp_path / "mafia.db"
    await _filled(source, tmp_path)
    store = await open_store(target)
    try:
        await store.create_game(1, seed=1, schedule_kind="fast", timezone="UTC")
    finally:
        await store.close()
    with pytest.raises(StoreError, match="already holds data"):
        await migrate_store(str(source), target)
    _scripts, games, _ = await _snapshot(target)
    assert len(games) == 1  # untouched


async def test_refuses_the_same_store_twice(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="same store"):
        await migrate_store(str(tmp_path / "a.db"), str(tmp_path / "a.db"))


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "mafia.db"
    asyncio.run(_filled(source, tmp_path))
    assert cli(["migrate-store", str(source), str(tmp_path / "new.db")]) == 0
    out = capsys.readouterr()
    assert "3 games" in out.out and out.err == ""
    assert cli(["migrate-store", str(source), str(tmp_path / "new.db")]) == 1
    assert "already holds data" in capsys.readouterr().err
