"""Races, double clicks and server changes, the real bot in SimCord: two commands at
once end in one success and one clear refusal (never "something went wrong", never an ERROR in
the log); ``/mafia resolve`` confirms the turn it names; ``/mafia end`` cancels a sign-up; a
member who leaves the server leaves the sign-up, or the hosts are told; every DM names its
server and game."""

from __future__ import annotations

import logging

import discord
import pytest
from simcord import Env, InteractionResult, MemberActor

from bot.confirm import CONFIRMATION_TTL
from core.i18n import t
from core.refusal import Refusal
from core.zones import said_time
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
    assert shown == "\n".join(  # R52: the preview names who would be removed
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


async def test_a_confirmation_of_an_exclusion_survives_a_restart_until_it_expires(
    simcord_env: Env,
    restart: Restart,
) -> None:
    """The preview's reason is kept in the store: after a restart its Confirm still excludes
    the player, with the reason in #host's audit line (before: refused as expired). An old
    preview expires after an hour."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ["a", "b", "c", "d", "e", "f", "g"])
    await start_game(world, "mafioso=2 commissar=1 villager=4", players)
    seats = seats_by_role(world, players)
    vil_nick = seats["villager"][0]
    preview = await world.admin.slash(world.lobby, "mafia exclude", player=vil_nick, reason="x")
    late = await world.admin.slash(
        world.lobby, "mafia exclude", player=seats["commissar"][0], reason="y"
    )
    await restart()
    assert preview.response is not None and late.response is not None
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == t("en", "host.excluded", nick=vil_nick)
    assert not live_game(world).engine.state.players[vil_nick].alive
    [audit] = [
        a
        for a in await bot_of(env).store.audit_log(guild_id=world.guild.id)
        if a.command == "exclude"
    ]
    assert audit.args.get("reason") == "x"
    reply_text(await world.admin.slash(world.lobby, "mafia pause"))  # the game waits meanwhile
    await env.advance_time(CONFIRMATION_TTL.total_seconds() + 1)
    clicked = await world.admin.click(late.response, custom_id=confirm_button(late))
    assert confirmed_text(clicked) == t("en", "error.confirmation_expired")
    assert live_game(world).engine.state.players[seats["commissar"][0]].alive


async def pistol_window_open(world: World) -> list[MemberActor]:
    """Eight players; turn 1 is resolved with the commissar killed, so his pistol window is
    open (R18)."""
    players = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, "mafioso=2 commissar=1 villager=5", players)
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "say", text="here"))
    com_nick = seats_by_role(world, players)["commissar"][0]
    for p in live_game(world).players:
        if p.role == "mafioso":
            maf = next(a for a in players if a.id == p.user_id)
            reply_text(await maf.slash(slot(world, "game"), "kill", target=com_nick))
    assert await resolve_now(world) == t("en", "host.resolved_turn", turn=1)
    assert live_game(world).engine.phase.value == "pistol"
    return players


async def test_R18_a_shot_from_the_menu_at_the_close_says_it_came_too_late(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """The commissar picks his target in the pistol menu as the host confirms the window's
    close, and the close is decided first: the reply says turn 1 closed before the shot came
    (R5), the window closes once, and turn 2 stays open with everyone in it. (The shot
    decided first closes only its own window: tests/integration/test_races.py.)"""
    env = simcord_env
    world = make_world(env)
    players = await pistol_window_open(world)
    seats = seats_by_role(world, players)
    com = seats["commissar"][1]
    target = seats["villager"][0]
    dm = com.user.dm_channel
    assert dm is not None
    prompt = dm.history()[-1]
    game = live_game(world)
    preview = await world.admin.slash(world.lobby, "mafia resolve")
    assert preview.response is not None
    button = confirm_button(preview)
    assert button.endswith(":1.pistol")
    shot, clicked = await at_once(
        env,
        lambda: com.user.select(prompt, [target], custom_id=f"mafia:pistol:{game.id}"),
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
    )
    assert confirmed_text(clicked) == t("en", "host.resolved_turn", turn=1)
    assert reply_text(shot) == "\n".join(
        [t("en", "play.late_refused", sent=1), t("en", "refusal.no_pistol")]
    )
    refusals_only(env)
    game = live_game(world)
    assert (game.engine.turn, game.engine.phase.value) == (2, "open")
    assert game.engine.state.players[target].alive
    assert len(game.engine.state.living()) == 7
    no_errors_logged(caplog)


async def test_R5_a_vote_racing_the_resolution_names_the_turn_it_counts_for(
    simcord_env: Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A /vote sent as the host confirms the resolution of turn 2 is decided in turn 3: its
    reply says so (R5), instead of a bare "counted" read as turn 2."""
    env = simcord_env
    world = make_world(env)
    players = await pistol_window_open(world)
    assert await resolve_now(world) == t("en", "host.resolved_turn", turn=1)
    game = live_game(world)
    living = [a for a in players if game.engine.state.alive(game.nick_of(a.id) or "")]
    for actor in living:
        reply_text(await actor.slash(slot(world, "game"), "say", text="turn 2"))
    voter = living[0]
    target = game.nick_of(living[1].id)
    assert target is not None
    preview = await world.admin.slash(world.lobby, "mafia resolve")
    assert preview.response is not None
    button = confirm_button(preview)
    clicked, voted = await at_once(
        env,
        lambda: world.admin.click(preview.response, custom_id=button),  # type: ignore[arg-type]
        lambda: voter.slash(slot(world, "game"), "vote", target=target),
    )
    assert confirmed_text(clicked) == t("en", "host.resolved_turn", turn=2)
    assert live_game(world).engine.turn == 3
    deadline = live_game(world).record.deadline
    assert deadline is not None
    assert reply_text(voted) == "\n".join(
        [
            t("en", "play.late", sent=2, turn=3),
            t("en", "play.accepted.vote", target=target, turn=3),
            t("en", "play.change_until", time=said_time("en", deadline, "UTC")),
        ]
    )
    no_errors_logged(caplog)
