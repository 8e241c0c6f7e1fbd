"""Reading the game again (the real bot in SimCord): ``/votes``, every published lynch tally
of this game, turn by turn, paged and private; ``/iso``, one nickname's posts in order, a
dead nickname's too, quoted as the player's words, paged; its autocomplete lists every
nickname in alphabetical order, to anyone at the table."""

from __future__ import annotations

from simcord import Env

from core.i18n import t
from core.quoting import quote_player_text
from rules.names import public_order as alphabetical
from tests.e2e.helpers import (
    add_players,
    bot_of,
    confirm_now,
    everyone_posts,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    slot,
    start_game,
    until_deadline,
)
from tests.e2e.test_history_stats import buttons
from tests.e2e.test_review import button as review_button
from tests.e2e.test_review import drafts as review_drafts


async def test_R34_votes_shows_each_published_tally_turn_by_turn(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"vt{i}" for i in range(8)])
    # No removal for missed votes: the game goes on to turn 4 whoever votes.
    await start_game(world, "mafioso=2 doctor=1 villager=5", actors, activity_rules=False)
    by_user = {a.id: a for a in actors}
    game_ch = slot(world, "game")
    reader = actors[0]
    assert await refusal(simcord_env, reader.slash(game_ch, "votes")) == t("en", "votes.none")
    await everyone_posts(world, actors)
    await until_deadline(world)
    tallies = {}
    for turn in (2, 3):
        await everyone_posts(world, actors)
        state = live_game(world).engine.state
        living = [p for p in live_game(world).players if state.alive(p.nick)]
        target = next(p for p in living if p.role == "villager")
        for p in living[:4]:
            aim = target if p is not target else living[5]
            reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=aim.nick))
        tallies[turn] = target
        await until_deadline(world)
    latest = await reader.slash(game_ch, "votes")
    text = reply_text(latest)
    assert t("en", "votes.title", turn=3, page=2, pages=2) in text  # the latest first
    assert t("en", "death.lynch", nick=tallies[3].nick, role="Villager") in text
    assert t("en", "dawn.nonvoters") in text
    found = buttons(latest)
    prev = t("en", "votes.prev")
    assert latest.response is not None
    await reader.click(latest.response, custom_id=found[prev][0])
    page = message_text(latest.response.message)
    assert t("en", "votes.title", turn=2, page=1, pages=2) in page
    assert t("en", "death.lynch", nick=tallies[2].nick, role="Villager") in page
    one = reply_text(await reader.slash(game_ch, "votes", turn=2))
    assert t("en", "votes.title", turn=2, page=1, pages=2) in one
    refused = await refusal(simcord_env, reader.slash(game_ch, "votes", turn=1))
    assert refused == t("en", "votes.no_turn", turn=1, turns="2, 3")


async def test_iso_lists_one_nicknames_posts_in_order_quoted_and_paged(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"is{i}" for i in range(6)])
    await start_game(world, "mafioso=2 doctor=1 villager=3", actors)
    game_ch = slot(world, "game")
    seats = live_game(world).players
    by_user = {a.id: a for a in actors}
    author = next(p for p in seats if p.role == "villager")
    writer = by_user[author.user_id]
    other = next(a for a in actors if a.id != author.user_id)
    reply_text(await writer.slash(game_ch, "say", text="**I am** town, trust me @everyone"))
    reply_text(await other.slash(game_ch, "say", text="Someone else."))
    long_text = "word " * 700  # 3500 characters: a page holds one such post
    for n in range(3):
        reply_text(await writer.slash(game_ch, "say", text=f"Post {n}: {long_text}"))
    await confirm_now(world, "mafia exclude", player=author.nick)  # a ghost's posts too
    reply_text(await writer.slash(game_ch, "say", text="From beyond."))

    # The autocomplete: every nickname, the dead one too, alphabetical, for anyone at the table.
    offered = await world.player.autocomplete(game_ch, "iso", "player", "")
    assert [c["value"] for c in offered] == alphabetical(p.nick for p in seats)

    reader = world.player  # not a player: the posts are public
    first = await reader.slash(game_ch, "iso", player=author.nick.upper())  # R44 matching
    text = reply_text(first)
    assert t("en", "iso.title", nick=author.nick, page=1, pages=3) in text
    said = t("en", "iso.said", nick=author.nick)
    assert said in text
    # Markdown shown as typed (in a code block: framed as his words, never bold)
    assert quote_player_text("**I am** town, trust me @everyone") in text
    # A mention inside the code block is shown as typed and pings nobody.
    assert "Someone else." not in text
    nxt = t("en", "iso.next")
    assert first.response is not None
    seen = [text]
    for _ in range(2):
        await reader.click(first.response, custom_id=buttons(first)[nxt][0])
        seen.append(message_text(first.response.message))
    joined = "\n".join(seen)
    order = [joined.index(s) for s in ("I am", "Post 0", "Post 1", "Post 2", "From beyond.")]
    assert order == sorted(order)
    assert t("en", "iso.post_ghost", turn=1, at="").split(",")[0] in seen[-1]
    unknown = await refusal(simcord_env, reader.slash(game_ch, "iso", player="Nobody"))
    assert unknown == t("en", "error.unknown_nick", nick="Nobody")
    silent = next(p for p in seats if p.nick not in (author.nick,) and p.user_id != other.id)
    none = await refusal(simcord_env, reader.slash(game_ch, "iso", player=silent.nick))
    assert none == t("en", "iso.none", nick=silent.nick)


