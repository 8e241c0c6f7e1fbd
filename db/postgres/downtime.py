"""R59's heartbeats and downtime spans, and the hosts' confirmations kept across restarts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, cast

from db.models import DowntimeCause, JSONDict
from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import aware, dumps, loads_dict, utc


class DowntimeMixin(PostgresBase):
    """:class:`db.interface.DowntimeLog` and :class:`db.interface.Confirmations` on
    PostgreSQL."""

    async def beat(
        self,
        process: str,
        at: dt.datetime,
        game_ids: Sequence[int],
        *,
        gap: dt.timedelta,
        cause: DowntimeCause,
    ) -> dt.datetime | None:
        now = aware(at)
        ids = list(game_ids)

        async def body(db: Conn) -> dt.datetime | None:
            # One beat of a key at a time (two processes never share one; a restart may race
            # the run it replaces): the row is locked until the commit.
            last = await db.fetchval(
                "SELECT beat_at FROM heartbeats WHERE process = $1 FOR UPDATE", process
            )
            if last is None:  # a key never seen: the newest beat of any (a re-shard)
                last = await db.fetchval("SELECT MAX(beat_at) FROM heartbeats")
            await db.execute(
                "INSERT INTO heartbeats (process, beat_at) VALUES ($1, $2) "
                "ON CONFLICT (process) DO UPDATE SET beat_at = EXCLUDED.beat_at "
                "WHERE EXCLUDED.beat_at > heartbeats.beat_at",
                process,
                now,
            )
            if last is None:
                return None
            last = utc(last)
            if now - last <= gap:
                return None
            if ids:
                await db.execute(
                    "INSERT INTO downtime (game_id, started_at, ended_at, cause) "
                    "SELECT id, $1, $2, $3 FROM games "
                    "WHERE id = ANY($4::BIGINT[]) AND status = 'running' ORDER BY id",
                    last,
                    now,
                    cause,
                    ids,
                )
            return last

        return await self._write(body)

    async def downtime(
        self, game_id: int, since: dt.datetime
    ) -> list[tuple[dt.datetime, dt.datetime, DowntimeCause]]:
        rows = await self._read(
            "SELECT started_at, ended_at, cause FROM downtime "
            "WHERE game_id = $1 AND ended_at > $2 ORDER BY started_at, id",
            (game_id, aware(since)),
        )
        return [
            (utc(r["started_at"]), utc(r["ended_at"]), cast(DowntimeCause, str(r["cause"])))
            for r in rows
        ]

    async def put_confirmation(
        self, token: str, data: Mapping[str, Any], *, now: dt.datetime, expires_at: dt.datetime
    ) -> None:
        text = dumps(dict(data))

        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM confirmations WHERE expires_at <= $1", aware(now))
            await db.execute(
                "INSERT INTO confirmations (token, data, expires_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (token) DO UPDATE SET data = EXCLUDED.data, "
                "expires_at = EXCLUDED.expires_at",
                token,
                text,
                aware(expires_at),
            )

        await self._write(body)

    async def get_confirmation(self, token: str, now: dt.datetime) -> JSONDict | None:
        row = await self._read_one(
            "SELECT data FROM confirmations WHERE token = $1 AND expires_at > $2",
            (token, aware(now)),
        )
        return None if row is None else loads_dict(str(row["data"]))
