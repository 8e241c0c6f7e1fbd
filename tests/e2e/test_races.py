"""Races, double clicks and server changes (issue 9), the real bot in SimCord: two commands at
once end in one success and one clear refusal (never "something went wrong", never an ERROR in
the log); ``/mafia resolve`` confirms the turn it names; ``/mafia end`` cancels a sign-up; a
member who leaves the server leaves the sign-up, or the hosts are told; every DM names its
server and game."""

from __future__ import annotations

import logging

import discord
import pytest
from simcord import Env, InteractionResult, MemberActor

from core.i18n import t
from core.refusal import Refusal
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    at_once,
    bot_of,
    confirm_button,
    confirmed_text,
    live_game,
    make_world,
    reply_text,
    resolve_now,
    seats_by_role,
    slot,
    start_game,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 villager=2"


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def refusals_only(env: Env) -> None:
    """Every error the bot raised was a refusal (answered privately); acknowledge them."""
    for error in env.errors:
        assert isinstance(getattr(error, "original", error), Refusal), repr(error)


def texts(results: list[InteractionResult]) -> list[str]:
    return sorted(reply_text(r) for r in results)


async def signed_up(world: World, n: int = 4) -> list[MemberActor]:
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    players = add_players(world, [f"p{i}" for i in range(n)])
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    return players


async def test_two_starts_at_once(simcord_env: Env, caplog: pytest.LogCaptureFixture) -> None:
    env = simcord_env
    world = make_world(env)
    await signed_up(world)
    other = world.guild.add_member(
        env.create_user("carol"), roles=[world.guild.roles["Moderators"]]
    )
    results = await at_once(
        env,
        lambda: world.admin.slash(world.lobby, "mafia start"),
        lambda: other.slash(world.lobby, "mafia start"),
    )
    replies = [reply_text(r) for r in results]
    refusals_only(env)
    assert sum(r.startswith("The game has started") for r in replies) == 1
    assert t("en", "error.no_signup") in replies
    assert len(live_game(world).players) == 4
    no_errors_logged(caplog)


async def test_two_new_games_at_once(simcord_env: Env, caplog: pytest.LogCaptureFixture) -> None:
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    results = await at_once(
        env,
        lambda: world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"),
        lambda: world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"),
    )
    refusals_only(env)
    assert texts(results) == sorted(
        [
            t("en", "error.game_exists"),
            t("en", "signup.opened", channel=slot(world, "game").mention)
            + "\n"
            + t("en", "gameover.reveal.yes"),  # the host is told his reveal choice
        ]
    )
    # One sign-up message, not two.
    signups = [m for m in slot(world, "game").history() if m.components]
    assert len(signups) == 1
    no_errors_logged(caplog)


async def test_R56_resolve_confirms_the_turn_it_names(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's two clicks on Confirm resolve turn 1 once: turn 2 stays open and nobody is
    removed for inactivity (before: the second resolved turn 2 and the game ended in a draw)."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    for actor in players[:3]:
        reply_text(await actor.slash(slot(world, "game"), "say", text="here"))
    seats = seats_by_role(world, players)
    com = seats["commissar"][1]
    checked = reply_text(await com.slash(slot(world, "game"), "check", target=seats["villager"][0]))
    assert seats["villager"][0] in checked, checked
    preview = await world.admin.slash(world.lobby, "mafia resolve")
    shown = reply_text(preview)
    late_nick = live_game(world).nick_of(players[3].id)
    assert shown == "\n".join(  # R52: the preview names who would be removed (issue 11)
        [
            # R3: turn 1 has no vote, so nobody is counted as not yet voted
            t("en", "host.resolve_preview_turn_1", turn=1, requests=1, alive=4, not_posted=1),
            t(
                "en",
                "host.resolve_preview_removed",
                players=t("en", "host.removal_inactive", nick=late_nick),
            ),
        ]
    )
    assert live_game(world).engine.turn == 1  # nothing resolved yet
    reply_text(await players[3].slash(slot(world, "game"), "say", text="late"))
    assert preview.response is not None
    button = confirm_button(preview)
    # The table's key (the server's id for its first table), the game, the turn.
    assert button == f"mafia:confirm:resolve:{world.guild.id}:{live_game(world).id}:1.open"
    clicks = await at_once(
        env,
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
    )
    assert sorted(confirmed_text(c) for c in clicks) == sorted(
        [t("en", "host.resolved_turn", turn=1), t("en", "error.turn_already_resolved", turn=1)]
    )
    game = live_game(world)
    assert game.engine.turn == 2
    assert all(p.alive for p in game.engine.state.players.values())
    # The preview lost its buttons.
    assert preview.response.components == []
    # Cancel changes nothing.
    again = await world.admin.slash(world.lobby, "mafia resolve")
    assert again.response is not None
    cancelled = await world.admin.click(again.response, custom_id="mafia:cancel")
    assert cancelled.response is not None
    assert cancelled.response.content == t("en", "confirm.cancelled")
    assert live_game(world).engine.turn == 2
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "say", text="again"))
    assert await resolve_now(world) == t("en", "host.resolved_turn", turn=2)
    assert live_game(world).engine.turn == 3
    no_errors_logged(caplog)


async def test_R56_a_preview_overtaken_by_the_clock_resolves_nothing(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "say", text="here"))
    preview = await world.admin.slash(world.lobby, "mafia resolve")
    deadline = live_game(world).record.deadline
    assert deadline is not None
    await env.advance_time((deadline - env.now()).total_seconds() + 1)  # the clock resolves 1
    assert live_game(world).engine.turn == 2
    assert preview.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == t("en", "error.turn_already_resolved", turn=1)
    assert live_game(world).engine.turn == 2


