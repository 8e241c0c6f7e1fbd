"""Forgetting personal data: a member's, on a host's request (``/mafia purge``), and a whole
server's, when the bot leaves it. Implements :meth:`db.interface.GameRepository.purge_member`
and :meth:`db.interface.SettingsRepository.purge_guild`.

A purged seat keeps its nickname, role and everything played under it (the game's history and
its replay stay whole); only the link to the member goes: its ``user_id`` becomes
``-1 - seat``, a negative number (Discord ids are positive) that keeps ``UNIQUE(game_id,
user_id)`` when several members of one game are purged.
"""

from __future__ import annotations

from typing import Any

import aiosqlite

from db.sqlite.base import SQLiteBase
from db.sqlite.convert import dumps, loads_dict

#: The finished games of a server; the parameter is the server's id.
_FINISHED = "SELECT id FROM games WHERE guild_id = ? AND status = 'finished'"


def forget_id(value: Any, user_id: int) -> tuple[Any, bool]:
    """``value`` (a stored JSON value) without ``user_id``: a dict entry whose value is his id
    is removed, except ``actor`` (an audit line's author), which becomes 0. Returns the new
    value and whether anything changed."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        changed = False
        for key, item in value.items():
            if _is_id(item, user_id):
                changed = True
                if key == "actor":
                    out[key] = 0
                continue
            out[key], sub = forget_id(item, user_id)
            changed = changed or sub
        return out, changed
    if isinstance(value, list):
        items = [forget_id(item, user_id) for item in value]
        return [item for item, _ in items], any(sub for _, sub in items)
    return value, False


def _is_id(value: Any, user_id: int) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value == user_id) or (
        isinstance(value, str) and value == str(user_id)
    )


async def _scrub_json(
    db: aiosqlite.Connection, table: str, column: str, where: str, params: tuple[Any, ...]
) -> None:
    """Remove ``user_id`` (``params[-1]``) from the JSON ``column`` of the rows of ``table``
    matching ``where``; only rows whose text contains the id's digits are read."""
    user_id = int(params[-1])
    rows = await db.execute_fetchall(
        f"SELECT id, {column} AS doc FROM {table} WHERE {where} AND instr({column}, ?) > 0",
        (*params[:-1], str(user_id)),
    )
    for row in rows:
        doc, changed = forget_id(loads_dict(row["doc"]), user_id)
        if changed:
            await db.execute(
                f"UPDATE {table} SET {column} = ? WHERE id = ?", (dumps(doc), int(row["id"]))
            )


class PrivacyMixin(SQLiteBase):
    """``purge_member`` and ``purge_guild`` on SQLite."""

    async def purge_member(self, guild_id: int, user_id: int) -> int:
        async def body(db: aiosqlite.Connection) -> int:
            counted = list(
                await db.execute_fetchall(
                    f"SELECT COUNT(*) AS n FROM games g WHERE g.id IN ({_FINISHED}) AND ("
                    "g.host_user_id = ? "
                    "OR EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.user_id = ?) "
                    "OR EXISTS (SELECT 1 FROM signups s WHERE s.game_id = g.id AND s.user_id = ?) "
                    "OR EXISTS (SELECT 1 FROM log_entries e "
                    "WHERE e.game_id = g.id AND e.user_id = ?))",
                    (guild_id, user_id, user_id, user_id, user_id),
                )
            )
            games = int(counted[0]["n"])
            await db.execute(
                f"UPDATE players SET user_id = -1 - seat "
                f"WHERE user_id = ? AND game_id IN ({_FINISHED})",
                (user_id, guild_id),
            )
            await db.execute(
                f"DELETE FROM signups WHERE user_id = ? AND game_id IN ({_FINISHED})",
                (user_id, guild_id),
            )
            await db.execute(
                f"UPDATE log_entries SET user_id = NULL "
                f"WHERE user_id = ? AND game_id IN ({_FINISHED})",
                (user_id, guild_id),
            )
            # ``updated_at`` stays: for a finished game it is when the game ended.
            await db.execute(
                "UPDATE games SET host_user_id = NULL "
                "WHERE host_user_id = ? AND guild_id = ? AND status = 'finished'",
                (user_id, guild_id),
            )
            await _scrub_json(
                db, "outbox", "payload", f"game_id IN ({_FINISHED})", (guild_id, user_id)
            )
            await db.execute(
                "UPDATE audit_log SET actor_id = 0 WHERE guild_id = ? AND actor_id = ?",
                (guild_id, user_id),
            )
            await _scrub_json(db, "audit_log", "args", "guild_id = ?", (guild_id, user_id))
            return games

        return await self._write(body)

    async def purge_guild(self, guild_id: int) -> int:
        async def body(db: aiosqlite.Connection) -> int:
            await db.execute("DELETE FROM audit_log WHERE guild_id = ?", (guild_id,))
            # Seats, sign-ups, log, results, windows and announcements go with their game
            # (ON DELETE CASCADE).
            cursor = await db.execute("DELETE FROM games WHERE guild_id = ?", (guild_id,))
            games = cursor.rowcount
            await db.execute("DELETE FROM game_tables WHERE guild_id = ?", (guild_id,))
            return games

        try:
            return await self._write(body)
        finally:
            self._table_cache.forget(guild_id)  # its tables are gone (db/sqlite/tablecache.py)
