"""The service's side of R62 and of the server's presets, on a real store (both engines): who
may watch a ghosts' room (a substitute standing by may not, R60), "has watched" for
``/standby``, each access change queued once with its row; the dead's posts routed to the room,
the living's to #game; a death's ``ghost_joined`` queued with the results; presets checked as any
setup."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.ghosts import JOINED_KIND, WATCH_KIND
from core.service import GameService, ServiceError
from db.interface import GameStore
from rules.announce import GHOSTS, PUBLIC

TABLE = 1
HOST = 999
MEMBERS = (731, 12, 5005, 48)
WATCHER, SUBSTITUTE = 6001, 6002
START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


async def started(store: GameStore, **options: bool) -> GameService:
    service = GameService(store, clock=lambda: START)
    await service.new_game(TABLE, HOST, "fast", "UTC", seed=7, activity_rules=False, **options)
    for uid in MEMBERS:
        await service.join(TABLE, uid)
    await service.set_roles(TABLE, "mafioso=1 doctor=1 villager=2", None)
    await service.start(TABLE)
    return service


async def test_R62_who_may_watch_and_has_watched(store: GameStore) -> None:
    service = await started(store, ghost_room=True, spectators=True)
    game = service.running(TABLE)
    with pytest.raises(ServiceError) as refused:
        await service.spectate(TABLE, MEMBERS[0])
    assert refused.value.key == "error.spectate_player"
    # R60: a member standing by as a substitute may not watch (the substitutes' ids are given)
    with pytest.raises(ServiceError) as refused:
        await service.spectate(TABLE, SUBSTITUTE, standing_by=[SUBSTITUTE])
    assert refused.value.key == "error.spectate_standby"
    assert not await service.has_watched(game.id, SUBSTITUTE)

    await service.spectate(TABLE, WATCHER)
    await service.spectate(TABLE, WATCHER, False)
    assert await service.spectators(game.id) == []
    assert await service.has_watched(game.id, WATCHER)  # /standby refuses him (R60)
    rows = [r for r in await store.pending_outbox(game.id) if r.kind == WATCH_KIND]
    assert [(r.payload["audience"], r.payload["payload"]) for r in rows] == [
        (GHOSTS, {"user": WATCHER, "watching": True}),
        (GHOSTS, {"user": WATCHER, "watching": False}),
    ]
    with pytest.raises(ServiceError) as refused:
        await service.spectate(TABLE, WATCHER, False)
    assert refused.value.key == "error.not_spectating"
    assert len([r for r in await store.pending_outbox(game.id) if r.kind == WATCH_KIND]) == 2


async def test_R62_a_death_lets_in_with_the_results_and_the_dead_post_in_the_room(
    store: GameStore,
) -> None:
    service = await started(store, ghost_room=True)
    game = service.running(TABLE)
    maf = next(p for p in game.players if p.role == "mafioso")
    victim = next(p for p in game.players if p.role == "villager")
    await service.submit(TABLE, maf.user_id, {"do": "kill", "target": victim.nick})
    await service.resolve(TABLE, HOST, turn=1, stage="open")
    rows = await store.pending_outbox(game.id)
    kinds = [r.kind for r in rows]
    joined = [r for r in rows if r.kind == JOINED_KIND]
    assert [r.payload["payload"]["nick"] for r in joined] == [victim.nick]
    assert kinds.index(JOINED_KIND) > kinds.index("results")  # published first
    dead = await service.queue_post(TABLE, victim.user_id, "Boo.")
    living = await service.queue_post(TABLE, maf.user_id, "Hi.")
    audiences = {r.id: r.payload["audience"] for r in await store.pending_outbox(game.id)}
    assert audiences[dead.row_id] == GHOSTS and audiences[living.row_id] == PUBLIC


async def test_without_a_room_nothing_changes(store: GameStore) -> None:
    service = await started(store)
    game = service.running(TABLE)
    with pytest.raises(ServiceError) as refused:
        await service.spectate(TABLE, WATCHER)
    assert refused.value.key == "error.no_ghost_room"
    with pytest.raises(ServiceError) as refused:
        await GameService(store).new_game(2, HOST, "fast", "UTC", spectators=True)
    assert refused.value.key == "error.spectators_need_ghost_room"
    assert not [r for r in await store.pending_outbox(game.id) if r.payload["audience"] == GHOSTS]


async def test_presets_are_checked_as_any_setup(store: GameStore) -> None:
    service = GameService(store, clock=lambda: START)
    saved, new = await service.save_preset(5, "  Big   night ", "mafioso=1 doctor=1 villager=2")
    assert new and saved.name == "Big night"
    assert sorted(await service.preset_roles(5, "big NIGHT")) == sorted(saved.roles)
    assert len(await service.preset_roles(5, " 9 ")) == 9
    for typed, key in (
        ("villager=4", "error.setup.too_few_mafia"),
        ("nobody=4", "error.setup.unknown_role"),
    ):
        with pytest.raises(ServiceError) as refused:
            await service.save_preset(5, "bad", typed)
        assert refused.value.key == key
    with pytest.raises(ServiceError) as refused:
        await service.preset_roles(5, "2")
    assert refused.value.key == "error.setup.too_few_players"
    with pytest.raises(ServiceError) as refused:
        await service.delete_preset(6, "Big night")  # another server's
    assert refused.value.key == "error.unknown_preset"
