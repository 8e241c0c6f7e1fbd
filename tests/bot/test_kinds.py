"""Each outbox kind's part in its delivery is its record (bot/kinds.py, declared in
bot/outbox_kinds.py; tests/bot/test_outbox_kinds.py checks every kind has one), and the generic
delivery (bot/delivery/) branches on no kind; rows' messages share one message only
where Discord's limits allow, in their order (bot/delivery/sender.py)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

from bot import kinds
from bot.delivery.sender import coalesce, fits, join
from bot.embeds import EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, Post
from bot.render import render_posts
from bot.webhooks import MESSAGE_LIMIT

ROOT = Path(__file__).resolve().parents[2]


def test_R18_the_pistols_menu_is_the_pistols_own_entry() -> None:
    kinds.load()
    view = kinds.entry("pistol").view
    assert view is not None and view.__module__ == "bot.pistol"
    assert kinds.entry("mafia_joined").before and kinds.entry("mafia_left").after
    assert kinds.entry("game_over").files is not None and kinds.entry("game_over").after
    assert kinds.entry("results").coalesces and kinds.entry("turn_open").coalesces
    assert not kinds.entry("pistol").coalesces  # its menu goes with its own message
    assert not kinds.entry("an unknown kind").coalesces


def test_the_generic_delivery_names_no_kind() -> None:
    for path in sorted((ROOT / "bot" / "delivery").glob("*.py")):
        if path.name == "player_posts.py":  # the kind ``post``'s own module
            continue
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"\bkind\s*(==|!=|in\b)", source), path.name
        for kind in ("pistol", "game_over", "mafia_joined", "role_card", "review_draft"):
            assert f'"{kind}"' not in source, (path.name, kind)


def embeds(n: int, size: int = 10) -> tuple[discord.Embed, ...]:
    return tuple(discord.Embed(description="x" * size) for _ in range(n))


def test_the_results_and_the_opening_share_a_message_when_they_fit() -> None:
    results = render_posts("en", "results", {"turn": 1, "deaths": [], "lynch": None, "pistols": []})
    opening = render_posts(
        "en",
        "turn_open",
        {"turn": 2, "deadline": "2026-03-02T18:00:00+00:00", "living": ["A", "B"], "roles": {}},
    )
    [one] = coalesce([results, opening])
    assert one.embeds == (*results[0].embeds, *opening[0].embeds) and fits(one)


def test_messages_too_big_together_stay_apart_in_their_order() -> None:
    full = Post(embeds=embeds(EMBEDS_PER_MESSAGE))
    assert coalesce([[full], [Post(embeds=embeds(1))]]) == [full, Post(embeds=embeds(1))]
    big = Post(embeds=embeds(1, EMBED_TOTAL_LIMIT - 5))
    assert join(big, Post(embeds=embeds(1))) is None
    long = Post(content="y" * (MESSAGE_LIMIT - 2))  # with a newline and "zz": one too many
    assert join(long, Post(content="zz")) is None
    # A text never follows embeds in one message (Discord shows the text first).
    assert join(Post(embeds=embeds(1)), Post(content="after")) is None
    assert join(Post(content="before"), Post(embeds=embeds(1))) == Post(
        content="before", embeds=embeds(1)
    )
    # A row's own messages stay as its renderer laid them out.
    two = [Post(content="a"), Post(content="b")]
    assert coalesce([two]) == two
