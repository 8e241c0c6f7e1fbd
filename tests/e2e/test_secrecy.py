"""R14, R55 through the real bot: what Discord itself shows and what the autocomplete offers.

- A member whom Discord lets read the mafia's room or #host (Administrator, a host, Manage
  Threads or Manage Channels in #mafia, a #host reader) is refused at ``/join`` and at the Join
  button, privately and with the reason; ``/mafia start`` refuses while such a member is signed
  up and names him to the hosts only (the host's reply and #host); ``/mafia replace`` refuses
  him as a substitute.
- Every nickname option of every command, typed by every player, offers exactly what the rules
  offer on a game whose hidden roles are shuffled (``tests/rules/test_hidden_facts.py``).

Two arrangements reach into SimCord's backend (no builder gives a member a role after he joined
or sets a channel overwrite): ``give_role`` and ``let_read``.
"""

from __future__ import annotations

import random

import discord
from simcord import ChannelHandle, Env, MemberActor, RoleHandle
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.signup import JOIN_ID
from core.i18n import t
from rules.knowledge import valid_targets
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    live_game,
    make_world,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
)
from tests.rules.test_hidden_facts import choice_verbs, shuffled

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
EVERY_ROLE = (
    "boss=1 mafioso=1 troublemaker=1 commissar=1 sergeant=1 doctor=1 prostitute=1 foundling=1"
    " villager=1"
)


def give_role(env: Env, world: World, member: MemberActor, role: RoleHandle) -> None:
    env.backend.add_member_role(world.guild.id, member.id, role.id)


async def let_read(env: Env, where: ChannelHandle, member: MemberActor) -> None:
    """A member overwrite letting ``member`` see ``where`` (as a careless admin would)."""
    allow = discord.Permissions(view_channel=True, read_message_history=True).value
    env.backend.set_overwrite(where.id, Overwrite(member.id, OverwriteType.MEMBER, allow=allow))
    await env.settle()


def cannot_play(*reasons: tuple[str, ChannelHandle | None]) -> str:
    text = "; ".join(
        t("en", f"secrecy.reason.{reason}", channel=where.mention if where else "")
        for reason, where in reasons
    )
    return t("en", "secrecy.join_refused", reasons=text)


async def open_signup(world: World) -> ChannelHandle:
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    return slot(world, "game")


async def test_R55_who_can_read_the_secret_rooms_cannot_join(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    guild = world.guild
    game_ch = await open_signup(world)
    mafia_ch, host_ch = slot(world, "mafia"), slot(world, "host")
    owner = guild.create_role("Owners", permissions=discord.Permissions(administrator=True))
    mods = guild.create_role("Thread mods", permissions=discord.Permissions(manage_threads=True))
    builders = guild.create_role("Builders", permissions=discord.Permissions(manage_channels=True))
    boss = guild.add_member(env.create_user("boss_account"), roles=[owner])
    mod = guild.add_member(env.create_user("mod_account"), roles=[mods])
    builder = guild.add_member(env.create_user("builder_account"), roles=[builders])
    reader = guild.add_member(env.create_user("reader_account"))
    await let_read(env, host_ch, reader)

    expected = {
        boss: cannot_play(("administrator", None)),
        mod: cannot_play(("manage_threads", mafia_ch)),
        builder: cannot_play(("manage_channels", mafia_ch)),
        reader: cannot_play(("view_host", host_ch)),
        # Manage Server: /mafia state shows every role; and with no host role, /mafia setup
        # let its caller into #host.
        world.admin: cannot_play(("host", None), ("view_host", host_ch)),
    }
    for actor, text in expected.items():
        assert await refusal(env, actor.slash(game_ch, "join")) == text, actor.name
    # The Join button says the same (it has no command tree: the reply is its own).
    signup = next(m for m in game_ch.history() if m.components)
    assert reply_text(await mod.click(signup, custom_id=JOIN_ID)) == expected[mod]
    # A plain member joins; nobody else was seated.
    reply_text(await world.player.slash(game_ch, "join"))
    store = bot_of(env).store
    lobby = await store.open_game(guild.id)
    assert lobby is not None and await store.signups(lobby.id) == [world.player.id]


async def test_R55_start_names_the_members_who_could_read_to_the_hosts_only(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    game_ch = await open_signup(world)
    players = add_players(world, ("eve", "fay", "gus", "hal"))
    for actor in players:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    # After sign-up, an admin hands one of them Manage Threads: he could read the mafia's room.
    mods = world.guild.create_role(
        "Thread mods", permissions=discord.Permissions(manage_threads=True)
    )
    give_role(env, world, players[1], mods)
    await env.settle()

    text = await refusal(env, world.admin.slash(world.lobby, "mafia start"))
    assert text.startswith(t("en", "secrecy.start_refused", members="").split("\n")[0])
    assert "Srv fay (@acct\\_fay)" in text  # markdown escaped
    assert t("en", "secrecy.reason.manage_threads", channel=slot(world, "mafia").mention) in text
    assert not any(f"Srv {n}" in text for n in ("eve", "gus", "hal"))
    posted = slot(world, "host").last_message
    assert posted is not None and posted.content == text  # the hosts' channel
    assert "Srv fay" not in "".join(m.content for m in game_ch.history())  # never in #game
    assert bot_of(env).service.game_in(world.guild.id) is None  # nothing started

    env.backend.remove_member_role(world.guild.id, players[1].id, mods.id)
    await env.settle()
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert bot_of(env).service.game_in(world.guild.id) is not None

    # A substitute is seated too (/mafia replace): the same rule, told to the host.
    owners = world.guild.create_role("Owners", permissions=discord.Permissions(administrator=True))
    owner = world.guild.add_member(env.create_user("bossman"), roles=[owners])
    seat = live_game(world).players[0]
    text = await refusal(
        env, world.admin.slash(world.lobby, "mafia replace", player=seat.nick, member=owner)
    )
    reasons = t("en", "secrecy.reason.administrator")
    assert text == t("en", "secrecy.substitute_refused", member="bossman", reasons=reasons)
    assert live_game(world).players[0].user_id == seat.user_id  # still seated


async def test_R55_every_autocomplete_offers_only_what_its_caller_knows(simcord_env: Env) -> None:
    """The real autocomplete callbacks, typed by every player for every nickname option, offer
    what the rules offer on the game with the caller's hidden facts shuffled; a villager's
    /kill offers the mafia like anyone else (the old leak)."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"))
    await start_game(world, EVERY_ROLE, players)
    game_ch = slot(world, "game")
    state = live_game(world).engine.state
    by_user = {p.user_id: p.nick for p in live_game(world).players}
    options = {"kill": ("target", "second"), "note": ("to",)}
    rng = random.Random(9)
    for actor in players:
        nick = by_user[actor.id]
        other = shuffled(state, nick, rng)
        for verb in choice_verbs():
            for option in options.get(verb, ("target",)):
                offered = await actor.autocomplete(game_ch, verb, option, "")
                values = [c["value"] for c in offered]
                assert values == valid_targets(other, nick, verb), (nick, verb, option)
    seats = seats_by_role(world, players)
    villager_nick, villager = seats["villager"]
    offered = {c["value"] for c in await villager.autocomplete(game_ch, "kill", "target", "")}
    assert {seats[r][0] for r in ("boss", "mafioso", "troublemaker")} <= offered
    assert villager_nick not in offered