async def test_votes_and_iso_read_the_tables_last_finished_game_after_it_ends(
    simcord_env: Env,
) -> None:
    """Reading the game after it is a forum tradition: with no game running at the table,
    /votes and /iso (and /iso's autocomplete) read its last finished game, say which game
    it was, and /help lists them; a sign-up opened since changes nothing."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"af{i}" for i in range(8)])
    await start_game(world, "mafioso=2 doctor=1 villager=5", actors, activity_rules=False)
    game_id = live_game(world).id
    seats = live_game(world).players
    talkers = actors[1:]  # actors[0] never posts: no removal for it here
    by_user = {a.id: a for a in actors}
    game_ch = slot(world, "game")
    await everyone_posts(world, talkers)
    await until_deadline(world)
    await everyone_posts(world, talkers)
    state = live_game(world).engine.state
    living = [p for p in live_game(world).players if state.alive(p.nick)]
    target = next(p for p in living if p.role == "villager")
    voters = [p for p in living if p is not target][:5]
    for p in voters:
        reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    author = next(p for p in voters if p.user_id != actors[0].id)
    nicks = [p.nick for p in live_game(world).players]
    reply_text(await by_user[author.user_id].slash(game_ch, "say", text="After the lynch."))
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    reply_text(  # the next sign-up
        await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC")
    )

    reader = world.player  # not a player of it: what was published is public
    footer = t("en", "reading.finished", game=game_id)
    votes = await reader.slash(game_ch, "votes")
    text = reply_text(votes)
    assert t("en", "votes.title", turn=2, page=1, pages=1) in text
    assert t("en", "death.lynch", nick=target.nick, role="Villager") in text
    assert footer in text
    iso = reply_text(await reader.slash(game_ch, "iso", player=author.nick))
    assert "After the lynch." in text + iso and footer in iso
    offered = await reader.autocomplete(game_ch, "iso", "player", "")
    assert [c["value"] for c in offered] == alphabetical(nicks)
    silent = next(p.nick for p in seats if p.user_id == actors[0].id)
    refused = await refusal(simcord_env, reader.slash(game_ch, "iso", player=silent))
    assert refused == t("en", "iso.none_finished", nick=silent)
    lines = reply_text(await reader.slash(game_ch, "help")).split("\n")
    for command in ("votes", "iso"):
        assert any(line.startswith(f"`/{t('en', f'cmd.{command}.name')}`") for line in lines)


async def test_after_a_reviewed_game_votes_shows_only_the_tallies_published(
    simcord_env: Env,
) -> None:
    """The last turn's results wait for the host's review (core/review.py): after the game
    /votes shows none of them until he publishes them (only what was public)."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, "mafioso=1 commissar=1 doctor=1 villager=1", players, review=30)
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    await until_deadline(world)
    await env.advance_time(1)
    [draft] = review_drafts(world)
    reply_text(await world.admin.click(draft, custom_id=review_button(draft, "publish")))
    seats = {p.user_id: p for p in live_game(world).players}
    by_user = {a.id: a for a in players}
    maf = next(p for p in seats.values() if p.role == "mafioso")
    for p in seats.values():
        if p is not maf:
            reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=maf.nick))
    await until_deadline(world)
    await env.advance_time(1)
    assert bot_of(env).service.game_in(world.guild.id) is None  # over: the rules decided

    reader = world.player
    assert await refusal(env, reader.slash(game_ch, "votes")) == t("en", "votes.none")
    [draft] = [d for d in review_drafts(world) if d.components]
    reply_text(await world.admin.click(draft, custom_id=review_button(draft, "publish")))
    text = reply_text(await reader.slash(game_ch, "votes"))
    assert t("en", "votes.title", turn=2, page=1, pages=1) in text
    assert maf.nick in text
