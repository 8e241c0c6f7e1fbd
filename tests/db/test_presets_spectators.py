"""A server's own presets (``/mafia preset``) and the spectators of a ghosts' room (R62),
migration 17, on both engines: saved, replaced, bounded, listed, deleted; watching, stopping,
"has watched"; both cleared by the purges (``/mafia purge``, the bot leaving the server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from db.errors import PresetsFull
from db.interface import GameStore
from db.sqlite.migrations import migrate
from db.store import SQLiteStore, open_store
from db.transfer import TABLES
from tests.db.conftest import running_game
from tests.db.test_migrations import _make_v1_file
from tests.db.test_privacy import FRIEND, GUILD, MEMBER, OTHER_GUILD, _finished


async def test_presets_are_saved_replaced_listed_and_deleted_per_server(
    store: GameStore, target: str
) -> None:
    assert await store.save_preset(GUILD, "classic", "Classic", ["boss", "villager"], limit=3)
    assert await store.save_preset(GUILD, "big", "Big", ["boss", "mafioso"], limit=3)
    # the same key replaces (a new name as written, new roles): not a new preset
    assert not await store.save_preset(GUILD, "classic", "CLASSIC", ["crook"], limit=3)
    assert await store.save_preset(OTHER_GUILD, "classic", "classic", ["doctor"], limit=3)
    assert [(p.name, p.roles) for p in await store.presets(GUILD)] == [
        ("Big", ["boss", "mafioso"]),
        ("CLASSIC", ["crook"]),
    ]
    found = await store.preset_named(OTHER_GUILD, "classic")
    assert found is not None and found.roles == ["doctor"]
    assert await store.preset_named(GUILD, "missing") is None
    assert await store.delete_preset(GUILD, "big")
    assert not await store.delete_preset(GUILD, "big")
    reopened = await open_store(target)
    try:
        assert [p.name for p in await reopened.presets(GUILD)] == ["CLASSIC"]
    finally:
        await reopened.close()


async def test_a_new_preset_past_the_limit_is_refused_and_a_replacement_is_not(
    store: GameStore,
) -> None:
    assert await store.save_preset(GUILD, "a", "a", ["villager"], limit=2)
    assert await store.save_preset(GUILD, "b", "b", ["villager"], limit=2)
    with pytest.raises(PresetsFull) as refused:
        await store.save_preset(GUILD, "c", "c", ["villager"], limit=2)
    assert refused.value.limit == 2
    assert not await store.save_preset(GUILD, "b", "b", ["boss"], limit=2)
    assert [p.name for p in await store.presets(GUILD)] == ["a", "b"]


async def test_spectators_watch_stop_and_are_remembered_as_having_watched(
    store: GameStore,
) -> None:
    """R62: a member who stops watching has still watched (R60: he cannot stand by)."""
    game = await running_game(store)
    assert not await store.set_spectator(game, MEMBER, False)  # never watched: nothing
    assert await store.set_spectator(game, MEMBER, True)
    assert not await store.set_spectator(game, MEMBER, True)  # already
    assert await store.set_spectator(game, FRIEND, True)
    assert await store.spectators(game) == [MEMBER, FRIEND]
    assert await store.set_spectator(game, MEMBER, False)
    assert await store.spectators(game) == [FRIEND]
    assert set(await store.spectators(game, ever=True)) == {MEMBER, FRIEND}


async def test_the_purges_clear_presets_and_spectators(store: SQLiteStore) -> None:
    finished = await _finished(store, GUILD, [FRIEND])
    running = await running_game(store, guild_id=GUILD)
    other = await _finished(store, OTHER_GUILD, [FRIEND])
    for game in (finished, running, other):
        await store.set_spectator(game, MEMBER, True)
    await store.save_preset(GUILD, "classic", "Classic", ["villager"], limit=5)
    await store.save_preset(OTHER_GUILD, "classic", "Classic", ["villager"], limit=5)

    await store.purge_member(GUILD, MEMBER)  # his finished games of this server only
    assert await store.spectators(finished, ever=True) == []
    assert await store.spectators(running) == [MEMBER]
    assert await store.spectators(other) == [MEMBER]

    await store.purge_guild(GUILD)
    assert await store.presets(GUILD) == []
    assert await store.spectators(running, ever=True) == []
    assert [p.name for p in await store.presets(OTHER_GUILD)] == ["Classic"]
    assert await store.spectators(other) == [MEMBER]


def test_presets_and_spectators_are_copied_by_migrate_store() -> None:
    assert {"presets", "spectators"} <= set(TABLES)


async def test_migration_17_adds_them_to_a_v15_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=15).new_version == 15
    store = await SQLiteStore.open(path)
    try:
        assert await store.save_preset(GUILD, "x", "X", ["villager"], limit=1)
        assert [p.name for p in await store.presets(GUILD)] == ["X"]
    finally:
        await store.close()
