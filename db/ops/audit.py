"""The audit log: every host command, who sent it and with which arguments."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from db.convert import dumps
from db.errors import NotFound
from db.models import AuditRecord
from db.records import audit_record as _audit
from db.records import columns
from db.tx import Engine, Row, Tx

_AUDIT_COLUMNS = columns(AuditRecord)

#: The most rows :meth:`AuditOps.audit_page` returns at once.
AUDIT_PAGE_MAX = 100


async def insert_audit(
    tx: Tx,
    guild_id: int | None,
    game_id: int | None,
    actor_id: int,
    command: str,
    args_text: str,
    at: dt.datetime,
    table_id: int | None = None,
) -> int:
    """Insert an audit row inside the caller's transaction. A row about a game belongs to the
    game's server and table; otherwise to ``table_id`` (default: the server's first table)."""
    if game_id is not None:
        row = await tx.fetchrow("SELECT guild_id, table_id FROM games WHERE id = $1", game_id)
        if row is None:
            raise NotFound(f"no game {game_id}")
        guild_id, table_id = int(row["guild_id"]), int(row["table_id"])
    if guild_id is None:
        raise NotFound("an audit row needs a game or a server")
    table = guild_id if table_id is None else table_id
    new_id = await tx.fetchval(
        "INSERT INTO audit_log (guild_id, table_id, game_id, actor_id, command, args, at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        guild_id,
        table,
        game_id,
        actor_id,
        command,
        args_text,
        tx.dialect.time(at),
    )
    return int(new_id)


class AuditOps(Engine):
    """Every host command, whoever ran it and whether or not it touches the script (R56)."""

    async def add_audit(
        self,
        guild_id: int,
        game_id: int | None,
        actor_id: int,
        command: str,
        args: Mapping[str, Any] | None = None,
        *,
        table_id: int | None = None,
    ) -> int:
        """Record a host command (at its game's table, else ``table_id``); the row's id."""
        args_text = dumps(dict(args or {}))
        now = self._now()

        async def body(tx: Tx) -> int:
            return await insert_audit(
                tx, guild_id, game_id, actor_id, command, args_text, now, table_id
            )

        return await self._run_write(body)

    async def audit_log(
        self, *, game_id: int | None = None, guild_id: int | None = None
    ) -> list[AuditRecord]:
        """Audit rows matching every filter given, in insertion order."""
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("game_id", game_id), ("guild_id", guild_id)):
            if value is not None:
                params.append(value)
                where.append(f"{column} = ${len(params)}")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._fetch(
            f"SELECT {_AUDIT_COLUMNS} FROM audit_log {clause} ORDER BY id", *params
        )
        return [_audit(r) for r in rows]

    async def audit_page(
        self, table_id: int, *, limit: int, offset: int = 0, before: int | None = None
    ) -> tuple[list[AuditRecord], int]:
        """A page of a table's audit, newest first (``limit`` clamped to 1..
        :data:`AUDIT_PAGE_MAX`), and how many rows there are (``before``: below that id)."""
        limit = max(1, min(limit, AUDIT_PAGE_MAX))
        offset = max(0, offset)
        bound = "" if before is None else " AND id < $2"
        keys: tuple[int, ...] = (table_id,) if before is None else (table_id, before)
        n = len(keys)

        async def body(tx: Tx) -> tuple[list[Row], int]:
            rows = await tx.fetch(
                f"SELECT {_AUDIT_COLUMNS} FROM audit_log "
                f"WHERE table_id = $1{bound} ORDER BY id DESC LIMIT ${n + 1} OFFSET ${n + 2}",
                *keys,
                limit,
                offset,
            )
            counted = await tx.fetchval(
                f"SELECT COUNT(*) FROM audit_log WHERE table_id = $1{bound}", *keys
            )
            return rows, int(counted)

        rows, total = await self._run_snapshot(body)
        return [_audit(r) for r in rows], total
