"""Previous/Next buttons over pages of a private reply (``/mafia log``, ``/history``).

Only the member who opened the list turns its pages; anyone else is told so privately (the
reply is ephemeral, so this only happens through a forwarded or stale message). The view is not
persistent: its buttons stop working after ``timeout`` seconds. A subclass renders the current
page with :meth:`PagedView.render`, clamping ``page`` to the data as it is now and setting
``pages``; :meth:`PagedView.show` then sets the buttons' state.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.context import GameContext
from bot.replies import reader_language, send_private
from core.i18n import Lang, t


class PagedView(discord.ui.View):
    """Pages of one private list; ``keys`` names the catalogue entries of the two button labels
    and of the refusal to anyone but the owner (``<prefix>.prev``, ``.next``, ``.not_yours``)."""

    def __init__(
        self, ctx: GameContext, lang: Lang, owner_id: int, *, keys: str, timeout: float
    ) -> None:
        super().__init__(timeout=timeout)
        self.ctx = ctx
        self.lang = lang
        self.owner_id = owner_id
        self.keys = keys
        self.page = 0  # 0: the newest
        self.pages = 1
        self.prev_button.label = t(lang, f"{keys}.prev")
        self.next_button.label = t(lang, f"{keys}.next")

    async def render(self) -> discord.Embed:
        """The current page; sets ``pages`` and clamps ``page``."""
        raise NotImplementedError

    async def show(self) -> discord.Embed:
        """The current page, the buttons enabled only where there is a page to go to."""
        embed = await self.render()
        self.prev_button.disabled = self.page == 0
        self.next_button.disabled = self.page >= self.pages - 1
        return embed

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        lang = await reader_language(self.ctx.store, interaction)
        await send_private(interaction, t(lang, f"{self.keys}.not_yours"))
        return False

    async def _turn(self, interaction: discord.Interaction[Any], step: int) -> None:
        self.page = max(0, self.page + step)
        embed = await self.show()
        await interaction.response.edit_message(embed=embed, view=self)

    @discord.ui.button(label="<", style=discord.ButtonStyle.secondary)
    async def prev_button(
        self, interaction: discord.Interaction[Any], _button: discord.ui.Button[PagedView]
    ) -> None:
        await self._turn(interaction, -1)

    @discord.ui.button(label=">", style=discord.ButtonStyle.secondary)
    async def next_button(
        self, interaction: discord.Interaction[Any], _button: discord.ui.Button[PagedView]
    ) -> None:
        await self._turn(interaction, 1)
