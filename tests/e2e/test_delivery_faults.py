"""Discord failing while the bot delivers a resolution ("Discord failures").

Every step of a resolution's delivery (each message of each outbox row, the mafia room's member
changes, the room's lock at the end) fails once with a 500, a 503, a 429, a timeout, or a
timeout *after* Discord stored the message (the answer was lost); the retry timer sends what
waits, in order in each channel, and every message arrives exactly once. A game whose
deliveries fail blocks only itself; after five minutes stuck its hosts are told once in #host.
Players' posts (``/say``) go through the outbox too: a post is shown once whatever fails, its
author is told whether it was shown, and only a shown post counts (R52) and is archived.

SimCord's ``env.inject_error`` raises only HTTP errors before the route runs; timeouts and lost
answers need a wrapper around its router (:class:`Faults`, docs/SIMCORD_NOTES.md).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import discord
import pytest
from simcord import ChannelHandle, Env, GuildHandle, MemberActor

from bot.delivery import RETRY_FIRST_SECONDS, STUCK_NOTICE_SECONDS, nonce_of
from core.i18n import t
from db.models import OutboxRecord
from tests.e2e.helpers import (
    WEBHOOK_STEPS,
    Faults,
    World,
    bot_of,
    channel_announcements,
    host_warnings,
    mafia_room,
    make_world,
    reply_text,
    resolve_now,
    slot,
)

KINDS = ("500", "503", "429", "timeout", "lost")


# --- a game with long turns (the retries never reach a deadline) -------------------------------
async def start_slow_game(
    env: Env,
    guild: GuildHandle,
    admin: MemberActor,
    lobby: ChannelHandle,
    names: tuple[str, ...],
    roles: str = "mafioso=2 commissar=1 villager=4",
) -> list[MemberActor]:
    actors = [guild.add_member(env.create_user(name)) for name in names]
    reply_text(await admin.slash(lobby, "mafia setup", language="en"))
    reply_text(
        await admin.slash(lobby, "mafia new", schedule="fast", timezone="UTC", turn_minutes=120)
    )
    game_ch = guild.channels["game"]
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await admin.slash(lobby, "mafia roles", roles=roles))
    reply_text(await admin.slash(lobby, "mafia start"))
    return actors


def game_of(env: Env, guild: GuildHandle) -> Any:
    game = bot_of(env).service.game_in(guild.id)
    assert game is not None
    return game


async def play_turn(
    env: Env, guild: GuildHandle, actors: list[MemberActor], *, lynch: str | None
) -> None:
    """Every living player talks; the town votes ``lynch`` (none on turn 1, R3), the mafia
    kills a villager, the commissar checks a mafioso."""
    game = game_of(env, guild)
    state = game.engine.state
    by_user = {a.id: a for a in actors}
    game_ch = guild.channels["game"]
    living = [p for p in game.players if state.alive(p.nick)]
    for seat in living:
        reply_text(await by_user[seat.user_id].slash(game_ch, "say", text="Here."))
    mafia = [p for p in living if p.role == "mafioso"]
    villagers = [p for p in living if p.role == "villager"]
    for seat in living:
        if seat.role != "mafioso" and lynch is not None:
            reply_text(await by_user[seat.user_id].slash(game_ch, "vote", target=lynch))
        if seat.role == "commissar":
            reply_text(await by_user[seat.user_id].slash(game_ch, "check", target=mafia[-1].nick))
    reply_text(await by_user[mafia[0].user_id].slash(game_ch, "kill", target=villagers[0].nick))


async def until_delivered(env: Env, *, limit: int = 40) -> int:
    """Advance the clock by the shortest retry delay until the outbox is empty; how often."""
    store = bot_of(env).store
    for step in range(limit):
        if not await store.pending_outbox():
            return step
        await env.advance_time(RETRY_FIRST_SECONDS)
    raise AssertionError(f"still pending: {await store.pending_outbox()}")


def bot_messages(where: ChannelHandle, env: Env) -> list[str]:
    me = env.bot.user
    assert me is not None
    # Each announcement (the results and the opening may share a message).
    return channel_announcements([m for m in where.history() if m.author.id == me.id])


# --- every step of a resolution fails once -----------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
async def test_every_step_of_a_resolution_fails_once_and_arrives_once_in_order(
    simcord_env: Env, faults: Faults, kind: str
) -> None:
    env = simcord_env
    world = make_world(env)
    actors = await start_slow_game(
        env, world.guild, world.admin, world.lobby, ("u1", "u2", "u3", "u4", "u5", "u6", "u7")
    )
    store = bot_of(env).store
    game = game_of(env, world.guild)
    game_id = game.id
    first_row = len(await store.outbox(game_id))
    mafia = [p for p in game.players if p.role == "mafioso"]

    # Turn 1: results (#game), the commissar's check (a DM), the next turn (#game).
    # Turn 2: the lynched mafioso leaves the room (room message, member removed), game goes on.
    for turn, lynch in ((1, None), (2, mafia[0].nick)):
        await play_turn(env, world.guild, actors, lynch=lynch)
        faults.kind = kind
        await resolve_now(world)
        retries = await until_delivered(env)
        faults.kind = None
        assert retries >= 1, f"turn {turn}: nothing failed"

    rows = (await store.outbox(game_id))[first_row:]
    assert rows and all(row.sent for row in rows)
    rows = [row for row in rows if row.kind != "post"]  # the players' posts: webhooks, no nonce
    kinds = [row.kind for row in rows]
    assert "check" in kinds and "mafia_left" in kinds  # a DM and the mafia room were covered
    # Each message of each row was tried and failed once (the steps in turn), then arrived:
    # exactly once (no nonce twice among the stored messages), in the outbox's order in each
    # channel (a channel's trouble holds up only its own later messages).
    created = [(c, n) for c, n in faults.created if n is not None and n.startswith("mafia-")]
    delivered = [n for _c, n in created if int(n.split("-")[1]) >= rows[0].id]
    assert [n for n, count in Counter(delivered).items() if count > 1] == []
    for channel in {c for c, _n in created}:
        here = [n for c, n in created if c == channel and int(n.split("-")[1]) >= rows[0].id]
        assert here == sorted(here, key=lambda n: tuple(int(x) for x in n.split("-")[1:]))
    # A row sent in the message of the row before it (the next turn's opening shares the
    # results' message) went out under that row's nonce: the store gives both that message.
    first_of: dict[int, OutboxRecord] = {}
    heads = [r for r in rows if r.message_id is None or first_of.setdefault(r.message_id, r) is r]
    assert {r.kind for r in rows if r not in heads} <= {"turn_open"}
    assert {nonce_of(row.id, 0) for row in heads} <= set(delivered), [
        (r.id, r.kind, r.payload.get("audience")) for r in rows
    ]
    failed_messages = [p for m, p in faults.failed if m == "POST" and p.endswith("/messages")]
    assert len(failed_messages) >= len(heads)  # every row's first send failed
    # What the players read: each text once.
    for where in (slot(world, "game"), mafia_room(world)):
        texts = bot_messages(where, env)
        assert len(texts) == len(set(texts)), texts
    # Never stuck long enough to bother the hosts.
    assert t("en", "delivery.stuck", minutes=5) not in bot_messages(slot(world, "host"), env)


async def test_messages_carry_the_nonce_of_their_outbox_row(simcord_env: Env) -> None:
    """Discord enforces a nonce (discord.py sends ``enforce_nonce`` with it): a resent piece
    with the same nonce is not stored twice (within Discord's window)."""
    env = simcord_env
    world = make_world(env)
    await start_slow_game(
        env,
        world.guild,
        world.admin,
        world.lobby,
        ("a1", "a2", "a3", "a4"),
        "mafioso=1 commissar=1 villager=2",
    )
    game_id = game_of(env, world.guild).id
    rows = await bot_of(env).store.outbox(game_id)
    sent = [
        r.json
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith("/channels/") and r.path.endswith("/messages")
    ]
    nonces = {body["nonce"] for body in sent if isinstance(body, dict)}
    assert {nonce_of(row.id, 0) for row in rows} <= nonces
    assert all(body["enforce_nonce"] is True for body in sent if isinstance(body, dict))
    assert len(nonce_of(10**15, 99)) <= 25  # Discord's limit


# --- one game stuck, the other goes on; the hosts are told once --------------------------------
def second_world(env: Env) -> World:
    guild = env.create_guild("Other Club")
    lobby = guild.create_text_channel("general")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("carol"), roles=[moderators])
    player = guild.add_member(env.create_user("dave"))
    return World(env=env, guild=guild, lobby=lobby, admin=admin, player=player)


