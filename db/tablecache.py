"""The tables of the servers (``game_tables``), kept in memory: every player command reads its
table (which table it was typed at, its channels, its language) and none changes it, so the
rows are read once per server and served from here until a write changes them.

Filled lazily (a restart starts empty, so it is always what the file holds); bounded (the
least recently used servers are forgotten past :data:`MAX_GUILDS`). Every write that changes
``game_tables`` (``save_table``, ``drop_table``, ``purge_guild``) forgets the server it
touched. A read that raced such a write does not fill the cache: each fill brings the
:attr:`TableCache.generation` it started at, and a forget moves the generation on.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

from db.models import TableSettings

#: The most servers whose tables are kept (a server's tables are a few small rows).
MAX_GUILDS: Final = 20_000


class TableCache:
    """A server's tables by its id, and which server each cached table belongs to."""

    def __init__(self, max_guilds: int = MAX_GUILDS) -> None:
        self._guilds: OrderedDict[int, tuple[TableSettings, ...]] = OrderedDict()
        self._guild_of: dict[int, int] = {}  # table_id -> guild_id, for the cached servers
        self._absent: OrderedDict[int, None] = OrderedDict()  # table ids known to be absent
        self._max = max_guilds
        self.generation = 0

    def __len__(self) -> int:
        return len(self._guilds)

    def tables(self, guild_id: int) -> tuple[TableSettings, ...] | None:
        """The server's tables, or None when they are not cached."""
        found = self._guilds.get(guild_id)
        if found is not None:
            self._guilds.move_to_end(guild_id)
        return found

    def knows(self, table_id: int) -> bool:
        """Whether :meth:`table` answers for ``table_id`` (cached, or cached as absent)."""
        return table_id in self._guild_of or table_id in self._absent

    def table(self, table_id: int) -> TableSettings | None:
        """The cached table ``table_id`` (None: absent, or not cached; see :meth:`knows`)."""
        guild_id = self._guild_of.get(table_id)
        if guild_id is None:
            return None
        tables = self.tables(guild_id) or ()
        return next((tb for tb in tables if tb.table_id == table_id), None)

    def fill(
        self,
        guild_id: int | None,
        tables: Sequence[TableSettings],
        generation: int,
        *,
        asked: int | None = None,
    ) -> None:
        """Keep ``tables`` as the server's (read at ``generation``); ``asked`` is a table id
        that was looked up and is absent when no server holds it (``guild_id`` None)."""
        if generation != self.generation:
            return  # a write changed the tables since the read began
        if guild_id is not None:
            self._forget(guild_id)
            self._guilds[guild_id] = tuple(tables)
            for table in tables:
                self._guild_of[table.table_id] = guild_id
                self._absent.pop(table.table_id, None)
            while len(self._guilds) > self._max:
                oldest = next(iter(self._guilds))
                self._forget(oldest)
        if asked is not None and asked not in self._guild_of:
            self._absent[asked] = None
            while len(self._absent) > self._max:
                self._absent.popitem(last=False)

    def forget(self, guild_id: int, *table_ids: int) -> None:
        """A write changed the server's tables (and may have created ``table_ids``)."""
        self.generation += 1
        self._forget(guild_id)
        for table_id in table_ids:
            self._absent.pop(table_id, None)
            owner = self._guild_of.get(table_id)
            if owner is not None:  # a table that moved between servers (it never does)
                self._forget(owner)

    def clear(self) -> None:
        self.generation += 1
        self._guilds.clear()
        self._guild_of.clear()
        self._absent.clear()

    def _forget(self, guild_id: int) -> None:
        for table in self._guilds.pop(guild_id, ()):
            self._guild_of.pop(table.table_id, None)
