"""Embeds within Discord's limits (bot/embeds.py)."""

from __future__ import annotations

import discord

from bot.embeds import (
    EMBED_TOTAL_LIMIT,
    EMBEDS_PER_MESSAGE,
    FIELD_VALUE_LIMIT,
    FIELDS_LIMIT,
    Post,
    add_list_field,
    embed_text,
    field_values,
    pack,
    post_text,
)


def test_field_values_keep_every_line_within_the_limit() -> None:
    lines = [f"- Player number {i:03d}" for i in range(300)]
    values = field_values(lines)
    assert all(0 < len(v) <= FIELD_VALUE_LIMIT for v in values)
    assert "\n".join(values).split("\n") == lines


def test_a_line_longer_than_a_field_is_cut_not_lost() -> None:
    values = field_values(["x" * 2500])
    assert [len(v) for v in values] == [1024, 1024, 452]


def test_a_long_list_continues_into_new_embeds() -> None:
    embed = discord.Embed(title="Dawn", colour=0x123456)
    lines = [f"- {'Nickname' * 3} {i}" for i in range(99)] * 4
    embeds = add_list_field(embed, "Living", lines)
    assert embeds[0] is embed
    assert all(len(e) <= EMBED_TOTAL_LIMIT and len(e.fields) <= FIELDS_LIMIT for e in embeds)
    got = "\n".join(f.value or "" for e in embeds for f in e.fields).split("\n")
    assert got == lines
    assert all(e.colour == embed.colour for e in embeds)


def test_pack_respects_the_per_message_limits_and_keeps_order() -> None:
    embeds = [discord.Embed(title=str(i), description="d" * 1500) for i in range(14)]
    posts = pack(embeds, content="Turn 3")
    assert posts[0].content == "Turn 3"
    assert all(len(p.embeds) <= EMBEDS_PER_MESSAGE for p in posts)
    assert all(sum(len(e) for e in p.embeds) <= EMBED_TOTAL_LIMIT for p in posts)
    assert [e.title for p in posts for e in p.embeds] == [str(i) for i in range(14)]


def test_pack_of_a_long_text_alone() -> None:
    posts = pack([], content="word " * 1000)
    assert len(posts) == 3 and all(len(p.content) <= 2000 and not p.embeds for p in posts)


def test_embed_as_text_reads_in_order() -> None:
    embed = discord.Embed(title="T", description="D").add_field(name="F", value="V")
    embed.set_footer(text="foot")
    assert embed_text(embed) == "T\nD\nF:\nV\nfoot"
    assert post_text(Post(content="C", embeds=(embed,))) == "C\nT\nD\nF:\nV\nfoot"
