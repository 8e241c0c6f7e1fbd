"""What the commands read: the one door from ``cogs/`` to the stored facts.

A command flows cog -> service -> store (README, "Architecture"): what it changes goes through
the game service (``core/service.py``), which returns what its reply needs (e.g.
:class:`core.live.Accepted`); what it only shows (a table's settings, the outbox's private
news, the archive of posts, the log, the finished games) is read here. The cogs hold this
facade (``GameContext.reads``), never the store: every read a command makes is one named
method, and none of them writes (``tests/test_layers.py``).

:class:`TableReads` is the little the Discord helpers (``bot/tables.py``, ``bot/replies.py``,
``bot/hosts.py``) need to find a command's table and language: both this facade and the
store offer it.
"""

from __future__ import annotations

from typing import Any, Protocol

from core.history import FinishedGame
from core.stats import GameFacts, server_game, server_games
from db.interface import GameStore
from db.models import (
    AuditRecord,
    GameRecord,
    GameStatus,
    OutboxRecord,
    PlayerRecord,
    PostRecord,
    TableSettings,
)


class TableReads(Protocol):
    """A server's tables: what finds the table of a command and its language."""

    async def tables(self, guild_id: int) -> list[TableSettings]: ...

    async def get_table(self, table_id: int) -> TableSettings | None: ...


class Reads:
    """The cogs' reads, over the store (none writes)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    # --- tables ---------------------------------------------------------------------------
    async def tables(self, guild_id: int) -> list[TableSettings]:
        return await self._store.tables(guild_id)  # from memory: the store keeps them

    async def get_table(self, table_id: int) -> TableSettings | None:
        return await self._store.get_table(table_id)

    # --- games ----------------------------------------------------------------------------
    async def open_game(self, table_id: int) -> GameRecord | None:
        """The table's game in sign-up or running, if any."""
        return await self._store.open_game(table_id)

    async def games(
        self,
        *,
        guild_id: int | None = None,
        table_id: int | None = None,
        status: GameStatus | None = None,
    ) -> list[GameRecord]:
        return await self._store.list_games(guild_id=guild_id, table_id=table_id, status=status)

    async def spectators(self, game_id: int) -> list[int]:
        """R62: the members watching the game's ghosts' room now (for the hosts only)."""
        return await self._store.spectators(game_id)

    async def wishes(self, game_id: int) -> dict[int, str]:
        """R58: the members' wishes (for the hosts only)."""
        return await self._store.wishes(game_id)

    async def last_played(self, table_id: int) -> tuple[GameRecord, list[PlayerRecord]] | None:
        """The table's last finished game that was played (a sign-up the host cancelled has
        no players), with its players."""
        for rec in reversed(await self._store.list_games(table_id=table_id, status="finished")):
            players = await self._store.players(rec.id)
            if players:
                return rec, players
        return None

    async def takes_part(self, guild_id: int, user_id: int) -> GameRecord | None:
        """A game of the server the member takes part in: signed up for one in sign-up, or
        seated at a running one, or replaced in a running one (R60: the record says so until
        it ends)."""
        for game in await self._store.list_games(guild_id=guild_id):
            if game.status == "lobby":
                playing = user_id in await self._store.signups(game.id)
            elif game.status == "running":
                playing = await self._store.player_by_user(game.id, user_id) is not None or any(
                    r.old_user_id == user_id for r in await self._store.replacements(game.id)
                )
            else:
                continue
            if playing:
                return game
        return None

    # --- what a game published ------------------------------------------------------------
    async def private_news(self, game_id: int, nick: str) -> list[OutboxRecord]:
        """The private messages of the latest turn that sent the player any (role cards
        aside)."""
        mine = [
            row
            for row in await self._store.outbox(game_id)
            if row.payload.get("audience") == nick and row.kind != "role_card"
        ]
        if not mine:
            return []
        latest = max(row.turn for row in mine)
        return [row for row in mine if row.turn == latest]

    async def lynch_tallies(self, game_id: int) -> dict[int, dict[str, Any]]:
        """The results with a lynch tally the game published (shown in #game), by turn."""
        tallies: dict[int, dict[str, Any]] = {}
        for row in await self._store.outbox(game_id):
            if row.kind != "results" or not row.sent:
                continue
            payload = row.payload.get("payload") or {}
            if payload.get("lynch") is not None:
                tallies[int(payload["turn"])] = payload
        return tallies

    async def first_posted(self, game_id: int) -> int | None:
        """The id of the first message the game's outbox is known to have posted."""
        posted = [row.message_id for row in await self._store.outbox(game_id) if row.message_id]
        return min(posted, default=None)

    async def posts(self, game_id: int) -> list[PostRecord]:
        """The posts kept for the archive, in the order they were shown."""
        return await self._store.posts(game_id)

    async def audit_page(
        self, table_id: int, *, limit: int, offset: int = 0, before: int | None = None
    ) -> tuple[list[AuditRecord], int]:
        return await self._store.audit_page(table_id, limit=limit, offset=offset, before=before)

    # --- finished games (core/stats.py) ---------------------------------------------------
    async def server_games(self, guild_id: int) -> list[GameFacts]:
        return await server_games(self._store, guild_id)

    async def server_game(self, guild_id: int, game_id: int) -> FinishedGame | None:
        return await server_game(self._store, guild_id, game_id)
