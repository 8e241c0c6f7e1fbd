"""Substitutes and bars through the game service (R60, R63), on a real SQLite file and a real
PostgreSQL database: a replacement racing the deadline in another process is decided again on
the reloaded game (a player who died at that deadline is not replaced); the same replacement
retried changes nothing more; a member who leaves the server leaves the list; a bar ends by the
service's clock."""

from __future__ import annotations

import pytest

from core.service import GameService, ServiceError
from db.interface import GameStore
from tests.integration.test_service import GUILD, HOST, FakeClock, nick, started

ROLES = "mafioso=1 doctor=1 villager=2"
SUB, OTHER = 77, 78


async def test_R60_a_replacement_racing_the_deadline_in_another_process(
    store: GameStore, clock: FakeClock
) -> None:
    """Process A holds the game as it was; process B resolves the deadline, at which the
    mafia kill the villager. A's replacement of him is refused as stale in the store, decided
    again on the reloaded game, and refused: he is dead. Nothing is written."""
    a = GameService(store, clock)
    roles = await started(a, ROLES, 4)
    victim = nick(a, roles["villager"])
    await a.submit(GUILD, roles["mafioso"], {"do": "kill", "target": victim})
    b = GameService(store, clock)
    [game] = await b.load()
    clock.advance(minutes=11)
    await b.deadline_reached(game.id)
    live_b = b.game_in(GUILD)
    assert live_b is not None and not live_b.engine.state.players[victim].alive
    assert a.game_in(GUILD).engine.state.players[victim].alive  # type: ignore[union-attr]
    with pytest.raises(ServiceError) as refused:
        await a.replace(GUILD, HOST, victim, SUB)
    assert refused.value.key == "error.replace_dead"
    assert await store.replacements(game.id) == []
    assert (await store.player_by_nick(game.id, victim)).user_id == roles["villager"]  # type: ignore[union-attr]


async def test_R60_the_first_substitute_and_a_retry(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    roles = await started(service, ROLES, 4)
    doctor = nick(service, roles["doctor"])
    await service.stand_by(GUILD, OTHER)
    await service.stand_by(GUILD, SUB)
    await service.member_left(GUILD, OTHER)  # left the server: off the list
    assert await service.first_substitute(GUILD) == SUB
    assert await service.is_standing_by(service.game_in(GUILD).id, SUB)  # type: ignore[union-attr]
    previous, seat = await service.replace(GUILD, HOST, doctor, SUB, from_list=True)
    assert (previous, seat.user_id) == (roles["doctor"], SUB)
    again = await service.replace(GUILD, HOST, doctor, SUB, from_list=True)  # a lost answer
    assert again[1].user_id == SUB
    assert len(await store.replacements(seat.game_id)) == 1
    with pytest.raises(ServiceError) as refused:
        await service.first_substitute(GUILD)
    assert refused.value.key == "error.no_substitutes"
    with pytest.raises(ServiceError) as refused:  # the replaced doctor is done with the game
        await service.stand_by(GUILD, roles["doctor"])
    assert refused.value.key == "error.standby_replaced"


async def test_R63_a_bar_ends_by_the_services_clock(store: GameStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await service.bar(GUILD, HOST, SUB, days=2, reason="no-show")
    await service.new_game(GUILD, HOST, "fast", "UTC")
    with pytest.raises(ServiceError) as refused:
        await service.join(GUILD, SUB)
    assert refused.value.key == "error.barred_until"
    clock.advance(days=2)
    assert await service.join(GUILD, SUB) == 1
    await service.bar(GUILD, HOST, OTHER, days=None, reason="abuse")
    with pytest.raises(ServiceError) as refused:
        await service.join(GUILD, OTHER)
    assert refused.value.key == "error.barred"
    await service.unbar(GUILD, HOST, OTHER)
    assert await service.join(GUILD, OTHER) == 2
    with pytest.raises(ServiceError) as refused:
        await service.unbar(GUILD, HOST, OTHER)
    assert refused.value.key == "error.not_barred"
