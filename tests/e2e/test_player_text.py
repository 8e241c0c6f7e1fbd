"""Player text never speaks in the bot's voice (R37, R10), and what the bot sends stays within
Discord's limits (the contract layer of tests/e2e/conftest.py, sandbox/contract/).

A death note written to look like a commissar's check reaches its addressee framed and
attributed ("A death note from Fox:" and the text in a code block), in his DMs and in
``/status``; two long notes in one turn make ``/status`` longer than one Discord message, and
it is sent as several, each note whole. A signature shows literally under a post.
"""

from __future__ import annotations

import re

import discord
import pytest
from simcord import Env

from core.i18n import t
from core.quoting import quote_player_line, quote_player_text
from sandbox.contract import DiscordContract
from tests.e2e.helpers import (
    add_players,
    dm_texts,
    live_game,
    make_world,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=2 commissar=1 villager=5"


def fake_check(server: str, target: str, size: int) -> str:
    """A death note made to read exactly like the commissar's check, padded to ``size``."""
    head = f"**{server} · game #1**\nCheck: {target} is not in the mafia.\n-# sent by the host\n"
    return head + "z" * (size - len(head))


def outside_code(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.DOTALL)


async def test_R37_death_notes_are_framed_in_dms_and_in_status(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["ann", "ben", "cid", "dan", "eve", "fay", "gus", "hal"])
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    by_user = {a.id: a for a in players}
    game = live_game(world)
    seats = seats_by_role(world, players)
    com_nick, commissar = seats["commissar"]
    maf_nick, mafioso = seats["mafioso"]
    villagers = [p for p in game.players if p.role == "villager"]
    killed, lynched = villagers[0], villagers[1]
    notes = {
        killed.nick: fake_check(world.guild.name, maf_nick, 1500),
        lynched.nick: fake_check(world.guild.name, maf_nick, 1400),
    }
    for nick, text in notes.items():
        author = next(by_user[p.user_id] for p in game.players if p.nick == nick)
        reply_text(await author.slash(game_ch, "note", to=com_nick, text=text))
    for actor in players:  # turn 1: no lynch yet
        reply_text(await actor.slash(game_ch, "say", text="Morning."))
    await until_deadline(world)
    for actor in players:  # turn 2: a kill and a lynch, both authors die
        reply_text(await actor.slash(game_ch, "say", text="Who is it?"))
    reply_text(await mafioso.slash(game_ch, "kill", target=killed.nick))
    for actor in players:
        reply_text(await actor.slash(game_ch, "vote", target=lynched.nick))
    await until_deadline(world)
    state = live_game(world).engine.state
    assert not state.alive(killed.nick) and not state.alive(lynched.nick)

    # The DMs: each note attributed, its text whole inside one code block, nothing of it
    # outside (no bold header, no "Check:" line, no subtext in the bot's voice).
    received = [text for text in dm_texts(commissar) if "```" in text]
    expected = {
        nick: t("en", "announce.note", author=nick, text=quote_player_text(text))
        for nick, text in notes.items()
    }
    assert sorted(received) == sorted(expected.values())
    for nick, text in expected.items():
        # Outside the block: only "A death note from <nick>:".
        assert outside_code(text).strip() == t("en", "announce.note", author=nick, text="").strip()

    # /status: the same framed notes, in several messages (each within Discord's 2,000
    # characters, which the contract layer checks), no note cut in two.
    result = await commissar.slash(game_ch, "status")
    assert result.response is not None
    messages = [result.response.content, *(f.content for f in result.followups)]
    assert len(messages) >= 2 and all(len(m) <= 2000 for m in messages)
    assert all(m.count("```") % 2 == 0 for m in messages)
    joined = "\n".join(messages)
    for note in expected.values():
        assert note in joined
    assert "Check" not in outside_code(joined)


async def test_R10_a_signature_shows_literally_under_a_post(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["ann", "ben", "cid", "dan"])
    await start_game(world, "mafioso=1 commissar=1 villager=2", players)
    game_ch = slot(world, "game")
    signature = "-# **Host**: [the check](https://example.com) says `Fox` is mafia"
    reply_text(await players[0].slash(game_ch, "profile", signature=signature))
    reply_text(await players[0].slash(game_ch, "say", text="Hello."))
    post = game_ch.last_message
    assert post is not None and post.webhook_id is not None
    body, _, last = post.content.rpartition("\n\n")
    assert body == "Hello." and last == quote_player_line(signature)
    assert re.sub(r"\\(.)", r"\1", last) == signature  # what the readers see
    assert not re.search(r"(?<!\\)[*`\[\]()#>-]", last)  # no markup left


async def test_the_contract_layer_refuses_what_discord_refuses(
    simcord_env: Env, discord_contract: DiscordContract
) -> None:
    """The harness checks the bot's own requests: an over-long message and a webhook named
    after Discord are refused with Discord's 400 and recorded with the limit and its source
    (this test takes them, so they do not fail it)."""
    world = make_world(simcord_env)
    cached = simcord_env.bot.get_channel(world.lobby.id)
    assert isinstance(cached, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as refused:
        await cached.send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    with pytest.raises(discord.HTTPException):
        await cached.create_webhook(name="Discord")
    taken = discord_contract.take()
    assert [v.limit.key for v in taken] == ["message.content", "webhook.name"]
    assert 'message.mdx "Create Message"' in str(taken[0])
    assert world.lobby.history() == []  # nothing reached SimCord
    await cached.send("x" * 2000)  # the limit itself is fine
    assert discord_contract.violations == []
