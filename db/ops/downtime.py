"""R59's heartbeats and downtime spans, and the hosts' confirmations kept across restarts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, cast

from db.convert import aware, dumps, loads_dict, stored_time
from db.models import DowntimeCause, JSONDict
from db.tx import Engine, Tx


class DowntimeOps(Engine):
    """R59: when each process last served its games, and the spans a game was not served;
    and a host's confirmation too long for its button's id, kept until it expires."""

    async def beat(
        self,
        process: str,
        at: dt.datetime,
        game_ids: Sequence[int],
        *,
        gap: dt.timedelta,
        cause: DowntimeCause,
    ) -> dt.datetime | None:
        """``process`` serves ``game_ids`` at ``at``. A span over ``gap`` since its previous
        beat (of any process, for a new key) is kept as their downtime; its start, or None."""
        d = self.dialect
        moment = aware(at)
        now = d.time(moment)
        ids = list(game_ids)

        async def body(tx: Tx) -> dt.datetime | None:
            # One beat of a key at a time (two processes never share one; a restart may race
            # the run it replaces): on PostgreSQL the row is locked until the commit.
            seen = await tx.fetchval(
                "SELECT beat_at FROM heartbeats WHERE process = $1" + d.for_update, process
            )
            if seen is None:  # a key never seen: the newest beat of any (a re-shard)
                seen = await tx.fetchval("SELECT MAX(beat_at) FROM heartbeats")
            await tx.execute(
                "INSERT INTO heartbeats (process, beat_at) VALUES ($1, $2) "
                "ON CONFLICT (process) DO UPDATE SET beat_at = excluded.beat_at "
                "WHERE excluded.beat_at > heartbeats.beat_at",
                process,
                now,
            )
            if seen is None:
                return None
            last = stored_time(seen)
            if moment - last <= gap:
                return None
            if ids:
                await tx.execute(
                    "INSERT INTO downtime (game_id, started_at, ended_at, cause) "
                    "SELECT id, $1, $2, $3 FROM games "
                    f"WHERE id {d.in_ids('$4')} AND status = 'running' ORDER BY id",
                    d.time(last),
                    now,
                    cause,
                    d.ids(ids),
                )
            return last

        return await self._run_write(body)

    async def last_beat(self) -> dt.datetime | None:
        """The newest heartbeat of any process (None: none ever)."""
        row = await self._fetchrow("SELECT MAX(beat_at) AS beat_at FROM heartbeats")
        seen = None if row is None else row["beat_at"]
        return None if seen is None else stored_time(seen)

    async def downtime(
        self, game_id: int, since: dt.datetime
    ) -> list[tuple[dt.datetime, dt.datetime, DowntimeCause]]:
        """The game's downtime spans ending after ``since``: (start, end, cause), by start."""
        rows = await self._fetch(
            "SELECT started_at, ended_at, cause FROM downtime "
            "WHERE game_id = $1 AND ended_at > $2 ORDER BY started_at, id",
            game_id,
            self.dialect.time(since),
        )
        return [
            (
                stored_time(r["started_at"]),
                stored_time(r["ended_at"]),
                cast(DowntimeCause, str(r["cause"])),
            )
            for r in rows
        ]

    async def put_confirmation(
        self,
        token: str,
        data: Mapping[str, Any],
        *,
        guild_id: int,
        now: dt.datetime,
        expires_at: dt.datetime,
    ) -> None:
        """Keep ``data`` under ``token`` until ``expires_at``, as the server's data."""
        d = self.dialect
        text = dumps(dict(data))
        until, stamp = d.time(expires_at), d.time(now)

        async def body(tx: Tx) -> None:
            await tx.execute("DELETE FROM confirmations WHERE expires_at <= $1", stamp)
            await tx.execute(
                "INSERT INTO confirmations (token, guild_id, data, expires_at) "
                "VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (token) DO UPDATE SET data = excluded.data, "
                "guild_id = excluded.guild_id, expires_at = excluded.expires_at",
                token,
                guild_id,
                text,
                until,
            )

        await self._run_write(body)

    async def get_confirmation(self, token: str, now: dt.datetime) -> JSONDict | None:
        """The data kept under ``token`` if it has not expired by ``now``."""
        row = await self._fetchrow(
            "SELECT data FROM confirmations WHERE token = $1 AND expires_at > $2",
            token,
            self.dialect.time(now),
        )
        return None if row is None else loads_dict(str(row["data"]))
