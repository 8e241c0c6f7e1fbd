"""R14, R55 under a server that changes while the game runs (``bot/serverlife.py``).

- Rights gained mid-game (a role given, a role edited, an overwrite on #host, the table's host
  role, the server's ownership) are told to the hosts in #host within a minute: which nickname,
  which member, what they can read and through what; once per change, also across a restart;
  what changed while the bot was down is told when it is back.
- The mafia's room: an outsider added to it by a moderator is removed at once (a host may stay);
  a living member of the mafia removed from it is added back; a deleted room opens again with
  the living mafia; the hosts are told each time.
- A mafia member who leaves the server and comes back gets his room back; the hosts are told
  both.
- The table's host role deleted: the hosts are told what that means.

The server's changes are made through SimCord's backend, as a moderator would make them in
Discord's client (no builder edits a role, an overwrite, a thread's members or the owner).
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from simcord import ChannelHandle, Env, MemberActor, RoleHandle
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType
from simcord.http import router

from bot.serverlife import DEBOUNCE_SECONDS
from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    live_game,
    mafia_room,
    make_world,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
#: Long enough for a debounced check to have run (well within a minute).
SOON = DEBOUNCE_SECONDS + 1


def via_role(name: str) -> str:
    return t("en", "server.via.role", role=f"@{name}")


def gained(nick: str, actor: MemberActor, *reasons: tuple[str, str]) -> str:
    """The notice that ``nick`` can now read more: (reason text, through text) pairs."""
    text = "; ".join(t("en", "server.exposure", reason=r, via=v) for r, v in reasons)
    return t("en", "server.reader_gained", nick=nick, user=f"<@{actor.id}>", reasons=text)


def lost(nick: str, actor: MemberActor, *reasons: str) -> str:
    user = f"<@{actor.id}>"
    return t("en", "server.reader_lost", nick=nick, user=user, reasons="; ".join(reasons))


def reason(key: str, where: ChannelHandle | None = None) -> str:
    return t("en", f"secrecy.reason.{key}", channel=where.mention if where else "")


def player(nick: str, actor: MemberActor) -> str:
    return t("en", "server.player", nick=nick, user=f"<@{actor.id}>")


class HostNews:
    """What #host shows from now on."""

    def __init__(self, host: ChannelHandle) -> None:
        self.host = host
        self.seen = len(host.history())

    def new(self) -> list[str]:
        messages = self.host.history()[self.seen :]
        self.seen += len(messages)
        return [m.content for m in messages]


async def started(env: Env) -> tuple[World, list[MemberActor]]:
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)  # the watch has looked at the new game
    return world, players


def give_role(env: Env, world: World, member: MemberActor, role: RoleHandle) -> None:
    env.backend.add_member_role(world.guild.id, member.id, role.id)


def thread_members(env: Env, room: ChannelHandle) -> set[int]:
    return set(env.backend.get_channel(room.id).thread_members)


