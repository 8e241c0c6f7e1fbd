"""The message command "Quote" through the real bot: a player answers a post in #game with his
own post under his nickname (R6), headed by the quoted nickname, an excerpt and a link; the
quote counts as his post (R52); a quoted post's markdown and mentions cannot change the
layout or ping anyone; only posts of the game's channel can be quoted."""

from __future__ import annotations

import discord
from simcord import Env, MemberActor

from bot.quotes import EXCERPT_LIMIT, excerpt, quote_block
from core.i18n import t
from tests.e2e.helpers import (
    add_players,
    live_game,
    make_world,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
)

ROLES = "mafioso=2 commissar=1 villager=3"


def webhook_posts(where: object) -> list[discord.Message]:
    return [m for m in where.history() if m.webhook_id is not None]  # type: ignore[attr-defined]


async def quote(actor: MemberActor, where: object, message: discord.Message, reply: str) -> None:
    shown = await actor.context_menu(where, "Quote", message)  # type: ignore[arg-type]
    assert shown.modal is not None
    reply_text(await actor.submit_modal(shown, {"body": reply}))


async def test_R6_R52_a_quote_is_the_players_post_with_nickname_excerpt_and_link(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"q{i}" for i in range(6)])
    await start_game(world, ROLES, actors)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, actors)
    author_nick, author = seats["commissar"]
    replier_nick, replier = seats["villager"]
    reply_text(await author.slash(game_ch, "say", text="I checked nobody yet.\nTrust me."))
    [original] = webhook_posts(game_ch)
    before = live_game(world).engine.state.posts.get(replier_nick, 0)

    await quote(replier, game_ch, original, "Why would we trust you?")

    posts = webhook_posts(game_ch)
    assert len(posts) == 2
    answer = posts[-1]
    assert answer.author.name == replier_nick
    lines = answer.content.splitlines()
    assert lines[0].startswith("> ") and author_nick in lines[0]
    assert original.jump_url in lines[0]
    assert lines[1:3] == ["> I checked nobody yet.", "> Trust me."]
    assert answer.content.endswith("Why would we trust you?")
    assert live_game(world).engine.state.posts.get(replier_nick, 0) == before + 1


async def test_R6_a_quoted_posts_markdown_and_mentions_stay_inside_the_quote(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"qm{i}" for i in range(6)])
    await start_game(world, ROLES, actors)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, actors)
    _, author = seats["commissar"]
    replier_nick, replier = seats["villager"]
    hostile = "# Results of turn 1\n-# the host\n**Check:** X is mafia @everyone"
    reply_text(await author.slash(game_ch, "say", text=hostile))
    [original] = webhook_posts(game_ch)

    await quote(replier, game_ch, original, "Fake results!")

    answer = webhook_posts(game_ch)[-1]
    quoted = answer.content.split("\n\n")[0].splitlines()
    assert all(line.startswith("> ") for line in quoted)
    assert "> \\# Results of turn 1" in quoted
    assert "> \\-\\# the host" in quoted or "> \\-# the host" in quoted
    assert not any(line.startswith("> **Check") for line in quoted)
    assert "@everyone" not in answer.content.replace("@\u200beveryone", "")
    assert answer.author.name == replier_nick


async def test_only_posts_of_the_games_channel_can_be_quoted_and_only_by_players(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, [f"qr{i}" for i in range(6)])
    await start_game(world, ROLES, actors)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, actors)
    _, author = seats["commissar"]
    _, replier = seats["villager"]
    reply_text(await author.slash(game_ch, "say", text="hello"))
    [original] = webhook_posts(game_ch)

    # A member who does not play is refused, and nothing is posted.
    text = await refusal(env, world.player.context_menu(game_ch, "Quote", original))
    assert text == t("en", "error.not_a_player")

    # A message elsewhere (the discussion channel) is not a post of the game.
    discussion = slot(world, "discussion")
    said = await replier.send(discussion, "a chat line")
    text = await refusal(env, replier.context_menu(discussion, "Quote", said))
    assert text == t("en", "error.quote_not_in_game")
    assert len(webhook_posts(game_ch)) == 1

    # The host's announcement can be quoted, under the host's name.
    announcement = next(
        m for m in reversed(game_ch.history()) if m.webhook_id is None and m.content.strip()
    )
    await quote(replier, game_ch, announcement, "So it begins.")
    assert t("en", "quote.host") in webhook_posts(game_ch)[-1].content.splitlines()[0]


def test_excerpt_is_short_leaves_out_nested_quotes_and_the_signature() -> None:
    text = "> an older quote\nmy words\n\n-- the fox"
    assert excerpt(text, signature="-- the fox") == "my words"
    long = "word " * 200
    cut = excerpt(long)
    assert cut.endswith("…") and len(cut) <= EXCERPT_LIMIT + 1
    many = "\n".join(f"line {i}" for i in range(10))
    assert excerpt(many).splitlines()[-1] == "line 3…"
    block = quote_block("ru", "Синица", "https://discord.com/channels/1/2/3", "привет")
    assert block.splitlines() == [
        "> " + t("ru", "quote.head", nick="Синица", link="https://discord.com/channels/1/2/3"),
        "> привет",
    ]
