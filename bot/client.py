"""The bot: its class, and ``create_bot``, the factory used by ``main.py run``, ``main.py demo``
and the end-to-end tests. It builds the :class:`~bot.context.GameContext` the cogs receive;
nothing in ``bot/`` or ``cogs/`` imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs
import discord
from discord.ext import commands

from bot.clock import GameClock
from bot.command_i18n import CatalogueTranslator
from bot.context import GameContext
from bot.delivery import Delivery, global_rate_trace
from bot.heartbeat import Heartbeat, process_key
from bot.killboard import KillBoards
from bot.metrics import Metrics
from bot.serverlife import ServerWatch
from bot.tree import MafiaTree, command_outcome
from bot.webhooks import GameWebhooks
from core.reads import Reads
from core.service import GameService
from core.shards import Shards
from db.interface import GameStore
from db.store import open_store

log = logging.getLogger(__name__)

#: On a stop (SIGTERM, Ctrl-C), how long the rows being sent may take to finish: well inside
#: the grace period of Docker (10 s) and systemd (90 s) before they kill the process.
DRAIN_SECONDS: Final[float] = 5.0

#: Extensions (one per feature, each with ``async def setup(bot)``), loaded in this order.
EXTENSIONS: Final[tuple[str, ...]] = (
    "cogs.lobby",
    "cogs.admin",
    "cogs.confirm",
    "cogs.day",
    "cogs.night",
    "cogs.info",
    "cogs.history",
    "cogs.quote",
    "cogs.serverlife",
    "cogs.reading",
    "cogs.subs",
    "cogs.review",
)


def bot_intents() -> discord.Intents:
    """Guilds (channels, roles, overwrites, the owner) and members (the member cache:
    permissions of players, who left the server and who came back, role changes, the mafia
    room's thread members: ``bot/serverlife.py``; privileged, enable "Server Members Intent"
    in the developer portal). No message content: players act through slash commands only."""
    return discord.Intents(guilds=True, members=True)


def _optional_ids(ids: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if ids is None else tuple(ids)


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
    #: After start-up, move every object that exists then out of the garbage collector's
    #: reach (``gc.freeze``): a full collection then no longer walks the modules and the loaded
    #: games, which otherwise stalls the event loop (every game) for tens of milliseconds.
    #: On by default, as ``main.py run`` runs; the end-to-end tests, which start hundreds of
    #: bots in one process, turn it off (it changes no behaviour, only the collector's work).
    freeze_heap: bool = True
    #: Discord shards: run the shards ``shard_ids`` (default: all) of
    #: ``shard_count`` as a discord.py ``AutoShardedBot``, owning only the games of the
    #: servers on them (``core/shards.py``). None (the default): a plain bot owning every game.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = attrs.field(default=None, converter=_optional_ids)
    #: R59: beat in the store (``bot/heartbeat.py``) so that the time the bot could not serve
    #: its games is known. On by default, as ``main.py run`` runs: the end-to-end tests run
    #: the bot that runs (its beats wait on discord.py's clock, virtual under SimCord).
    heartbeat: bool = True
    #: SIGTERM stops the bot as Ctrl-C does (``close``: the rows being sent finish, the
    #: store closes), where the process can handle signals.
    handle_sigterm: bool = True
    #: Serve Prometheus metrics on this port (``MAFIA_METRICS_PORT``; None: none).
    metrics_port: int | None = None
    #: The address the metrics listen on (``MAFIA_METRICS_HOST``).
    metrics_host: str = "127.0.0.1"

    @property
    def shards(self) -> Shards | None:
        """The shards this bot runs (checked: ``ShardError`` for ids that do not fit)."""
        if self.shard_count is None:
            if self.shard_ids is not None:
                raise ValueError("shard_ids need a shard_count")
            return None
        ids = self.shard_ids if self.shard_ids is not None else range(self.shard_count)
        return Shards(self.shard_count, ids)


class MafiaBot(commands.Bot):
    """The bot: one process owning every server's games, or (as :class:`ShardedMafiaBot`)
    the servers of some shards only."""

    def __init__(self, settings: BotSettings, **options: Any) -> None:
        # The bot never joins voice: skip discord.py's start-up warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        #: The Prometheus metrics (``bot/metrics.py``), when ``metrics_port`` asks for them.
        self.metrics: Metrics | None = None
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=MafiaTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            # Discord's global limit, for every request; its answers counted (the metrics).
            http_trace=global_rate_trace(on_response=self._on_response),
            **options,
        )
        self.settings = settings
        #: The shards whose servers' games this process owns; None: every server's.
        self.owned: Shards | None = settings.shards
        self.database = settings.database
        self._store: GameStore | None = None
        self._context: GameContext | None = None
        #: Whether Discord answers the bot (its gateway is connected): the heartbeat (R59)
        #: beats only then, so a long disconnection is downtime.
        self.gateway_up = False
        self.heartbeat: Heartbeat | None = None
        self._stopping: asyncio.Task[None] | None = None

    @property
    def context(self) -> GameContext:
        """What the cogs, views and adapters use (``bot/context.py``), ready from
        ``setup_hook`` (before any event) on."""
        if self._context is None:
            raise RuntimeError("the game context is not ready: the bot has not started")
        return self._context

    @property
    def store(self) -> GameStore:
        """The database, open from ``setup_hook`` (before any event) until ``close``."""
        if self._store is None:
            raise RuntimeError("the store is not open: the bot has not started")
        return self._store

    @property
    def service(self) -> GameService:
        """The game service, ready from ``setup_hook`` on."""
        return self.context.service

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process owns the games of server ``guild_id``: always, unless it runs
        some shards only; then those of the servers on its shards. The filter of
        what is loaded (hence clocked) and delivered at start."""
        return self.owned is None or self.owned.owns(guild_id)

    async def setup_hook(self) -> None:
        store = self._store = await open_store(self.database)
        # discord.utils.utcnow: the real time, and SimCord's virtual time in tests.
        service = GameService(store, clock=discord.utils.utcnow, game_seed=self.settings.game_seed)
        # Shards: only the games of this process's servers are loaded, so the clock
        # arms for them only; the delivery sends only their rows. Other games stay untouched.
        owns = None if self.owned is None else self.owns_guild
        await service.load(owns=owns)
        webhooks = GameWebhooks()  # the players' posts go out through the delivery
        delivery = Delivery(self, store, service, owns=owns, shards=self.owned, webhooks=webhooks)
        self._context = context = GameContext(
            client=self,
            store=store,
            reads=Reads(store),
            service=service,
            webhooks=webhooks,
            delivery=delivery,
            clock=GameClock(service, self.deliver, deliver_game=self.deliver_game),
            watch=ServerWatch(self, store, service, delivery),
            boards=KillBoards(store, delivery),
        )
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.sync_commands:
            await self.sync_commands()
        # R59: what the bot was not running is downtime of its games, kept before the clock
        # resolves the deadlines missed meanwhile (once each, now).
        if self.settings.heartbeat:
            self.heartbeat = Heartbeat(service, process_key(self.owned), lambda: self.gateway_up)
            await self.heartbeat.start()
            context.clock.on_rearm = self.heartbeat.repace
        context.clock.rearm()
        self._handle_sigterm()
        if self.settings.metrics_port is not None:
            self.metrics = metrics = Metrics(self)
            metrics.serve(self.settings.metrics_host, self.settings.metrics_port)
            context.delivery.on_delivered = metrics.delivery
            context.clock.on_results_lag = metrics.results_lag
        if self.settings.freeze_heap:
            gc.collect()
            gc.freeze()

    async def deliver(self) -> None:
        """Send the pending outbox (never raises: what fails stays pending for the next try)."""
        await self.context.deliver()

    async def deliver_game(self, game_id: int) -> None:
        """Send one game's pending rows (the clock, after acting on the game); the server
        watch then looks at the games (a turn may have been resolved)."""
        self.context.watch.sweep_soon()
        await self.context.delivery.deliver_game(game_id)

    def _on_response(self, status: int, headers: Mapping[str, str]) -> None:
        if self.metrics is not None:
            self.metrics.response(status, headers)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        if self.metrics is not None:
            self.metrics.interaction(*command_outcome(interaction, "accepted"))

    async def on_ready(self) -> None:
        log.info("logged in as %s in %d guilds", self.user, len(self.guilds))
        await self._gateway_back()
        await self.deliver()  # what a previous run queued and could not send

    async def on_resumed(self) -> None:
        await self._gateway_back()

    async def on_disconnect(self) -> None:
        self.gateway_up = False  # R59: no beat until Discord answers again

    async def _gateway_back(self) -> None:
        self.gateway_up = True
        if self.heartbeat is not None:
            await self.heartbeat.beat_now()  # a disconnection's downtime ends now

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

    def _handle_sigterm(self) -> None:
        """SIGTERM (Docker, systemd) stops the bot as Ctrl-C does: :meth:`close`, then
        ``run`` returns. Only where a signal can be handled (the main thread of a Unix
        process); elsewhere the default (the process ends) stays."""
        if not self.settings.handle_sigterm:
            return
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGTERM, self.stop_soon)

    def stop_soon(self) -> None:
        """Close the bot in the background (a signal's handler cannot wait), once."""
        if self._stopping is None:
            log.info("stopping: a termination signal")
            self._stopping = asyncio.get_running_loop().create_task(self.close(), name="stop")

    async def close(self) -> None:
        if self.settings.handle_sigterm:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
        if self.heartbeat is not None:
            self.heartbeat.stop()
        if self.metrics is not None:
            self.metrics.stop()
        if self._context is not None:
            self._context.watch.stop()
            # The rows being sent finish (or stay pending) while Discord is still reachable;
            # then no new resolution, no new row.
            await self._context.delivery.drain(DRAIN_SECONDS)
            self._context.clock.stop()
            self._context.delivery.stop()
        try:
            await super().close()
        finally:
            await self.close_store()

    async def close_store(self) -> None:
        """Close the database (``close`` does it; tests that never connect call this)."""
        store, self._store = self._store, None
        if store is not None:
            await store.close()


class ShardedMafiaBot(MafiaBot, commands.AutoShardedBot):
    """The bot as a discord.py ``AutoShardedBot`` running the shards of its settings (one
    gateway connection each, in this process), owning the games of their servers only."""

    def __init__(self, settings: BotSettings) -> None:
        shards = settings.shards
        if shards is None:
            raise ValueError("a sharded bot needs a shard_count")
        super().__init__(settings, shard_count=shards.count, shard_ids=list(shards.ids))


def create_bot(database: str, **settings: Any) -> commands.Bot:
    """Build the bot on ``database`` (a SQLite path); ``settings`` are :class:`BotSettings`
    fields. With ``shard_count`` (and ``shard_ids``) it is a :class:`ShardedMafiaBot`, else a
    plain :class:`MafiaBot`. Starting it is the caller's business (``bot.run``, or SimCord)."""
    config = BotSettings(database=database, **settings)
    if config.shard_count is not None:
        return ShardedMafiaBot(config)
    return MafiaBot(config)
