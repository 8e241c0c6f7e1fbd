"""Fenced writes and the game's head (several processes serving one game), on both
engines: a write validated against a game that has moved since (another process resolved the
turn or logged an entry) raises StaleGame and writes nothing; a once-only stage already claimed
answers False before its fence is looked at."""

from __future__ import annotations

import datetime as dt

import pytest

from db.errors import NotFound, StaleGame
from db.interface import GameStore
from db.models import Fence, OutboxItem, refused
from tests.db.conftest import T0, running_game

NEXT = T0 + dt.timedelta(days=1)
VOTE = {"by": "Anna", "do": "vote", "target": "Bob"}


async def head_fence(store: GameStore, game_id: int) -> Fence:
    head = await store.game_head(game_id)
    assert head is not None
    return Fence(turn=head.record.turn, phase=head.record.phase, entries=head.entries)


async def test_the_head_counts_accepted_entries_of_the_current_turn_on(store: GameStore) -> None:
    assert await store.game_head(404) is None
    game_id = await running_game(store)
    assert await head_fence(store, game_id) == Fence(1, "day", 0)
    await store.add_request(game_id, 1, "requests", VOTE, 1000)
    await store.add_request(game_id, 1, "requests", VOTE, 1000, refused("dead"))  # not counted
    assert await head_fence(store, game_id) == Fence(1, "day", 1)
    await store.record_resolution(game_id, 1, {}, [], 2, NEXT, next_phase="night")
    assert await head_fence(store, game_id) == Fence(2, "night", 0)  # turn 1's are behind
    await store.add_request(game_id, 2, "after", VOTE, 1000)
    head = await store.game_head(game_id)
    assert head is not None and head.entries == 1
    assert head.record == await store.require_game(game_id)


async def test_a_stale_fence_writes_nothing(store: GameStore) -> None:
    game_id = await running_game(store)
    fresh = await head_fence(store, game_id)
    await store.add_request(game_id, 1, "requests", VOTE, 1000, fence=fresh)
    stale = [fresh, Fence(2, "day", 0), Fence(1, "night", 1)]  # an entry, a turn, a phase
    for fence in stale:
        with pytest.raises(StaleGame):
            await store.add_request(game_id, 1, "requests", VOTE, 1000, fence=fence)
        with pytest.raises(StaleGame):
            await store.add_host_action(
                game_id,
                1,
                {"do": "double_kill"},
                actor_id=9,
                command="double_kill",
                outbox_items=[OutboxItem("narrative", {})],
                fence=fence,
            )
        with pytest.raises(StaleGame):
            await store.begin_pistol_window(
                game_id, 1, {}, [OutboxItem("p", {})], NEXT, fence=fence
            )
        with pytest.raises(StaleGame):
            items = [OutboxItem("deaths", {})]
            await store.record_resolution(game_id, 1, {}, items, 2, NEXT, fence=fence)
    assert len(await store.log_entries(game_id)) == 1
    assert await store.audit_log(game_id=game_id) == []
    assert await store.outbox(game_id) == []
    assert await store.resolutions(game_id) == []
    assert await store.pistol_window(game_id, 1) is None
    now = await head_fence(store, game_id)
    assert await store.record_resolution(game_id, 1, {}, [], 2, NEXT, fence=now)
    with pytest.raises(NotFound):
        await store.add_request(404, 1, "requests", VOTE, 1000, fence=now)


async def test_a_lost_stage_answers_false_before_its_fence(store: GameStore) -> None:
    """The turn was resolved (or its pistol window opened) by another process: the late
    caller's fence no longer matches, but the answer is the stage's False, not StaleGame."""
    game_id = await running_game(store)
    fence = await head_fence(store, game_id)
    assert await store.begin_pistol_window(game_id, 1, {}, [], NEXT, fence=fence)
    assert not await store.begin_pistol_window(game_id, 1, {}, [], NEXT, fence=fence)
    fence = await head_fence(store, game_id)
    assert fence.phase == "pistol"
    assert await store.record_resolution(game_id, 1, {}, [], 2, NEXT, fence=fence)
    assert not await store.record_resolution(game_id, 1, {}, [], 2, NEXT, fence=fence)
    await store.finish_game(game_id, "town")
    assert not await store.record_resolution(game_id, 1, {}, [], 2, NEXT, fence=fence)
    with pytest.raises(StaleGame):  # a finished game takes no fenced write
        await store.add_request(game_id, 2, "requests", VOTE, 1000, fence=Fence(2, "day", 0))


async def test_a_fence_whose_turn_alone_is_stale_writes_nothing(store: GameStore) -> None:
    """Another process resolved the turn: the game is at the next turn in the same phase,
    with as many entries (none) as the fence counted. The turn alone tells the fence is stale:
    the request is refused, never logged into the resolved turn (nor the next)."""
    game_id = await running_game(store)
    fence = await head_fence(store, game_id)
    assert fence == Fence(1, "day", 0)
    assert await store.record_resolution(game_id, 1, {}, [], 2, NEXT, next_phase="day")
    assert await head_fence(store, game_id) == Fence(2, "day", 0)  # phase, entries alike
    for turn in (1, 2):
        with pytest.raises(StaleGame):
            await store.add_request(game_id, turn, "requests", VOTE, 1000, fence=fence)
        with pytest.raises(StaleGame):
            await store.add_host_action(
                game_id,
                turn,
                {"do": "double_kill"},
                actor_id=9,
                command="double_kill",
                outbox_items=[OutboxItem("narrative", {})],
                fence=fence,
            )
    assert await store.log_entries(game_id) == []
    assert await store.audit_log(game_id=game_id) == []
    assert await store.outbox(game_id) == []
