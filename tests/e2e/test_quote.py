"""The message command "Quote" through the real bot: a player answers a post in #game with his
own post under his nickname (R6), headed by the quoted nickname, an excerpt and a link; the
quote counts as his post (R52); a quoted post's markdown and mentions cannot change the
layout or ping anyone; only this game's public record in its channel can be quoted (R45/R46:
never a private reply; a picture post is a post; never an earlier game's post), read as it
stands when the reply is sent (a post deleted meanwhile is refused, privately, in the
player's language, and nothing is posted)."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import discord
import pytest
from discord.utils import escape_markdown
from simcord import Env, MemberActor

from bot.quotes import EXCERPT_LIMIT, excerpt, quote_block
from core.i18n import Lang, t
from core.images import PICTURE_MARK
from tests.core.test_images import jpeg_with_exif
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    bot_of,
    confirm_now,
    live_game,
    make_world,
    message_text,
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


async def next_game(world: World, actors: list[MemberActor]) -> None:
    """The next game at the same table (the last one ended), the same members."""
    game_ch = slot(world, "game")
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    games = await bot_of(world.env).store.list_games(guild_id=world.guild.id)
    assert [g.status for g in games][-2:] == ["finished", "running"]


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


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_R45_R46_a_private_reply_cannot_be_quoted(simcord_env: Env, lang: Lang) -> None:
    """A player's own /role card (the bot's private reply, shown in #game to him alone) is
    no post: quoting it would prove his role in the host's words."""
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, [f"qp{i}" for i in range(6)])
    await start_game(world, ROLES, actors, lang=lang)
    game_ch = slot(world, "game")
    _, cop = seats_by_role(world, actors)["commissar"]
    card = await cop.slash(game_ch, "role")
    reply_text(card)
    assert card.response is not None and card.response.flags.ephemeral
    before = len(game_ch.history())

    text = await refusal(env, cop.context_menu(game_ch, "Quote", card.response))

    assert text == t(lang, "error.quote_not_a_post")
    assert len(game_ch.history()) == before  # nothing posted


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_a_post_deleted_while_the_reply_is_typed_is_refused_and_nothing_posted(
    simcord_env: Env, lang: Lang
) -> None:
    """The post is read when the reply is sent: one a moderator deleted meanwhile does not
    come back under the quoter's nickname."""
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, [f"qd{i}" for i in range(6)])
    await start_game(world, ROLES, actors, lang=lang)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, actors)
    _, author = seats["commissar"]
    _, replier = seats["villager"]
    reply_text(await author.slash(game_ch, "say", text="Something I regret saying."))
    [original] = webhook_posts(game_ch)
    shown = await replier.context_menu(game_ch, "Quote", original)
    assert shown.modal is not None

    channel = env.bot.get_channel(game_ch.id)
    assert isinstance(channel, discord.TextChannel)
    await channel.get_partial_message(original.id).delete()  # a moderator removes it
    await env.settle()
    answer = await replier.submit_modal(shown, {"body": "You said it!"})

    assert reply_text(answer) == t(lang, "error.quote_gone")
    assert webhook_posts(game_ch) == []
    assert all("regret" not in m.content for m in game_ch.history())


async def test_R6_a_picture_post_is_a_players_post_and_can_be_quoted(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"qi{i}" for i in range(6)])
    await start_game(world, ROLES, actors)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, actors)
    author_nick, author = seats["commissar"]
    replier_nick, replier = seats["villager"]
    reply_text(await author.slash(game_ch, "say", image=("a.jpg", jpeg_with_exif())))
    [picture] = webhook_posts(game_ch)
    assert picture.attachments and not picture.content

    await quote(replier, game_ch, picture, "Nice picture, what does it prove?")

    answer = webhook_posts(game_ch)[-1]
    assert answer.author.name == replier_nick
    lines = answer.content.splitlines()
    assert author_nick in lines[0] and picture.jump_url in lines[0]
    assert lines[1] == f"> {PICTURE_MARK}"
    assert answer.content.endswith("Nice picture, what does it prove?")


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_a_post_of_the_previous_game_at_the_table_cannot_be_quoted(
    simcord_env: Env, lang: Lang
) -> None:
    """Nicknames repeat between games: a post of the table's previous game quoted now would
    pin its words on whoever holds that nickname in this one."""
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, [f"qg{i}" for i in range(6)])
    await start_game(world, ROLES, actors, lang=lang)
    game_ch = slot(world, "game")
    _, author = seats_by_role(world, actors)["commissar"]
    reply_text(await author.slash(game_ch, "say", text="I am the commissar of game one."))
    [old_post] = webhook_posts(game_ch)
    old_announcement = next(
        m for m in reversed(game_ch.history()) if m.webhook_id is None and m.content.strip()
    )
    assert await confirm_now(world, "mafia end") == t(lang, "host.ended")
    await next_game(world, actors)
    quoter = actors[0]
    before = len(webhook_posts(game_ch))

    for old in (old_post, old_announcement):
        text = await refusal(env, quoter.context_menu(game_ch, "Quote", old))
        assert text == t(lang, "error.quote_other_game")
    assert len(webhook_posts(game_ch)) == before

    # This game's own posts can be.
    reply_text(await author.slash(game_ch, "say", text="Game two, a new start."))
    await quote(quoter, game_ch, webhook_posts(game_ch)[-1], "Welcome back.")
    assert webhook_posts(game_ch)[-1].content.endswith("Welcome back.")


async def test_without_its_sign_up_post_a_game_starts_at_its_first_delivered_message(
    simcord_env: Env, restart: Restart
) -> None:
    """A game whose sign-up post id was not kept (the bot stopped between posting it and
    keeping its id) starts at the first message its outbox posted: an earlier game's post is
    still refused after a restart, this game's announcements are quotable (an embed: quoted
    by its text)."""
    env = simcord_env
    world = make_world(env)
    actors = add_players(world, [f"qs{i}" for i in range(6)])
    await start_game(world, ROLES, actors)
    game_ch = slot(world, "game")
    reply_text(await actors[0].slash(game_ch, "say", text="A post of game one."))
    [old_post] = webhook_posts(game_ch)
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    await next_game(world, actors)
    game_id = live_game(world).id

    async def forget_sign_up_post(database: str) -> None:
        with closing(sqlite3.connect(database)) as db, db:
            db.execute("UPDATE games SET signup_message_id = NULL WHERE id = ?", (game_id,))

    new = await restart(forget_sign_up_post)
    assert new.service.live[game_id].record.signup_message_id is None

    text = await refusal(env, actors[1].context_menu(game_ch, "Quote", old_post))
    assert text == t("en", "error.quote_other_game")
    # This game's opening: the bot's announcement (an embed), posted after the restart's
    # start, whatever the outbox recorded.
    opening = game_ch.history()[-1]
    assert opening.webhook_id is None and opening.embeds
    await quote(actors[1], game_ch, opening, "A new day.")
    answer = webhook_posts(game_ch)[-1]
    opening_text = message_text(opening).splitlines()
    assert t("en", "quote.host") in answer.content.splitlines()[0]
    assert answer.content.splitlines()[1] == f"> {escape_markdown(opening_text[0])}"
