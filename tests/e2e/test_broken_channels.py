"""A moderator breaks a side channel mid-game, and Discord is busy.

Each destination of a game (#game, the mafia's room, #host, each player's DMs) keeps its own
order, and one destination's trouble never holds up another's: a #host the bot lost, or a
mafia room it may no longer post in, leaves the players' results and the next turn's opening
going out. A deleted channel keeps its messages waiting (never marked sent) until
``/mafia setup`` rebuilds it, then they arrive there in order; the hosts are told at once, in
#host, or in private when it is #host that broke. A send whose answer was lost is found in
the channel however many posts came after it, also after a restart, and never sent twice.
"""

from __future__ import annotations

import discord
import pytest
from simcord import ChannelHandle, Env, MemberActor

from bot.delivery import RETRY_FIRST_SECONDS, STUCK_NOTICE_SECONDS
from core.i18n import t
from tests.e2e.helpers import (
    Faults,
    Restart,
    World,
    bot_of,
    channel_announcements,
    dm_body,
    host_warnings,
    is_console_line,
    mafia_room,
    make_world,
    opening_header,
    reply_text,
    resolve_now,
    results_header,
    slot,
)
from tests.e2e.test_delivery_faults import (
    bot_messages,
    game_of,
    play_turn,
    start_slow_game,
)

NAMES = ("p1", "p2", "p3", "p4", "p5", "p6", "p7")


def texts_of(where: ChannelHandle) -> list[str]:
    """Each announcement of the channel (the results and the opening may share a message)."""
    return channel_announcements(where.history())


def starting(texts: list[str], header: str) -> list[int]:
    return [i for i, text in enumerate(texts) if text.startswith(header)]


def private_notices(env: Env, host: MemberActor) -> list[str]:
    """What the bot told a host in private (DMs), without the server/game header."""
    dm = host.user.dm_channel
    return [] if dm is None else [dm_body(m.content) for m in dm.history()]


def account_title(turn: int) -> str:
    return t("en", "console.account.title", turn=turn)


async def started(env: Env) -> tuple[World, list[MemberActor]]:
    world = make_world(env)
    actors = await start_slow_game(env, world.guild, world.admin, world.lobby, NAMES)
    await play_turn(env, world.guild, actors, lynch=None)
    return world, actors


# --- #host broken -------------------------------------------------------------------------------
async def test_a_host_channel_the_bot_may_not_post_in_holds_up_nothing_hosts_told_in_private(
    simcord_env: Env, faults: Faults
) -> None:
    env = simcord_env
    world, _actors = await started(env)
    host_ch, game_ch = slot(world, "host"), slot(world, "game")
    store = bot_of(env).store
    game_id = game_of(env, world.guild).id
    faults.kind, faults.once = "403", False  # Missing Permissions in #host, for good
    faults.steps = (("POST", f"/channels/{host_ch.id}/messages"),)
    before = len(host_ch.history())
    await resolve_now(world)

    # The players read their results and the next turn's opening; the hosts' rows wait.
    texts = texts_of(game_ch)
    assert len(starting(texts, results_header(1))) == 1
    assert len(starting(texts, opening_header(2))) == 1
    pending = await store.pending_outbox(game_id)
    assert pending and {row.payload["audience"] for row in pending} == {"host"}
    kinds = [row.kind for row in await store.outbox(game_id)]
    assert kinds.index(pending[0].kind) < kinds.index("results")  # it came first, and waited
    # The hosts are told in private (#host is what broke), naming #host.
    notice = t(
        "en",
        "delivery.forbidden",
        channel=host_ch.mention,
        permissions=t("en", "perm.send_messages"),
    )
    told = private_notices(env, world.admin)
    assert told == [f"{notice}\n{t('en', 'delivery.told_in_private')}"]

    # Told once per episode; the permission comes back: the hosts' lines go out, in order.
    await env.advance_time(5 * RETRY_FIRST_SECONDS)
    assert private_notices(env, world.admin) == told
    faults.kind = None
    await bot_of(env).deliver()
    assert not await store.pending_outbox(game_id)
    lines = [text for text in texts_of(host_ch)[before:] if is_console_line(text)]
    assert any(text.startswith(account_title(1)) for text in lines)
    assert lines[-1].startswith(account_title(1))  # the audit line came first, as queued


