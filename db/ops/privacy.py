"""Forgetting personal data: a member's, on a host's request (``/mafia purge``), and a whole
server's, when the bot leaves it (``purge_member``, ``purge_guild``).

A purged seat keeps its nickname, role and everything played under it (the game's history and
its replay stay whole); the link to the member and his anonymous profile (avatar link,
signature) go: its ``user_id`` becomes
``-1 - seat``, a negative number (Discord ids are positive) that keeps ``UNIQUE(game_id,
user_id)`` when several members of one game are purged.
"""

from __future__ import annotations

from typing import Any

from db.convert import dumps, loads_dict
from db.tx import Engine, Tx

#: The finished games of a server; the parameter is the server's id ($1).
_FINISHED = "SELECT id FROM games WHERE guild_id = $1 AND status = 'finished'"


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
    tx: Tx, table: str, column: str, where: str, guild_id: int, user_id: int
) -> None:
    """Remove ``user_id`` from the JSON ``column`` of the rows of ``table`` matching ``where``
    (whose ``$1`` is the server); only rows whose text contains the id's digits are read."""
    rows = await tx.fetch(
        f"SELECT id, {column} AS doc FROM {table} WHERE {where} "
        f"AND {tx.dialect.contains(column, '$2')}",
        guild_id,
        str(user_id),
    )
    for row in rows:
        doc, changed = forget_id(loads_dict(row["doc"]), user_id)
        if changed:
            await tx.execute(
                f"UPDATE {table} SET {column} = $1 WHERE id = $2", dumps(doc), int(row["id"])
            )


class PrivacyOps(Engine):
    """``purge_member`` and ``purge_guild``."""

    async def purge_member(self, guild_id: int, user_id: int) -> int:
        """Forget a member's personal data kept for the server ``guild_id`` (``/mafia purge``),
        in one transaction; returns how many of its finished games held any of it.

        In every *finished* game of every table of the server: his seat no longer names him
        (its ``user_id`` becomes ``-1 - seat``: negative, so never a Discord id, and unique in
        the game), his sign-ups are deleted, his log entries keep what was played but not who
        sent it (``user_id`` None), a game he opened no longer names its host, and the
        announcements stored for those games drop his id (the end's ``member``, an audit
        line's ``actor`` becomes 0). In the server's audit log (any game) a row he ran has
        actor 0 and an option naming him is removed. Games in the lobby or running are not
        touched: the caller refuses the purge while he takes part in one. In any game of the
        server (R60, R63): a replacement names him no more (0), and his place on a
        substitutes' list, his request to be replaced and his bar are deleted.
        """

        async def body(tx: Tx) -> int:
            games = await tx.fetchval(
                f"SELECT COUNT(*) FROM games g WHERE g.id IN ({_FINISHED}) AND ("
                "g.host_user_id = $2 "
                "OR EXISTS (SELECT 1 FROM players p WHERE p.game_id = g.id AND p.user_id = $2) "
                "OR EXISTS (SELECT 1 FROM signups s WHERE s.game_id = g.id AND s.user_id = $2) "
                "OR EXISTS (SELECT 1 FROM log_entries e "
                "WHERE e.game_id = g.id AND e.user_id = $2) "
                "OR EXISTS (SELECT 1 FROM replacements r WHERE r.game_id = g.id "
                "AND (r.old_user_id = $2 OR r.new_user_id = $2)))",
                guild_id,
                user_id,
            )
            # His anonymous profile goes too: an avatar link (a Discord avatar's URL holds
            # his id) and a signature are his, and may name him.
            await tx.execute(
                "UPDATE players SET user_id = -1 - seat, avatar_url = NULL, signature = NULL "
                f"WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            await tx.execute(
                f"DELETE FROM signups WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            await tx.execute(
                "UPDATE log_entries SET user_id = NULL "
                f"WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            # ``updated_at`` stays: for a finished game it is when the game ended.
            await tx.execute(
                "UPDATE games SET host_user_id = NULL "
                "WHERE host_user_id = $2 AND guild_id = $1 AND status = 'finished'",
                guild_id,
                user_id,
            )
            await _scrub_json(
                tx, "outbox", "payload", f"game_id IN ({_FINISHED})", guild_id, user_id
            )
            await tx.execute(
                "UPDATE audit_log SET actor_id = 0 WHERE guild_id = $1 AND actor_id = $2",
                guild_id,
                user_id,
            )
            await _scrub_json(tx, "audit_log", "args", "guild_id = $1", guild_id, user_id)
            # The DM channel kept to write to him for this server (another server's stays).
            await tx.execute(
                "DELETE FROM dm_channels WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            # R62: that he watched a ghosts' room.
            await tx.execute(
                f"DELETE FROM spectators WHERE user_id = $2 AND game_id IN ({_FINISHED})",
                guild_id,
                user_id,
            )
            # R60, R63 (migration 18): who held a nickname no longer names him (0: nobody),
            # in every game of the server (the caller refuses the purge while he was replaced
            # in a running game); his place on a substitutes' list, his request to be replaced
            # and his bar go.
            for column in ("old_user_id", "new_user_id"):
                await tx.execute(
                    f"UPDATE replacements SET {column} = 0 WHERE {column} = $2 "
                    "AND game_id IN (SELECT id FROM games WHERE guild_id = $1)",
                    guild_id,
                    user_id,
                )
            for table in ("substitutes", "replace_requests"):
                await tx.execute(
                    f"DELETE FROM {table} WHERE user_id = $2 "
                    "AND game_id IN (SELECT id FROM games WHERE guild_id = $1)",
                    guild_id,
                    user_id,
                )
            await tx.execute(
                "DELETE FROM bars WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            await tx.execute(  # a bar he gave as a host stands, by an unknown host
                "UPDATE bars SET actor_id = 0 WHERE guild_id = $1 AND actor_id = $2",
                guild_id,
                user_id,
            )
            return int(games)

        return await self._run_write(body)

    async def purge_guild(self, guild_id: int) -> int:
        """Delete everything kept for the server (the bot left it); how many games."""

        async def body(tx: Tx) -> int:
            await tx.execute("DELETE FROM audit_log WHERE guild_id = $1", guild_id)
            await tx.execute("DELETE FROM presets WHERE guild_id = $1", guild_id)
            await tx.execute("DELETE FROM bars WHERE guild_id = $1", guild_id)  # R63
            # Seats, sign-ups, log, results, windows, announcements and spectators go with
            # their game (ON DELETE CASCADE).
            games = await tx.execute("DELETE FROM games WHERE guild_id = $1", guild_id)
            await tx.execute("DELETE FROM game_tables WHERE guild_id = $1", guild_id)
            # Its members' DM channels (kept per server: another server keeps its own rows)
            # and its hosts' pending confirmations. A table added to the schema that holds a
            # server's or a member's id is deleted here too: tests/db/test_purge_schema.py
            # walks the schema and fails on any table left holding a purged server's rows.
            await tx.execute("DELETE FROM dm_channels WHERE guild_id = $1", guild_id)
            await tx.execute("DELETE FROM confirmations WHERE guild_id = $1", guild_id)
            return games

        try:
            return await self._run_write(body)
        finally:
            self._table_cache.forget(guild_id)  # its tables are gone (db/tablecache.py)
