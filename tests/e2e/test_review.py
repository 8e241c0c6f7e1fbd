"""The host's review (``/mafia new review:N``): each turn's results go to #host as a draft with
"Add story" and "Publish"; the host's story is published above the results; unpublished after N
minutes they go out as they are; the next turn opens (its deadline counted from publication)
only then; requests are refused meanwhile; a restart continues the review; a publication
happens once. R47 (the host's narrative), R56 (host controls)."""

from __future__ import annotations

from datetime import timedelta

import discord
from simcord import Env

from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    at_once,
    bot_of,
    client_locale,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

#: Played on SQLite and on PostgreSQL (tests/e2e/conftest.py): the draft is in the store.
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
STORY = "The night was cold over the village."


def results(world: World, turn: int) -> list[discord.Message]:
    header = t("en", "announce.results", turn=turn)
    return [m for m in slot(world, "game").history() if message_text(m).startswith(header)]


def drafts(world: World) -> list[discord.Message]:
    return [
        m
        for m in slot(world, "host").history()
        if any(
            str(c.get("custom_id", "")).startswith("mafia:review:publish:")
            for row in m.components  # type: ignore[attr-defined]
            for c in (row.to_dict().get("components", []) if hasattr(row, "to_dict") else [])
        )
        or "Draft: the results of turn" in message_text(m)
    ]


def button(message: discord.Message, action: str) -> str:
    ids = [
        str(child.custom_id)
        for row in message.components
        for child in getattr(row, "children", [])
        if str(getattr(child, "custom_id", "")).startswith(f"mafia:review:{action}:")
    ]
    assert len(ids) == 1, ids
    return ids[0]


async def play_to_draft(env: Env, minutes: int = 30) -> tuple[World, list]:  # type: ignore[type-arg]
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=minutes)
    for actor in players:  # nobody leaves for silence (R52)
        reply_text(await actor.slash(slot(world, "game"), "say", text="Hello."))
    await until_deadline(world)
    await env.advance_time(1)
    return world, players


