"""The end of a game as players read it in #game: the winner and why (R15), the length,
every nickname's role and fate, and the members behind the nicknames as the host chose at
``/mafia new reveal`` (named as mentions that ping nobody, or not at all), also across a
restart. Facts are checked, not layout: the announcement may be text or embeds."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from simcord import Env, MemberActor

from bot.client import MafiaBot
from core.i18n import Lang, t
from tests.e2e.helpers import (
    World,
    add_players,
    confirm_now,
    live_game,
    make_world,
    message_text,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 doctor=1 villager=2"


def the_end(world: World, lang: Lang, winner: str | None) -> str:
    """The end-of-game announcement (all its messages) as text."""
    head = t(lang, f"winner.{winner}") if winner else t(lang, "winner.none")
    texts = [message_text(m) for m in slot(world, "game").history()]
    start = next(i for i, text in enumerate(texts) if text.startswith(head))
    return "\n".join(texts[start:])


def posted_with_no_pings(env: Env, marker: str) -> None:
    """Every message carrying ``marker`` was sent with allowed mentions none (R6)."""
    bodies = [
        r.json
        for r in env.http_requests
        if r.method == "POST" and isinstance(r.json, dict) and marker in str(r.json)
    ]
    assert bodies
    for body in bodies:
        assert body.get("allowed_mentions") == {"parse": []}, body


async def vote_out_the_mafioso(world: World, lang: Lang) -> dict[str, tuple[str, MemberActor]]:
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players, lang=lang, activity_rules=False)
    seats = seats_by_role(world, players)
    await until_deadline(world)  # turn 1: nobody dies
    game_ch = slot(world, "game")
    mafioso = seats["mafioso"][0]
    for _nick, actor in seats.values():
        target = mafioso if actor is not seats["mafioso"][1] else seats["doctor"][0]
        reply_text(await actor.slash(game_ch, "vote", target=target))
    await until_deadline(world)
    return seats


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R15_town_wins_and_the_members_are_named_without_a_ping(
    simcord_env: Env, lang: Lang
) -> None:
    world = make_world(simcord_env)
    seats = await vote_out_the_mafioso(world, lang)
    end = the_end(world, lang, "town")
    assert t(lang, "gameover.reason.mafia_dead", foes="mafia") in end
    assert t(lang, "gameover.length", turns=2) in end
    mafioso = seats["mafioso"][0]
    assert f"{mafioso}: {t(lang, 'role.mafioso')}, {t(lang, 'cause.lynch')}" in end
    for nick, actor in seats.values():
        assert nick in end
        assert f"<@{actor.id}>" in end
    assert f"<@{world.admin.id}>" not in end
    assert t(lang, "gameover.hidden") not in end
    posted_with_no_pings(simcord_env, t(lang, "gameover.reason.mafia_dead", foes="mafia"))


async def test_R15_mafia_wins_at_parity_in_russian(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players, lang="ru", activity_rules=False)
    seats = seats_by_role(world, players)
    game_ch = slot(world, "game")
    villagers = [p.nick for p in live_game(world).players if p.role == "villager"]
    killer = seats["mafioso"][1]
    reply_text(await killer.slash(game_ch, "kill", target=villagers[0]))
    await until_deadline(world)
    reply_text(await killer.slash(game_ch, "kill", target=villagers[1]))
    await until_deadline(world)
    end = the_end(world, "ru", "mafia")
    assert t("ru", "gameover.reason.parity", loners="none") in end
    assert "Игра длилась 2 хода." in end
    killed = f"{villagers[1]}: {t('ru', 'role.villager')}, {t('ru', 'cause.mafia')} на 2-м ходу"
    assert killed in end


async def test_reveal_off_survives_a_restart_and_the_host_ends_with_no_winner(
    simcord_env: Env, restart: Callable[[], Awaitable[MafiaBot]]
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    opened = reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", reveal=False
        )
    )
    assert t("en", "gameover.reveal.no") in opened  # the host is told what he chose
    await restart()  # in the lobby
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    await restart()  # while running
    assert live_game(world).record.reveal is False
    nicks = [p.nick for p in live_game(world).players]
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    end = the_end(world, "en", None)
    assert t("en", "gameover.reason.host_ended") in end
    assert t("en", "gameover.length", turns=1) in end
    assert t("en", "gameover.hidden") in end
    assert all(nick in end for nick in nicks)  # every role revealed, named by nickname only
    assert "<@" not in end
    for actor in players:
        assert str(actor.id) not in end and actor.user.name not in end
