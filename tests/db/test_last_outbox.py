"""``last_outbox``: a game's latest outbox row of one kind (of one turn), on both engines.

What the clock asks of every game after a restart (was this turn's notice, or its reminders,
queued before it?) and the start asks of every game (were its role cards queued?): one indexed
lookup instead of the game's whole outbox."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.interface import GameStore
from db.models import OutboxItem
from db.store import SQLiteStore
from tests.db.conftest import running_game


def _notice(deadline: str) -> OutboxItem:
    return OutboxItem("hunts_open", {"to": "#game", "payload": {"deadline": deadline}})


async def test_none_until_a_row_of_that_kind_and_turn(store: GameStore) -> None:
    game = await running_game(store)
    assert await store.last_outbox(game, "hunts_open") is None
    assert await store.last_outbox(game, "hunts_open", 2) is None
    await store.add_outbox(game, 2, [OutboxItem("narrative", {"text": "night"})])
    assert await store.last_outbox(game, "hunts_open", 2) is None  # another kind
    await store.add_outbox(game, 1, [_notice("d1")])
    assert await store.last_outbox(game, "hunts_open", 2) is None  # another turn
    row = await store.last_outbox(game, "hunts_open")
    assert row is not None and row.turn == 1 and row.payload["payload"]["deadline"] == "d1"


async def test_the_latest_row_of_the_turn_sent_or_not(store: GameStore) -> None:
    game = await running_game(store)
    [first] = await store.add_outbox(game, 2, [_notice("d1")])
    await store.add_outbox(game, 3, [_notice("d3")])
    [second] = await store.add_outbox(game, 2, [_notice("d2")])  # the deadline moved
    assert await store.mark_sent(second)
    row = await store.last_outbox(game, "hunts_open", 2)
    assert row is not None and row.id == second and row.sent
    assert row.payload["payload"]["deadline"] == "d2"
    assert (await store.last_outbox(game, "hunts_open", 3)) is not None
    newest = await store.last_outbox(game, "hunts_open")  # any turn: the newest row
    assert newest is not None and newest.id == second
    assert next(o.id for o in await store.outbox(game) if o.kind == "hunts_open") == first


async def test_only_the_games_own_rows(store: GameStore) -> None:
    mine = await running_game(store, guild_id=1)
    other = await running_game(store, guild_id=2)
    await store.add_outbox(other, 2, [OutboxItem("reminder", {"to": "Anna"})])
    assert await store.last_outbox(mine, "reminder", 2) is None
    row = await store.last_outbox(other, "reminder", 2)
    assert row is not None and row.game_id == other and row.kind == "reminder"


async def test_role_cards_of_any_turn(store: GameStore) -> None:
    """The start's question (were the cards queued?) names no turn: the newest card counts."""
    game = await running_game(store)
    assert await store.last_outbox(game, "role_card") is None
    cards = [OutboxItem("role_card", {"to": n, "turn": 1}) for n in ("Anna", "Bob")]
    ids = await store.add_outbox(game, 1, cards)
    row = await store.last_outbox(game, "role_card")
    assert row is not None and row.id == ids[-1] and row.turn == 1


async def test_sqlite_uses_the_kind_index(sqlite_store: SQLiteStore, db_path: Path) -> None:
    """The store's lookup is a search of ``outbox_by_kind`` in index order (no scan of the
    outbox, no sort): its cost does not grow with the other games' rows."""
    game = await running_game(sqlite_store)
    seen: list[str] = []
    await sqlite_store._db.set_trace_callback(seen.append)  # the statements, values bound
    await sqlite_store.last_outbox(game, "reminder", 2)
    await sqlite_store.last_outbox(game, "role_card")
    await sqlite_store._db.set_trace_callback(None)
    lookups = [sql for sql in seen if sql.lstrip().upper().startswith("SELECT")]
    assert len(lookups) == 2, seen
    conn = sqlite3.connect(db_path)
    try:
        for sql in lookups:
            plan = " | ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
            assert "USING INDEX outbox_by_kind" in plan and "TEMP B-TREE" not in plan, plan
    finally:
        conn.close()


async def test_sqlite_reads_a_games_whole_outbox_from_its_own_rows(
    sqlite_store: SQLiteStore, db_path: Path
) -> None:
    """``outbox(game_id)`` searches ``outbox_by_game`` (migration 13) in queue order, instead
    of scanning every game's rows."""
    game = await running_game(sqlite_store)
    seen: list[str] = []
    await sqlite_store._db.set_trace_callback(seen.append)
    await sqlite_store.outbox(game)
    await sqlite_store._db.set_trace_callback(None)
    [sql] = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    conn = sqlite3.connect(db_path)
    try:
        plan = " | ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}"))
    finally:
        conn.close()
    assert "USING INDEX outbox_by_game" in plan and "TEMP B-TREE" not in plan, plan
