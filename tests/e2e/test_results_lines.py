"""The results as a forum host posts them (the real bot in SimCord): who did not vote, each
with the missed votes R53 counts, in alphabetical order, so the second miss is seen before
it strikes; and the threshold line that tells the votes needed, the electorate and the votes
cast apart (R31)."""

from __future__ import annotations

from datetime import timedelta

from simcord import Env

from core.i18n import t
from rules.names import public_order as alphabetical
from tests.e2e.helpers import (
    add_players,
    dm_texts,
    everyone_posts,
    live_game,
    make_world,
    pistol_prompt,
    refusal,
    reply_text,
    slot,
    start_game,
    until_deadline,
)
from tests.e2e.test_dawn_report import report, report_text


async def test_R53_R31_nonvoters_with_their_missed_votes_and_the_threshold_in_russian(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"nv{i}" for i in range(8)])
    await start_game(world, "mafioso=2 doctor=1 villager=5", actors, lang="ru")
    by_user = {a.id: a for a in actors}
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    await until_deadline(world)
    first = report_text(report(world, 1, "ru"), 1, "ru")
    assert t("ru", "dawn.nonvoters") not in first  # R3: no vote on turn 1

    await everyone_posts(world, actors)
    seats = live_game(world).players
    town = [p for p in seats if p.role == "villager"]
    skip1, skip2, target = town[0], town[1], town[2]
    for p in seats:
        if p not in (skip1, skip2):
            reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    text = report_text(report(world, 2, "ru"), 2, "ru")
    misses = [t("ru", "dawn.nonvoter_missed", nick=p.nick, missed=1) for p in (skip1, skip2)]
    ordered = [
        t("ru", "dawn.nonvoter_missed", nick=n, missed=1)
        for n in alphabetical([skip1.nick, skip2.nick])
    ]
    assert f"{t('ru', 'dawn.nonvoters')}" in text
    assert ", ".join(ordered) in text, text  # alphabetical, never the seats' order
    assert all(m.endswith("(1-й пропуск)") for m in misses)
    # 8 alive, 6 voted: "Порог: 2 голоса (¼ от 8 голосующих), подано 6."
    assert "Порог: 2 голоса (¼ от 8 голосующих), подано 6." in text
    assert "Для казни нужно" not in text

    # Turn 3: skip1 misses again and leaves the game (R53), said in the same line.
    await everyone_posts(world, actors)
    state = live_game(world).engine.state
    living = [p for p in live_game(world).players if state.alive(p.nick)]
    other = next(p for p in living if p not in (skip1, target))
    for p in living:
        if p is not skip1:
            aim = other if p is not other else next(q for q in living if q not in (p, skip1))
            reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=aim.nick))
    await until_deadline(world)
    text = report_text(report(world, 3, "ru"), 3, "ru")
    out = t("ru", "dawn.nonvoter_out", nick=skip1.nick, missed=2)
    assert out == f"{skip1.nick} (2-й — выбывает)"
    assert out in text
    assert skip2.nick not in text.split(t("ru", "dawn.nonvoters"))[1]


async def test_R31_english_threshold_and_nonvoters(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"en{i}" for i in range(8)])
    await start_game(world, "mafioso=2 doctor=1 villager=5", actors)
    by_user = {a.id: a for a in actors}
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    await until_deadline(world)
    await everyone_posts(world, actors)
    seats = live_game(world).players
    voters = seats[:4]
    target = seats[4]
    for p in voters:
        reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    text = report_text(report(world, 2), 2)
    assert "Threshold: 2 votes (¼ of 8 voters), 4 cast." in text
    # The lynched one sent no vote either, but is dead: no missed vote to count (R53).
    missed = [p.nick for p in seats[5:]]
    lines = text.split(t("en", "dawn.nonvoters"))[1]
    entries = [t("en", "dawn.nonvoter_missed", nick=n, missed=1) for n in alphabetical(missed)]
    at = [lines.index(e) for e in entries]
    assert at == sorted(at)  # alphabetical
    assert target.nick not in lines.split("\n")[1]
    assert t("en", "dawn.nonvoter_missed", nick="X", missed=1) == "X (1st missed vote)"