async def test_end_cancels_an_open_signup(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    await signed_up(world)
    game_ch = slot(world, "game")
    signup = game_ch.history()[0]
    preview = await world.admin.slash(world.lobby, "mafia end")
    assert reply_text(preview) == t("en", "host.cancel_signup_preview", game=1, count=4)
    assert preview.response is not None
    button = confirm_button(preview)
    clicks = await at_once(  # a double click cancels once
        env,
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
    )
    assert sorted(confirmed_text(c) for c in clicks) == sorted(
        [t("en", "host.signup_cancelled"), t("en", "error.no_running_game")]
    )
    closed = game_ch.history()[0]
    assert closed.id == signup.id
    assert closed.content == t("en", "signup.cancelled") and not closed.components
    assert bot_of(env).service.game_in(world.guild.id) is None
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))


async def test_a_member_who_leaves_the_server_leaves_the_signup(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = await signed_up(world, 5)
    game_ch = slot(world, "game")
    world.guild.remove_member(players[4])
    await env.settle()
    counted = t("en", "signup.message", count=4, schedule=t("en", "choice.schedule.fast"))
    assert game_ch.history()[0].content == counted
    start = reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert start.startswith("The game has started with 4 players")

    # During the game the hosts are told, with the nickname and the way to replace him.
    gone = players[0]
    nick = live_game(world).nick_of(gone.id)
    assert nick is not None
    world.guild.remove_member(gone)
    await env.settle()
    host = slot(world, "host").history()
    assert host[-1].content == t("en", "host.player_left", nick=nick, user=f"<@{gone.id}>")


async def test_start_drops_a_signup_whose_member_left_while_the_bot_was_away(
    simcord_env: Env,
    restart: Restart,
) -> None:
    env = simcord_env
    world = make_world(env)
    players = await signed_up(world, 5)

    async def leaves(_database: str) -> None:
        world.guild.remove_member(players[2])

    await restart(leaves)  # no bot saw him leave
    start = reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert start.startswith("The game has started with 4 players"), start
    assert players[2].id not in {p.user_id for p in live_game(world).players}


async def test_every_dm_names_its_server_and_game(simcord_env: Env) -> None:
    """A member playing on two servers tells his two role cards apart."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d"])
    await start_game(world, ROLES, players)
    guild = env.create_guild("Night Owls")
    hosts = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    twice = guild.add_member(players[0].user)
    other = World(
        env=env,
        guild=guild,
        lobby=guild.create_text_channel("general"),
        admin=guild.add_member(env.create_user("olga"), roles=[hosts]),
        player=twice,
    )
    await start_game(other, ROLES, [twice, *add_players(other, ["e", "f", "g"])])
    first = bot_of(env).service.game_in(world.guild.id)
    second = bot_of(env).service.game_in(guild.id)
    assert first is not None and second is not None
    dm = players[0].user.dm_channel
    assert dm is not None
    assert [m.content.splitlines()[0] for m in dm.history()] == [
        f"**{t('en', 'dm.header', server='Mafia Club', game=first.id)}**",
        f"**{t('en', 'dm.header', server='Night Owls', game=second.id)}**",
    ]


async def test_R56_exclude_confirms_the_player_it_names(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d", "e", "f", "g"])
    await start_game(world, "mafioso=2 commissar=1 villager=4", players)
    vil_nick = seats_by_role(world, players)["villager"][0]
    typed = vil_nick.upper()  # R44: the preview names him as the game spells him
    preview = await world.admin.slash(world.lobby, "mafia exclude", player=typed, reason="rude")
    assert reply_text(preview) == "\n".join(
        [
            t("en", "host.exclude_preview", nick=vil_nick),
            t("en", "host.exclude_reason", reason="rude"),
        ]
    )
    assert preview.response is not None
    cancelled = await world.admin.click(preview.response, custom_id="mafia:cancel")
    assert cancelled.response is not None
    assert cancelled.response.content == t("en", "confirm.cancelled")
    assert live_game(world).engine.state.players[vil_nick].alive

    preview = await world.admin.slash(world.lobby, "mafia exclude", player=vil_nick)
    assert preview.response is not None
    button = confirm_button(preview)
    clicks = await at_once(
        env,
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
    )
    replies = sorted(confirmed_text(c) for c in clicks)
    refusals_only(env)
    assert t("en", "host.excluded", nick=vil_nick) in replies
    assert not live_game(world).engine.state.players[vil_nick].alive
    [other] = [r for r in replies if r != t("en", "host.excluded", nick=vil_nick)]
    assert other == t("en", "refusal.already_dead"), other
    excluded = [m for m in slot(world, "game").history() if vil_nick in m.content]
    assert len(excluded) == 1  # announced once
    no_errors_logged(caplog)


async def test_a_confirmation_from_before_a_restart_of_an_exclusion_expires(
    simcord_env: Env,
    restart: Restart,
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d", "e", "f", "g"])
    await start_game(world, "mafioso=2 commissar=1 villager=4", players)
    vil_nick = seats_by_role(world, players)["villager"][0]
    preview = await world.admin.slash(world.lobby, "mafia exclude", player=vil_nick, reason="x")
    await restart()
    assert preview.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == t("en", "error.confirmation_expired")
    assert live_game(world).engine.state.players[vil_nick].alive
