"""The host's review on Discord (``/mafia new review:N``, ``core/review.py``): the draft in
#host with its buttons "Add story" (a modal) and "Publish", and the review clock that publishes
a draft as it is once its review time is over.

The buttons are persistent (dynamic items: the custom id carries the game and the turn), so a
draft posted before a restart keeps working; a click on a draft already published (another
click, the clock) is refused. Only the table's hosts may use them, as every host control.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, Final

import discord

from bot.context import game_context
from bot.embeds import Post, clip
from bot.hosts import ensure_host
from bot.kinds import Sending
from bot.render import render, timestamp
from bot.replies import reader_language, send_private
from bot.webhooks import MESSAGE_LIMIT, split_message
from core.i18n import Lang, t
from core.refusal import Refusal
from core.review import MAX_STORY, until_of
from core.service import GameService
from rules.announce import MAFIA, PUBLIC

log = logging.getLogger(__name__)

#: After an unexpected failure, wait this long before trying again.
RETRY_SECONDS: Final[float] = 60.0


def story_posts(_lang: Lang, payload: Mapping[str, Any]) -> list[Post]:
    """The host's story in #game, above the results: his text as he wrote it."""
    return [Post(content=piece) for piece in split_message(str(payload.get("text", "")))]


def draft_posts(lang: Lang, payload: Mapping[str, Any]) -> list[Post]:
    """The draft in #host: when it goes out unreviewed, then the held results as #game (and
    the mafia's room) will read them."""
    until = datetime.fromisoformat(str(payload["until"]))
    lines = [
        t(
            lang,
            "review.draft",
            turn=payload["turn"],
            until=timestamp(until, "t"),
            relative=timestamp(until, "R"),
        )
    ]
    for item in payload.get("items") or ():
        audience = str(item.get("audience"))
        if audience not in (PUBLIC, MAFIA):
            continue  # the private messages go out with them, unchanged
        text = render(lang, str(item["kind"]), item.get("payload") or {})
        if audience == MAFIA:
            text = t(lang, "review.in_mafia_room") + "\n" + text
        lines.append(text)
    # One message: it carries the buttons (a long report is cut; it goes out whole).
    return [Post(content=clip("\n\n".join(lines), MESSAGE_LIMIT))]


class ReviewButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mafia:review:(?P<action>story|publish):(?P<game>\d+):(?P<turn>\d+)",
):
    def __init__(self, action: str, game_id: int, turn: int, lang: Lang = "en") -> None:
        publish = action == "publish"
        style = discord.ButtonStyle.primary if publish else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=t(lang, f"review.button.{action}"),
                style=style,
                custom_id=f"mafia:review:{action}:{game_id}:{turn}",
            )
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ReviewButton:
        return cls(match["action"], int(match["game"]), int(match["turn"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctx = game_context(interaction.client)
        lang = await reader_language(ctx.store, interaction)
        try:
            rec = await ctx.store.get_game(self.game_id)
            if rec is None:
                raise Refusal("error.review_published")
            await ensure_host(ctx.store, interaction, table_id=rec.table_id)
            review = ctx.service.pending_review(self.game_id, self.turn)
            if self.action == "story":
                await interaction.response.send_modal(
                    StoryModal(self.game_id, self.turn, lang, review.story or "")
                )
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            done = await ctx.service.publish(self.game_id, self.turn)
            if not done:
                raise Refusal("error.review_published")
        except Refusal as refusal:  # a view has no command tree to render it
            await send_private(interaction, refusal.render(lang))
            return
        await send_private(interaction, t(lang, "review.published", turn=self.turn))
        await after_publication(ctx.service, ctx.deliver, ctx.clock.rearm)
        with_no_buttons(interaction)


def with_no_buttons(interaction: discord.Interaction[Any]) -> None:
    """The draft loses its buttons once published (best effort, in the background)."""
    message = interaction.message
    if message is None:
        return

    async def edit() -> None:
        try:
            await message.edit(view=None)
        except discord.HTTPException:
            log.info("could not remove the buttons of draft message %s", message.id)

    task = asyncio.get_running_loop().create_task(edit(), name="review-draft-edit")
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


_BACKGROUND: set[asyncio.Task[None]] = set()


class StoryModal(discord.ui.Modal):
    def __init__(self, game_id: int, turn: int, lang: Lang, story: str) -> None:
        super().__init__(title=t(lang, "review.modal.title", turn=turn), timeout=None)
        self.game_id = game_id
        self.turn = turn
        self.story: discord.ui.TextInput[StoryModal] = discord.ui.TextInput(
            label=t(lang, "review.modal.label"),
            custom_id="story",
            style=discord.TextStyle.paragraph,
            max_length=MAX_STORY,
            default=story or None,
            required=True,
        )
        self.add_item(self.story)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        ctx = game_context(interaction.client)
        lang = await reader_language(ctx.store, interaction)
        try:
            rec = await ctx.store.get_game(self.game_id)
            if rec is None:
                raise Refusal("error.review_published")
            await ensure_host(ctx.store, interaction, table_id=rec.table_id)
            await ctx.service.set_story(self.game_id, self.turn, self.story.value)
        except Refusal as refusal:
            await send_private(interaction, refusal.render(lang))
            return
        await send_private(interaction, t(lang, "review.story_saved", turn=self.turn))


def review_view(game_id: int, turn: int, lang: Lang) -> discord.ui.View:
    """The draft's buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(ReviewButton("story", game_id, turn, lang))
    view.add_item(ReviewButton("publish", game_id, turn, lang))
    return view


async def after_publication(
    service: GameService, deliver: Callable[[], Awaitable[None]], rearm: Callable[[], None]
) -> None:
    """The next turn has its deadline now: the game clock re-arms; the results go out."""
    rearm()
    await deliver()


class ReviewClock:
    """Sleeps until the earliest pending draft's review time is over, publishes it as it is,
    delivers, and sleeps again. Re-armed when a draft is added (``GameService.on_review``)."""

    def __init__(
        self,
        service: GameService,
        deliver: Callable[[], Awaitable[None]],
        rearm_game_clock: Callable[[], None],
    ) -> None:
        self.service = service
        self.deliver = deliver
        self.rearm_game_clock = rearm_game_clock
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False

    def rearm(self) -> None:
        task = self._task
        if task is not None and not task.done():
            if not self._sleeping:
                return  # publishing now: it looks at the drafts again when done
            task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="review-clock")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _sleep(self, seconds: float) -> None:
        self._sleeping = True
        try:
            await asyncio.sleep(seconds)
        finally:
            self._sleeping = False

    async def _run(self) -> None:
        while self.service.reviews:
            first = min(self.service.reviews.values(), key=until_of)
            delay = (until_of(first) - self.service.clock()).total_seconds()
            if delay > 0:
                await self._sleep(delay)
                continue
            try:
                await self.service.publish(first.game_id, first.turn, if_due=True)
            except Exception:
                log.exception("publishing the draft of game %s failed", first.game_id)
                await self._sleep(RETRY_SECONDS)
                continue
            await after_publication(self.service, self.deliver, self.rearm_game_clock)


def draft_buttons(sending: Sending) -> discord.ui.View:
    """The draft in #host carries its Add story / Publish buttons."""
    return review_view(sending.row.game_id, sending.row.turn, sending.lang)
