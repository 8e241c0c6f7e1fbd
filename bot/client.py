"""The bot: its class, its command tree (one place that turns errors into private replies), and
``create_bot``, the factory used by ``main.py run``, ``main.py demo`` and the end-to-end tests.
"""

from __future__ import annotations

import logging
import math
from typing import Any, Final

import attrs
import discord
from discord import app_commands
from discord.ext import commands

from bot.clock import GameClock
from bot.command_i18n import CatalogueTranslator
from bot.delivery import Delivery
from bot.errors import BotMissingPermissions
from bot.replies import interaction_language, send_private
from bot.webhooks import GameWebhooks
from core.i18n import DEFAULT_LANG, Lang, t
from core.refusal import Refusal
from core.service import GameService
from db.store import Store

log = logging.getLogger(__name__)

#: Extensions (one per feature, each with ``async def setup(bot)``), loaded in this order.
EXTENSIONS: Final[tuple[str, ...]] = ("cogs.admin", "cogs.day", "cogs.audit")


def bot_intents() -> discord.Intents:
    """Guilds (channels, roles) and members (the member cache: permissions of players, who left
    the server; privileged, enable "Server Members Intent" in the developer portal). No message
    content: players act through slash commands only."""
    return discord.Intents(guilds=True, members=True)


@attrs.frozen(kw_only=True)
class BotSettings:
    """What ``create_bot`` accepts besides the database path."""

    database: str
    #: Sync slash commands to this guild only (instant), instead of globally.
    dev_guild_id: int | None = None
    #: Sync slash commands on start-up (tests and ``run`` do; a tool that only reads does not).
    sync_commands: bool = True
    #: The seed of every new game (roles, nicknames) instead of a random one: reproducible
    #: games for ``main.py demo`` and tests. None (the default) draws a fresh seed per game.
    game_seed: int | None = None


class MafiaTree(app_commands.CommandTree["MafiaBot"]):
    """Maps every command error to one private reply in the guild's language.

    Known errors (any :class:`Refusal`, and discord.py's check failures) become their message;
    anything else is logged with its context and the user only reads "something went wrong".
    """

    async def on_error(
        self, interaction: discord.Interaction[MafiaBot], error: app_commands.AppCommandError
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
        try:
            await send_private(interaction, text)
        except discord.HTTPException:
            log.exception("could not report an error to user %s", interaction.user.id)


#: Raised when Discord's copy of the commands is older than the bot's.
_OUTDATED = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)


async def _reply_language(interaction: discord.Interaction[Any], error: BaseException) -> Lang:
    if isinstance(error, Refusal) and error.in_lang is not None:
        return error.in_lang
    try:
        return await interaction_language(interaction)
    except Exception:  # the database itself may be what failed: still answer
        log.exception("could not read the language of guild %s", interaction.guild_id)
        return DEFAULT_LANG


def _command_name(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: Any = interaction.data or {}
    return f"/{data.get('name', '?')}"


class MafiaBot(commands.Bot):
    def __init__(self, settings: BotSettings) -> None:
        # The bot never joins voice: skip discord.py's start-up warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=MafiaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.database = settings.database
        self._store: Store | None = None
        self._service: GameService | None = None
        self.game_webhooks = GameWebhooks()
        self.delivery = Delivery(self)
        self.clock = GameClock(self)

    @property
    def store(self) -> Store:
        """The database, open from ``setup_hook`` (before any event) until ``close``."""
        if self._store is None:
            raise RuntimeError("the store is not open: the bot has not started")
        return self._store

    @property
    def service(self) -> GameService:
        """The game service, ready from ``setup_hook`` on."""
        if self._service is None:
            raise RuntimeError("the game service is not loaded: the bot has not started")
        return self._service

    async def setup_hook(self) -> None:
        self._store = await Store.open(self.database)
        # discord.utils.utcnow: the real time, and SimCord's virtual time in tests.
        self._service = GameService(
            self._store, clock=discord.utils.utcnow, game_seed=self.settings.game_seed
        )
        await self._service.load()
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.sync_commands:
            await self.sync_commands()
        self.clock.rearm()

    async def deliver(self) -> None:
        """Send the pending outbox (never raises: what fails stays pending for the next try)."""
        try:
            await self.delivery.deliver()
        except Exception:
            log.exception("delivering the outbox failed")

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d guilds", self.user, len(self.guilds))
        await self.deliver()  # what a previous run queued and could not send

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord (per guild for development: instant)."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def close(self) -> None:
        self.clock.stop()
        try:
            await super().close()
        finally:
            await self.close_store()

    async def close_store(self) -> None:
        """Close the database (``close`` does it; tests that never connect call this)."""
        store, self._store = self._store, None
        if store is not None:
            await store.close()


def create_bot(database: str, **settings: Any) -> commands.Bot:
    """Build the bot on ``database`` (a SQLite path); ``settings`` are :class:`BotSettings`
    fields. Starting it is the caller's business (``bot.run``, or SimCord in tests)."""
    return MafiaBot(BotSettings(database=database, **settings))
