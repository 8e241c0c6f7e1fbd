"""The host's clock changes are announced in #game, the double kill in the mafia's room
only (R56, R36), in the game's language."""

from __future__ import annotations

import pytest
from simcord import Env

from bot.render import timestamp
from core.i18n import t
from tests.e2e.helpers import (
    add_players,
    live_game,
    mafia_room,
    make_world,
    reply_text,
    slot,
    start_game,
)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R56_players_see_the_clock_notices_and_only_the_mafia_the_double_kill(
    simcord_env: Env, lang: str
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, "mafioso=1 doctor=1 villager=2", players, lang=lang)
    game_ch = slot(world, "game")

    def deadline_notice(key: str) -> str:
        deadline = live_game(world).record.deadline
        assert deadline is not None
        return t(lang, key, deadline=timestamp(deadline, "f"), relative=timestamp(deadline, "R"))

    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=5))
    last = game_ch.last_message
    assert last is not None and last.content == deadline_notice("announce.clock_extended")
    assert "<t:" in last.content

    reply_text(await world.admin.slash(world.lobby, "mafia pause"))
    last = game_ch.last_message
    assert last is not None
    assert last.content == t(lang, "announce.clock_paused", minutes=15)

    reply_text(await world.admin.slash(world.lobby, "mafia resume"))
    last = game_ch.last_message
    assert last is not None and last.content == deadline_notice("announce.clock_resumed")

    reply_text(await world.admin.slash(world.lobby, "mafia doublekill"))
    notice = t(lang, "announce.double_kill_this")
    room_last = mafia_room(world).last_message
    assert room_last is not None and room_last.content == notice
    assert notice not in [m.content for m in game_ch.history()]  # never public (R55)
