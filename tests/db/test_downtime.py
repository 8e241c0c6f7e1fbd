"""R59's heartbeats and downtime spans, and the hosts' confirmations kept across restarts, on
both engines (real SQLite files and the real PostgreSQL server)."""

from __future__ import annotations

import datetime as dt

from db.interface import GameStore

from .conftest import T0, running_game

HALF_MINUTE = dt.timedelta(seconds=30)
GAP = dt.timedelta(seconds=90)


async def test_R59_a_gap_between_beats_is_downtime_of_each_running_game(
    store: GameStore,
) -> None:
    a = await running_game(store, guild_id=1)
    b = await running_game(store, guild_id=2)
    # The first beat ever: nothing to compare with.
    assert await store.beat("all", T0, [a, b], gap=GAP, cause="down") is None
    # Beats every half minute: no downtime.
    for n in range(1, 4):
        assert await store.beat("all", T0 + n * HALF_MINUTE, [a, b], gap=GAP, cause="down") is None
    last = T0 + 3 * HALF_MINUTE
    back = last + dt.timedelta(minutes=20)
    assert await store.beat("all", back, [a, b], gap=GAP, cause="down") == last
    for game in (a, b):
        assert await store.downtime(game, T0) == [(last, back, "down")]
    # Only spans that end after ``since``.
    assert await store.downtime(a, back) == []
    # A beat that is not newer leaves the beat as it was (a late writer).
    assert await store.beat("all", back - HALF_MINUTE, [a], gap=GAP, cause="discord") is None
    later = back + dt.timedelta(minutes=5)
    assert await store.beat("all", later, [a], gap=GAP, cause="discord") == back
    assert [c for _s, _e, c in await store.downtime(a, T0)] == ["down", "discord"]
    assert len(await store.downtime(b, T0)) == 1


async def test_R59_a_process_key_never_seen_starts_from_the_newest_beat(
    store: GameStore,
) -> None:
    """Re-sharded (new process keys): the gap counts from the newest beat of any process."""
    game = await running_game(store)
    await store.beat("2:0", T0, [game], gap=GAP, cause="down")
    await store.beat("2:1", T0 + HALF_MINUTE, [], gap=GAP, cause="down")
    back = T0 + dt.timedelta(hours=1)
    assert await store.beat("4:0,1", back, [game], gap=GAP, cause="down") == T0 + HALF_MINUTE


async def test_R59_a_finished_game_gets_no_downtime(store: GameStore) -> None:
    game = await running_game(store)
    await store.beat("all", T0, [game], gap=GAP, cause="down")
    await store.finish_game(game, None, [])
    await store.beat("all", T0 + dt.timedelta(hours=1), [game], gap=GAP, cause="down")
    assert await store.downtime(game, T0) == []


async def test_a_confirmation_is_kept_until_it_expires(store: GameStore) -> None:
    until = T0 + dt.timedelta(minutes=15)
    data = {"player": "Аня", "reason": "флуд " * 50}
    await store.put_confirmation("t1", data, guild_id=1, now=T0, expires_at=until)
    assert await store.get_confirmation("t1", T0 + dt.timedelta(minutes=14)) == data
    assert await store.get_confirmation("t1", until) is None
    assert await store.get_confirmation("nope", T0) is None
    # Writing another drops the expired ones.
    later = until + dt.timedelta(minutes=1)
    await store.put_confirmation("t2", {}, guild_id=1, now=later, expires_at=later + HALF_MINUTE)
    assert await store.get_confirmation("t2", later) == {}
