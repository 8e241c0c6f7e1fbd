"""A host's confirmation: a private preview with Confirm and Cancel buttons.

A command whose effect depends on the moment (``/mafia resolve`` resolves *this* turn) answers
with a preview; the Confirm button's custom id carries what the host saw (the game, and an
argument such as the turn) and the table it was made at, so a second click, or a click after
the clock moved on, refuses instead of acting on something else, and a click acts on that
table's game whatever the channel. The buttons are persistent (dynamic items): they keep
working after a restart (a button from before tables, without a table, is about the server's
first table, whose key is the server's id).

The cog that offers an action registers its handler with :func:`add_confirm_items` when it
loads; the handler returns the reply text or raises a :class:`Refusal`, which is answered
privately (a view has no command tree).
"""

from __future__ import annotations

import logging
import re
import secrets
import weakref
from collections.abc import Awaitable, Callable, Mapping
from datetime import timedelta
from typing import Any, Final

import discord

from bot.context import GameContext, game_context
from bot.hosts import ensure_host
from bot.replies import reader_language, send_private
from core.i18n import Lang, t
from core.refusal import Refusal

log = logging.getLogger(__name__)

#: (context, interaction, table key, game id, argument) -> the private reply.
ConfirmHandler = Callable[[GameContext, discord.Interaction[Any], int, int, str], Awaitable[str]]

#: What each Confirm button does, per bot (registered by the cogs as they load).
_HANDLERS: weakref.WeakKeyDictionary[discord.Client, dict[str, ConfirmHandler]] = (
    weakref.WeakKeyDictionary()
)

CONFIRM_PREFIX: Final[str] = "mafia:confirm"
CANCEL_ID: Final[str] = "mafia:cancel"


#: Options too long for a custom id (an exclusion's reason) are kept in the store under a
#: token the custom id carries, until they expire: a restart keeps them.
CONFIRMATION_TTL: Final[timedelta] = timedelta(hours=1)


async def remember(ctx: GameContext, guild_id: int, values: dict[str, Any]) -> str:
    """Keep ``values`` for a Confirm button asked on the server ``guild_id`` (in the store,
    for :data:`CONFIRMATION_TTL`); returns the token its custom id carries."""
    token = secrets.token_hex(8)
    await ctx.service.keep_confirmation(guild_id, token, values, CONFIRMATION_TTL)
    return token


async def recall(ctx: GameContext, token: str) -> dict[str, Any]:
    """The values behind a token; a refusal if they are gone (expired, or never kept)."""
    values = await ctx.service.confirmation(token)
    if values is None:
        raise Refusal("error.confirmation_expired")
    return values


def confirm_id(action: str, table_id: int, game_id: int, arg: str) -> str:
    return f"{CONFIRM_PREFIX}:{action}:{table_id}:{game_id}:{arg}"


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        r"mafia:confirm:(?P<action>[a-z_]+):(?:(?P<table>\d+):)?(?P<game>\d+)"
        r":(?P<arg>[A-Za-z0-9_.-]*)"
    ),
):
    def __init__(
        self, action: str, table_id: int | None, game_id: int, arg: str, lang: Lang = "en"
    ) -> None:
        # ``table_id`` None: a button from before tables (only parsed, never shown again).
        super().__init__(
            discord.ui.Button(
                label=t(lang, "confirm.button"),
                style=discord.ButtonStyle.danger,
                custom_id=confirm_id(action, table_id or 0, game_id, arg),
            )
        )
        self.action = action
        self.table_id = table_id
        self.game_id = game_id
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ConfirmButton:
        table = match["table"]
        return cls(match["action"], int(table) if table else None, int(match["game"]), match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctx = game_context(interaction.client)
        lang = await reader_language(ctx.store, interaction)
        # The preview loses its buttons at once: what follows is a new private message.
        await _close_preview(interaction, t(lang, "confirm.working"))
        try:
            table_id = self.table_id or interaction.guild_id or 0
            # Host rights may be gone since; and they are checked at the table the preview
            # was made for, whatever channel the click comes from.
            table = await ensure_host(ctx.store, interaction, table_id=table_id)
            if table is not None and table.guild_id != interaction.guild_id:
                raise Refusal("error.outdated_command")
            handler = _HANDLERS.get(interaction.client, {}).get(self.action)
            if handler is None:
                raise Refusal("error.outdated_command")
            text = await handler(ctx, interaction, table_id, self.game_id, self.arg)
        except Refusal as refusal:
            text = refusal.render(lang)
        except Exception:  # the preview is already closed: the host must still hear of it
            log.exception(
                "confirmation %s failed (guild=%s user=%s)",
                interaction.data.get("custom_id") if interaction.data else "?",
                interaction.guild_id,
                interaction.user.id,
            )
            text = t(lang, "error.unexpected")
        await send_private(interaction, text)


class CancelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mafia:cancel"):
    def __init__(self, lang: Lang = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=t(lang, "confirm.cancel_button"),
                style=discord.ButtonStyle.secondary,
                custom_id=CANCEL_ID,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CancelButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        ctx = game_context(interaction.client)
        lang = await reader_language(ctx.store, interaction)
        await _close_preview(interaction, t(lang, "confirm.cancelled"))


async def _close_preview(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        await interaction.response.edit_message(content=text, view=None)
    except discord.HTTPException:
        log.warning("could not close the confirmation %s", interaction.id)


def confirm_view(lang: Lang, action: str, table_id: int, game_id: int, arg: str) -> discord.ui.View:
    """Confirm / Cancel for ``action`` at table ``table_id`` on game ``game_id`` (0: none)
    with ``arg`` (what the host saw)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(action, table_id, game_id, arg, lang))
    view.add_item(CancelButton(lang))
    return view


async def send_preview(
    interaction: discord.Interaction[Any], text: str, view: discord.ui.View
) -> None:
    """The private preview with its buttons."""
    if interaction.response.is_done():
        await interaction.followup.send(text, view=view, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=view, ephemeral=True)


def add_confirm_items(client: discord.Client, handlers: Mapping[str, ConfirmHandler]) -> None:
    """Route clicks on any confirmation (also one shown before a restart) to ``handlers``,
    by action name."""
    _HANDLERS.setdefault(client, {}).update(handlers)
    client.add_dynamic_items(ConfirmButton, CancelButton)