async def test_a_deleted_host_channel_keeps_its_lines_until_setup_rebuilds_it(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, _actors = await started(env)
    host_ch, game_ch = slot(world, "host"), slot(world, "game")
    store = bot_of(env).store
    game_id = game_of(env, world.guild).id
    env.backend.delete_channel(host_ch.id)
    await env.settle()
    await resolve_now(world)

    texts = texts_of(game_ch)
    assert len(starting(texts, results_header(1))) == 1
    assert len(starting(texts, opening_header(2))) == 1
    pending = await store.pending_outbox(game_id)  # the night's account is not lost
    assert "host_account" in {row.kind for row in pending} or any(
        row.payload["audience"] == "host" for row in pending
    )
    assert {row.payload["audience"] for row in pending} == {"host"}
    notice = t("en", "delivery.missing_host", channel=f"#{t('en', 'channel.host')}")
    assert private_notices(env, world.admin) == [f"{notice}\n{t('en', 'delivery.told_in_private')}"]

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))  # rebuilds #host
    assert not await store.pending_outbox(game_id)
    rebuilt = slot(world, "host")
    assert rebuilt.id != host_ch.id
    lines = [text for text in texts_of(rebuilt) if is_console_line(text)]
    accounts = [i for i, text in enumerate(lines) if text.startswith(account_title(1))]
    assert len(accounts) == 1
    assert accounts[0] > 0  # after the /mafia resolve line queued before it


# --- #game deleted -------------------------------------------------------------------------------
async def test_a_deleted_game_channel_tells_the_hosts_at_once_and_setup_delivers_in_order(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, actors = await started(env)
    host_ch, game_ch = slot(world, "host"), slot(world, "game")
    store = bot_of(env).store
    game = game_of(env, world.guild)
    commissar = next(p for p in game.players if p.role == "commissar")
    com = next(a for a in actors if a.id == commissar.user_id)
    env.backend.delete_channel(game_ch.id)
    await env.settle()
    await resolve_now(world)

    # The hosts are told at once in #host, with the repair; the other destinations go on.
    notice = t("en", "delivery.missing_game", channel=f"#{t('en', 'channel.game')}")
    assert host_warnings(host_ch) == [notice]
    assert any(text.startswith(account_title(1)) for text in texts_of(host_ch))
    checks = [m for m in (com.user.dm_channel.history() if com.user.dm_channel else [])]
    assert any("Check" in dm_body(m.content) for m in checks)
    pending = await store.pending_outbox(game.id)
    assert [row.kind for row in pending][:1] == ["results"]
    assert {row.payload["audience"] for row in pending} == {"public"}
    await env.advance_time(10 * RETRY_FIRST_SECONDS)
    assert host_warnings(host_ch) == [notice]  # once

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))  # rebuilds #game
    assert not await store.pending_outbox(game.id)
    texts = texts_of(slot(world, "game"))
    results, opened = starting(texts, results_header(1)), starting(texts, opening_header(2))
    assert len(results) == 1 and len(opened) == 1 and results[0] < opened[0]


# --- the mafia's room broken ----------------------------------------------------------------------
async def test_a_mafia_room_the_bot_may_not_post_in_holds_up_no_other_channel(
    simcord_env: Env, faults: Faults
) -> None:
    env = simcord_env
    world, actors = await started(env)
    await resolve_now(world)
    game = game_of(env, world.guild)
    mafioso = next(p for p in game.players if p.role == "mafioso")
    await play_turn(env, world.guild, actors, lynch=mafioso.nick)  # mafia_left for the room
    room = mafia_room(world)
    faults.kind, faults.once = "403", False  # Send Messages in Threads lost
    faults.steps = (("POST", f"/channels/{room.id}/messages"),)
    await resolve_now(world)

    texts = texts_of(slot(world, "game"))
    assert len(starting(texts, results_header(2))) == 1
    assert len(starting(texts, opening_header(3))) == 1  # not held up behind the room
    store = bot_of(env).store
    pending = await store.pending_outbox(game.id)
    assert pending and {row.payload["audience"] for row in pending} == {"mafia"}
    mafia_ch = slot(world, "mafia")
    lacking = t("en", "perm.send_messages_in_threads")
    assert host_warnings(slot(world, "host")) == [
        t("en", "delivery.forbidden", channel=mafia_ch.mention, permissions=lacking)
    ]
    faults.kind = None
    await bot_of(env).deliver()
    assert not await store.pending_outbox(game.id)


# --- a busy channel after a lost answer -----------------------------------------------------------
async def chatter(env: Env, where: ChannelHandle, count: int) -> None:
    """``count`` messages in ``where`` by others (webhook posts, as players' posts are)."""
    channel = env.bot.get_channel(where.id)
    assert isinstance(channel, discord.TextChannel)
    webhooks = bot_of(env).context.webhooks
    for n in range(count):
        await webhooks.post(channel, f"chatter {n}", username="Someone")


