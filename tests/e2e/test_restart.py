"""The bot stops mid-game and a new one (``main.create_bot`` on the same database file) carries
on: the requests kept, the clock re-armed from the stored deadline, each turn resolved once,
and what the old bot had queued but not sent delivered by the new one."""

from __future__ import annotations

import pytest
from simcord import Env, SetupError

from bot.signup import JOIN_ID
from core.i18n import t
from core.quoting import quote_player_text
from db.models import OutboxItem
from db.store import open_store
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    archive_thread,
    bot_of,
    channel_announcements,
    confirm_now,
    dm_texts,
    kill_board_text,
    live_game,
    mafia_room,
    make_world,
    message_text,
    opening_header,
    reply_text,
    results_header,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
TURN = 600  # seconds: a fast turn


def results(world: World, turn: int) -> list[str]:
    # Each announcement (the results and the opening may share a message).
    texts = channel_announcements(slot(world, "game").history())
    return [text for text in texts if text.startswith(results_header(turn))]


def openings(world: World, turn: int) -> list[str]:
    # Each announcement (the results and the opening may share a message).
    texts = channel_announcements(slot(world, "game").history())
    return [text for text in texts if text.startswith(opening_header(turn))]


async def test_restart_mid_turn_keeps_requests_and_resolves_once_at_the_deadline(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    vil_nick, _vil = seats["villager"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await maf.slash(game_ch, "kill", target=vil_nick))
    reply_text(await com.slash(game_ch, "check", target=maf_nick))
    deadline = live_game(world).record.deadline
    await env.advance_time(TURN / 3)

    new = await restart()

    assert env.bot is new and new.service.game_in(world.guild.id) is not None
    assert live_game(world).record.deadline == deadline
    status = reply_text(await com.slash(game_ch, "status"))  # the new bot knows the request
    assert t("en", "status.request", verb=t("en", "verb.check"), targets=maf_nick) in status
    assert t("en", "status.posts", count=1) in status  # ...and the posts (R52)
    assert results(world, 1) == []
    game_id = live_game(world).id

    await env.advance_time(TURN / 3)
    assert results(world, 1) == []  # not early
    await until_deadline(world)  # the new bot's clock fires at the stored deadline
    [posted] = results(world, 1)
    assert t("en", "death.mafia", nick=vil_nick, role=t("en", "role.villager")) in posted
    assert t("en", "check.mafia", target=maf_nick, commissar=com_nick) in dm_texts(com)
    assert [r.turn for r in await new.store.resolutions(game_id)] == [1]
    assert len(openings(world, 2)) == 1

    await env.advance_time(TURN / 2)  # nothing fires twice
    assert len(results(world, 1)) == 1
    assert [r.turn for r in await new.store.resolutions(game_id)] == [1]
    assert t("en", "check.mafia", target=maf_nick, commissar=com_nick) in dm_texts(com)
    assert dm_texts(com).count(t("en", "check.mafia", target=maf_nick, commissar=com_nick)) == 1


async def test_the_mafia_room_is_found_again_after_a_restart_even_archived(
    simcord_env: Env, restart: Restart
) -> None:
    """R14: nothing stores the room (a private thread in #mafia): a new bot finds it by its name,
    in its cache of active threads, or, archived, by asking Discord; it wakes it up and the
    mafia's news reach it. No second room is opened."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ada", "bea", "cid", "dot", "eli"))
    await start_game(world, "mafioso=2 commissar=1 villager=2", players)
    game_ch = slot(world, "game")
    room = mafia_room(world)
    game_id = live_game(world).id
    [(maf_nick, maf), (other_nick, other)] = [
        (p.nick, next(a for a in players if a.id == p.user_id))
        for p in live_game(world).players
        if p.role == "mafioso"
    ]
    vil_nick, _vil = seats_by_role(world, players)["villager"]

    await restart()
    reply_text(await maf.slash(game_ch, "kill", target=vil_nick))
    assert f"{maf_nick} → {vil_nick}" in kill_board_text(room, 1)

    await archive_thread(env, world.guild, room)
    new = await restart()
    cached = new.get_guild(world.guild.id)
    assert cached is not None and cached.get_thread(room.id) is None  # not in its cache
    excluded = await confirm_now(world, "mafia exclude", player=maf_nick)
    assert excluded == t("en", "host.excluded", nick=maf_nick)

    assert live_game(world).id == game_id
    left = t("en", "announce.mafia_left", nick=maf_nick)
    assert [m.content for m in room.history()][-1] == left
    assert [th.id for th in slot(world, "mafia").threads] == [room.id]
    assert env.backend.get_channel(room.id).thread_metadata.archived is False  # woken up
    room.history(viewer=other)  # the living mafioso is still in it...
    with pytest.raises(SetupError):
        room.history(viewer=maf)  # ...the excluded one is out
    reply_text(await other.slash(game_ch, "kill", target=vil_nick))
    # The board posted before the restarts is edited in place, never posted twice (R23):
    # the excluded member's request no longer counts.
    board = kill_board_text(room, 1)
    assert f"{other_nick} → {vil_nick}" in board and maf_nick not in board
    assert t("en", "mafia.board.agreed", targets=vil_nick) in board


async def test_announcements_queued_before_the_stop_are_sent_after_the_restart(
    simcord_env: Env, restart: Restart, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old bot commits the resolution and stops before delivering it (as if the process
    died right after the commit): the new bot sends the results, the private news and the next
    turn's opening once, and runs the next turn."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("eve", "fay", "gus", "hal"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    doc_nick, _doc = seats["doctor"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await maf.slash(game_ch, "kill", target=doc_nick))
    reply_text(await com.slash(game_ch, "check", target=maf_nick))
    old = bot_of(env)
    game_id = live_game(world).id

    async def crashed(game_id: int | None = None) -> None:
        return None  # the process dies between the commit and the first send

    monkeypatch.setattr(old.context.delivery, "deliver", crashed)
    monkeypatch.setattr(old.context.delivery, "deliver_game", crashed)  # the clock's way
    await until_deadline(world)
    assert [r.turn for r in await old.store.resolutions(game_id)] == [1]
    pending = await old.store.pending_outbox(game_id)
    assert {row.kind for row in pending} >= {"results", "check", "turn_open"}
    assert results(world, 1) == [] and openings(world, 2) == []
    checked = t("en", "check.mafia", target=maf_nick, commissar=com_nick)
    assert checked not in dm_texts(com)

    new = await restart()

    assert not await new.store.pending_outbox(game_id)  # on_ready delivered them
    [posted] = results(world, 1)
    assert t("en", "death.mafia", nick=doc_nick, role=t("en", "role.doctor")) in posted
    assert len(openings(world, 2)) == 1
    assert dm_texts(com).count(checked) == 1
    assert [r.turn for r in await new.store.resolutions(game_id)] == [1]
    assert live_game(world).engine.turn == 2

    # Turn 2 runs on the new bot's clock.
    for actor in players:
        if actor.id != _doc.id:
            reply_text(await actor.slash(game_ch, "say", text="Again."))
    reply_text(await com.slash(game_ch, "vote", target=maf_nick))
    await until_deadline(world)
    assert len(results(world, 2)) == 1
    assert [r.turn for r in await new.store.resolutions(game_id)] == [1, 2]


async def test_unsent_outbox_rows_are_delivered_at_start_up(
    simcord_env: Env, restart: Restart
) -> None:
    """Rows left unsent in the database while the bot was down (written here through the
    store, as the old process would have) go out when the bot starts, in order, once."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ivy", "jon", "kim", "lou"))
    await start_game(world, ROLES, players)
    game = live_game(world)
    game_id, turn = game.id, game.engine.turn
    seats = seats_by_role(world, players)
    vil_nick, vil = seats["villager"]
    com_nick, _com = seats["commissar"]
    rows = [  # (kind, audience, payload), as rules.announce.Announcement.to_dict writes them
        ("no_shot", "public", {"nick": com_nick}),
        ("note", vil_nick, {"from": com_nick, "text": "Hi"}),
    ]

    async def queue(database: str) -> None:
        store = await open_store(database)
        try:
            items = [
                OutboxItem(kind=k, payload={"kind": k, "audience": a, "payload": p})
                for k, a, p in rows
            ]
            await store.add_outbox(game_id, turn, items)
        finally:
            await store.close()

    new = await restart(queue)

    said = t("en", "announce.no_shot", nick=com_nick)
    noted = t("en", "announce.note", author=com_nick, text=quote_player_text("Hi"))
    assert [m.content for m in slot(world, "game").history()].count(said) == 1
    assert dm_texts(vil).count(noted) == 1
    assert not await new.store.pending_outbox(game_id)
    await restart()  # a second restart sends nothing again
    assert [m.content for m in slot(world, "game").history()].count(said) == 1
    assert dm_texts(vil).count(noted) == 1