async def test_a_stuck_game_blocks_only_itself_and_its_hosts_are_told_once(
    simcord_env: Env, faults: Faults
) -> None:
    env = simcord_env
    one, two = make_world(env), second_world(env)
    actors_one = await start_slow_game(
        env, one.guild, one.admin, one.lobby, ("b1", "b2", "b3", "b4", "b5", "b6", "b7")
    )
    actors_two = await start_slow_game(
        env, two.guild, two.admin, two.lobby, ("c1", "c2", "c3", "c4", "c5", "c6", "c7")
    )
    store = bot_of(env).store
    game_one, game_two = game_of(env, one.guild), game_of(env, two.guild)
    await play_turn(env, one.guild, actors_one, lynch=None)
    await play_turn(env, two.guild, actors_two, lynch=None)

    # Discord answers 503 to everything posted in the first game's #game, for a long while.
    faults.kind, faults.once = "503", False
    faults.steps = (("POST", f"/channels/{slot(one, 'game').id}/messages"),)
    await resolve_now(one)
    await resolve_now(two)
    stuck = await store.pending_outbox(game_one.id)
    assert stuck and stuck[0].kind == "results"
    assert not await store.pending_outbox(game_two.id)  # the other game was not held up
    assert any("Results of turn 1" in text for text in bot_messages(slot(two, "game"), env))

    notice = t("en", "delivery.stuck", minutes=5)
    # The retries back off: 10 s after the failure, then 20, 40, 80 s later...
    tried_at: list[float] = []
    elapsed = 0.0
    while elapsed < STUCK_NOTICE_SECONDS - RETRY_FIRST_SECONDS:
        attempts = len(faults.failed)
        await env.advance_time(RETRY_FIRST_SECONDS)
        elapsed += RETRY_FIRST_SECONDS
        if len(faults.failed) > attempts:
            tried_at.append(elapsed)
    assert tried_at == [10, 30, 70, 150]
    assert host_warnings(slot(one, "host")) == []  # not yet: a short outage says nothing
    await env.advance_time(2 * STUCK_NOTICE_SECONDS)  # still failing, retried meanwhile
    assert host_warnings(slot(one, "host")) == [notice]
    assert host_warnings(slot(two, "host")) == []
    await env.advance_time(2 * STUCK_NOTICE_SECONDS)
    assert host_warnings(slot(one, "host")) == [notice]  # once per stuck episode
    assert [r.id for r in await store.pending_outbox(game_one.id)] == [r.id for r in stuck]

    # Discord is back: the next retry sends everything, in order, once.
    faults.kind = None
    await env.advance_time(STUCK_NOTICE_SECONDS)
    assert not await store.pending_outbox(game_one.id)
    texts = bot_messages(slot(one, "game"), env)
    results = [i for i, text in enumerate(texts) if text.startswith("Results of turn 1")]
    opened = [i for i, text in enumerate(texts) if text.startswith("Turn 2 begins")]
    assert len(results) == 1 and len(opened) == 1 and results[0] < opened[0]
    assert host_warnings(slot(one, "host")) == [notice]


