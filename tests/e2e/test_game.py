"""A whole fast game through Discord: sign-up, role cards, anonymous posts, requests, the clock,
results, and the winner. Plus the refusals a player meets."""

from __future__ import annotations

import pytest
from simcord import ChannelHandle, Env, MemberActor, SetupError

from bot.client import MafiaBot
from bot.signup import JOIN_ID, LEAVE_ID
from core.i18n import t
from core.quoting import quote_player_line
from core.service import LiveGame
from tests.e2e.helpers import (
    World,
    channel,
    channel_announcements,
    confirm_now,
    dm_body,
    host_warnings,
    kill_board_text,
    mafia_room,
    make_world,
    message_text,
    pistol_prompt,
    refusal,
    reply_text,
    resolve_now,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

TURN = 600  # a fast turn: 10 minutes


def bot_of(env: Env) -> MafiaBot:
    assert isinstance(env.bot, MafiaBot)
    return env.bot


def live_game(world: World) -> LiveGame:
    game = bot_of(world.env).service.game_in(world.guild.id)
    assert game is not None
    return game


def dm_texts(actor: MemberActor) -> list[str]:
    dm = actor.user.dm_channel
    return [] if dm is None else [dm_body(m.content, actor.guild.name) for m in dm.history()]


async def open_signup(world: World, names: tuple[str, ...]) -> list[MemberActor]:
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    return [world.guild.add_member(world.env.create_user(n)) for n in names]


async def say_all(actors: list[MemberActor], where: ChannelHandle, text: str) -> None:
    for actor in actors:
        reply_text(await actor.slash(where, "say", text=text))


async def test_fast_game_from_signup_to_winner(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    names = ("user_ann", "user_ben", "user_cat", "user_dan")
    actors = await open_signup(world, names)
    game_ch, host_ch = (channel(world, n) for n in ("game", "host"))

    # Sign-up: buttons and /join, with a live count on the sign-up message.
    signup = game_ch.last_message
    assert signup is not None
    assert "Signed up: 0" in signup.content
    for actor in actors[:3]:
        reply_text(await actor.click(signup, custom_id=JOIN_ID))
    reply_text(await actors[2].click(signup, custom_id=LEAVE_ID))
    reply_text(await actors[2].slash(game_ch, "join"))
    reply_text(await actors[3].slash(game_ch, "join"))
    assert "Signed up: 4" in game_ch.history()[0].content

    roles_reply = reply_text(
        await world.admin.slash(
            world.lobby, "mafia roles", roles="mafioso=1 commissar=1 villager=2"
        )
    )
    assert "Mafioso" in roles_reply
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    assert "closed" in game_ch.history()[0].content

    live = live_game(world)
    by_user = {a.id: a for a in actors}
    holder = {p.role: p for p in reversed(live.players)}
    maf, com = holder["mafioso"], holder["commissar"]
    villagers = [p for p in live.players if p.role == "villager"]
    maf_a, com_a = by_user[maf.user_id], by_user[com.user_id]
    v1_a, v2_a = (by_user[v.user_id] for v in villagers)

    # Role cards by DM: nickname, role, verbs; the mafioso sees his team.
    for seat in live.players:
        [card] = dm_texts(by_user[seat.user_id])
        assert seat.nick in card
        assert t("en", f"role.{seat.role}") in card
    card = dm_texts(maf_a)[0]
    # R14: the clan as a host tells it, each member with his role.
    member = t("en", "card.clan_member", nick=maf.nick, role=t("en", "role.mafioso"))
    assert "/kill" in card and t("en", "card.team", team=member) in card
    assert "/check" in dm_texts(com_a)[0]
    # The mafia's room, a private thread in #mafia: the mafioso reads it, a villager does not.
    mafia_ch = mafia_room(world)
    assert mafia_ch.name == t("en", "channel.mafia_thread", game=live.id)
    mafia_ch.history(viewer=maf_a)
    with pytest.raises(SetupError):
        mafia_ch.history(viewer=v1_a)
    # Turn 1 opened in #game.
    assert any("Turn 1 begins" in message_text(m) for m in game_ch.history())

    # /role and /status, privately.
    assert maf.nick in reply_text(await maf_a.slash(game_ch, "role"))
    status = reply_text(await com_a.slash(game_ch, "status"))
    assert t("en", "role.commissar") in status and "<t:" in status

    # An anonymous post by webhook under the nickname, pinging nobody.
    reply_text(await v1_a.slash(game_ch, "say", text=f"Hello <@{com.user_id}> @everyone"))
    post = game_ch.last_message
    assert post is not None and post.webhook_id is not None
    assert post.author.name == villagers[0].nick
    assert not post.mention_everyone
    assert f"<@{com.user_id}>" not in post.content  # a typed mention shows no account (R6)
    await say_all([maf_a, com_a, v2_a], game_ch, "Good morning.")

    # Requests: the kill (the agreement shows in the mafia's room) and the check.
    victim = villagers[0].nick
    kill = reply_text(await maf_a.slash(game_ch, "kill", target=victim))
    assert victim in kill
    assert f"{maf.nick} → {victim}" in kill_board_text(mafia_ch, 1)
    reply_text(await com_a.slash(game_ch, "check", target=maf.nick))
    status = reply_text(await com_a.slash(game_ch, "status"))
    assert maf.nick in status
    # Autocomplete: the caller's game's living nicknames only, never user names.
    choices = await maf_a.autocomplete(game_ch, "kill", "target", "")
    offered = {c["value"] for c in choices}
    assert maf.nick not in offered and victim in offered
    assert not offered & set(names)
    assert await world.player.autocomplete(game_ch, "vote", "target", "") == []

    # A non-player may not vote (and turn 1 has no lynch anyway).
    text = await refusal(env, world.player.slash(game_ch, "vote", target=maf.nick))
    assert text == t("en", "error.not_a_player")

    # The clock: the deadline passes, the turn resolves, results go to #game.
    before = len(game_ch.history())
    await env.advance_time(TURN)
    new = channel_announcements(game_ch.history()[before:])
    results = next(c for c in new if c.startswith("Results of turn 1"))
    assert t("en", "death.mafia", nick=victim, role="Villager") in results
    assert maf.nick not in results  # R55: never the killer
    assert any("Turn 2 begins" in c for c in new)
    checked = t("en", "check.mafia", target=maf.nick, commissar=com.nick)
    assert checked in dm_texts(com_a)
    assert checked in reply_text(await com_a.slash(game_ch, "status"))  # the DM's fallback
    for message in game_ch.history():  # nothing public names a Discord user
        assert not any(n in message.content for n in names)

    # A dead player may not vote; ghosts still post, marked as ghosts.
    text = await refusal(env, v1_a.slash(game_ch, "vote", target=maf.nick))
    assert text == t("en", "refusal.dead_sender")
    reply_text(await v1_a.slash(game_ch, "say", text="Boo."))
    ghost = game_ch.last_message
    assert ghost is not None and ghost.author.name == t("en", "say.ghost_name", nick=victim)

    # Turn 2: everybody posts, the town votes out the mafioso.
    await say_all([maf_a, com_a, v2_a], game_ch, "Let us vote.")
    reply_text(await com_a.slash(game_ch, "vote", target=maf.nick))
    reply_text(await v2_a.slash(game_ch, "vote", target=maf.nick))
    reply_text(await maf_a.slash(game_ch, "vote", target=villagers[1].nick))
    before = len(game_ch.history())
    await env.advance_time(TURN)
    new = channel_announcements(game_ch.history()[before:])
    # announced once, with the revealed role (R35)
    lynched = t("en", "death.lynch", nick=maf.nick, role=t("en", "role.mafioso"))
    assert any(lynched in c for c in new)
    over = next(c for c in new if c.startswith(t("en", "winner.town")))
    assert f"{maf.nick}: Mafioso" in over
    assert bot_of(env).service.game_in(world.guild.id) is None
    assert not await bot_of(env).store.pending_outbox()
    assert host_warnings(host_ch) == []  # every DM went through


async def test_closed_dms_are_reported_to_the_host_channel(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await open_signup(world, ("user_eve", "user_fay", "user_gus", "user_hal"))
    game_ch, host_ch = channel(world, "game"), channel(world, "host")
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    closed = actors[0]
    # Open the DM channel (as the bot would) so its id is known, then make every send to it
    # fail as Discord does when a member closed his DMs (50007).
    user = bot_of(env).get_user(closed.id)
    assert user is not None
    dm = await user.create_dm()
    env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    nick = live_game(world).nick_of(closed.id)
    assert nick is not None
    [notice] = host_warnings(host_ch)  # the audit lines of /mafia aside
    assert nick in notice
    seat = next(p for p in live_game(world).players if p.user_id == closed.id)
    assert t("en", f"role.{seat.role}") not in notice  # the role stays secret
    assert not await bot_of(env).store.pending_outbox()
    # The fallback: /role privately.
    assert nick in reply_text(await closed.slash(game_ch, "role"))


async def started_game(world: World) -> list[MemberActor]:
    actors = await open_signup(world, ("user_ivy", "user_jon", "user_kim", "user_lou"))
    game_ch = channel(world, "game")
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(
        await world.admin.slash(world.lobby, "mafia roles", roles="mafioso=1 doctor=1 villager=2")
    )
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    return actors


def results_posted(world: World) -> list[str]:
    return [
        message_text(m)
        for m in channel(world, "game").history()
        if "Results of turn" in message_text(m)
    ]


async def test_pause_resume_extend_and_resolve_move_the_clock(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await started_game(world)
    game_ch = channel(world, "game")
    await say_all(actors, game_ch, "Here.")

    reply_text(await world.admin.slash(world.lobby, "mafia pause"))
    await env.advance_time(3 * TURN)
    assert results_posted(world) == []  # a stopped clock resolves nothing
    status = reply_text(await actors[0].slash(game_ch, "status"))
    assert t("en", "status.paused") in status

    reply_text(await world.admin.slash(world.lobby, "mafia resume"))
    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=5))
    await env.advance_time(TURN - 60)
    assert results_posted(world) == []  # 10 minutes left, plus 5: not yet
    await env.advance_time(6 * 60)
    assert [r.splitlines()[0] for r in results_posted(world)] == ["Results of turn 1"]

    # The host resolves turn 2 at once; the clock follows the new deadline.
    await say_all(actors, game_ch, "Again.")
    assert await resolve_now(world) == t("en", "host.resolved_turn", turn=2)
    assert len(results_posted(world)) == 2
    assert live_game(world).engine.turn == 3
    await env.advance_time(TURN - 60)
    assert len(results_posted(world)) == 2


async def test_end_reveals_every_role(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await started_game(world)
    old_maf = next(p for p in live_game(world).players if p.role == "mafioso")
    old_maf_a = next(a for a in actors if a.id == old_maf.user_id)
    old_room = mafia_room(world)
    old_room.history(viewer=old_maf_a)
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    last = channel(world, "game").last_message
    assert last is not None and message_text(last).startswith(t("en", "winner.none"))
    assert "Doctor" in message_text(last) and "Mafioso" in message_text(last)
    assert bot_of(env).service.game_in(world.guild.id) is None
    # Nothing keeps running: time passes without any new message.
    count = len(channel(world, "game").history())
    await env.advance_time(3 * TURN)
    assert len(channel(world, "game").history()) == count
    # The next game has a room of its own, which the previous mafia does not see.
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for name in ("user_new1", "user_new2", "user_new3", "user_new4"):
        newcomer = world.guild.add_member(env.create_user(name))
        reply_text(await newcomer.slash(channel(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    new_room = mafia_room(world)
    assert new_room.id != old_room.id
    with pytest.raises(SetupError):
        new_room.history(viewer=old_maf_a)


async def test_profile_post_modal_state_and_replace(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await started_game(world)
    game_ch, mafia_ch = channel(world, "game"), mafia_room(world)
    live = live_game(world)
    by_user = {a.id: a for a in actors}
    maf = next(p for p in live.players if p.role == "mafioso")
    maf_a = by_user[maf.user_id]

    # /profile then /post (a modal): the post carries the avatar and the signature.
    reply_text(
        await maf_a.slash(
            game_ch, "profile", avatar="https://example.com/fox.png", signature="-- the fox"
        )
    )
    shown = await maf_a.slash(game_ch, "post")
    assert shown.modal is not None
    reply_text(await maf_a.submit_modal(shown, {"body": "word " * 700}))
    posts = [m for m in game_ch.history() if m.webhook_id is not None]
    assert len(posts) == 2 and all(m.author.name == maf.nick for m in posts)
    assert posts[-1].content.endswith(quote_player_line("-- the fox"))  # literal text
    bodies = [
        r.json
        for r in env.http_requests
        if r.method == "POST"
        and r.path.startswith("/webhooks/")
        and "simcord_interaction_" not in r.path
        and isinstance(r.json, dict)
    ]
    assert all(b["avatar_url"] == "https://example.com/fox.png" for b in bodies)
    text = await refusal(env, world.player.slash(game_ch, "post"))
    assert text == t("en", "error.not_a_player")

    # /mafia state, privately, for the host only.
    state = reply_text(await world.admin.slash(world.lobby, "mafia state"))
    assert f"{maf.nick}: Mafioso" in state
    text = await refusal(env, maf_a.slash(game_ch, "mafia state"))
    assert text.startswith("Only hosts")

    # /mafia replace: the substitute gets the card and the mafia's room, the old player loses
    # both.
    sub = world.player
    reply_text(await world.admin.slash(world.lobby, "mafia replace", player=maf.nick, member=sub))
    assert maf.nick in dm_texts(sub)[-1]
    mafia_ch.history(viewer=sub)
    with pytest.raises(SetupError):
        mafia_ch.history(viewer=maf_a)
    assert maf.nick in reply_text(await sub.slash(game_ch, "role"))
    text = await refusal(env, maf_a.slash(game_ch, "role"))
    assert text == t("en", "error.not_a_player")


async def test_lobby_refusals(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    text = await refusal(env, world.admin.slash(world.lobby, "mafia new", schedule="fast"))
    assert text == t("en", "error.not_set_up")
    actors = await open_signup(world, ("user_mia", "user_ned"))
    game_ch = channel(world, "game")
    text = await refusal(env, world.admin.slash(world.lobby, "mafia new", schedule="fast"))
    assert text == t("en", "error.game_exists")
    text = await refusal(env, actors[0].slash(game_ch, "leave"))
    assert text == t("en", "error.not_joined")
    reply_text(await actors[0].slash(game_ch, "join"))
    text = await refusal(env, actors[0].slash(game_ch, "join"))
    assert text == t("en", "error.already_joined")
    text = await refusal(
        env, world.admin.slash(world.lobby, "mafia roles", roles="wizard=1 villager=3")
    )
    assert text.startswith("There is no role called “wizard”")
    text = await refusal(env, world.admin.slash(world.lobby, "mafia start"))
    assert text.startswith("Too few players")
    assert bot_of(env).service.game_in(world.guild.id) is None


async def commissar_killed(world: World) -> tuple[MemberActor, str, str, MemberActor]:
    """Turn 1 of a fast game in which the mafia kills the commissar: the pistol window opens.
    Returns the commissar's actor, his nickname, the mafioso's and the mafioso's actor."""
    actors = await open_signup(world, ("user_oz", "user_pat", "user_quin", "user_rae"))
    game_ch = channel(world, "game")
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(
        await world.admin.slash(
            world.lobby, "mafia roles", roles="mafioso=1 commissar=1 villager=2"
        )
    )
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    live = live_game(world)
    by_user = {a.id: a for a in actors}
    maf = next(p for p in live.players if p.role == "mafioso")
    com = next(p for p in live.players if p.role == "commissar")
    await say_all(actors, game_ch, "Hi.")
    reply_text(await by_user[maf.user_id].slash(game_ch, "kill", target=com.nick))
    await world.env.advance_time(TURN)
    assert pistol_prompt(world) in dm_texts(by_user[com.user_id])
    assert live.record.phase == "pistol"
    return by_user[com.user_id], com.nick, maf.nick, by_user[maf.user_id]


async def test_killed_commissar_shoots_the_mafioso(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    com_a, com_nick, maf_nick, maf_actor = await commissar_killed(world)
    game_ch = channel(world, "game")
    reply_text(await com_a.slash(game_ch, "shoot", target=maf_nick))
    texts = channel_announcements(game_ch.history())
    assert t("en", "death.pistol", nick=maf_nick, role="Mafioso", by=com_nick) in texts
    assert texts[-1].startswith(t("en", "winner.town"))
    assert bot_of(simcord_env).service.game_in(world.guild.id) is None
    # The dead mafioso is told he leaves the mafia's room.
    mafia_ch = mafia_room(world)
    assert t("en", "announce.mafia_left", nick=maf_nick) in [m.content for m in mafia_ch.history()]
    # The game is over (its members revealed): every player reads the room now, the
    # commissar too; it stays for the record, archived and locked (read-only).
    assert mafia_ch.history(viewer=com_a) and mafia_ch.history(viewer=maf_actor)
    meta = simcord_env.backend.get_channel(mafia_ch.id).thread_metadata
    assert meta is not None and meta.locked and meta.archived


async def test_pistol_window_closes_without_a_shot(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    _com_a, com_nick, _maf, _maf_actor = await commissar_killed(world)
    game_ch = channel(world, "game")
    await simcord_env.advance_time(60)
    texts = channel_announcements(game_ch.history())
    assert t("en", "announce.no_shot", nick=com_nick) in texts
    assert texts[-1].startswith("Turn 2 begins")
    assert live_game(world).engine.turn == 2


@pytest.mark.usefixtures("russian_clients")
async def test_a_russian_game_speaks_russian(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env, locale="ru")
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    game_ch = next(c for name, c in world.guild.channels.items() if name == "игра")
    actors = [world.guild.add_member(env.create_user(f"user_ru{i}")) for i in range(4)]
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    live = live_game(world)
    for seat in live.players:
        actor = next(a for a in actors if a.id == seat.user_id)
        [card] = dm_texts(actor)
        assert card.startswith(f"Вы — **{seat.nick}**, {t('ru', f'role.{seat.role}')}.")
    assert any(message_text(m).startswith("Начался ход 1") for m in game_ch.history())


async def test_host_excludes_the_mafioso_and_the_town_wins(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await started_game(world)
    game_ch = channel(world, "game")
    live = live_game(world)
    maf = next(p for p in live.players if p.role == "mafioso")
    offered = await world.admin.autocomplete(world.lobby, "mafia exclude", "player", "")
    assert {c["value"] for c in offered} == {p.nick for p in live.players}
    assert await actors[0].autocomplete(game_ch, "mafia exclude", "player", "") == []

    reply_text(await world.admin.slash(world.lobby, "mafia doublekill"))
    text = await refusal(env, world.admin.slash(world.lobby, "mafia doublekill"))
    assert text == t("en", "refusal.already_granted")
    maf_a = next(a for a in actors if a.id == maf.user_id)
    first, second = [p.nick for p in live.players if p.role != "mafioso"][:2]
    reply_text(await maf_a.slash(game_ch, "kill", target=first, second=second))
    pair = ", ".join(sorted((first, second)))  # alphabetical, whatever order he named them in
    assert f"{maf.nick} → {pair}" in kill_board_text(mafia_room(world), 1)
    excluded = await confirm_now(world, "mafia exclude", player=maf.nick)
    assert excluded == t("en", "host.excluded", nick=maf.nick)
    last = game_ch.last_message
    assert last is not None and message_text(last).startswith(t("en", "winner.town"))
    assert f"{maf.nick}: Mafioso, {t('en', 'cause.excluded')}" in message_text(last)


async def test_R18_killed_commissar_shoots_from_the_menu_in_his_dm(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    com_a, com_nick, maf_nick, _maf_actor = await commissar_killed(world)
    game_id = live_game(world).id
    dm = com_a.user.dm_channel
    assert dm is not None
    prompt = dm.history()[-1]
    assert dm_body(prompt.content) == pistol_prompt(world)
    picked = await com_a.user.select(prompt, [maf_nick], custom_id=f"mafia:pistol:{game_id}")
    reply_text(picked)
    texts = channel_announcements(channel(world, "game").history())
    assert t("en", "death.pistol", nick=maf_nick, role="Mafioso", by=com_nick) in texts
    assert texts[-1].startswith(t("en", "winner.town"))


async def test_results_wait_when_the_bot_lost_its_permission_in_game(simcord_env: Env) -> None:
    """A Discord error reaches the hosts as a plain explanation, and nothing is lost."""
    env = simcord_env
    world = make_world(env)
    actors = await started_game(world)
    game_ch, host_ch = channel(world, "game"), channel(world, "host")
    await say_all(actors, game_ch, "Hello.")
    env.inject_error(
        "POST",
        f"/channels/{game_ch.id}/messages",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=1,
    )
    await env.advance_time(TURN)
    store = bot_of(env).store
    pending = [o.kind for o in await store.pending_outbox()]
    assert pending[0] == "results" and "turn_open" in pending  # the order is kept
    notices = host_warnings(host_ch)  # the audit lines of /mafia aside
    permissions = t("en", "perm.send_messages")
    assert notices == [
        t("en", "delivery.forbidden", channel=f"<#{game_ch.id}>", permissions=permissions)
    ]
    # The permission is back: the next delivery sends what waited, in order.
    await bot_of(env).deliver()
    assert not await store.pending_outbox()
    texts = channel_announcements(game_ch.history())
    results = next(i for i, x in enumerate(texts) if x.startswith("Results of turn 1"))
    opening = next(i for i, x in enumerate(texts) if x.startswith("Turn 2 begins"))
    assert results < opening