async def test_R55_rights_gained_mid_game_are_told_to_the_hosts_once(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world, players = await started(env)
    guild = world.guild
    host_ch, mafia_ch = slot(world, "host"), slot(world, "mafia")
    seats = seats_by_role(world, players)
    (v_nick, villager), (c_nick, commissar) = seats["villager"], seats["commissar"]
    (d_nick, doctor), (m_nick, mafioso) = seats["doctor"], seats["mafioso"]
    news = HostNews(host_ch)
    assert news.new() == []  # the start itself raised nothing

    # A role with Administrator given to a villager: told within a minute, not before the
    # burst of events settles.
    admins = guild.create_role("Admins", permissions=discord.Permissions(administrator=True))
    give_role(env, world, villager, admins)
    await env.settle()
    assert news.new() == []
    await env.advance_time(SOON)
    assert news.new() == [gained(v_nick, villager, (reason("administrator"), via_role("Admins")))]

    # The same rights again through another change: nothing new to tell.
    give_role(env, world, villager, guild.create_role("Fans"))
    await env.advance_time(SOON)
    assert news.new() == []

    # A role edited to grant Manage Threads (the commissar holds it): the mafia's room.
    plain = guild.create_role("Regulars")
    give_role(env, world, commissar, plain)
    env.backend.edit_role(
        guild.id, plain.id, {"permissions": discord.Permissions(manage_threads=True).value}
    )
    await env.advance_time(SOON)
    assert news.new() == [
        gained(c_nick, commissar, (reason("manage_threads", mafia_ch), via_role("Regulars")))
    ]

    # A View overwrite on #host for the doctor.
    allow = discord.Permissions(view_channel=True, read_message_history=True).value
    env.backend.set_overwrite(host_ch.id, Overwrite(doctor.id, OverwriteType.MEMBER, allow=allow))
    await env.advance_time(SOON)
    overwrite = t("en", "server.via.member_overwrite", channel=host_ch.mention)
    assert news.new() == [gained(d_nick, doctor, (reason("view_host", host_ch), overwrite))]

    # The server's ownership to a mafioso (he reads the room anyway, but now #host too).
    env.backend.edit_guild(guild.id, {"owner_id": mafioso.id})
    await env.advance_time(SOON)
    owner = t("en", "server.via.owner")
    assert news.new() == [gained(m_nick, mafioso, (reason("administrator"), owner))]

    # A restart tells nothing again; what changed while the bot was down is told when it is
    # back (here: the villager's Administrator taken away).
    async def while_down(_database: str) -> None:
        env.backend.remove_member_role(guild.id, villager.id, admins.id)

    await restart(while_down)
    await env.advance_time(SOON)
    assert news.new() == [lost(v_nick, villager, reason("administrator"))]
    await env.advance_time(2 * DEBOUNCE_SECONDS)
    assert news.new() == []


async def test_R55_the_table_host_role_given_to_a_player_is_told(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world = make_world(env)
    hosts = world.guild.create_role("Game hosts")
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en", host_role=hosts))
    await start_game(world, ROLES, players)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    host_ch = slot(world, "host")
    news = HostNews(host_ch)
    d_nick, doctor = seats_by_role(world, players)["doctor"]
    give_role(env, world, doctor, hosts)
    await env.advance_time(SOON)
    role = t("en", "server.via.host_role", role="@Game hosts")
    overwrite = t("en", "server.via.role_overwrite", role="@Game hosts", channel=host_ch.mention)
    assert news.new() == [
        gained(d_nick, doctor, (reason("host"), role), (reason("view_host", host_ch), overwrite))
    ]

    # The host role deleted: the hosts are told what it means.
    env.backend.delete_role(world.guild.id, hosts.id)
    await env.settle()
    notices = news.new()
    assert notices[0] == t("en", "server.host_role_deleted", role="@Game hosts")
    await env.advance_time(SOON)
    news.new()

    # A new host role, deleted while the bot is down: told when it is back, once.
    second = world.guild.create_role("Night hosts")
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en", host_role=second))
    await env.advance_time(SOON)
    news.new()

    async def while_down(_database: str) -> None:
        env.backend.delete_role(world.guild.id, second.id)

    await restart(while_down)
    await env.advance_time(SOON)
    assert news.new() == [t("en", "server.host_role_deleted", role=f"<@&{second.id}>")]
    await restart()
    await env.advance_time(SOON)
    assert news.new() == []


async def test_R14_the_mafia_room_keeps_the_living_mafia_and_nobody_else(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world, players = await started(env)
    news = HostNews(slot(world, "host"))
    seats = seats_by_role(world, players)
    (v_nick, villager), (m_nick, mafioso) = seats["villager"], seats["mafioso"]
    room = mafia_room(world)
    assert mafioso.id in thread_members(env, room)

    # A moderator adds a villager: removed at once, the hosts told.
    env.backend.add_thread_member(room.id, villager.id)
    await env.settle()
    assert villager.id not in thread_members(env, room)
    assert news.new() == [t("en", "server.room_intruder_removed", member=player(v_nick, villager))]

    # A member who plays nothing: the same. A host may be in it.
    outsider = world.guild.add_member(env.create_user("outsider"))
    env.backend.add_thread_member(room.id, outsider.id)
    env.backend.add_thread_member(room.id, world.admin.id)
    await env.settle()
    assert outsider.id not in thread_members(env, room)
    assert world.admin.id in thread_members(env, room)
    assert news.new() == [t("en", "server.room_intruder_removed", member=f"<@{outsider.id}>")]
    await env.advance_time(SOON)
    assert news.new() == []

    # The living mafioso removed by a moderator: added back within a minute.
    env.backend.remove_thread_member(room.id, mafioso.id)
    await env.settle()
    assert mafioso.id not in thread_members(env, room)
    await env.advance_time(SOON)
    assert mafioso.id in thread_members(env, room)
    assert news.new() == [t("en", "server.room_restored", member=player(m_nick, mafioso))]

    # The room deleted: opened again with the living mafia.
    env.backend.delete_channel(room.id)
    await env.advance_time(SOON)
    again = mafia_room(world)
    assert again.id != room.id
    assert mafioso.id in thread_members(env, again)
    assert villager.id not in thread_members(env, again)
    assert news.new() == [t("en", "server.room_reopened", members=m_nick)]
    # The mafia still talks there.
    reply_text(await mafioso.slash(slot(world, "game"), "kill", target=v_nick))
    await mafioso.send(again, "we meet again")
    assert live_game(world).engine.turn == 1

    # A villager added and the mafioso taken out while the bot was down: put right when it is
    # back, and the hosts told.
    async def while_down(_database: str) -> None:
        env.backend.add_thread_member(again.id, villager.id)
        env.backend.remove_thread_member(again.id, mafioso.id)

    await restart(while_down)
    await env.advance_time(SOON)
    assert thread_members(env, again) >= {mafioso.id}
    assert villager.id not in thread_members(env, again)
    assert news.new() == [
        t("en", "server.room_intruder_removed", member=player(v_nick, villager)),
        t("en", "server.room_restored", member=player(m_nick, mafioso)),
    ]

    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    assert news.new() == []


async def test_R14_a_mafioso_who_leaves_and_comes_back_gets_his_room_back(simcord_env: Env) -> None:
    env = simcord_env
    world, players = await started(env)
    news = HostNews(slot(world, "host"))
    m_nick, mafioso = seats_by_role(world, players)["mafioso"]
    room = mafia_room(world)

    world.guild.remove_member(mafioso)  # Discord drops him from every thread
    await env.settle()
    assert mafioso.id not in thread_members(env, room)
    assert news.new() == [t("en", "host.player_left", nick=m_nick, user=f"<@{mafioso.id}>")]

    back = world.guild.add_member(mafioso.user)
    await env.settle()
    assert back.id in thread_members(env, room)
    returned = t("en", "server.player_returned", member=player(m_nick, back))
    assert news.new() == [f"{returned} {t('en', 'server.player_returned_room_added')}"]
    await back.send(room, "I am back")
    await env.advance_time(SOON)
    assert news.new() == []


async def test_R14_without_mafia_the_hosts_are_told_and_setup_brings_the_room_back(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, players = await started(env)
    news = HostNews(slot(world, "host"))
    m_nick, mafioso = seats_by_role(world, players)["mafioso"]
    old = slot(world, "mafia")
    env.backend.delete_channel(old.id)
    await env.advance_time(SOON)
    assert news.new() == [t("en", "server.room_broken_no_parent", channel="#mafia")]
    await env.advance_time(SOON)
    assert news.new() == []  # told once

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    await env.advance_time(SOON)
    rebuilt = slot(world, "mafia")
    assert rebuilt.id != old.id
    room = mafia_room(world)
    assert mafioso.id in thread_members(env, room)
    assert t("en", "server.room_reopened", members=m_nick) in news.new()


class Requests:
    """Every REST request the bot makes, as (method, path), from SimCord's router."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[str, str]] = []
        original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            self.made.append((method, path))
            return original(backend, method, path, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)

    def member_reads(self, room: ChannelHandle) -> int:
        return self.made.count(("GET", f"/channels/{room.id}/thread-members"))


async def test_R14_a_resolution_alone_reads_no_room_members(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: a deadline costs no read of the mafia room's members. The deadline kills a
    mafioso (R20), whom the delivery takes out of the room itself; neither the resolution nor
    that removal (its gateway event comes back) makes the watch list the room."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan", "eve", "fox"))
    await start_game(world, "mafioso=2 commissar=1 doctor=1 villager=2", players)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)  # the first look at the new game
    requests = Requests(monkeypatch)
    room = mafia_room(world)
    news = HostNews(slot(world, "host"))
    game_ch = slot(world, "game")
    for actor in players:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    game = live_game(world)
    dead_nick = min(p.nick for p in game.players if p.role == "mafioso")
    dead_id = game.user_of(dead_nick)
    _doc_nick, doctor = seats_by_role(world, players)["doctor"]
    reply_text(await doctor.slash(game_ch, "inject", target=dead_nick))  # R20: he dies
    await until_deadline(world)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    assert live_game(world).engine.turn == 2
    assert dead_id not in thread_members(env, room)  # the delivery took him out
    assert ("DELETE", f"/channels/{room.id}/thread-members/{dead_id}") in requests.made
    assert requests.member_reads(room) == 0
    assert not [m for m in news.new() if "room" in m.lower()]

    # A moderator's removal is a server change: the room is read and put right.
    alive_nick = max(p.nick for p in game.players if p.role == "mafioso")
    alive_id = game.user_of(alive_nick)
    assert alive_id is not None
    env.backend.remove_thread_member(room.id, alive_id)
    await env.settle()
    await env.advance_time(SOON)
    assert requests.member_reads(room) == 1
    assert alive_id in thread_members(env, room)


async def test_R14_a_change_the_bot_did_not_hear_of_is_found_when_it_starts_again(
    simcord_env: Env, restart: Restart
) -> None:
    """A change whose event the bot never got (here: a thread member added without any
    gateway event) is not looked for at a resolution (issue 34: a deadline reads no room),
    but is found when the bot is ready again (``on_ready``: every running game's room is
    read)."""
    env = simcord_env
    world, players = await started(env)
    news = HostNews(slot(world, "host"))
    v_nick, villager = seats_by_role(world, players)["villager"]
    room = mafia_room(world)
    env.backend.get_channel(room.id).thread_members[villager.id] = env.backend.now_iso()
    game_ch = slot(world, "game")
    for actor in players:  # everyone posts: nobody leaves for inactivity (R52)
        reply_text(await actor.slash(game_ch, "say", text="good morning"))
    await until_deadline(world)
    assert live_game(world).engine.turn == 2
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    assert villager.id in thread_members(env, room)  # unseen so far
    await restart()
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    assert villager.id not in thread_members(env, room)
    removed = t("en", "server.room_intruder_removed", member=player(v_nick, villager))
    assert removed in news.new()


async def test_R14_R55_a_mafioso_killed_in_results_held_for_review_keeps_his_room_till_published(
    simcord_env: Env,
) -> None:
    """While a turn's results wait for the host (``/mafia new review``), the room holds the
    mafia as the players know it: a mafioso killed in those results is no intruder, and
    nobody sees him leave before his death is published; then he leaves, untold as intruder."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan", "eve", "fox"))
    await start_game(world, "mafioso=2 commissar=1 doctor=1 villager=2", players, review=30)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    game_ch = slot(world, "game")
    for actor in players:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    by_id = {a.id: a for a in players}
    game = live_game(world)
    mafiosi = sorted(p.nick for p in game.players if p.role == "mafioso")
    dead_nick, alive_nick = mafiosi
    dead, alive = by_id[game.user_of(dead_nick)], by_id[game.user_of(alive_nick)]  # type: ignore[index]
    _doc_nick, doctor = seats_by_role(world, players)["doctor"]
    reply_text(await doctor.slash(game_ch, "inject", target=dead_nick))  # R20
    room = mafia_room(world)
    news = HostNews(slot(world, "host"))
    await until_deadline(world)
    await env.advance_time(1)
    assert not live_game(world).engine.state.alive(dead_nick)  # decided, not yet published

    # A moderator takes the living mafioso out: the watch looks at the whole room.
    env.backend.remove_thread_member(room.id, alive.id)
    await env.settle()
    await env.advance_time(SOON)
    members = thread_members(env, room)
    assert {dead.id, alive.id} <= members
    intruder = t("en", "server.room_intruder_removed", member=player(dead_nick, dead))
    told = news.new()
    assert intruder not in told
    assert t("en", "server.room_restored", member=player(alive_nick, alive)) in told

    draft = next(
        m for m in slot(world, "host").history() if "Draft: the results of turn" in m.content
    )
    publish = next(
        str(c.custom_id)
        for row in draft.components
        for c in getattr(row, "children", [])
        if str(getattr(c, "custom_id", "")).startswith("mafia:review:publish:")
    )
    reply_text(await world.admin.click(draft, custom_id=publish))
    await env.advance_time(SOON)
    assert dead.id not in thread_members(env, room)  # told, then taken out (R14)
    assert alive.id in thread_members(env, room)
    assert intruder not in news.new()


async def _room_raced(
    env: Env, monkeypatch: pytest.MonkeyPatch, roles: str, victim: str
) -> tuple[World, list[MemberActor], list[str], list[int], list[int]]:
    """Six players of ``roles``; the doctor's injection kills the holder of ``victim`` (R20)
    at turn 1's deadline, whose rows (the room's ``mafia_left``, ``mafia_joined``) wait; then
    the watch checks the room while the delivery sends them between its reads of the room's
    members and of the rows in flight. The hosts' new lines, and whom the delivery and the
    watch took out of the room and let in."""
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan", "eve", "fox"))
    await start_game(world, roles, players)
    await env.advance_time(DEBOUNCE_SECONDS + SOON)
    game_ch = slot(world, "game")
    for actor in players:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    game = live_game(world)
    target = next(p.nick for p in game.players if p.role == victim)
    _doc_nick, doctor = seats_by_role(world, players)["doctor"]
    reply_text(await doctor.slash(game_ch, "inject", target=target))  # R20: he dies
    bot = bot_of(env)
    delivery = bot.context.delivery

    async def held(game_id: int | None = None) -> int:
        return 0  # the results wait in the outbox for now

    monkeypatch.setattr(delivery, "deliver", held)
    monkeypatch.setattr(delivery, "deliver_game", held)
    await until_deadline(world)
    await env.advance_time(SOON)
    assert not live_game(world).engine.state.alive(target)
    monkeypatch.undo()
    news = HostNews(slot(world, "host"))
    listed = discord.Thread.fetch_members
    raced: list[bool] = []

    async def members_then_delivery(thread: discord.Thread) -> list[discord.ThreadMember]:
        seen = await listed(thread)
        if not raced:  # the delivery goes on between the two reads, once
            raced.append(True)
            await delivery.deliver_game(game.id)
        return seen

    monkeypatch.setattr(discord.Thread, "fetch_members", members_then_delivery)
    removed: list[int] = []
    added: list[int] = []
    take_out, let_in = delivery.rooms.remove, delivery.rooms.add

    async def counted_out(thread: discord.Thread, member: discord.abc.Snowflake) -> None:
        removed.append(member.id)
        await take_out(thread, member)

    async def counted_in(thread: discord.Thread, member: discord.abc.Snowflake) -> None:
        added.append(member.id)
        await let_in(thread, member)

    monkeypatch.setattr(delivery.rooms, "remove", counted_out)
    monkeypatch.setattr(delivery.rooms, "add", counted_in)
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    await bot.context.watch.check(guild, rooms=True)
    await env.settle()
    assert raced
    return world, players, news.new(), removed, added


async def test_R14_the_room_check_sees_one_moment_while_the_delivery_takes_a_dead_mafioso_out(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watch reads the room's members, and the delivery then tells a dead mafioso and
    takes him out of the room (his ``mafia_left`` row marked sent) before the watch reads the
    rows in flight. Read as one moment (the rows before and after the members, the same), he
    is neither taken out a second time nor reported to the hosts as an intruder."""
    env = simcord_env
    world, players, told, removed, _added = await _room_raced(
        env, monkeypatch, "mafioso=2 commissar=1 doctor=1 villager=2", "mafioso"
    )
    game = live_game(world)
    dead_nick = next(p.nick for p in game.players if not game.engine.state.alive(p.nick))
    dead = next(a for a in players if a.id == game.user_of(dead_nick))
    assert removed == [dead.id]  # once, by the delivery that told him
    assert dead.id not in thread_members(env, mafia_room(world))
    intruder = t("en", "server.room_intruder_removed", member=player(dead_nick, dead))
    assert intruder not in told


async def test_R14_R22_the_room_check_sees_one_moment_while_the_delivery_lets_the_foundling_in(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Boss dies: the Foundling joins the mafia (R22) and the delivery lets him into the
    room (his ``mafia_joined`` row marked sent) between the watch's reads. He is let in once,
    and the hosts are not told that a member of the mafia had to be added back."""
    env = simcord_env
    world, players, told, _removed, added = await _room_raced(
        env, monkeypatch, "boss=1 mafioso=1 foundling=1 doctor=1 villager=2", "boss"
    )
    game = live_game(world)
    nick = next(p.nick for p in game.players if p.role == "foundling")
    foundling = next(a for a in players if a.id == game.user_of(nick))
    assert added == [foundling.id]  # once, by the delivery that welcomed him
    assert foundling.id in thread_members(env, mafia_room(world))
    restored = t("en", "server.room_restored", member=player(nick, foundling))
    assert restored not in told