async def test_R18_the_pistol_window_gives_its_end_and_leaves_status_when_closed(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"pw{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors, lang="ru")
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    com = next(p for p in seats if p.role == "commissar")
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    for p in seats:
        if p.role == "mafioso":
            reply_text(await by_user[p.user_id].slash(game_ch, "kill", target=com.nick))
    await until_deadline(world)
    live = live_game(world)
    end = live.record.deadline
    assert live.record.phase == "pistol" and end is not None
    stamp = int(end.timestamp())
    text = report_text(report(world, 1, "ru"), 1, "ru")
    line = t(
        "ru",
        "announce.pistol_window_until",
        nick=com.nick,
        time=f"<t:{stamp}:t>",
        relative=f"<t:{stamp}:R>",
    )
    assert line in text and "До конца хода" not in text
    commissar = by_user[com.user_id]
    prompt = pistol_prompt(world, "ru")
    assert f"<t:{stamp}:t>" in prompt
    assert prompt in dm_texts(commissar)
    status = reply_text(await commissar.slash(game_ch, "status"))  # in his client's language
    assert pistol_prompt(world, "en") in status  # a closed DM's fallback, while it is open
    await world.env.advance_time((end - world.env.now()).total_seconds() + 1)
    assert live_game(world).record.phase == "open"
    status = reply_text(await commissar.slash(game_ch, "status"))
    assert pistol_prompt_text_gone(status)


def pistol_prompt_text_gone(status: str) -> bool:
    head = t("en", "announce.pistol_until", time="", relative="").split(",")[0]
    return head not in status and "/shoot" not in status


async def test_R3_R4_help_on_turn_2_lists_the_hunt_with_its_opening_time(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"hp{i}" for i in range(4)])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors)
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    await until_deadline(world)
    live = live_game(world)
    assert live.engine.turn == 2
    villager = next(p for p in live.players if p.role == "villager")
    actor = next(a for a in actors if a.id == villager.user_id)
    deadline = live.record.deadline
    assert deadline is not None
    opens = int((deadline - timedelta(minutes=5)).timestamp())  # half a fast turn (R4)
    text = reply_text(await actor.slash(game_ch, "help"))
    now, _, waiting = text.partition(t("en", "help.later"))
    assert "`/vote`" in now and "`/hunt`" not in now
    when = t("en", "help.from_time", time=f"<t:{opens}:t>", relative=f"<t:{opens}:R>")
    assert f"`/hunt`: {when}" in waiting
    refused = await refusal(simcord_env, actor.slash(game_ch, "hunt", target=villager.nick))
    assert refused == t("en", "refusal.hunt_opens_at", opens=opens)
    await simcord_env.advance_time(5 * 60)
    text = reply_text(await actor.slash(game_ch, "help"))
    assert "`/hunt`" in text and t("en", "help.later") not in text


async def test_R54_a_deprived_player_is_told_at_once_with_a_status_fallback(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"dp{i}" for i in range(4)])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors)
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    await until_deadline(world)
    live = live_game(world)
    villager = next(p for p in live.players if p.role == "villager")
    actor = next(a for a in actors if a.id == villager.user_id)
    reply_text(await actor.slash(game_ch, "vote", target=live.players[0].nick))
    reply_text(await world.admin.slash(world.lobby, "mafia deprive", player=villager.nick))
    told = t("en", "announce.deprived", turn=2)
    assert told in dm_texts(actor)
    others = [a for a in actors if a is not actor]
    assert all(told not in dm_texts(a) for a in others)
    status = reply_text(await actor.slash(game_ch, "status"))
    assert told in status  # the fallback when his DMs are closed
    text = reply_text(await actor.slash(game_ch, "help"))
    assert "`/vote`" not in text  # R54: he holds no vote this turn
