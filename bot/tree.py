"""The command tree: the one place that turns a command's errors into private replies."""

from __future__ import annotations

import logging
import math
import time
from typing import Any

import discord
from discord import app_commands

from bot.context import game_context
from bot.errors import BotMissingPermissions
from bot.replies import reader_language, send_private
from core.i18n import DEFAULT_LANG, Lang, t
from core.refusal import Refusal

log = logging.getLogger(__name__)


class MafiaTree(app_commands.CommandTree[discord.Client]):
    """Maps every command error to one private reply in the reader's language.

    Known errors (any :class:`Refusal`, and discord.py's check failures) become their message;
    anything else is logged with its context and the user only reads "something went wrong".
    Each command's outcome (accepted, refused, failed) and time are told to the metrics, when
    the bot serves them (``bot/metrics.py``).
    """

    async def interaction_check(self, interaction: discord.Interaction[discord.Client]) -> bool:
        interaction.extras[_STARTED] = time.perf_counter()  # the metrics' latency
        return True

    async def on_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        lang = await _reply_language(interaction, original)
        if isinstance(original, Refusal):
            log.debug("refused %s: %r", _command_name(interaction), original)
            text = original.render(lang)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = t(lang, "error.guild_only")
        elif isinstance(error, app_commands.CommandOnCooldown):
            text = t(lang, "error.cooldown", seconds=math.ceil(error.retry_after))
        elif isinstance(error, app_commands.BotMissingPermissions):
            text = BotMissingPermissions(
                "error.bot_missing_permissions", missing=error.missing_permissions
            ).render(lang)
        elif isinstance(error, app_commands.CheckFailure):  # MissingPermissions included
            text = t(lang, "error.not_allowed")
        elif isinstance(error, app_commands.TransformerError):
            text = t(lang, "error.bad_option", value=str(error.value)[:100])
        elif isinstance(error, _OUTDATED):
            log.warning("out-of-date command %s: %s", _command_name(interaction), error)
            text = t(lang, "error.outdated_command")
        else:
            log.error(
                "unexpected error in %s (guild=%s channel=%s user=%s options=%s)",
                _command_name(interaction),
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                {name: value for name, value in interaction.namespace},
                exc_info=original,
            )
            text = t(lang, "error.unexpected")
        metrics = getattr(interaction.client, "metrics", None)
        if metrics is not None:
            refused = isinstance(original, Refusal) or isinstance(error, _REFUSED)
            metrics.interaction(*command_outcome(interaction, "refused" if refused else "failed"))
        try:
            await send_private(interaction, text)
        except discord.HTTPException:
            log.exception("could not report an error to user %s", interaction.user.id)


_STARTED = "mafia.started"
#: discord.py's errors that refuse a command as a refusal does (the user's mistake or rights).
_REFUSED = (
    app_commands.CheckFailure,
    app_commands.CommandOnCooldown,
    app_commands.TransformerError,
)


def command_outcome(
    interaction: discord.Interaction[Any], outcome: str
) -> tuple[str, str, float | None]:
    """The metrics' labels and latency of a command's end: its name, ``outcome``, the seconds
    since the tree saw it (None if it never did)."""
    started = interaction.extras.get(_STARTED)
    seconds = None if started is None else time.perf_counter() - started
    return _command_name(interaction), outcome, seconds


#: Raised when Discord's copy of the commands is older than the bot's.
_OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


async def _reply_language(interaction: discord.Interaction[Any], error: BaseException) -> Lang:
    """The reader's language; a refusal's ``in_lang`` stands for the game's (``/mafia setup``
    answers a client we have no catalogue for in the language it was just given)."""
    game = error.in_lang if isinstance(error, Refusal) else None
    try:
        return await reader_language(game_context(interaction.client).store, interaction, game=game)
    except Exception:  # the database itself may be what failed: still answer
        log.exception("could not read the language of guild %s", interaction.guild_id)
        return DEFAULT_LANG


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: Any = interaction.data or {}
    return f"/{data.get('name', '?')}"
