"""After the game the mafia's room opens to the players, read-only (reading the mafia's
thread is a forum tradition), and the end announcement links it; when the host kept the
members secret (``reveal:false``) it stays closed: its messages would name the mafia."""

from __future__ import annotations

import pytest
from simcord import Env, SetupError

from core.i18n import t
from tests.e2e.helpers import (
    add_players,
    confirm_now,
    live_game,
    mafia_room,
    make_world,
    message_text,
    reply_text,
    slot,
    start_game,
)


async def test_R14_the_room_opens_for_reading_and_the_end_links_it(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"mr{i}" for i in range(4)])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors)
    seats = live_game(world).players
    maf = next(p for p in seats if p.role == "mafioso")
    town = next(p for p in seats if p.role == "villager")
    by_user = {a.id: a for a in actors}
    room = mafia_room(world)
    reply_text(await by_user[maf.user_id].slash(slot(world, "game"), "kill", target=town.nick))
    with pytest.raises(SetupError):
        room.history(viewer=by_user[town.user_id])  # during the game: the mafia only (R14)
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    # The end says so and links #mafia, where the room is.
    end = message_text(slot(world, "game").history()[-1])
    assert end.startswith(t("en", "winner.none"))
    assert t("en", "gameover.mafia_room", room=slot(world, "mafia").mention) in end
    for p in seats:  # every player reads it now, the town too
        assert room.history(viewer=by_user[p.user_id])
    # Read-only: Discord lets nobody but moderators (Manage Threads) write in, or reopen, a
    # locked thread (SimCord keeps the flag but does not enforce it).
    meta = simcord_env.backend.get_channel(room.id).thread_metadata
    assert meta.locked is True and meta.archived is True


async def test_R6_a_secret_game_keeps_its_room_closed(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"ms{i}" for i in range(4)])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors, reveal=False)
    seats = live_game(world).players
    maf = next(p for p in seats if p.role == "mafioso")
    town = next(p for p in seats if p.role == "villager")
    by_user = {a.id: a for a in actors}
    room = mafia_room(world)
    reply_text(await by_user[maf.user_id].slash(slot(world, "game"), "kill", target=town.nick))
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    texts = [message_text(m) for m in slot(world, "game").history()]
    head = t("en", "gameover.mafia_room", room="").split(",")[0]
    assert not [x for x in texts if head in x]
    with pytest.raises(SetupError):
        room.history(viewer=by_user[town.user_id])
