"""R21 (changed) in a real game against SimCord: the Prostitute blocks the Commissar, whose
check gets no answer; at dawn he reads, in his DMs and his /status news, that his check got
no answer this night (the text names no cause); a blocked Doctor is told nothing."""

from __future__ import annotations

import pytest
from simcord import Env

from core.i18n import Lang, t
from tests.e2e.helpers import (
    add_players,
    dm_texts,
    make_world,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_R21_a_blocked_commissar_reads_that_his_check_got_no_answer(
    simcord_env: Env, lang: Lang
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"blk{lang}{i}" for i in range(8)])
    roles = "mafioso=2 commissar=1 prostitute=1 doctor=1 villager=3"
    await start_game(world, roles, actors, lang=lang, activity_rules=False)
    seats = seats_by_role(world, actors)
    game_ch = slot(world, "game")
    mafioso, _ = seats["mafioso"]
    commissar, com = seats["commissar"]
    _, lady = seats["prostitute"]
    _, doc = seats["doctor"]
    reply_text(await lady.slash(game_ch, "block", target=commissar))
    reply_text(await com.slash(game_ch, "check", target=mafioso))
    before = len(dm_texts(com))
    await until_deadline(world)
    told = t(lang, "check.none", turn=1, target=mafioso)
    news = dm_texts(com)[before:]
    assert any(told in text for text in news), news
    assert not any(t(lang, "check.mafia", target=mafioso) in text for text in news)
    assert told in reply_text(await com.slash(game_ch, "status"))
    # Another blocked player is told nothing: the Doctor blocked the next night reads no DM.
    villager, _ = seats["villager"]
    reply_text(await lady.slash(game_ch, "block", target=seats["doctor"][0]))
    reply_text(await doc.slash(game_ch, "heal", target=villager))
    before_doc = len(dm_texts(doc))
    await until_deadline(world)
    reminder = t(lang, "reminder.vote", turn=2)
    assert [x for x in dm_texts(doc)[before_doc:] if reminder not in x] == []