# --- a webhook post (/say) ----------------------------------------------------------------------


async def webhook_posts(where: ChannelHandle) -> list[str]:
    return [m.content for m in where.history() if m.webhook_id is not None]


@pytest.mark.parametrize("kind", KINDS)
async def test_a_post_whose_send_fails_once_is_shown_once_counted_once_and_answered_posted(
    simcord_env: Env, faults: Faults, kind: str
) -> None:
    """``/say`` goes through the outbox (R52: only a shown post counts): a send that fails
    once (a 5xx, a 429, a timeout, or a lost answer: the post did appear) is tried again
    within the command after #game was read, so the post shows once, the author reads that
    it was posted, and it is counted and archived once."""
    env = simcord_env
    world = make_world(env)
    actors = await start_slow_game(
        env, world.guild, world.admin, world.lobby, ("d1", "d2", "d3", "d4"), "mafioso=1 villager=3"
    )
    game_ch = slot(world, "game")
    game = game_of(env, world.guild)
    nick = game.nick_of(actors[0].id)
    faults.kind, faults.once, faults.steps = kind, True, WEBHOOK_STEPS
    result = await actors[0].slash(game_ch, "say", text="First words.")
    faults.kind = None
    assert faults.failed, "nothing failed"
    assert reply_text(result) == t("en", "say.done", channel=game_ch.mention)
    await env.advance_time(STUCK_NOTICE_SECONDS)  # the retries find nothing left to send
    assert await webhook_posts(game_ch) == ["First words."]
    store = bot_of(env).store
    assert [p.text for p in await store.posts(game.id)] == ["First words."]
    assert game_of(env, world.guild).engine.state.posts.get(nick) == 1
    assert not await store.pending_outbox(game.id)


