"""Forgetting personal data on PostgreSQL: a member's (``/mafia purge``) and a whole server's
(the bot left it). The same rules as :mod:`db.sqlite.privacy` (whose :func:`forget_id` scrubs
the JSON documents here too)."""

from __future__ import annotations

from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import dumps, loads_dict
from db.postgres.players import affected
from db.sqlite.privacy import forget_id

#: The finished games of a server; the parameter is the server's id ($1).
_FINISHED = "SELECT id FROM games WHERE guild_id = $1 AND status = 'finished'"


async def scrub_json(
    db: Conn, table: str, column: str, where: str, guild_id: int, user_id: int
) -> None:
    """Remove ``user_id`` from the JSON ``column`` of the rows of ``table`` matching ``where``
    (whose ``$1`` is the server); only rows whose text contains the id's digits are read."""
    rows = await db.fetch(
        f"SELECT id, {column} AS doc FROM {table} WHERE {where} AND strpos({column}::text, $2) > 0",
        guild_id,
        str(user_id),
    )
    for row in rows:
        doc, changed = forget_id(loads_dict(row["doc"]), user_id)
        if changed:
            await db.execute(
                f"UPDATE {table} SET {column} = $1 WHERE id = $2", dumps(doc), int(row["id"])
            )


class PrivacyMixin(PostgresBase):
    """``purge_member`` and ``purge_guild`` on PostgreSQL."""

    async def purge_member(self, guild_id: int, user_id: int) -> int:
        async def body(db: Conn) -> int:
            games = await db.fetchval(
                f"SELECT COUNT(*) FROM games g WHERE g.id IN ({_FINISHED}) AND ("
                "g.host_user_id = $2 "
                "OR EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.user_id = $2) "
                "OR EXISTS (SELECT 1 FROM signups s WHERE s.game_id = g.id AND s.user_id = $2) "
                "OR EXISTS (SELECT 1 FROM log_entries e "
                "WHERE e.game_id = g.id AND e.user_id = $2))",
                guild_id,
                user_id,
            )
            await db.execute(
                f"UPDATE players SET user_id = -1 - seat "
                f"WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            await db.execute(
                f"DELETE FROM signups WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            await db.execute(
                f"UPDATE log_entries SET user_id = NULL "
                f"WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            # ``updated_at`` stays: for a finished game it is when the game ended.
            await db.execute(
                "UPDATE games SET host_user_id = NULL "
                "WHERE host_user_id = $2 AND guild_id = $1 AND status = 'finished'",
                guild_id,
                user_id,
            )
            await scrub_json(
                db, "outbox", "payload", f"game_id IN ({_FINISHED})", guild_id, user_id
            )
            await db.execute(
                "UPDATE audit_log SET actor_id = 0 WHERE guild_id = $1 AND actor_id = $2",
                guild_id,
                user_id,
            )
            await scrub_json(db, "audit_log", "args", "guild_id = $1", guild_id, user_id)
            return int(games)

        return await self._write(body)

    async def purge_guild(self, guild_id: int) -> int:
        async def body(db: Conn) -> int:
            await db.execute("DELETE FROM audit_log WHERE guild_id = $1", guild_id)
            # Seats, sign-ups, log, results, windows and announcements go with their game
            # (ON DELETE CASCADE).
            games = affected(await db.execute("DELETE FROM games WHERE guild_id = $1", guild_id))
            await db.execute("DELETE FROM game_tables WHERE guild_id = $1", guild_id)
            return games

        try:
            return await self._write(body)
        finally:
            self._table_cache.forget(guild_id)  # its tables are gone (db/sqlite/tablecache.py)
