"""Who may do what (R9, R56, section 9): hosts only for ``/mafia``, players only for requests,
the living only (ghosts post and shoot, nothing else); and what the host reads when the bot
lacks a permission mid-game (``/mafia setup``'s own check is in ``test_host_setup.py``)."""

from __future__ import annotations

from typing import Any

import attrs
import discord
import pytest
from discord import app_commands
from simcord import Env, MemberActor

from bot.layout import REQUIRED_BOT_PERMISSIONS
from core.i18n import Lang, t
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    confirm_now,
    dm_texts,
    live_game,
    make_world,
    refusal,
    reply_text,
    seats_by_role,
    set_bot_permissions,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"


def command_names(env: Env, group: str | None = None) -> set[str]:
    """The synced top-level commands, or the subcommands of ``group``."""
    tree = bot_of(env).tree
    if group is None:
        return {c.name for c in tree.get_commands()}
    found = tree.get_command(group)
    assert isinstance(found, app_commands.Group)
    names: set[str] = set()
    for c in found.commands:  # a subgroup's commands by their path (``preset save``)
        if isinstance(c, app_commands.Group):
            names |= {f"{c.name} {sub.name}" for sub in c.commands}
        else:
            names.add(c.name)
    return names


def interaction_request(path: str) -> bool:
    return path.endswith("/callback") or "simcord_interaction_" in path


async def snapshot(world: World) -> tuple[Any, ...]:
    """What a refused command must leave as it was: the game (clock, turn, phase), its log,
    outbox and audit trail, the guild's settings and channels (with their overwrites), and every
    REST call the bot made besides answering interactions."""
    env = world.env
    store = bot_of(env).store
    game = await store.latest_game(world.guild.id)
    assert game is not None
    overwrites = {
        name: sorted(
            (o.target_id, o.allow, o.deny) for o in env.backend.get_channel(h.id).overwrites
        )
        for name, h in world.guild.channels.items()
    }
    return (
        attrs.evolve(game, updated_at=game.created_at),
        [(e.turn, e.section, e.payload) for e in await store.log_entries(game.id)],
        [(row.id, row.sent) for row in await store.outbox(game.id)],
        len(await store.audit_log(guild_id=world.guild.id)),
        await store.get_table(world.guild.id),
        overwrites,
        [(r.method, r.path) for r in env.http_requests if not interaction_request(r.path)],
        [(p.name, p.roles) for p in await store.presets(world.guild.id)],
        await store.spectators(game.id, ever=True),
    )


def host_options(
    world: World, nick: str, substitute: MemberActor, lang: Lang = "en"
) -> dict[str, dict[str, Any]]:
    """Valid options for every ``/mafia`` subcommand (what a host could run right now)."""
    return {
        "setup": {"language": "en"},
        "tables": {},
        "droptable": {"table": t(lang, "channel.category")},
        "announce": {"text": "The night is dark."},
        "new": {"schedule": "fast"},
        "roles": {"roles": "mafioso=1 villager=3"},
        "start": {},
        "resolve": {},
        "extend": {"minutes": 5},
        "pause": {},
        "resume": {},
        "end": {},
        "exclude": {"player": nick},
        "deprive": {"player": nick},
        "doublekill": {},
        "replace": {"player": nick, "member": substitute},
        "subs": {},
        "bar": {"member": substitute, "reason": "no-show"},
        "unbar": {"member": substitute},
        "state": {},
        "log": {},
        "purge": {"member": substitute},
        "preset save": {"name": "Evening", "roles": "mafioso=1 villager=3"},
        "preset list": {},
        "preset delete": {"name": "Evening"},
    }


@pytest.mark.usefixtures("clients_in")
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R56_only_hosts_run_mafia_subcommands(simcord_env: Env, lang: Lang) -> None:
    env = simcord_env
    world = make_world(env, locale="ru" if lang == "ru" else None)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, lang=lang)
    hosts_role = world.guild.create_role("Hosts")
    if lang == "ru":  # with a host role, the refusal names it
        reply_text(
            await world.admin.slash(world.lobby, "mafia setup", language=lang, host_role=hosts_role)
        )
        expected = t(lang, "error.not_host", role="Hosts")
    else:
        expected = t(lang, "error.not_host_no_role")
    seats = seats_by_role(world, players)
    mafioso_nick, mafioso = seats["mafioso"]
    game_ch = slot(world, "game")
    options = host_options(world, mafioso_nick, world.player, lang)
    assert set(options) == command_names(env, "mafia"), "a /mafia subcommand is not tested"

    before = await snapshot(world)
    for caller in (mafioso, world.player):  # a player, and a member who does not play
        for sub, values in options.items():
            text = await refusal(env, caller.slash(game_ch, f"mafia {sub}", **values))
            assert text == expected, (sub, text)
    assert await snapshot(world) == before
    # The nickname options offer nothing to a non-host (autocomplete runs no check).
    for sub in ("exclude", "deprive", "replace"):
        assert await mafioso.autocomplete(game_ch, f"mafia {sub}", "player", "") == []
    # ...and the game still runs as before: the host's own command works.
    assert mafioso_nick in reply_text(await world.admin.slash(world.lobby, "mafia state"))


