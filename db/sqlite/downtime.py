"""R59's heartbeats and downtime spans, and the hosts' confirmations kept across restarts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, cast

import aiosqlite

from db.models import DowntimeCause, JSONDict
from db.sqlite.base import SQLiteBase, fetch_one
from db.sqlite.convert import dumps, from_db_time, loads_dict, to_db_time


class DowntimeMixin(SQLiteBase):
    """:class:`db.interface.DowntimeLog` and :class:`db.interface.Confirmations` on SQLite."""

    async def beat(
        self,
        process: str,
        at: dt.datetime,
        game_ids: Sequence[int],
        *,
        gap: dt.timedelta,
        cause: DowntimeCause,
    ) -> dt.datetime | None:
        now = to_db_time(at)
        ids = list(game_ids)

        async def body(db: aiosqlite.Connection) -> dt.datetime | None:
            row = await fetch_one(
                db, "SELECT beat_at FROM heartbeats WHERE process = ?", (process,)
            )
            if row is None:  # a key never seen: the newest beat of any (a re-shard)
                row = await fetch_one(db, "SELECT MAX(beat_at) AS beat_at FROM heartbeats")
            await db.execute(
                "INSERT INTO heartbeats (process, beat_at) VALUES (?, ?) "
                "ON CONFLICT (process) DO UPDATE SET beat_at = excluded.beat_at "
                "WHERE excluded.beat_at > heartbeats.beat_at",
                (process, now),
            )
            if row is None or row["beat_at"] is None:
                return None
            last = from_db_time(str(row["beat_at"]))
            if at - last <= gap:
                return None
            for game_id in ids:
                await db.execute(
                    "INSERT INTO downtime (game_id, started_at, ended_at, cause) "
                    "SELECT id, ?, ?, ? FROM games WHERE id = ? AND status = 'running'",
                    (to_db_time(last), now, cause, game_id),
                )
            return last

        return await self._write(body)

    async def downtime(
        self, game_id: int, since: dt.datetime
    ) -> list[tuple[dt.datetime, dt.datetime, DowntimeCause]]:
        rows = await self._read(
            "SELECT started_at, ended_at, cause FROM downtime "
            "WHERE game_id = ? AND ended_at > ? ORDER BY started_at, id",
            (game_id, to_db_time(since)),
        )
        return [
            (
                from_db_time(str(r["started_at"])),
                from_db_time(str(r["ended_at"])),
                cast(DowntimeCause, str(r["cause"])),
            )
            for r in rows
        ]

    async def put_confirmation(
        self, token: str, data: Mapping[str, Any], *, now: dt.datetime, expires_at: dt.datetime
    ) -> None:
        text = dumps(dict(data))
        until = to_db_time(expires_at)

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute("DELETE FROM confirmations WHERE expires_at <= ?", (to_db_time(now),))
            await db.execute(
                "INSERT INTO confirmations (token, data, expires_at) VALUES (?, ?, ?) "
                "ON CONFLICT (token) DO UPDATE SET data = excluded.data, "
                "expires_at = excluded.expires_at",
                (token, text, until),
            )

        await self._write(body)

    async def get_confirmation(self, token: str, now: dt.datetime) -> JSONDict | None:
        row = await self._read_one(
            "SELECT data FROM confirmations WHERE token = ? AND expires_at > ?",
            (token, to_db_time(now)),
        )
        return None if row is None else loads_dict(str(row["data"]))
