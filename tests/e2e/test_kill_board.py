"""The mafia's kill board in its room (the real bot in SimCord, R23, R36): one message per
turn, edited in place as requests change, with its status line; a split says there will be no
kill; a new turn gets a new board; a restart never posts a turn's board twice, also when the
bot died before it kept the board's id."""

from __future__ import annotations

import sqlite3

from simcord import Env

from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    add_players,
    everyone_posts,
    kill_board_text,
    kill_boards,
    live_game,
    mafia_room,
    make_world,
    reply_text,
    slot,
    start_game,
    until_deadline,
)


async def test_R23_one_board_edited_in_place_shows_a_split_then_the_agreement(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"kb{i}" for i in range(10)])
    await start_game(world, "boss=1 mafioso=2 doctor=1 villager=6", actors, lang="ru")
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    mafia = sorted((p for p in seats if p.role in ("boss", "mafioso")), key=lambda p: p.nick)
    town = [p for p in seats if p.role == "villager"]
    game_ch = slot(world, "game")
    room = mafia_room(world)
    before = len(room.history())

    async def kill(member: int, target: str) -> None:
        reply_text(await by_user[mafia[member].user_id].slash(game_ch, "kill", target=target))

    await kill(0, town[0].nick)
    board = kill_board_text(room, 1, "ru")
    assert t("ru", "mafia.board.agreed", targets=town[0].nick) in board
    waiting = ", ".join(sorted(p.nick for p in mafia[1:]))
    assert t("ru", "mafia.board.waiting", players=waiting) in board
    await kill(1, town[0].nick)
    await kill(2, town[1].nick)
    board = kill_board_text(room, 1, "ru")  # still one message for the turn
    assert t("ru", "mafia.board.split") in board
    assert "Заявки расходятся: убийства не будет" in board
    aims = (town[0], town[0], town[1])  # each member's request, members alphabetical
    assert board.split("\n")[1:4] == [
        f"{p.nick} → {aim.nick}" for p, aim in zip(mafia, aims, strict=True)
    ]
    assert len(room.history()) == before + 1  # one board, edited in place
    await kill(2, town[0].nick)
    board = kill_board_text(room, 1, "ru")
    assert f"Согласовано: {town[0].nick}" in board
    assert len(room.history()) == before + 1

    await everyone_posts(world, actors)
    await until_deadline(world)
    assert live_game(world).engine.turn == 2
    reply_text(await by_user[mafia[0].user_id].slash(game_ch, "kill", target=town[2].nick))
    assert len(kill_boards(room, 2, "ru")) == 1 and len(kill_boards(room, 1, "ru")) == 1
    assert town[2].nick in kill_board_text(room, 2, "ru")
    assert town[2].nick not in kill_board_text(room, 1, "ru")


async def test_R23_a_board_whose_id_was_lost_in_a_crash_is_not_posted_twice(
    simcord_env: Env, restart: Restart
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"kc{i}" for i in range(5)])
    await start_game(world, "mafioso=2 commissar=1 villager=2", actors)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    first, second = [p for p in seats if p.role == "mafioso"]
    target = next(p for p in seats if p.role == "villager")
    game_ch = slot(world, "game")
    room = mafia_room(world)
    reply_text(await by_user[first.user_id].slash(game_ch, "kill", target=target.nick))
    assert len(kill_boards(room, 1)) == 1

    async def forget_the_board(database: str) -> None:
        # The bot died after posting the board and before keeping its id: the store holds
        # only the mark that the post had begun.
        conn = sqlite3.connect(database)
        with conn:
            conn.execute("UPDATE kill_boards SET message_id = 0")
        conn.close()

    await restart(forget_the_board)
    reply_text(await by_user[second.user_id].slash(game_ch, "kill", target=target.nick))
    [board] = kill_boards(room, 1)
    assert f"{second.nick} → {target.nick}" in board.content
    assert t("en", "mafia.board.agreed", targets=target.nick) in board.content
    await restart()
    commissar = next(p for p in seats if p.role == "commissar")
    reply_text(await by_user[second.user_id].slash(game_ch, "kill", target=commissar.nick))
    [board] = kill_boards(room, 1)
    assert t("en", "mafia.board.split") in board.content
