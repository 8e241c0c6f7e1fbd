"""The host's review (``/mafia new review:N``) holds the whole of a turn until its one
publication: a pistol window and its shot (R18) with the night, the private messages (a
Commissar's check), the end of the game (its players are told the game still runs, the table
takes no new sign-up meanwhile); the host's clock commands are refused with the reason while a
draft waits, changing nothing; an outage during the review is charged to no turn (R59).
Everything is checked in SimCord, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import discord
import pytest
import pytest_asyncio
from discord.ext import commands
from simcord import ChannelHandle, Env, MemberActor

from bot.client import MafiaBot
from core.i18n import t
from main import create_bot
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    announcement_texts,
    bot_of,
    channel_announcements,
    channel_texts,
    client_locale,
    confirm_now,
    dm_texts,
    live_game,
    make_world,
    message_text,
    pistol_prompt,
    refusal,
    reply_text,
    resolve_now,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)
from tests.e2e.test_review import button, drafts, results

#: Played on SQLite and on PostgreSQL (tests/e2e/conftest.py): the draft is in the store.
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
STORY = "A shot rang out at dawn."


@pytest_asyncio.fixture
async def simcord_bot(database: str) -> AsyncIterator[commands.Bot]:
    """The bots of this module beat in the store (R59), as ``main.py run`` starts them."""
    bot = create_bot(database, heartbeat=True)
    yield bot
    if isinstance(bot, MafiaBot):
        await bot.close_store()


async def hello(world: World, players: list) -> None:  # type: ignore[type-arg]
    for actor in players:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(slot(world, "game"), "say", text="Hello."))


async def commissar_aimed_at(env: Env, *, review: int) -> tuple[World, ChannelHandle, str]:
    """Turn 1 of a game opened with ``review`` minutes: everyone has posted and the mafia aim
    at the Commissar (his pistol window opens at the deadline). The world, #game and the
    Commissar's nickname."""
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=review)
    game_ch = slot(world, "game")
    await hello(world, players)
    seats = seats_by_role(world, players)
    com_nick, _com = seats["commissar"]
    reply_text(await seats["mafioso"][1].slash(game_ch, "kill", target=com_nick))
    return world, game_ch, com_nick


def pending_draft(world: World) -> discord.Message:
    [draft] = [d for d in drafts(world) if d.components]
    return draft


