"""What the cogs, views and adapters use of the running bot, in one small typed object.

They receive it (a cog through its constructor, a persistent view or an autocomplete through
:func:`game_context` on ``interaction.client``) instead of importing the bot class: nothing in
``bot/`` or ``cogs/`` imports ``bot/client.py`` but the factory's caller (``main.py``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import attrs
import discord

from bot.webhooks import GameWebhooks
from core.reads import Reads
from core.service import GameService
from db.interface import GameStore

if TYPE_CHECKING:  # built by bot/client.py; imported here for the types only
    from bot.clock import GameClock
    from bot.delivery import Delivery
    from bot.killboard import KillBoards
    from bot.serverlife import ServerWatch

log = logging.getLogger(__name__)


@attrs.frozen(kw_only=True)
class GameContext:
    """The parts of a started bot: its Discord client, the store, what the commands read of it
    (``reads``: the cogs' only door to it, ``core/reads.py``), the game service, the anonymous
    webhooks, the outbox delivery, the game clock, the watch over the server's
    changes mid-game and the mafia's kill boards."""

    client: discord.Client
    store: GameStore  # for the bot's own parts (delivery, clock...), never a cog
    reads: Reads
    service: GameService
    webhooks: GameWebhooks
    delivery: Delivery
    clock: GameClock
    watch: ServerWatch
    boards: KillBoards  # the mafia's kill board in its room (R23)

    async def deliver(self) -> None:
        """Send the pending outbox (never raises: what fails stays pending for the next try).
        A command acted: the server watch looks at the running games."""
        self.watch.sweep_soon()
        try:
            await self.delivery.deliver()
        except Exception:
            log.exception("delivering the outbox failed")


def game_context(client: discord.Client) -> GameContext:
    """The context of a started bot, for the code that only holds ``interaction.client``
    (persistent views, autocomplete callbacks, the command tree)."""
    context = getattr(client, "context", None)  # MafiaBot.context raises before setup_hook
    if not isinstance(context, GameContext):
        raise TypeError(f"{type(client).__name__} carries no game context")
    return context
