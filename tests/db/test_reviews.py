"""The host's review in the store (``/mafia new review``), on both engines: the draft queued
with the resolution is pending until published; the story is kept and can be replaced until
then; publication queues the held rows and sets the deadline once (a second call, as a second
click or the clock racing it, writes nothing); nothing is written after it."""

from __future__ import annotations

import asyncio
import datetime as dt

from db.interface import GameStore
from db.models import OutboxItem
from tests.db.conftest import T0, running_game

HELD = {"kind": "results", "audience": "public", "payload": {"turn": 1}}
DRAFT = {
    "kind": "review_draft",
    "audience": "host",
    "payload": {"turn": 1, "minutes": 30, "until": T0.isoformat(), "items": [HELD]},
}
NEXT = T0 + dt.timedelta(days=1)


async def test_a_draft_is_pending_until_published_once(store: GameStore) -> None:
    game_id = await running_game(store)
    assert await store.pending_reviews() == []
    draft = OutboxItem(kind="review_draft", payload=DRAFT)
    assert await store.record_resolution(game_id, 1, {}, [draft], 2, None, next_phase="open")
    [pending] = await store.pending_reviews()
    assert (pending.game_id, pending.turn, pending.story) == (game_id, 1, None)
    assert pending.draft == DRAFT["payload"]
    assert (await store.require_game(game_id)).deadline is None

    assert await store.set_review_story(game_id, 1, "A cold night.")
    assert await store.set_review_story(game_id, 1, "A colder night.")  # edited again
    [pending] = await store.pending_reviews(game_id)
    assert pending.story == "A colder night."

    items = [OutboxItem(kind="results", payload=HELD)]
    results = await asyncio.gather(
        store.publish_review(game_id, 1, 2, items, NEXT, T0),
        store.publish_review(game_id, 1, 2, items, NEXT, T0),
    )
    assert sorted(results) == [False, True]
    assert not await store.publish_review(game_id, 1, 2, items, NEXT, T0)
    assert await store.pending_reviews() == []
    assert not await store.set_review_story(game_id, 1, "Too late.")
    assert [o.kind for o in await store.outbox(game_id)].count("results") == 1
    assert (await store.require_game(game_id)).deadline == NEXT


async def test_R59_the_publication_is_when_the_next_turn_opened(store: GameStore) -> None:
    """Kept once, with the publication (a second one does not move it): R59 measures the next
    turn from it; a turn not reviewed, or not yet published, has none."""
    game_id = await running_game(store)
    draft = OutboxItem(kind="review_draft", payload=DRAFT)
    assert await store.record_resolution(game_id, 1, {}, [draft], 2, None, next_phase="open")
    assert await store.review_published_at(game_id, 1) is None
    assert await store.set_review_story(game_id, 1, "A cold night.")
    assert await store.review_published_at(game_id, 1) is None  # a story is no publication
    at = T0 + dt.timedelta(minutes=7)
    assert await store.publish_review(game_id, 1, 2, [], NEXT, at)
    assert not await store.publish_review(game_id, 1, 2, [], NEXT, at + dt.timedelta(hours=1))
    assert await store.review_published_at(game_id, 1) == at
    assert await store.review_published_at(game_id, 2) is None


async def test_a_publication_restarts_a_paused_clock(store: GameStore) -> None:
    """The next turn, opened by the publication with its deadline, runs, whatever pause the
    game's row held (the resolution ends a pause too: a pause stops one turn's clock)."""
    game_id = await running_game(store)
    await store.pause_game(game_id, 120.0)
    draft = OutboxItem(kind="review_draft", payload=DRAFT)
    assert await store.record_resolution(game_id, 1, {}, [draft], 2, None, next_phase="open")
    assert not (await store.require_game(game_id)).paused
    await store.pause_game(game_id, 60.0)
    assert await store.publish_review(game_id, 1, 2, [], NEXT, T0)
    game = await store.require_game(game_id)
    assert (game.paused, game.paused_remaining, game.deadline) == (False, None, NEXT)
