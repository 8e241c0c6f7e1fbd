"""The clock's public notices in #game (R3, R4: hunts open; the last hour before the deadline),
each once per turn, also across a restart; none while paused. The resolve preview names who
the resolution then removes (R52, R53). A replacement is public, naming no member (R56)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from simcord import Env, MemberActor

from bot.render import timestamp
from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    advance_to,
    channel_texts,
    confirm_button,
    confirmed_text,
    identities,
    live_game,
    make_world,
    reply_text,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=1 doctor=1 villager=2"


async def start_forum_game(world: World, players: list[MemberActor], lang: str = "en") -> None:
    """The forum schedule in UTC: hunts from 12:00, deadline 21:00 (R1, R4)."""
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="forum", timezone="UTC"))
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))


async def everyone_posts(world: World, players: list[MemberActor]) -> None:
    for actor in players:  # R52: nobody leaves for inactivity
        reply_text(await actor.slash(slot(world, "game"), "say", text="here"))


def notice(lang: str, kind: str, deadline: datetime) -> str:
    return t(
        lang,
        f"announce.{kind}",
        deadline=timestamp(deadline, "f"),
        relative=timestamp(deadline, "R"),
    )


def count(world: World, text: str) -> int:
    return channel_texts(slot(world, "game")).count(text)


def deadline_of(world: World) -> datetime:
    deadline = live_game(world).record.deadline
    assert deadline is not None
    return deadline


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R4_forum_hunts_open_at_noon_from_turn_2_and_the_last_hour_once_a_turn(
    simcord_env: Env, lang: str
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_forum_game(world, players, lang)
    await everyone_posts(world, players)
    first = deadline_of(world)
    assert first.hour == 21

    # Turn 1: no hunts (R3), so no hunts-open notice at 12:00; the last hour at 20:00.
    await advance_to(world, first.replace(hour=12, minute=1))
    hunts = notice(lang, "hunts_open", first)[:12]
    assert not [text for text in channel_texts(slot(world, "game")) if text.startswith(hunts)]
    await advance_to(world, first - timedelta(hours=1, seconds=1))
    assert count(world, notice(lang, "last_hour", first)) == 0  # not early
    await simcord_env.advance_time(2)
    assert count(world, notice(lang, "last_hour", first)) == 1
    assert channel_texts(slot(world, "game"))[-1] == notice(lang, "last_hour", first)
    await advance_to(world, first - timedelta(seconds=1))
    assert count(world, notice(lang, "last_hour", first)) == 1  # once

    await until_deadline(world)
    second = deadline_of(world)
    assert live_game(world).engine.turn == 2 and second - first == timedelta(days=1)
    await everyone_posts(world, players)
    noon = second.replace(hour=12, minute=0)
    await advance_to(world, noon - timedelta(seconds=1))
    assert count(world, notice(lang, "hunts_open", second)) == 0  # not before 12:00
    await simcord_env.advance_time(2)
    assert count(world, notice(lang, "hunts_open", second)) == 1  # R4: at 12:00 local
    await advance_to(world, second - timedelta(minutes=30))
    assert count(world, notice(lang, "hunts_open", second)) == 1  # once a turn
    assert count(world, notice(lang, "last_hour", second)) == 1


async def test_a_paused_game_gets_no_notices_until_resumed(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_forum_game(world, players)
    await everyone_posts(world, players)
    await until_deadline(world)  # turn 2: hunts open at 12:00
    second = deadline_of(world)
    reply_text(await world.admin.slash(world.lobby, "mafia pause"))
    await simcord_env.advance_time(timedelta(days=2).total_seconds())
    texts = channel_texts(slot(world, "game"))
    assert notice("en", "hunts_open", second) not in texts
    assert notice("en", "last_hour", second) not in texts
    assert texts[-1].startswith(t("en", "announce.clock_paused", minutes=1)[:20])
    assert live_game(world).engine.turn == 2
    # Resumed, the turn's notices come before its new deadline, once each.
    reply_text(await world.admin.slash(world.lobby, "mafia resume"))
    resumed = deadline_of(world)
    await advance_to(world, resumed - timedelta(minutes=30))
    assert count(world, notice("en", "hunts_open", resumed)) == 1
    assert count(world, notice("en", "last_hour", resumed)) == 1


async def test_a_restart_neither_repeats_nor_loses_a_notice(
    simcord_env: Env, restart: Restart
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_forum_game(world, players)
    await everyone_posts(world, players)
    await until_deadline(world)
    second = deadline_of(world)
    await everyone_posts(world, players)
    await advance_to(world, second.replace(hour=12, minute=30))
    assert count(world, notice("en", "hunts_open", second)) == 1

    await restart()  # between the notice and the deadline: not sent again
    await advance_to(world, second - timedelta(hours=1, minutes=5))
    assert count(world, notice("en", "hunts_open", second)) == 1
    assert count(world, notice("en", "last_hour", second)) == 0

    await restart()  # just before the last hour: the new bot's clock sends it, once
    await advance_to(world, second - timedelta(minutes=10))
    assert count(world, notice("en", "last_hour", second)) == 1
    assert count(world, notice("en", "hunts_open", second)) == 1


async def test_the_host_moving_the_deadline_after_the_last_hour_notice(simcord_env: Env) -> None:
    """Decision: moved by an hour or less, the host's notice names the new deadline and no
    second last-hour notice comes; moved by more, one comes an hour before the new one."""
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_forum_game(world, players)
    await everyone_posts(world, players)
    first = deadline_of(world)
    await advance_to(world, first - timedelta(minutes=30))
    assert count(world, notice("en", "last_hour", first)) == 1

    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=45))
    moved = deadline_of(world)
    await advance_to(world, moved - timedelta(minutes=1))
    assert count(world, notice("en", "last_hour", moved)) == 0

    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=180))
    later = deadline_of(world)
    await advance_to(world, later - timedelta(hours=1, seconds=1))
    assert count(world, notice("en", "last_hour", later)) == 0
    await simcord_env.advance_time(2)
    assert count(world, notice("en", "last_hour", later)) == 1
    assert live_game(world).engine.turn == 1


async def test_fast_turns_get_hunts_open_at_half_the_turn_and_no_last_hour(
    simcord_env: Env,
) -> None:
    """Decision: a fast turn of two hours or less has no last-hour notice (its reminders come
    a fifth of the turn before the deadline); hunts open at half the turn (R4)."""
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players)  # 10-minute turns
    await everyone_posts(world, players)
    first = deadline_of(world)
    await until_deadline(world)
    assert notice("en", "hunts_open", first) not in channel_texts(slot(world, "game"))  # R3
    second = deadline_of(world)
    await everyone_posts(world, players)
    await until_deadline(world, before=5 * 60 + 1)
    assert count(world, notice("en", "hunts_open", second)) == 0
    await simcord_env.advance_time(2)
    assert count(world, notice("en", "hunts_open", second)) == 1
    await until_deadline(world, before=1)
    assert count(world, notice("en", "hunts_open", second)) == 1
    assert not [text for text in channel_texts(slot(world, "game")) if "an hour" in text]


async def test_a_long_fast_turn_gets_the_last_hour(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", turn_minutes=180
        )
    )
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    first = deadline_of(world)
    await until_deadline(world, before=3601)
    assert count(world, notice("en", "last_hour", first)) == 0
    await simcord_env.advance_time(2)
    assert count(world, notice("en", "last_hour", first)) == 1


async def test_R52_R53_the_resolve_preview_names_who_the_resolution_removes(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players)
    game = live_game(world)
    villager = next(p.user_id for p in game.players if p.role == "villager")
    quiet = next(a for a in players if a.id == villager)  # the game goes on without him
    talkers = [a for a in players if a is not quiet]
    silent = game.nick_of(quiet.id)
    await everyone_posts(world, talkers)
    preview = await world.admin.slash(world.lobby, "mafia resolve")
    shown = reply_text(preview).splitlines()
    assert silent is not None
    removal = t("en", "host.removal_inactive", nick=silent)
    assert shown[1] == t("en", "host.resolve_preview_removed", players=removal)
    assert preview.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == t("en", "host.resolved_turn", turn=1)
    removed = [
        (p.nick, str(p.death_cause))
        for p in live_game(world).engine.state.players.values()
        if p.death_cause in ("inactive", "missed_votes")
    ]
    assert removed == [(silent, "inactive")]

    # Turn 2: everyone posts, one player does not vote: his first miss removes nobody (R53).
    living = talkers
    await everyone_posts(world, living)
    voter_nicks = [live_game(world).nick_of(a.id) for a in living]
    for actor in living[:2]:
        reply_text(await actor.slash(slot(world, "game"), "vote", target=voter_nicks[0]))
    shown = reply_text(await world.admin.slash(world.lobby, "mafia resolve")).splitlines()
    assert shown[1] == t("en", "host.resolve_preview_nobody_removed")
    assert shown[2] == t("en", "host.resolve_preview_not_voted", players=voter_nicks[2])


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R56_a_replacement_is_public_and_names_no_member(simcord_env: Env, lang: str) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players, lang=lang)
    [sub] = add_players(world, ["sub"])
    nick = live_game(world).nick_of(players[1].id)
    assert nick is not None
    reply_text(await world.admin.slash(world.lobby, "mafia replace", player=nick, member=sub))
    texts = channel_texts(slot(world, "game"))
    assert texts[-1] == t(lang, "announce.replaced", nick=nick)
    role = live_game(world).engine.state.players[nick].role
    for name in (*identities(players[1]), *identities(sub)):
        assert name not in texts[-1]
    assert t(lang, f"role.{role}") not in texts[-1]
    assert live_game(world).nick_of(sub.id) == nick


async def test_R56_R35_an_exclusion_is_public_with_the_revealed_role(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players)
    game = live_game(world)
    villager = next(p.nick for p in game.players if p.role == "villager")
    preview = await world.admin.slash(world.lobby, "mafia exclude", player=villager)
    assert preview.response is not None
    await world.admin.click(preview.response, custom_id=confirm_button(preview))
    last = channel_texts(slot(world, "game"))[-1]
    assert t("en", "announce.excluded", nick=villager) in last
    assert t("en", "death.excluded", nick=villager, role=t("en", "role.villager")) in last