@pytest.mark.parametrize("kind", ("503", "timeout", "lost"))
async def test_a_post_discord_keeps_refusing_waits_uncounted_and_shows_once_when_it_is_back(
    simcord_env: Env, faults: Faults, kind: str
) -> None:
    """While Discord keeps failing the post, its author is told it is not shown yet and
    waits (not to post it again); it is neither counted (R52) nor archived. Once Discord
    takes it, the retries show it once (a lost answer: found in #game, not sent again) and
    only then is it counted and archived."""
    env = simcord_env
    world = make_world(env)
    actors = await start_slow_game(
        env, world.guild, world.admin, world.lobby, ("e1", "e2", "e3", "e4"), "mafioso=1 villager=3"
    )
    game_ch = slot(world, "game")
    game = game_of(env, world.guild)
    nick = game.nick_of(actors[0].id)
    store = bot_of(env).store
    faults.kind, faults.once, faults.steps = kind, False, WEBHOOK_STEPS
    result = await actors[0].slash(game_ch, "say", text="Can you hear me?")
    if kind == "lost":  # stored, but never confirmed: the history check finds it at once
        faults.kind = None
        assert reply_text(result) == t("en", "say.done", channel=game_ch.mention)
        assert await webhook_posts(game_ch) == ["Can you hear me?"]
        assert game_of(env, world.guild).engine.state.posts.get(nick) == 1
        return
    assert reply_text(result) == t("en", "say.waiting", channel=game_ch.mention)
    await env.advance_time(3 * RETRY_FIRST_SECONDS)  # still failing
    assert await webhook_posts(game_ch) == []
    assert await store.posts(game.id) == []
    assert game_of(env, world.guild).engine.state.posts.get(nick, 0) == 0
    faults.kind = None
    await env.advance_time(STUCK_NOTICE_SECONDS)
    assert [m.content for m in result.followups] == [
        t("en", "say.shown_late", channel=game_ch.mention)  # and he hears it
    ]
    assert await webhook_posts(game_ch) == ["Can you hear me?"]
    assert [p.text for p in await store.posts(game.id)] == ["Can you hear me?"]
    assert game_of(env, world.guild).engine.state.posts.get(nick) == 1
    assert not await store.pending_outbox(game.id)
