"""The pistol prompt (R18): a select menu in the killed commissar's DM listing the living
nicknames he may shoot. Persistent: the custom id carries the game, so it keeps working after
a restart. `/shoot` does the same from the game channel.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

import discord

from bot.context import game_context
from bot.kinds import Sending
from bot.replies import reader_language, send_private
from core.i18n import Lang, as_lang, t
from core.refusal import Refusal
from core.service import GameService
from rules.knowledge import valid_targets

log = logging.getLogger(__name__)

MAX_OPTIONS: Final[int] = 25  # Discord's limit; beyond it, /shoot takes any nickname


class PistolSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"mafia:pistol:(?P<game>\d+)"
):
    def __init__(self, game_id: int, targets: list[str] | None = None, lang: Lang = "en") -> None:
        options = [discord.SelectOption(label=n, value=n) for n in (targets or [])[:MAX_OPTIONS]]
        super().__init__(
            discord.ui.Select(
                custom_id=f"mafia:pistol:{game_id}",
                placeholder=t(lang, "pistol.placeholder"),
                options=options or [discord.SelectOption(label="-", value="-")],
                min_values=1,
                max_values=1,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PistolSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctx = game_context(interaction.client)
        target = self.item.values[0] if self.item.values else ""
        rec = await ctx.store.get_game(self.game_id)
        # The menu is in a DM (no guild): the reader's client, else the game's language (its
        # table's). It acts on the game it was sent for, whatever table that is.
        settings = await ctx.store.get_table(rec.table_id) if rec is not None else None
        game_lang = as_lang(settings.language) if settings is not None else None
        lang = await reader_language(ctx.store, interaction, game=game_lang)
        try:
            if rec is None or rec.status != "running":
                raise Refusal("refusal.no_pistol")
            await interaction.response.defer(ephemeral=True, thinking=True)
            accepted = await ctx.service.submit(
                rec.table_id, interaction.user.id, {"do": "shoot", "target": target}
            )
        except Refusal as refusal:  # a view has no command tree to render it
            await send_private(interaction, refusal.render(lang))
            return
        await send_private(interaction, t(lang, "pistol.done", nick=target, turn=accepted.turn))
        ctx.clock.rearm()
        await ctx.deliver()


def pistol_view(
    service: GameService, game_id: int, nick: str, lang: Lang
) -> discord.ui.View | None:
    """The select menu for the commissar `nick`, if his game is live."""
    live = service.live.get(game_id)
    if live is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PistolSelect(game_id, valid_targets(live.engine.state, nick, "shoot"), lang))
    return view


def prompt_menu(sending: Sending) -> discord.ui.View | None:
    """R18: the pistol's prompt carries a menu of the living nicknames."""
    service = sending.port.service
    return pistol_view(service, sending.row.game_id, sending.audience, sending.lang)
