"""Substitutes and bars in the store (R60, R63; migration 18), on both engines: the list in
order of standing by, a replacement decided once in the store's transaction (the holder the
host saw, a substitute who holds a seat or was replaced, the first substitute gone from the
list, a fence), a bar by the injectable clock, the purges, and migrate-store."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from db.errors import NotFound, ReplacementRefused, StaleGame
from db.interface import GameStore
from db.models import Fence, OutboxItem
from db.sqlite.migrations import migrate
from db.store import SQLiteStore
from db.transfer import TABLES
from tests.db.conftest import T0, raw_rows, running_game
from tests.db.test_migrations import _make_v1_file

BOB, CID, DAN = 1001, 1002, 1003  # seats of game_script(): Bob mafioso, Cid boss, Dan villager
SUB1, SUB2, SUB3 = 5001, 5002, 5003
HOST = 9000


async def test_the_list_keeps_the_order_of_standing_by_and_refuses_players(
    store: GameStore,
) -> None:
    """R60: a member stands by once, in order; a player does not; off the list again."""
    game = await running_game(store)
    for user in (SUB2, SUB1, SUB3):
        assert await store.stand_by(game, user, T0) is None
    assert await store.stand_by(game, SUB2, T0) is None  # again: kept once, in his place
    assert await store.substitutes(game) == [SUB2, SUB1, SUB3]
    assert await store.stand_by(game, BOB, T0) == "playing"
    assert await store.stand_down(game, SUB1)
    assert not await store.stand_down(game, SUB1)
    assert await store.substitutes(game) == [SUB2, SUB3]
    await store.finish_game(game, None, [])
    assert await store.stand_by(game, 5009, T0) == "no_game"


async def test_a_replacement_hands_the_seat_over_once_and_the_replaced_never_comes_back(
    store: GameStore,
) -> None:
    """R60: the seat, the record of who held it, the list and the request change together;
    the replaced member may neither be seated again nor stand by for the game."""
    game = await running_game(store)
    await store.stand_by(game, SUB1, T0)
    await store.stand_by(game, SUB2, T0)
    await store.ask_replacement(game, BOB, "moving house", T0)
    assert [(r.user_id, r.reason) for r in await store.replace_requests(game)] == [
        (BOB, "moving house")
    ]
    notice = OutboxItem("replaced", {"nick": "Bob"})
    seat = await store.replace_player(
        game, "bob", SUB1, [notice], previous_user_id=BOB, from_list=True, now=T0
    )
    assert (seat.nick, seat.user_id, seat.role) == ("Bob", SUB1, "mafioso")
    assert await store.player_by_user(game, BOB) is None
    assert await store.substitutes(game) == [SUB2]
    assert await store.replace_requests(game) == []
    [done] = await store.replacements(game)
    assert (done.seq, done.nick, done.old_user_id, done.new_user_id, done.turn, done.at) == (
        1,
        "Bob",
        BOB,
        SUB1,
        1,
        T0,
    )
    assert [r.kind for r in await store.outbox(game)] == ["replaced"]
    # A second replacement decided on the holder the host saw before: refused, nothing written.
    with pytest.raises(ReplacementRefused) as refused:
        await store.replace_player(game, "Bob", SUB2, previous_user_id=BOB, from_list=True)
    assert refused.value.code == "seat_changed"
    # The replaced member: never seated again in this game, nor on its list.
    with pytest.raises(ReplacementRefused) as refused:
        await store.replace_player(game, "Dan", BOB, previous_user_id=DAN)
    assert refused.value.code == "replaced"
    assert await store.stand_by(game, BOB, T0) == "replaced"
    with pytest.raises(ReplacementRefused) as refused:  # a player is not a substitute
        await store.replace_player(game, "Dan", CID, previous_user_id=DAN)
    assert refused.value.code == "playing"
    with pytest.raises(ReplacementRefused) as refused:  # the first on the list left it
        await store.replace_player(game, "Dan", SUB3, previous_user_id=DAN, from_list=True)
    assert refused.value.code == "left_list"
    with pytest.raises(NotFound):
        await store.replace_player(game, "Zed", SUB2)
    # The substitute replaced in turn: the record keeps the nickname's members in order.
    await store.replace_player(game, "Bob", SUB2, previous_user_id=SUB1)
    assert [(r.seq, r.old_user_id, r.new_user_id) for r in await store.replacements(game)] == [
        (1, BOB, SUB1),
        (2, SUB1, SUB2),
    ]
    assert await store.outbox(game) != []
    assert len(await store.outbox(game)) == 1  # nothing queued by the refusals


async def test_two_replacements_of_one_player_at_once_make_one(store: GameStore) -> None:
    """R60: two hosts at once, each with the holder he saw: one hands the seat over, the other
    is refused with the reason (on PostgreSQL, in two connections)."""
    game = await running_game(store)
    for user in (SUB1, SUB2):
        await store.stand_by(game, user, T0)
    outcomes = await asyncio.gather(
        store.replace_player(game, "Dan", SUB1, previous_user_id=DAN, from_list=True),
        store.replace_player(game, "Dan", SUB2, previous_user_id=DAN, from_list=True),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, ReplacementRefused)]
    assert len(refused) == 1 and refused[0].code == "seat_changed"
    assert len(await store.replacements(game)) == 1


async def test_a_replacement_fenced_on_a_turn_gone_by_writes_nothing(store: GameStore) -> None:
    """A replacement racing the deadline in another process: the game moved on, so the
    replacement is decided again on the reloaded game (StaleGame), nothing written."""
    game = await running_game(store)
    stale = Fence(turn=0, phase="open", entries=0)
    with pytest.raises(StaleGame):
        await store.replace_player(game, "Dan", SUB1, previous_user_id=DAN, fence=stale)
    assert await store.replacements(game) == []
    assert (await store.player_by_nick(game, "Dan")) is not None
    assert (await store.player_by_nick(game, "Dan")).user_id == DAN  # type: ignore[union-attr]


async def test_a_bar_holds_until_its_time_by_the_clock_given(store: GameStore) -> None:
    """R63: a bar for a time ends by the clock the caller passes; one until lifted holds until
    a host lifts it; both are in the audit log."""
    until = T0 + dt.timedelta(days=3)
    await store.bar_member(1, SUB1, until=until, reason="no-show", actor_id=HOST, now=T0)
    await store.bar_member(1, SUB2, until=None, reason="abuse", actor_id=HOST, now=T0)
    bar = await store.bar_of(1, SUB1, T0 + dt.timedelta(days=2))
    assert bar is not None and (bar.until, bar.reason, bar.actor_id) == (until, "no-show", HOST)
    assert await store.bar_of(1, SUB1, until) is None  # over at its end
    assert await store.bar_of(2, SUB1, T0) is None  # another server's tables
    far = T0 + dt.timedelta(days=3650)
    assert await store.bar_of(1, SUB2, far) is not None
    assert not await store.unbar_member(1, SUB1, actor_id=HOST, now=until)  # expired already
    assert await store.unbar_member(1, SUB2, actor_id=HOST, now=far)
    assert await store.bar_of(1, SUB2, far) is None
    log = [(a.command, a.args) for a in await store.audit_log(guild_id=1)]
    assert ("bar", {"member": SUB1, "reason": "no-show", "until": until.isoformat()}) in log
    assert ("unbar", {"member": SUB2}) in log
    assert len(log) == 3


async def test_the_purges_clear_every_table_of_migration_16(store: GameStore, target: str) -> None:
    """``/mafia purge member`` forgets him in these tables; the server's purge (the bot left)
    deletes them all."""
    game = await running_game(store, guild_id=1)
    await store.stand_by(game, SUB1, T0)
    await store.stand_by(game, SUB2, T0)
    await store.ask_replacement(game, DAN, None, T0)
    await store.replace_player(game, "Bob", SUB2, previous_user_id=BOB, from_list=True)
    await store.bar_member(1, SUB1, until=None, reason="x", actor_id=HOST, now=T0)
    await store.bar_member(1, BOB, until=None, reason="x", actor_id=HOST, now=T0)
    await store.bar_member(1, SUB3, until=None, reason="x", actor_id=CID, now=T0)
    await store.purge_member(1, SUB1)
    await store.purge_member(1, BOB)  # replaced in a running game (the bot refuses that first)
    await store.purge_member(1, CID)  # the bar he gave stands, by an unknown host
    bar = await store.bar_of(1, SUB3, T0)
    assert bar is not None and bar.actor_id == 0
    assert await raw_rows(target, "SELECT * FROM substitutes WHERE user_id = ?", SUB1) == []
    assert await raw_rows(target, "SELECT * FROM bars WHERE user_id IN (?, ?)", SUB1, BOB) == []
    assert [(r.old_user_id, r.new_user_id) for r in await store.replacements(game)] == [(0, SUB2)]
    await store.purge_guild(1)
    for table in ("substitutes", "replace_requests", "replacements", "bars"):
        assert await raw_rows(target, f"SELECT * FROM {table}") == [], table


def test_migrate_store_copies_the_tables_of_migration_18() -> None:
    for table in ("substitutes", "replace_requests", "replacements", "bars"):
        assert table in TABLES


async def test_migration_18_adds_its_tables_to_a_v17_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _make_v1_file(path)
    assert migrate(path, target=17).new_version == 17
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    conn.close()
    assert "substitutes" not in tables
    store = await SQLiteStore.open(path)
    try:
        game = await running_game(store)
        assert await store.stand_by(game, SUB1, T0) is None
        assert await store.substitutes(game) == [SUB1]
        await store.bar_member(1, SUB2, until=None, reason="x", actor_id=HOST, now=T0)
        assert await store.bar_of(1, SUB2, T0) is not None
    finally:
        await store.close()