@pytest.mark.parametrize("shoots", [True, False])
async def test_a_pistol_window_open_at_the_stop_still_closes(
    simcord_env: Env, restart: Restart, shoots: bool
) -> None:
    """R18: the mafia kills the commissar; the bot restarts during his pistol window; his shot
    after the restart is carried out (and ends the game), or the window closes on the new
    bot's clock."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("max", "ned", "oli", "pam"))
    await start_game(world, "mafioso=1 commissar=1 villager=2", players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await maf.slash(game_ch, "kill", target=com_nick))
    await until_deadline(world)
    assert live_game(world).record.phase == "pistol"

    await restart()

    assert live_game(world).record.phase == "pistol"
    if shoots:
        reply_text(await com.slash(game_ch, "shoot", target=maf_nick))
        shot = t("en", "death.pistol", nick=maf_nick, role=t("en", "role.mafioso"), by=com_nick)
        texts = [message_text(m) for m in game_ch.history()]
        assert texts.count(shot) == 1
        assert texts[-1].startswith(t("en", "winner.town"))
        assert bot_of(env).service.game_in(world.guild.id) is None
    else:
        await until_deadline(world)
        texts = [message_text(m) for m in game_ch.history()]
        assert texts.count(t("en", "announce.no_shot", nick=com_nick)) == 1
        assert len(openings(world, 2)) == 1
        assert live_game(world).engine.turn == 2


async def test_a_deadline_passed_while_the_bot_was_down_resolves_at_start_up(
    simcord_env: Env, restart: Restart
) -> None:
    """The bot is down over the deadline: the new one resolves the turn as it starts, once,
    and posts the results when its guilds are ready."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("quin", "rae", "sam", "tom"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    vil_nick, _vil = seats["villager"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await seats["mafioso"][1].slash(game_ch, "kill", target=vil_nick))
    game_id = live_game(world).id

    async def down_for_a_turn(_database: str) -> None:
        await env.advance_time(TURN + 60)
        assert results(world, 1) == []  # nobody was running

    new = await restart(down_for_a_turn)

    [posted] = results(world, 1)
    assert t("en", "death.mafia", nick=vil_nick, role=t("en", "role.villager")) in posted
    assert [r.turn for r in await new.store.resolutions(game_id)] == [1]
    assert len(openings(world, 2)) == 1
    assert not await new.store.pending_outbox(game_id)
    await env.advance_time(60)
    assert len(results(world, 1)) == 1


async def test_sign_up_buttons_and_a_paused_clock_survive_a_restart(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("uma", "val", "wes", "xan"))
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    game_ch = slot(world, "game")
    signup = game_ch.last_message
    assert signup is not None
    for actor in players[:2]:
        reply_text(await actor.click(signup, custom_id=JOIN_ID))

    await restart()

    for actor in players[2:]:  # the old message's buttons still work (persistent view)
        reply_text(await actor.click(signup, custom_id=JOIN_ID))
    refreshed = game_ch.history()[0]
    counted = t("en", "signup.message", count=4, schedule=t("en", "choice.schedule.fast"))
    assert refreshed.id == signup.id and refreshed.content == counted
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    reply_text(await world.admin.slash(world.lobby, "mafia pause"))

    await restart()

    await env.advance_time(3 * TURN)
    assert results(world, 1) == []  # still paused
    status = reply_text(await players[0].slash(game_ch, "status"))
    assert t("en", "status.paused") in status
    reply_text(await world.admin.slash(world.lobby, "mafia resume"))
    await until_deadline(world)
    assert len(results(world, 1)) == 1