async def test_R47_the_results_wait_in_host_and_the_story_goes_above_them(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, players = await play_to_draft(env)
    game_ch = slot(world, "game")
    assert results(world, 1) == []  # held
    [draft] = drafts(world)
    assert "Draft: the results of turn 1" in message_text(draft)
    assert t("en", "announce.results", turn=1) in message_text(draft)
    assert live_game(world).record.deadline is None  # the next turn waits

    # requests are refused while the draft is pending, with the reason; /status says so
    seats = seats_by_role(world, players)
    _maf_nick, maf = seats["mafioso"]
    vil_nick, _ = seats["villager"]
    said = await refusal(env, maf.slash(game_ch, "kill", target=vil_nick))
    assert said == t("en", "error.review_pending")
    said = await refusal(env, maf.slash(game_ch, "say", text="Who died?"))
    assert said == t("en", "error.review_pending")  # a ghost's post would tell
    status = reply_text(await maf.slash(game_ch, "status"))
    assert "The host is writing up the results" in status

    shown = await world.admin.click(draft, custom_id=button(draft, "story"))
    assert shown.modal is not None
    reply_text(await world.admin.submit_modal(shown, {"story": STORY}))
    shown = await world.admin.click(draft, custom_id=button(draft, "story"))  # editable again
    assert shown.modal is not None
    reply_text(await world.admin.submit_modal(shown, {"story": STORY + " Again."}))

    await env.advance_time(5 * 60)
    published_at = env.now()
    publish = button(draft, "publish")
    first, second = await at_once(  # a double click publishes once
        env,
        lambda: world.admin.click(draft, custom_id=publish),
        lambda: world.admin.click(draft, custom_id=publish),
    )
    replies = sorted([reply_text(first), reply_text(second)])
    assert replies == sorted(
        [t("en", "review.published", turn=1), t("en", "error.review_published")]
    )

    texts = [message_text(m) for m in game_ch.history()]
    story_at = texts.index(STORY + " Again.")
    [report] = results(world, 1)
    assert story_at < texts.index(message_text(report))  # the story above the results
    opening = t("en", "announce.turn_open", turn=2, deadline="", relative="").split(".")[0]
    assert any(text.startswith(opening) for text in texts[story_at:])
    deadline = live_game(world).record.deadline
    assert deadline is not None
    assert deadline == published_at + timedelta(minutes=10)  # counted from publication

    assert len(results(world, 1)) == 1
    assert [message_text(m) for m in game_ch.history()].count(STORY + " Again.") == 1
    assert not [m for m in drafts(world) if m.components]  # the draft lost its buttons


async def test_unpublished_results_go_out_as_they_are_after_the_review_time(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, _players = await play_to_draft(env, minutes=20)
    await env.advance_time(19 * 60)
    assert results(world, 1) == []
    await env.advance_time(2 * 60)
    assert len(results(world, 1)) == 1
    deadline = live_game(world).record.deadline
    assert deadline is not None
    assert deadline - env.now() > timedelta(minutes=8)  # a whole turn from the publication


async def test_a_restart_mid_review_continues_it_and_publishes_on_time_once(
    simcord_env: Env, restart: Restart
) -> None:
    env = simcord_env
    world, _players = await play_to_draft(env, minutes=20)
    [draft] = drafts(world)
    shown = await world.admin.click(draft, custom_id=button(draft, "story"))
    assert shown.modal is not None
    reply_text(await world.admin.submit_modal(shown, {"story": STORY}))
    await env.advance_time(5 * 60)

    await restart()

    assert results(world, 1) == []
    assert live_game(world).review is not None
    await env.advance_time(16 * 60)
    assert len(results(world, 1)) == 1
    texts = [message_text(m) for m in slot(world, "game").history()]
    assert texts.count(STORY) == 1
    assert live_game(world).record.deadline is not None


async def test_without_review_the_results_go_out_at_the_deadline(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players)
    await until_deadline(world)
    await env.advance_time(1)
    assert len(results(world, 1)) == 1
    assert drafts(world) == []


async def test_the_final_announcement_is_reviewed_too(simcord_env: Env) -> None:
    """Nobody posts on turn 1: everyone leaves for silence (R52) and the game ends at the
    deadline (the rules decide); the final announcement waits for the review like any
    results, and goes out as it is after the review time."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=15)
    await until_deadline(world)
    await env.advance_time(1)
    assert bot_of(env).service.game_in(world.guild.id) is None  # over, as the rules decided
    title = t("en", "gameover.roles")
    game_ch = slot(world, "game")
    assert not any(title in message_text(m) for m in game_ch.history())
    assert len(drafts(world)) == 1
    await env.advance_time(16 * 60)
    assert sum(title in message_text(m) for m in game_ch.history()) == 1
    assert len(results(world, 1)) == 1


async def test_a_russian_table_gets_its_draft_in_russian(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, lang="ru", review=10)
    for actor in players:
        reply_text(await actor.slash(slot(world, "game"), "say", text="Привет."))
    await until_deadline(world)
    await env.advance_time(1)
    host_texts = [message_text(m) for m in slot(world, "host").history()]
    assert any(text.startswith("**Черновик: итоги хода 1.**") for text in host_texts)
    with client_locale(players[0], "ru"):
        said = await refusal(env, players[0].slash(slot(world, "game"), "say", text="Ну?"))
    assert said == t("ru", "error.review_pending")


async def test_R55_private_replies_keep_to_what_was_public_until_the_results_are_published(
    simcord_env: Env, restart: Restart
) -> None:
    """The mafia kill the villager on turn 1 and the results wait for the host: until they are
    published, his /role, /status and /help, anyone's /players and the mafia's target list
    read the game as it was public before them (R35, R55: a death is learnt when announced)."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=30)
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    vil_nick, vil = seats["villager"]
    _doc_nick, doc = seats["doctor"]
    reply_text(await maf.slash(game_ch, "kill", target=vil_nick))
    card_before = reply_text(await vil.slash(game_ch, "role"))
    players_before = reply_text(await world.player.slash(game_ch, "players"))
    await until_deadline(world)
    await env.advance_time(1)
    assert not live_game(world).engine.state.alive(vil_nick)  # decided, not published
    dead = t("en", "card.dead")

    assert reply_text(await vil.slash(game_ch, "role")) == card_before
    status = reply_text(await vil.slash(game_ch, "status"))
    assert t("en", "status.header", nick=vil_nick, role="Villager", turn=1) in status
    assert dead not in status
    assert "The host is writing up the results" in status
    assert reply_text(await world.player.slash(game_ch, "players")) == players_before
    # /help: the same tools for the dead villager as for the living doctor, no request
    help_vil = reply_text(await vil.slash(game_ch, "help"))
    assert help_vil == reply_text(await doc.slash(game_ch, "help"))
    offered = await maf.autocomplete(game_ch, "kill", "target", "")
    assert vil_nick in [c["value"] for c in offered]
    await restart()  # the draft keeps what was public: a restart reads the same
    assert reply_text(await vil.slash(game_ch, "role")) == card_before
    assert reply_text(await world.player.slash(game_ch, "players")) == players_before

    [draft] = drafts(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    assert len(results(world, 1)) == 1
    assert dead in reply_text(await vil.slash(game_ch, "role"))
    assert dead in reply_text(await vil.slash(game_ch, "status"))
    roster = reply_text(await world.player.slash(game_ch, "players"))
    assert roster != players_before and vil_nick in roster
    offered = await maf.autocomplete(game_ch, "kill", "target", "")
    assert vil_nick not in [c["value"] for c in offered]
    assert maf_nick not in [c["value"] for c in offered]


async def test_R55_a_game_whose_last_results_wait_is_not_over_for_its_players_yet(
    simcord_env: Env,
) -> None:
    """The town lynches the mafioso on turn 2: the game ends at the deadline (the rules
    decided), its final announcement waits for the host. Until it is published nothing a
    player asks tells him the game is over: /role, /status, /players and /help read it as it
    was, /history neither lists it nor opens it, /votes has no tally of it."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players, review=30)
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    await until_deadline(world)
    await env.advance_time(1)
    [draft] = drafts(world)
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    game_id = live_game(world).id
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    for role in ("commissar", "doctor", "villager"):
        reply_text(await seats[role][1].slash(game_ch, "vote", target=maf_nick))
    card_before = reply_text(await maf.slash(game_ch, "role"))
    players_before = reply_text(await world.player.slash(game_ch, "players"))
    help_before = reply_text(await maf.slash(game_ch, "help"))
    await until_deadline(world)
    await env.advance_time(1)
    assert bot_of(env).service.game_in(world.guild.id) is None  # over, as the rules decided

    assert reply_text(await maf.slash(game_ch, "role")) == card_before
    status = reply_text(await maf.slash(game_ch, "status"))
    assert t("en", "status.header", nick=maf_nick, role="Mafioso", turn=2) in status
    assert "The host is writing up the results" in status
    assert reply_text(await world.player.slash(game_ch, "players")) == players_before
    assert reply_text(await maf.slash(game_ch, "help")) != help_before  # no request now
    assert t("en", "help.quote", name="Quote") in reply_text(await maf.slash(game_ch, "help"))
    unknown = await refusal(env, world.player.slash(game_ch, "history", game=game_id))
    assert unknown == t("en", "history.unknown", game=game_id)
    assert f"#{game_id}" not in reply_text(await world.player.slash(game_ch, "history"))
    votes = await refusal(env, world.player.slash(game_ch, "votes"))
    assert votes == t("en", "votes.none")

    [draft] = [d for d in drafts(world) if d.components]
    reply_text(await world.admin.click(draft, custom_id=button(draft, "publish")))
    refused = await refusal(env, maf.slash(game_ch, "role"))
    assert refused == t("en", "error.no_running_game")
    assert f"#{game_id}" in reply_text(await world.player.slash(game_ch, "history"))
    votes_text = reply_text(await world.player.slash(game_ch, "votes"))
    assert t("en", "reading.finished", game=game_id) in votes_text
