"""The host's review (``bot/review.py``): the draft's persistent buttons and the review clock,
started with the bot (after a restart it continues every pending review)."""

from __future__ import annotations

from discord.ext import commands

from bot.context import game_context
from bot.review import ReviewButton, ReviewClock


class ReviewCog(commands.Cog, name="Review"):
    def __init__(self, clock: ReviewClock) -> None:
        self.clock = clock

    async def cog_unload(self) -> None:
        self.clock.stop()


async def setup(bot: commands.Bot) -> None:
    ctx = game_context(bot)
    clock = ReviewClock(ctx.service, ctx.deliver, ctx.clock.rearm)
    ctx.service.on_review = clock.rearm
    bot.add_dynamic_items(ReviewButton)
    await bot.add_cog(ReviewCog(clock))
    clock.rearm()
