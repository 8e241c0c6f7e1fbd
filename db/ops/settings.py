"""Tables (``/mafia setup``): a server's categories, each with its channels and settings.

Every player command reads its table, so reads are served from memory (:mod:`db.tablecache`,
per process): a server's tables are read once, in one query, and forgotten by each write that
changes them. On PostgreSQL a server's tables are written only by ``/mafia setup`` and the
purge, run by the process that owns the server's shard, whose cache forgets what it writes; a
process that does not own a server may serve its tables stale until it restarts, and never
handles that server's commands.
"""

from __future__ import annotations

from db.errors import TableNameTaken, UniqueViolation
from db.models import TableSettings
from db.records import columns
from db.records import table_settings as _table
from db.tx import Engine, Row, Tx

_COLUMNS = tuple(columns(TableSettings).split(", "))

_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM game_tables "


class SettingsOps(Engine):
    """A server's tables (a category each, with its channels and settings), written by
    ``/mafia setup`` (``purge_guild``: :mod:`db.ops.privacy`)."""

    async def get_table(self, table_id: int) -> TableSettings | None:
        """The table with this key (the server's id for its first table), or None."""
        cache = self._table_cache
        if cache.knows(table_id):
            return cache.table(table_id)
        generation = cache.generation
        # The whole server at once: its other tables are what the next command asks for.
        rows = await self._fetch(
            _SELECT + "WHERE guild_id = (SELECT guild_id FROM game_tables WHERE table_id = $1) "
            f"ORDER BY {self.dialect.name_order('name')}, table_id",
            table_id,
        )
        tables = [_table(row) for row in rows]
        cache.fill(tables[0].guild_id if tables else None, tables, generation, asked=table_id)
        return next((tb for tb in tables if tb.table_id == table_id), None)

    async def tables(self, guild_id: int) -> list[TableSettings]:
        """The server's tables, by name (the unnamed first table first)."""
        cache = self._table_cache
        cached = cache.tables(guild_id)
        if cached is not None:
            return list(cached)
        generation = cache.generation
        rows = await self._fetch(
            _SELECT + f"WHERE guild_id = $1 ORDER BY {self.dialect.name_order('name')}, table_id",
            guild_id,
        )
        tables = [_table(row) for row in rows]
        cache.fill(guild_id, tables, generation)
        return tables

    async def save_table(self, settings: TableSettings) -> None:
        """Insert or replace the table. Raises ``TableNameTaken`` if another has the name."""
        s = settings
        params = (*(getattr(s, column) for column in _COLUMNS), self.dialect.time(self._now()))
        kept = (*(c for c in _COLUMNS if c != "table_id"), "updated_at")
        updates = ", ".join(f"{c} = excluded.{c}" for c in kept)
        marks = ", ".join(f"${i}" for i in range(1, len(_COLUMNS) + 2))

        async def body(tx: Tx) -> None:
            try:
                await tx.execute(
                    f"INSERT INTO game_tables ({', '.join(_COLUMNS)}, updated_at) "
                    f"VALUES ({marks}) ON CONFLICT (table_id) DO UPDATE SET {updates}",
                    *params,
                )
            except UniqueViolation as e:  # another table of the server has this name
                raise TableNameTaken(f"table name {s.name!r} is taken: {e}") from e

        try:
            await self._run_write(body)
        finally:  # even on an error: it may have committed (the connection died on the reply)
            self._table_cache.forget(s.guild_id, s.table_id)

    async def drop_table(self, table_id: int) -> bool:
        """Forget a table (its games stay, for history). False if there was none."""

        async def body(tx: Tx) -> list[Row]:
            return await tx.fetch(
                "DELETE FROM game_tables WHERE table_id = $1 RETURNING guild_id", table_id
            )

        try:
            guilds = [int(row["guild_id"]) for row in await self._run_write(body)]
        except BaseException:
            self._table_cache.clear()  # it may have committed, and we do not know the server
            raise
        for guild_id in guilds:
            self._table_cache.forget(guild_id, table_id)
        return bool(guilds)
