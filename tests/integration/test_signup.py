"""The sign-up through the service on a real store: seats that no sign-up order shapes (R13,
R44, R55), the cap on a sign-up, and role wishes (R58) from the sign-up to the archive."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.archive import archive_markdown
from core.history import load_finished
from core.i18n import t
from core.service import GameService, ServiceError
from db.interface import GameStore
from db.store import open_store
from rules.announce import turn_open_announcement
from rules.knowledge import public_roster, valid_targets
from rules.setup import MAX_PLAYERS

TABLE = 1
HOST = 999
START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)
MEMBERS = (731, 12, 5005, 48, 999_001, 77, 3)


def clock() -> datetime:
    return START


async def lobby_id(store: GameStore) -> int:
    rec = await store.open_game(TABLE)
    assert rec is not None
    return rec.id


async def _played_in_order(order: tuple[int, ...], path: str) -> dict[str, Any]:
    """A game signed up in ``order`` (seed fixed), started: what it seats and shows."""
    store = await open_store(path)
    try:
        service = GameService(store, clock=clock)
        await service.new_game(TABLE, HOST, "fast", "UTC", seed=4242, activity_rules=False)
        for uid in order:
            await service.join(TABLE, uid)
        live = await service.start(TABLE)
        state = live.engine.state
        return {
            "seats": [(p.user_id, p.nick, p.role) for p in live.players],
            "living": turn_open_announcement(state, 1, None).payload["living"],
            "roster": public_roster(state),
            "choices": {
                (n, v): valid_targets(state, n, v)
                for n in state.players
                for v in ("vote", "kill", "check")
            },
        }
    finally:
        await store.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order=st.permutations(MEMBERS))
def test_R13_R55_the_sign_up_order_shapes_nothing(order: list[int]) -> None:
    """Over many sign-up orders of the same members: the same seats, nicknames and roles,
    and the same living list, ``/players`` and autocomplete choices (R44, R55: anyone who
    watched the sign-up learns nothing from them)."""
    with tempfile.TemporaryDirectory() as tmp:
        seen = asyncio.run(_played_in_order(tuple(order), str(Path(tmp) / "a.db")))
        expected = asyncio.run(_played_in_order(MEMBERS, str(Path(tmp) / "b.db")))
    assert seen == expected


async def test_R43_the_sign_up_refuses_past_the_most_a_game_seats(store: GameStore) -> None:
    service = GameService(store, clock=clock)
    await service.new_game(TABLE, HOST, "fast", "UTC")
    for uid in range(1, MAX_PLAYERS + 1):
        await service.join(TABLE, uid)
    with pytest.raises(ServiceError) as refused:
        await service.join(TABLE, 5000)
    assert refused.value.key == "error.signup_full"
    for lang in ("en", "ru"):
        text = refused.value.render(lang)
        assert str(MAX_PLAYERS) in text and "{" not in text
    assert len(await store.signups(await lobby_id(store))) == MAX_PLAYERS
    with pytest.raises(ServiceError) as again:  # one already in is told so, not "full"
        await service.join(TABLE, 7)
    assert again.value.key == "error.already_joined"


async def test_two_processes_racing_for_the_last_seat(target: str) -> None:
    """Two services (two processes) on one store: of two members joining at once for the
    last seat, one is signed up and the other refused with the reason."""
    first_store, second_store = await open_store(target), await open_store(target)
    try:
        first = GameService(first_store, clock=clock)
        second = GameService(second_store, clock=clock)
        await first.new_game(TABLE, HOST, "fast", "UTC")
        for uid in range(1, MAX_PLAYERS):
            await first.join(TABLE, uid)
        outcomes = await asyncio.gather(
            first.join(TABLE, 5001), second.join(TABLE, 5002), return_exceptions=True
        )
        refused = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(refused) == 1 and refused[0].key == "error.signup_full"
        assert MAX_PLAYERS in outcomes
    finally:
        await first_store.close()
        await second_store.close()


async def test_R58_wishes_refused_where_they_do_not_belong(store: GameStore) -> None:
    service = GameService(store, clock=clock)
    await service.new_game(TABLE, HOST, "fast", "UTC")
    await service.join(TABLE, 1)
    with pytest.raises(ServiceError) as refused:
        await service.wish(TABLE, 1, "commissar")
    assert refused.value.key == "error.no_wishes"
    with pytest.raises(ServiceError) as refused:
        await service.set_roles(TABLE, None, None, from_wishes=True)
    assert refused.value.key == "error.no_wishes"
    await service.end(TABLE, HOST)
    await service.new_game(TABLE, HOST, "fast", "UTC", wishes=True)
    with pytest.raises(ServiceError) as refused:  # not signed up
        await service.wish(TABLE, 1, "commissar")
    assert refused.value.key == "error.not_joined"
    await service.join(TABLE, 1)
    for bad in ("foundling", "nobody", "boss=1"):  # R22: the Foundling is not offered
        with pytest.raises(ServiceError) as refused:
            await service.wish(TABLE, 1, bad)
        assert refused.value.key == "error.unknown_wish"
    assert await store.wishes(await lobby_id(store)) == {}


@pytest.mark.parametrize("reveal", [True, False])
async def test_R58_wishes_from_sign_up_to_the_archive(store: GameStore, reveal: bool) -> None:
    """Wishes adopted as the setup (R43 checked), granted at the start, shown after the game
    only when the members are revealed (R44, R55)."""
    service = GameService(store, clock=clock)
    rec = await service.new_game(TABLE, HOST, "fast", "UTC", wishes=True, reveal=reveal, seed=8)
    for uid in (11, 22, 33, 44):
        await service.join(TABLE, uid)
    await service.wish(TABLE, 22, "commissar")
    assert await service.wish_tally(rec.id) == {"commissar": 1}
    with pytest.raises(ServiceError) as refused:  # a commissar and three villagers: no mafia
        await service.set_roles(TABLE, None, None, from_wishes=True)
    assert refused.value.key.startswith("error.setup.")
    await service.wish(TABLE, 44, "mafioso")
    await service.wish(TABLE, 11, "mafioso")
    await service.wish(TABLE, 11, None)  # withdrawn
    assert await service.wish_tally(rec.id) == {"mafioso": 1, "commissar": 1}
    assert await service.signed_up(TABLE, 44) == (await store.require_game(rec.id), "mafioso")
    roles = await service.set_roles(TABLE, None, None, from_wishes=True)
    assert sorted(roles) == ["commissar", "mafioso", "villager", "villager"]
    live = await service.start(TABLE)
    dealt = {p.user_id: p.role for p in live.players}
    assert dealt[22] == "commissar" and dealt[44] == "mafioso"
    with pytest.raises(ServiceError):  # sign-up closed
        await service.wish(TABLE, 33, "doctor")
    nick_of = {p.user_id: p.nick for p in live.players}
    await service.end(TABLE, HOST)
    finished = await load_finished(store, rec.id)
    text = archive_markdown(finished, "en")
    wished = t("en", "archive.wish")
    if reveal:
        assert finished.wish_of(nick_of[22]) == "commissar"
        assert finished.wish_of(nick_of[33]) is None
        assert wished in text
    else:
        assert finished.wish_of(nick_of[22]) is None
        assert wished not in text
