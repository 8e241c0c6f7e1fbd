"""A reviewed game's pistol window holds its night (core/review.py, R18), on a real store,
SQLite and PostgreSQL: a post written before the deadline and shown only once the window
holds the night does not count (R52: the requests of its turn are closed) and breaks
nothing; what the window holds is in the store, so a service started on it reads the game as
the players know it, and the close puts the night and the shot in one draft."""

from __future__ import annotations

from core.review import is_window
from core.service import GameService, ServiceError
from db.interface import GameStore
from tests.integration.test_service import GUILD, HOST, FakeClock


async def test_R18_a_post_shown_once_the_window_holds_the_night_counts_for_nothing(
    store: GameStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 commissar=1 villager=2", seed=11,
        activity_rules=False, review=30,
    )  # fmt: skip
    for uid in range(1, 5):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    by = {p.role: p.user_id for p in live.players}
    nick = {p.user_id: p.nick for p in live.players}
    maf, com = by["mafioso"], by["commissar"]
    await service.submit(GUILD, maf, {"do": "kill", "target": nick[com]})
    queued = await service.queue_post(GUILD, maf, "Good night, all.")  # not shown yet
    clock.advance(minutes=10)
    await service.deadline_reached(live.id)
    game = service.game_in(GUILD)
    assert game is not None and game.review is not None and is_window(game.review)
    assert game.public_state.alive(nick[com])  # the night is held
    counted = await service.post_shown(queued.row_id, live.id, queued.turn, queued.payload)
    assert counted is False  # shown after its turn's requests closed: free talk
    try:
        await service.queue_post(GUILD, maf, "Who died?")
    except ServiceError as refusal:
        assert refusal.key == "error.review_pending"
    else:
        raise AssertionError("a post while the window holds the night")

    other = GameService(store, clock)  # a restart: the window's hold is in the store
    await other.load()
    held = other.game_in(GUILD)
    assert held is not None and held.review is not None and is_window(held.review)
    assert held.public_state.alive(nick[com])
    await other.submit(GUILD, com, {"do": "shoot", "target": nick[maf]})
    assert other.game_in(GUILD) is None  # the town won; its end waits for the host
    [(key, review)] = other.reviews.items()
    kinds = [item["kind"] for item in review.draft["items"]]
    assert "results" in kinds and kinds.index("results") < len(kinds) - 1
    clock.advance(minutes=31)
    assert await other.publish(live.id, key[1], if_due=True)
    assert await store.pending_reviews(live.id) == []
