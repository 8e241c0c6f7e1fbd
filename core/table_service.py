"""The server's side of the game service: its tables' settings, forgetting a server the bot
left or a member's personal data (``/mafia purge``), and the hosts' pending confirmations.
What the cogs and ``bot/`` write about a server, they write through here.
Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from core.service_base import ServiceBase
from db.models import JSONDict, TableSettings


class TableService(ServiceBase):
    """Tables, purges and confirmations: writes with no running game's rules in them."""

    async def save_table(self, settings: TableSettings) -> None:
        """Keep a table built or repaired by ``/mafia setup`` (every field). Raises
        :class:`~db.errors.TableNameTaken`, writing nothing, if another table of the server
        has its name."""
        await self.store.save_table(settings)

    async def drop_table(self, table_id: int) -> bool:
        """Forget a table whose channels were removed (its finished games stay). The caller
        holds the table's lock and checked that it has no game. False: it was gone."""
        return await self.store.drop_table(table_id)

    async def forget_guild(self, guild_id: int) -> tuple[list[int], int]:
        """The bot left the server: its running games stop here first, each under its own
        lock (no clock tick or command then writes to a game being deleted), then everything
        kept for the server is deleted. Returns the ids of the games it had (for the caches
        to forget) and how many were deleted."""
        for game in [g for g in self.live.values() if g.record.guild_id == guild_id]:
            async with game.lock:
                self.live.pop(game.id, None)
        games = [g.id for g in await self.store.list_games(guild_id=guild_id)]
        return games, await self.store.purge_guild(guild_id)

    async def purge_member(self, guild_id: int, user_id: int) -> int:
        """Forget a member's personal data in the server's finished games (``/mafia purge``;
        the caller refused it while he takes part in a game). Returns how many games held
        any of it."""
        return await self.store.purge_member(guild_id, user_id)

    async def keep_confirmation(
        self, guild_id: int, token: str, values: dict[str, Any], ttl: timedelta
    ) -> None:
        """Keep a Confirm button's options under ``token`` for ``ttl``, as the server's (a
        restart keeps them; the expired ones go, and all of a server the bot leaves)."""
        now = self.clock()
        await self.store.put_confirmation(
            token, values, guild_id=guild_id, now=now, expires_at=now + ttl
        )

    async def confirmation(self, token: str) -> JSONDict | None:
        """The options kept under ``token``, unless they expired."""
        return await self.store.get_confirmation(token, self.clock())
