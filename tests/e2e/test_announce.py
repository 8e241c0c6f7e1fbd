"""``/mafia announce`` (R47) and the anonymous webhook behind it (R6)."""

from __future__ import annotations

import discord
import pytest
from simcord import Env

from bot.webhooks import WEBHOOK_NAME
from core.i18n import t
from tests.e2e.helpers import World, channel, make_world, refusal, reply_text


async def set_up(world: World, language: str = "en") -> None:
    result = await world.admin.slash(world.lobby, "mafia setup", language=language)
    reply_text(result)


def webhook_posts(env: Env) -> list[dict[str, object]]:
    """Bodies of the bot's webhook executions (interaction followups excluded)."""
    return [
        r.json
        for r in env.http_requests
        if r.method == "POST"
        and r.path.startswith("/webhooks/")
        and "simcord_interaction_" not in r.path
        and isinstance(r.json, dict)
    ]


async def test_announce_posts_under_the_host_name_and_pings_nobody(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_up(world)
    game = channel(world, "game")
    story = f"Night falls. @everyone @here {world.player.mention}, wake up."

    result = await world.admin.slash(world.lobby, "mafia announce", text=story)

    assert reply_text(result) == t("en", "announce.done", channel=game.mention)
    post = game.last_message
    assert post is not None
    assert post.webhook_id is not None
    assert post.author.name == "Host"
    assert post.content == story
    assert not post.mention_everyone
    [body] = webhook_posts(world.env)
    assert body["allowed_mentions"] == {"parse": []}
    assert body["username"] == "Host"


async def test_long_announcement_is_split_at_word_boundaries(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_up(world)
    words = [f"word{i}" for i in range(600)]  # about 4,400 characters
    story = " ".join(words)

    await world.admin.slash(world.lobby, "mafia announce", text=story)

    posts = [m.content for m in channel(world, "game").history()]
    assert len(posts) == 3
    assert all(len(p) <= 2000 for p in posts)
    assert " ".join(posts).split() == words


async def test_webhook_is_created_once_and_recreated_if_deleted(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_up(world)
    env = world.env

    await world.admin.slash(world.lobby, "mafia announce", text="Day 1.")
    await world.admin.slash(world.lobby, "mafia announce", text="Day 2.")
    created = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/webhooks")]
    assert len(created) == 1
    assert created[0].json == {"name": WEBHOOK_NAME}

    [hook_id] = {m.webhook_id for m in channel(world, "game").history()}
    assert hook_id is not None
    env.backend.delete_webhook(hook_id)  # a moderator deleted it (no SimCord builder for that)
    await world.admin.slash(world.lobby, "mafia announce", text="Day 3.")

    last = channel(world, "game").last_message
    assert last is not None and last.content == "Day 3." and last.webhook_id != hook_id


async def test_announce_before_setup_is_refused(simcord_env: Env) -> None:
    world = make_world(simcord_env)

    text = await refusal(world.env, world.admin.slash(world.lobby, "mafia announce", text="Hello"))

    assert text == t("en", "error.not_set_up")


@pytest.mark.usefixtures("russian_clients")
async def test_russian_game_announces_as_vedushchiy(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    await set_up(world, "ru")

    result = await world.admin.slash(world.lobby, "mafia announce", text="Наступила ночь.")

    game = channel(world, "игра")
    assert reply_text(result) == f"Опубликовано в {game.mention}."
    post = game.last_message
    assert isinstance(post, discord.Message) and post.author.name == "Ведущий"