PLAYER_OPTIONS: dict[str, dict[str, Any]] = {
    "role": {},
    "status": {},
    "say": {"text": "Let me in."},
    "post": {},
    "profile": {"signature": "-- a stranger"},
    "vote": {"target": "{nick}"},
    "hunt": {"target": "{nick}"},
    "note": {"to": "{nick}", "text": "Remember me."},
    "kill": {"target": "{nick}"},
    "check": {"target": "{nick}"},
    "heal": {"target": "{nick}"},
    "inject": {"target": "{nick}"},
    "block": {"target": "{nick}"},
    "slander": {"target": "{nick}"},
    "poison": {"target": "{nick}"},
    "steal": {"target": "{nick}"},
    "shoot": {"target": "{nick}"},
    "replaceme": {"reason": "I am not in it"},  # R60: only a player asks to be replaced
}


def player_options(nick: str) -> dict[str, dict[str, Any]]:
    return {
        verb: {k: v.format(nick=nick) if isinstance(v, str) else v for k, v in values.items()}
        for verb, values in PLAYER_OPTIONS.items()
    }


async def test_R9_a_non_player_can_do_nothing_in_the_game(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("eve", "fay", "gus", "hal"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    nick = seats_by_role(world, players)["villager"][0]
    options = player_options(nick)
    # /players, /rules, /help, /history, /stats answer anyone (public facts, or the asker's
    # own numbers): checked below to change nothing.
    info = {"players", "rules", "help", "history", "stats"}
    # /votes and /iso read what was published (tallies, posts): anyone at the table.
    reading = {"votes", "iso"}
    # The message command Quote answers only a player (its refusal: tests/e2e/test_quote.py).
    assert set(options) | {
        "join",
        "leave",
        "wish",
        "spectate",  # a member's own watching (R62): tests/e2e/test_ghost_room.py
        "standby",  # R60: for members who do not play (tests/e2e/test_substitutes.py)
        "mafia",
        "Quote",
    } | info | reading == command_names(env)
    outsider = world.player

    before = await snapshot(world)
    for verb in sorted(info):
        reply_text(await outsider.slash(game_ch, verb))
    assert await refusal(env, outsider.slash(game_ch, "votes")) == t("en", "votes.none")
    posts = await refusal(env, outsider.slash(game_ch, "iso", player=nick))
    assert posts == t("en", "iso.none", nick=nick)
    for verb, values in options.items():
        text = await refusal(env, outsider.slash(game_ch, verb, **values))
        assert text == t("en", "error.not_a_player"), (verb, text)
    for verb in ("join", "leave"):  # sign-up is closed once the game runs
        text = await refusal(env, outsider.slash(game_ch, verb))
        assert text == t("en", "error.no_signup"), (verb, text)
    text = await refusal(env, outsider.slash(game_ch, "wish", role="commissar"))
    assert text == t("en", "error.no_signup")
    assert await snapshot(world) == before
    assert [m for m in game_ch.history() if m.webhook_id is not None] == []
    for verb in ("vote", "hunt", "kill", "check", "heal", "shoot"):  # no nicknames offered
        assert await outsider.autocomplete(game_ch, verb, "target", "") == []

    # With no game at all, the same commands say so.
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    for verb, values in options.items():
        text = await refusal(env, players[0].slash(game_ch, verb, **values))
        assert text == t("en", "error.no_running_game"), (verb, text)


async def test_section9_the_dead_send_no_requests(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ivy", "jon", "kim", "lou"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    doc_nick, doctor = seats["doctor"]
    maf_nick, mafioso = seats["mafioso"]
    com_nick, _com = seats["commissar"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Morning."))
    reply_text(await mafioso.slash(game_ch, "kill", target=doc_nick))
    await until_deadline(world)
    assert not live_game(world).engine.state.alive(doc_nick)
    for actor in players:
        if actor is not doctor:
            reply_text(await actor.slash(game_ch, "say", text="Who did it?"))

    game = live_game(world)
    accepted_before = len(await bot_of(env).store.log_entries(game.id, accepted_only=True))
    refusals = {
        "vote": {"target": maf_nick},
        "hunt": {"target": maf_nick},
        "heal": {"target": com_nick},
        "inject": {"target": maf_nick},
        "note": {"to": com_nick, "text": "Too late."},
        "kill": {"target": com_nick},
    }
    for verb, values in refusals.items():
        text = await refusal(env, doctor.slash(game_ch, verb, **values))
        assert text == t("en", "refusal.dead_sender"), (verb, text)
    text = await refusal(env, doctor.slash(game_ch, "shoot", target=maf_nick))
    assert text == t("en", "refusal.no_pistol")  # only a killed commissar, in his window
    assert game.engine.standing_requests(doc_nick) == []
    assert len(await bot_of(env).store.log_entries(game.id, accepted_only=True)) == accepted_before
    status = reply_text(await doctor.slash(game_ch, "status"))
    assert t("en", "status.no_requests") in status and t("en", "card.dead") in status
    # Nicknames of the dead are not offered, and naming one is refused.
    offered = await mafioso.autocomplete(game_ch, "vote", "target", "")
    assert doc_nick not in {c["value"] for c in offered}
    text = await refusal(env, mafioso.slash(game_ch, "vote", target=doc_nick))
    assert text == t("en", "refusal.dead_target")
    # What a ghost may still do: read his card, post as a ghost (R36).
    assert doc_nick in reply_text(await doctor.slash(game_ch, "role"))
    reply_text(await doctor.slash(game_ch, "say", text="Boo."))
    ghost = game_ch.last_message
    assert ghost is not None and ghost.author.name == t("en", "say.ghost_name", nick=doc_nick)


def without(*flags: str) -> discord.Permissions:
    permissions = discord.Permissions(REQUIRED_BOT_PERMISSIONS.value)
    for flag in flags:
        setattr(permissions, flag, False)
    return permissions


async def test_start_without_manage_roles_tells_the_host_and_starts_nothing(
    simcord_env: Env,
) -> None:
    """Without Manage Roles the bot cannot make the game's roles: /mafia start is refused,
    privately naming the missing permission, and nothing is committed (the signup stays
    open, no card is sent); once the permission is back the start goes through."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("max", "ned", "oli", "pam"))
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    await set_bot_permissions(env, world.guild, without("manage_roles"))

    text = await refusal(env, world.admin.slash(world.lobby, "mafia start"))
    assert t("en", "perm.manage_roles") in text, text
    assert bot_of(env).service.game_in(world.guild.id) is None
    lobby = await bot_of(env).store.open_game(world.guild.id)
    assert lobby is not None and lobby.status == "lobby"
    assert not any(dm_texts(actor) for actor in players)

    await set_bot_permissions(env, world.guild, without())
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert all(dm_texts(actor) for actor in players)
    for actor in players:  # R52: active players, so turn 1 ends with nobody removed
        reply_text(await actor.slash(slot(world, "game"), "say", text="Hi."))
    await until_deadline(world)
    assert live_game(world).engine.turn == 2


async def test_results_the_bot_may_not_post_are_reported_to_the_host(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("quin", "rae", "sam", "tom"))
    await start_game(world, ROLES, players)
    game_ch, host_ch = slot(world, "game"), slot(world, "host")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hi."))
    # A server admin takes Send Messages in #game away from the bot.
    cached = env.bot.get_channel(game_ch.id)
    assert isinstance(cached, discord.TextChannel)
    await cached.set_permissions(
        cached.guild.me,
        overwrite=discord.PermissionOverwrite(view_channel=True, send_messages=False),
    )
    await until_deadline(world)
    assert await bot_of(env).store.pending_outbox()  # the results could not be posted
    notices = [m.content for m in host_ch.history()]
    assert any(t("en", "perm.send_messages") in n for n in notices), notices


async def test_start_without_thread_permissions_in_mafia_starts_nothing(simcord_env: Env) -> None:
    """The mafia's room is a private thread in #mafia: without the right to open and manage it
    there, /mafia start refuses before anything is committed (no half-started game)."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("uma", "vic", "wes", "xan"))
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    mafia = env.bot.get_channel(slot(world, "mafia").id)
    assert isinstance(mafia, discord.TextChannel)
    mine = mafia.overwrites_for(mafia.guild.me)
    mine.update(create_private_threads=False, manage_threads=False)
    await mafia.set_permissions(mafia.guild.me, overwrite=mine)

    text = await refusal(env, world.admin.slash(world.lobby, "mafia start"))

    assert mafia.mention in text, text
    assert t("en", "perm.create_private_threads") in text
    assert t("en", "perm.manage_threads") in text
    assert bot_of(env).service.game_in(world.guild.id) is None
    assert not any(dm_texts(actor) for actor in players)
    assert slot(world, "mafia").threads == []
    # /mafia setup repairs the channel; then the game starts, with its room.
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert bot_of(env).service.game_in(world.guild.id) is not None
    assert len(slot(world, "mafia").threads) == 1
