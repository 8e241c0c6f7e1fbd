"""The executable half of docs/SIMCORD_NOTES.md: every snippet there is one of these tests.

A toy bot (not ours) keeps each SimCord feature visible in a few lines. If a SimCord upgrade
changes a behaviour the guide describes, a test here fails and the guide must change too.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands, tasks
from simcord import BackendError, Env, SetupError

NICKS = ["Ann", "Bob", "Cid"]


class JoinView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.timed_out = False

    @discord.ui.button(label="Join", custom_id="join")
    async def join(self, interaction: discord.Interaction, _button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_message(f"joined {interaction.user.name}", ephemeral=True)

    @discord.ui.select(
        custom_id="colour",
        options=[
            discord.SelectOption(label="Red", value="red"),
            discord.SelectOption(label="Blue", value="blue"),
        ],
    )
    async def colour(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)

    async def on_timeout(self) -> None:
        self.timed_out = True


class PostModal(discord.ui.Modal, title="Long post"):
    # SimCord's submit_modal is keyed by custom_id: set one on every input.
    body: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Text", style=discord.TextStyle.paragraph, custom_id="body"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{len(self.body.value)} chars", ephemeral=True)


def build_toy_bot() -> commands.Bot:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True, members=True)
    )
    bot.ticks = 0  # type: ignore[attr-defined]

    @bot.tree.command(description="Vote")
    async def vote(interaction: discord.Interaction, target: str, weight: int = 1) -> None:
        await interaction.response.send_message(f"vote {target} x{weight}", ephemeral=True)

    @vote.autocomplete("target")
    async def vote_target(_i: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in NICKS if current.lower() in n.lower()]

    @bot.tree.command(description="Panel")
    async def panel(interaction: discord.Interaction) -> None:
        bot.panel = JoinView()  # type: ignore[attr-defined]
        await interaction.response.send_message("sign-up", view=bot.panel)  # type: ignore[attr-defined]

    @bot.tree.command(description="Post")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(PostModal())

    @bot.tree.command(description="Role card")
    async def card(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("You are the Commissar.")
        except discord.Forbidden as error:
            await interaction.response.send_message(f"DMs closed ({error.code})", ephemeral=True)
            return
        await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(description="Say")
    async def say(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        hook = await interaction.channel.create_webhook(name="anon")
        await hook.send(
            text,
            username="Old Fox",
            avatar_url="https://example.com/fox.png",
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await interaction.followup.send("posted", ephemeral=True)  # edits the deferred reply
        await interaction.followup.send("and this is a real followup", ephemeral=True)

    @bot.tree.command(description="Remind")
    async def remind(interaction: discord.Interaction, seconds: float) -> None:
        await interaction.response.send_message("scheduled", ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)

        async def later() -> None:
            await asyncio.sleep(seconds)
            await channel.send(f"{seconds:g}s later, at {discord.utils.utcnow():%H:%M}")

        bot.loop.create_task(later())

    @bot.tree.command(description="Boom")
    async def boom(_interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    @tasks.loop(minutes=10)
    async def tick() -> None:
        bot.ticks += 1  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        await bot.tree.sync()  # SimCord's strict_sync: an unsynced command cannot be invoked
        tick.start()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
def simcord_bot() -> commands.Bot:  # overrides tests/e2e/conftest.py for this module only
    return build_toy_bot()


def town(env: Env) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, simcord.MemberActor]:
    guild = env.create_guild("Town")
    channel = guild.create_text_channel("square")
    ann = guild.add_member(env.create_user("ann"))
    return guild, channel, ann


async def test_slash_command_with_options_and_a_private_reply(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)
    bob = _guild.add_member(simcord_env.create_user("bob"))

    result = await ann.slash(square, "vote", target="Bob", weight=2)

    assert result.ephemeral
    assert result.response is not None and result.response.content == "vote Bob x2"
    assert [m.content for m in square.history(viewer=ann)] == ["vote Bob x2"]
    assert square.history(viewer=bob) == []  # ephemeral: only Ann sees it


async def test_autocomplete_returns_the_offered_choices(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)

    choices = await ann.autocomplete(square, "vote", "target", "b", weight=3)

    assert choices == [{"name": "Bob", "value": "Bob"}]


async def test_click_a_button_and_pick_from_a_select(simcord_env: Env) -> None:
    guild, square, ann = town(simcord_env)
    bob = guild.add_member(simcord_env.create_user("bob"))
    await ann.slash(square, "panel")
    panel = square.last_message
    assert panel is not None

    clicked = await bob.click(panel, label="Join")  # or custom_id="join"
    picked = await bob.select(panel, ["blue"], custom_id="colour")

    assert clicked.response is not None and clicked.response.content == "joined bob"
    assert picked.response is not None and picked.response.content == "picked blue"


async def test_submit_a_modal(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)

    shown = await ann.slash(square, "post")
    assert shown.modal is not None and shown.modal["title"] == "Long post"
    submitted = await ann.submit_modal(shown, {"body": "x" * 3000})

    assert submitted.response is not None and submitted.response.content == "3000 chars"


async def test_read_a_dm_and_close_a_members_dms(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)

    await ann.slash(square, "card")
    last = ann.user.dm_channel.last_message
    assert last is not None and last.content == "You are the Commissar."

    simcord_env.inject_error(
        "POST",
        f"/channels/{ann.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,  # for the rest of the test
    )
    result = await ann.slash(square, "card")
    assert result.response is not None and result.response.content == "DMs closed (50007)"


async def test_webhook_message_username_and_allowed_mentions(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)

    result = await ann.slash(square, "say", text=f"@everyone {ann.mention} hi")

    post = square.last_message
    assert post is not None and post.webhook_id is not None
    assert post.author.name == "Old Fox"  # the username override
    assert not post.mention_everyone
    assert [u.id for u in post.mentions] == [ann.id]  # parsed, yet not pinged: see the body
    [body] = [
        r.json
        for r in simcord_env.http_requests
        if r.path.startswith(f"/webhooks/{post.webhook_id}/")
    ]
    assert isinstance(body, dict)
    assert body["allowed_mentions"] == {"parse": []}
    assert body["avatar_url"] == "https://example.com/fox.png"
    # After a defer, the first followup *is* the response; later ones are followups.
    assert result.response is not None and result.response.content == "posted"
    assert [f.content for f in result.followups] == ["and this is a real followup"]


async def test_channel_permissions_as_a_member_sees_them(simcord_env: Env) -> None:
    guild, _square, ann = town(simcord_env)
    news = guild.create_text_channel(
        "news", overwrites={guild.default_role: discord.PermissionOverwrite(send_messages=False)}
    )

    cached = simcord_env.bot.get_channel(news.id)
    assert isinstance(cached, discord.TextChannel) and ann.member is not None
    assert not cached.permissions_for(ann.member).send_messages
    with pytest.raises(BackendError) as denied:
        await ann.send(news, "hello")
    assert denied.value.code == 50013
    assert "vote" in ann.available_commands(news)


async def test_hidden_channel_history_is_a_setup_error(simcord_env: Env) -> None:
    guild, _square, ann = town(simcord_env)
    secret = guild.create_text_channel(
        "secret", overwrites={guild.default_role: discord.PermissionOverwrite(view_channel=False)}
    )

    with pytest.raises(SetupError):
        secret.history(viewer=ann)
    assert ann.available_commands(secret) == ()


async def test_long_sleeps_wait_for_advance_time(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)
    start = simcord_env.now()

    await ann.slash(square, "remind", seconds=3600)
    assert square.history() == []  # parked: SimCord never waits an hour
    await simcord_env.advance_time(3600)

    last = square.last_message
    assert last is not None and last.content == "3600s later, at 01:00"
    assert simcord_env.now() - start == datetime.timedelta(hours=1)
    assert start == datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


async def test_short_sleeps_run_in_real_time(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)
    began = time.perf_counter()

    await ann.slash(square, "remind", seconds=0.2)  # shorter than settle_timeout (5 s)

    assert time.perf_counter() - began >= 0.15  # the actor waited for it, on the wall clock
    assert square.last_message is not None


async def test_view_timeouts_and_task_loops_follow_virtual_time(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)
    bot: Any = simcord_env.bot
    ticks = bot.ticks
    await ann.slash(square, "panel")

    await simcord_env.advance_time(61)  # JoinView(timeout=60) expires; tick runs every 10 min

    assert bot.panel.timed_out
    panel = square.last_message
    assert panel is not None
    late = await ann.click(panel, label="Join")  # still drawn, but nobody listens any more
    assert not late.acknowledged
    await simcord_env.advance_time(20 * 60)
    assert bot.ticks >= ticks + 2


async def test_unhandled_errors_are_captured_and_must_be_acknowledged(simcord_env: Env) -> None:
    _guild, square, ann = town(simcord_env)

    result = await ann.slash(square, "boom")

    assert not result.acknowledged  # the default tree handler only logs
    error = simcord.assert_error(simcord_env, RuntimeError, contains="boom")  # acknowledges
    assert isinstance(error, app_commands.CommandInvokeError)