@pytest.mark.parametrize("posts", [12, 120])
async def test_a_lost_answer_is_found_after_many_posts_and_not_sent_twice(
    simcord_env: Env, faults: Faults, posts: int
) -> None:
    env = simcord_env
    world, _actors = await started(env)
    game_ch = slot(world, "game")
    faults.kind, faults.once = "lost", True  # the results were stored, the answer lost
    faults.steps = (("POST", f"/channels/{game_ch.id}/messages"),)
    await resolve_now(world)
    faults.kind = None
    assert faults.failed
    await chatter(env, game_ch, posts)  # the players talk before the retry
    await env.advance_time(RETRY_FIRST_SECONDS)
    assert not await bot_of(env).store.pending_outbox()
    texts = bot_messages(game_ch, env)
    assert len(starting(texts, results_header(1))) == 1
    assert len(starting(texts, opening_header(2))) == 1


@pytest.mark.parametrize("posts", [0, 12, 120])
async def test_a_restart_after_a_lost_answer_finds_it_in_a_busy_channel(
    simcord_env: Env, faults: Faults, restart: Restart, posts: int
) -> None:
    """The process dies after Discord stored the results but before the bot heard back; the
    players go on posting; the new process reads #game and sends only what is missing."""
    env = simcord_env
    world, _actors = await started(env)
    game_ch = slot(world, "game")
    faults.kind, faults.once = "lost", True
    faults.steps = (("POST", f"/channels/{game_ch.id}/messages"),)
    await resolve_now(world)
    faults.kind = None
    assert faults.failed
    await chatter(env, game_ch, posts)
    new = await restart()
    assert not await new.store.pending_outbox()
    texts = bot_messages(game_ch, env)
    assert len(starting(texts, results_header(1))) == 1
    assert len(starting(texts, opening_header(2))) == 1


# --- posts under a nickname when the bot cannot use webhooks --------------------------------------
async def test_a_post_the_bot_cannot_make_under_a_nickname_is_refused_plainly_and_hosts_told(
    simcord_env: Env, faults: Faults
) -> None:
    """Someone deleted the bot's webhook in #game and the bot lacks Manage Webhooks there: the
    author reads that his post was not published, why, and that the hosts were told; #host
    reads it once; the post is neither counted (R52) nor archived, and nothing waits. Once the
    permission is back, posting works again."""
    env = simcord_env
    world, actors = await started(env)
    game_ch = slot(world, "game")
    game = game_of(env, world.guild)
    author = actors[0]
    nick = game.nick_of(author.id)
    posts_before = game.engine.state.posts.get(nick, 0)
    [hook_id] = {m.webhook_id for m in game_ch.history() if m.webhook_id is not None}
    env.backend.delete_webhook(hook_id)
    await env.settle()
    faults.kind, faults.once = "403", False  # Missing Permissions: Manage Webhooks
    faults.steps = (
        ("GET", f"/channels/{game_ch.id}/webhooks"),
        ("POST", f"/channels/{game_ch.id}/webhooks"),
    )
    store = bot_of(env).store
    archived = len(await store.posts(game.id))
    for text in ("Nobody hears me.", "Still nothing?"):
        result = await author.slash(game_ch, "say", text=text)
        assert reply_text(result) == t("en", "say.no_webhook", channel=game_ch.mention)
    assert host_warnings(slot(world, "host")) == [
        t("en", "delivery.no_webhook", channel=game_ch.mention)
    ]
    assert "Nobody hears me." not in [m.content for m in game_ch.history()]
    assert len(await store.posts(game.id)) == archived
    assert game_of(env, world.guild).engine.state.posts.get(nick, 0) == posts_before
    assert not await store.pending_outbox(game.id)

    faults.kind = None  # Manage Webhooks is back: the webhook is made again
    result = await author.slash(game_ch, "say", text="Back again.")
    assert reply_text(result) == t("en", "say.done", channel=game_ch.mention)
    assert [m.content for m in game_ch.history()].count("Back again.") == 1
    assert game_of(env, world.guild).engine.state.posts.get(nick, 0) == posts_before + 1


async def test_an_outage_failing_several_destinations_of_a_game_is_one_notice(
    simcord_env: Env, faults: Faults
) -> None:
    """#game and a player's DMs failing together (Discord down for the game) is one stuck
    episode: the hosts read one notice, not one per destination."""
    env = simcord_env
    world, actors = await started(env)
    game = game_of(env, world.guild)
    commissar = next(p for p in game.players if p.role == "commissar")
    com = next(a for a in actors if a.id == commissar.user_id)
    assert com.user.dm_channel is not None
    faults.kind, faults.once = "503", False
    faults.steps = (
        ("POST", f"/channels/{slot(world, 'game').id}/messages"),
        ("POST", f"/channels/{com.user.dm_channel.id}/messages"),
    )
    await resolve_now(world)
    await env.advance_time(3 * STUCK_NOTICE_SECONDS)
    assert host_warnings(slot(world, "host")) == [t("en", "delivery.stuck", minutes=5)]
    faults.kind = None
    await env.advance_time(STUCK_NOTICE_SECONDS)
    assert not await bot_of(env).store.pending_outbox(game.id)