async def test_R18_a_pistol_window_and_its_shot_wait_for_the_one_publication(
    simcord_env: Env, restart: Restart
) -> None:
    """The mafia kill the Commissar on turn 1 of a reviewed game: only his prompt goes out at
    the deadline; #game shows nothing of the night, the pistol or the shot until the host
    publishes, and then his story stands above the whole turn (the night's results, the shot,
    the town's win). A restart while the window holds the night changes none of it."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=30)
    game_ch = slot(world, "game")
    await hello(world, players)
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    _vil_nick, vil = seats["villager"]
    reply_text(await maf.slash(game_ch, "kill", target=com_nick))
    await until_deadline(world)
    await env.advance_time(1)

    assert live_game(world).record.phase == "pistol"  # R18: the window is open
    header = t("en", "announce.results", turn=1)
    assert not any(header in text for text in channel_texts(game_ch))  # the night is held
    assert drafts(world) == []  # nothing to publish before the shot
    prompt = [m for m in dm_texts(com) if "pistol" in m.casefold()]
    assert prompt, dm_texts(com)  # he must learn he may shoot
    # Meanwhile the game reads as in review: no post (a ghost's would tell), no request.
    said = await refusal(env, vil.slash(game_ch, "say", text="Anyone hurt?"))
    assert said == t("en", "error.review_pending")
    said = await refusal(env, vil.slash(game_ch, "vote", target=maf_nick))
    assert said == t("en", "error.review_pending")
    status = reply_text(await com.slash(game_ch, "status"))
    assert t("en", "card.dead") not in status and "The host is writing up the results" in status
    assert pistol_prompt(world) in status  # he, and only he, reads that he may shoot
    assert pistol_prompt(world) not in reply_text(await vil.slash(game_ch, "status"))
    assert "/shoot" in reply_text(await com.slash(game_ch, "help"))
    assert "/shoot" not in reply_text(await vil.slash(game_ch, "help"))
    offered = await com.autocomplete(game_ch, "shoot", "target", "")
    assert maf_nick in [c["value"] for c in offered]

    await restart()  # the window keeps what it holds
    assert live_game(world).record.phase == "pistol"
    said = await refusal(env, vil.slash(game_ch, "say", text="Still nothing?"))
    assert said == t("en", "error.review_pending")

    reply_text(await com.slash(game_ch, "shoot", target=maf_nick))  # the shot is accepted
    assert bot_of(env).service.game_in(world.guild.id) is None  # the town won, unpublished
    assert not any(header in text for text in channel_texts(game_ch))
    shot = t("en", "death.pistol", nick=maf_nick, role="Mafioso", by=com_nick)
    assert shot not in channel_announcements(game_ch.history())
    draft = pending_draft(world)
    assert header in message_text(draft) and shot in message_text(draft)
    said = await refusal(env, vil.slash(game_ch, "say", text="Well?"))
    assert said == t("en", "error.review_pending")

    shown = await world.admin.click(draft, custom_id=button(draft, "story"))
    reply_text(await world.admin.submit_modal(shown, {"story": STORY}))
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    texts = channel_announcements(game_ch.history())
    story_at = texts.index(STORY)
    [report] = results(world, 1)
    assert story_at < texts.index(announcement_texts(report)[0])  # above the whole turn
    assert story_at < texts.index(shot)
    winner = [i for i, text in enumerate(texts) if text.startswith(t("en", "winner.town"))]
    assert len(winner) == 1 and story_at < winner[0]
    assert texts.count(STORY) == 1 and texts.count(shot) == 1 and len(results(world, 1)) == 1


async def test_R18_an_unused_pistol_window_closes_into_the_draft_and_the_next_turn_waits(
    simcord_env: Env,
) -> None:
    """The window runs out with no shot: the night and the unused pistol make one draft; the
    next turn opens at its publication."""
    env = simcord_env
    world, game_ch, com_nick = await commissar_aimed_at(env, review=20)
    await until_deadline(world)
    await env.advance_time(61)  # the fast schedule's window: one minute
    no_shot = t("en", "announce.no_shot", nick=com_nick)
    assert no_shot not in channel_announcements(game_ch.history())
    draft = pending_draft(world)
    assert no_shot in message_text(draft)
    assert t("en", "announce.results", turn=1) in message_text(draft)
    assert live_game(world).record.deadline is None  # the next turn waits
    await env.advance_time(20 * 60 + 1)  # unreviewed: out as it is
    texts = channel_announcements(game_ch.history())
    assert texts.count(no_shot) == 1 and len(results(world, 1)) == 1
    deadline = live_game(world).record.deadline
    assert deadline is not None and deadline - env.now() > timedelta(minutes=9)


async def lynch_the_mafioso(
    env: Env,
    world: World,
    players: list,  # type: ignore[type-arg]
) -> dict[str, tuple[str, MemberActor]]:
    """Turn 1 published, the town lynches the mafioso on turn 2: the game ends at the deadline
    and its end waits for the host."""
    game_ch = slot(world, "game")
    await hello(world, players)
    await until_deadline(world)
    await env.advance_time(1)
    draft = pending_draft(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    seats = seats_by_role(world, players)
    maf_nick, _maf = seats["mafioso"]
    for role in ("commissar", "doctor", "villager"):
        reply_text(await seats[role][1].slash(game_ch, "vote", target=maf_nick))
    await until_deadline(world)
    await env.advance_time(1)
    assert bot_of(env).service.game_in(world.guild.id) is None  # over, as the rules decided
    return seats


async def test_R55_players_of_a_game_whose_end_waits_are_told_it_is_in_review(
    simcord_env: Env,
) -> None:
    """Until the end is published the game runs for its players: /say, /vote and Quote get
    the review's refusal (ru and en), never "no game is running"; a member who did not play is
    told he does not play in it."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=30)
    seats = await lynch_the_mafioso(env, world, players)
    game_ch = slot(world, "game")
    vil_nick, vil = seats["villager"]
    _doc_nick, doc = seats["doctor"]
    for lang in ("en", "ru"):
        with client_locale(vil, lang), client_locale(doc, lang):
            said = await refusal(env, vil.slash(game_ch, "say", text="GG?"))
            assert said == t(lang, "error.review_pending")
            said = await refusal(env, doc.slash(game_ch, "vote", target=vil_nick))
            assert said == t(lang, "error.review_pending")
            # Quote too: a post of this game is quoted only once the game is out of review.
            said = await refusal(env, vil.context_menu(game_ch, "Quote", game_ch.history()[-1]))
            assert said == t(lang, "error.review_pending")
    said = await refusal(env, world.player.slash(game_ch, "say", text="Hi."))
    assert said == t("en", "error.not_a_player")

    draft = pending_draft(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    said = await refusal(env, vil.slash(game_ch, "say", text="GG."))
    assert said == t("en", "error.no_running_game")


async def test_a_new_signup_waits_until_the_last_games_end_is_published(
    simcord_env: Env,
) -> None:
    """A table holds one open or running game: /mafia new while the last game's end waits
    for the host is refused with the reason (ru and en), and opens nothing in #game; once the
    end is out, it opens the sign-up."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=30)
    await lynch_the_mafioso(env, world, players)
    game_ch = slot(world, "game")
    [review] = bot_of(env).service.reviews.values()
    stamp = int(datetime.fromisoformat(review.draft["until"]).timestamp())
    before = len(game_ch.history())
    for lang in ("en", "ru"):
        with client_locale(world.admin, lang):
            said = await refusal(
                env, world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC")
            )
        assert said == t(lang, "error.end_in_review", game=review.game_id, until=stamp)
    assert len(game_ch.history()) == before  # no sign-up post

    draft = pending_draft(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    texts = channel_texts(game_ch)
    end_at = max(i for i, text in enumerate(texts) if t("en", "gameover.roles") in text)
    assert end_at < len(texts) - 1  # the sign-up comes after the end


async def test_R18_a_commissars_check_is_sent_once_after_publication_also_across_a_restart(
    simcord_env: Env, restart: Restart
) -> None:
    """The private messages of a turn (here the Commissar's check, R18) are part of its
    results: held with the draft, sent once it is published, exactly once, also when the
    bot restarted while they were held and again after they went out."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=20)
    game_ch = slot(world, "game")
    await hello(world, players)
    seats = seats_by_role(world, players)
    maf_nick, _maf = seats["mafioso"]
    _com_nick, com = seats["commissar"]
    reply_text(await com.slash(game_ch, "check", target=maf_nick))
    check = t("en", "check.mafia", target=maf_nick)
    await until_deadline(world)
    await env.advance_time(1)
    assert not any(check in text for text in dm_texts(com))  # held with the draft

    await restart()
    await env.advance_time(60)
    assert not any(check in text for text in dm_texts(com))

    draft = pending_draft(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    assert sum(check in text for text in dm_texts(com)) == 1
    await env.advance_time(20 * 60)  # the review time runs out: nothing goes out again
    await restart()
    await env.advance_time(60)
    assert sum(check in text for text in dm_texts(com)) == 1
    assert len(results(world, 1)) == 1


async def test_R56_extend_pause_and_resume_are_refused_while_a_draft_waits(
    simcord_env: Env,
) -> None:
    """While turn 1's results wait for the host, the next turn has no clock: /mafia extend,
    pause and resume are refused with the reason (ru and en), changing nothing, and telling
    #game nothing; the review's own time is not moved either. Published, the next turn's
    deadline is a whole turn from the publication, and extend works again."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=20)
    game_ch = slot(world, "game")
    await hello(world, players)
    await until_deadline(world)
    await env.advance_time(1)
    [review] = bot_of(env).service.reviews.values()
    stamp = int(datetime.fromisoformat(review.draft["until"]).timestamp())
    before_game = channel_texts(game_ch)
    before_host = channel_texts(slot(world, "host"))
    for lang in ("en", "ru"):
        with client_locale(world.admin, lang):
            for command, options in (
                ("mafia extend", {"minutes": 30}),
                ("mafia pause", {}),
                ("mafia resume", {}),
            ):
                said = await refusal(env, world.admin.slash(world.lobby, command, **options))
                assert said == t(lang, "error.review_no_clock", turn=1, until=stamp), command
    game = live_game(world)
    assert game.record.deadline is None and not game.record.paused
    assert game.review is not None and game.review.draft["until"] == review.draft["until"]
    assert channel_texts(game_ch) == before_game
    assert channel_texts(slot(world, "host")) == before_host  # no audit line: nothing done

    await env.advance_time(20 * 60)  # out as it is, at the review's own time
    assert len(results(world, 1)) == 1
    published = datetime.fromisoformat(review.draft["until"])
    game = live_game(world)
    assert game.engine.turn == 2 and not game.record.paused
    deadline = game.record.deadline
    assert deadline is not None
    assert abs((deadline - published).total_seconds() - 600) < 2
    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=5))
    assert live_game(world).record.deadline == deadline + timedelta(minutes=5)


@pytest.mark.parametrize("review", [20, 0])
async def test_R56_a_game_paused_then_resolved_runs_again_once_its_results_are_out(
    simcord_env: Env, review: int
) -> None:
    """The host pauses turn 1, then resolves it himself: once its results are out (published
    after his review, or at once without one) the next turn runs on its own clock (the pause
    stopped the closed turn's), as its opening announced, and its deadline resolves it."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=review)
    await hello(world, players)
    reply_text(await world.admin.slash(world.lobby, "mafia pause"))
    await resolve_now(world)
    if review:
        assert live_game(world).review is not None
        draft = pending_draft(world)
        reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    game = live_game(world)
    assert game.engine.turn == 2
    assert not game.record.paused and game.record.deadline is not None
    await hello(world, players)
    await until_deadline(world)
    await env.advance_time(1)
    assert live_game(world).engine.turn == 3  # turn 2 resolved at its deadline


async def test_R59_an_outage_while_the_host_reviews_is_charged_to_no_turn(
    simcord_env: Env,
) -> None:
    """The bot is down for three minutes while turn 1's results wait for the host. The next
    turn opens at their publication, and R59 measures it from then: the outage excuses
    nobody there, so a player silent all turn 2 leaves for inactivity (R52)."""
    env = simcord_env  # the store stamps by the service's clock: SimCord's (one clock)
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=20)
    game_ch = slot(world, "game")
    await hello(world, players)
    seats = seats_by_role(world, players)
    vil_nick, _vil = seats["villager"]
    await until_deadline(world)
    await env.advance_time(1)
    old = bot_of(env)
    await old.close()  # the process stops while the draft waits ...
    await env.advance_time(180)  # ... for three minutes
    new = create_bot(old.database, heartbeat=True)
    assert isinstance(new, MafiaBot)
    try:
        await env.restart_bot(new)
        await env.advance_time(60)
        draft = pending_draft(world)
        reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
        for role in ("mafioso", "commissar", "doctor"):  # the villager stays silent
            reply_text(await seats[role][1].slash(game_ch, "say", text="Here."))
        await until_deadline(world)
        await env.advance_time(1)
        state = live_game(world).engine.state
        assert not state.players[vil_nick].alive  # R52: the outage did not excuse turn 2
        assert str(state.players[vil_nick].death_cause) == "inactive"
    finally:
        await new.close_store()


async def test_R56_ending_the_game_while_a_draft_waits_publishes_it_first_once(
    simcord_env: Env,
) -> None:
    """/mafia end while turn 1's results wait for the host: they go out as they stand (his
    story above them) ahead of the end, once; the draft's Publish then says they are out,
    and the review time running out sends nothing more."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=20)
    game_ch = slot(world, "game")
    await hello(world, players)
    await until_deadline(world)
    await env.advance_time(1)
    draft = pending_draft(world)
    shown = await world.admin.click(draft, custom_id=button(draft, "story"))
    reply_text(await world.admin.submit_modal(shown, {"story": STORY}))
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    texts = channel_announcements(game_ch.history())
    [report] = results(world, 1)
    ended = [i for i, text in enumerate(texts) if t("en", "gameover.roles") in text]
    assert texts.index(STORY) < texts.index(announcement_texts(report)[0]) < ended[0]
    said = reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    assert said == t("en", "error.review_published")
    await env.advance_time(21 * 60)
    texts = channel_announcements(game_ch.history())
    assert texts.count(STORY) == 1 and len(results(world, 1)) == 1


async def test_R56_the_host_closes_a_held_pistol_window_but_does_not_move_its_clock(
    simcord_env: Env,
) -> None:
    """A held window has its clock, but the host may not move it (extend, pause, resume:
    its public notice would tell #game that a commissar died before the results do; refused
    with the reason, ru and en, changing nothing); he closes it with /mafia resolve, and its
    close still makes the one draft."""
    env = simcord_env
    world, game_ch, com_nick = await commissar_aimed_at(env, review=20)
    await until_deadline(world)
    await env.advance_time(1)
    window_end = live_game(world).record.deadline
    assert window_end is not None and live_game(world).record.phase == "pistol"
    before = channel_texts(game_ch)
    stamp = int(window_end.timestamp())
    for lang in ("en", "ru"):
        with client_locale(world.admin, lang):
            for command, options in (
                ("mafia extend", {"minutes": 5}),
                ("mafia pause", {}),
                ("mafia resume", {}),
            ):
                said = await refusal(env, world.admin.slash(world.lobby, command, **options))
                assert said == t(lang, "error.window_no_clock", turn=1, until=stamp), command
    assert live_game(world).record.deadline == window_end and not live_game(world).record.paused
    assert channel_texts(game_ch) == before
    await resolve_now(world)
    draft = pending_draft(world)
    assert t("en", "announce.no_shot", nick=com_nick) in message_text(draft)
    assert t("en", "announce.results", turn=1) in message_text(draft)
    assert not any(t("en", "announce.results", turn=1) in x for x in channel_texts(game_ch))


@pytest.mark.parametrize("review", [20, 0])
async def test_R18_a_pistol_window_opened_from_a_paused_turn_closes_on_its_clock(
    simcord_env: Env, review: int
) -> None:
    """The host pauses turn 1, then resolves it: the mafia killed the Commissar, whose window
    runs on its own clock (the pause was the closed turn's) and closes when it ends."""
    env = simcord_env
    world, _game_ch, _com_nick = await commissar_aimed_at(env, review=review)
    reply_text(await world.admin.slash(world.lobby, "mafia pause"))
    await resolve_now(world)
    game = live_game(world)
    assert game.record.phase == "pistol" and not game.record.paused
    await env.advance_time(61)
    assert live_game(world).engine.turn == 2  # the window closed at its end
