"""A server's own named setups (``/mafia preset``) and the spectators of a game's ghosts' room
(R62, ``/spectate``): migration 17. Both are cleared by the purges (:mod:`db.ops.privacy`)."""

from __future__ import annotations

from collections.abc import Sequence

from db.convert import dumps
from db.errors import PresetsFull
from db.models import OutboxItem, PresetRecord
from db.ops.outbox import insert_outbox
from db.records import preset_record
from db.tx import Engine, Tx


class PresetsOps(Engine):
    """A server's own named setups (``/mafia preset``), at most a limit per server (a name is
    stored as written and found by its key, ``rules.names.name_key``: R44's comparison); and
    the members who watch a game's ghosts' room (R62): a row stays when one stops watching, so
    that the game knows he has watched (he cannot stand by as a substitute, R60)."""

    async def save_preset(
        self, guild_id: int, name_key: str, name: str, roles: Sequence[str], *, limit: int
    ) -> bool:
        """Save (or replace) the server's preset of that key; True if it is new. Raises
        :class:`db.errors.PresetsFull` for a new one past ``limit`` (nothing saved)."""
        d = self.dialect
        now = d.time(self._now())

        async def body(tx: Tx) -> bool:
            found = await tx.fetchval(
                "SELECT COUNT(*) FROM presets WHERE guild_id = $1 AND name_key = $2",
                guild_id,
                name_key,
            )
            if not found:
                count = await tx.fetchval(
                    "SELECT COUNT(*) FROM presets WHERE guild_id = $1", guild_id
                )
                if int(count) >= limit:
                    raise PresetsFull(limit)
            await tx.execute(
                "INSERT INTO presets (guild_id, name_key, name, roles, created_at) "
                "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id, name_key) DO UPDATE "
                "SET name = excluded.name, roles = excluded.roles",
                guild_id,
                name_key,
                name,
                dumps(list(roles)),
                now,
            )
            return not found

        return await self._run_write(body)

    async def presets(self, guild_id: int) -> list[PresetRecord]:
        """The server's presets, by name."""
        rows = await self._fetch(
            "SELECT name, roles FROM presets WHERE guild_id = $1 ORDER BY name_key", guild_id
        )
        return [preset_record(r) for r in rows]

    async def preset_named(self, guild_id: int, name_key: str) -> PresetRecord | None:
        """The server's preset of that key, if any."""
        row = await self._fetchrow(
            "SELECT name, roles FROM presets WHERE guild_id = $1 AND name_key = $2",
            guild_id,
            name_key,
        )
        return None if row is None else preset_record(row)

    async def delete_preset(self, guild_id: int, name_key: str) -> bool:
        """Delete the server's preset of that key; False if there was none."""

        async def body(tx: Tx) -> bool:
            deleted = await tx.execute(
                "DELETE FROM presets WHERE guild_id = $1 AND name_key = $2", guild_id, name_key
            )
            return deleted > 0

        return await self._run_write(body)

    # --- the ghosts' room's spectators (R62) ------------------------------------------------
    async def set_spectator(
        self,
        game_id: int,
        user_id: int,
        watching: bool,
        *,
        turn: int = 0,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """He watches (or stops), and ``outbox_items`` are queued for ``turn``, in ONE
        transaction; False if that was so already (nothing written)."""
        d = self.dialect
        moment = self._now()
        now = d.time(moment)

        async def body(tx: Tx) -> bool:
            row = await tx.fetchrow(
                "SELECT watching FROM spectators WHERE game_id = $1 AND user_id = $2",
                game_id,
                user_id,
            )
            if row is None and not watching:
                return False
            if row is not None and bool(row["watching"]) == watching:
                return False
            await tx.execute(
                "INSERT INTO spectators (game_id, user_id, watching, since) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, user_id) DO UPDATE "
                "SET watching = excluded.watching, since = excluded.since",
                game_id,
                user_id,
                watching,
                now,
            )
            await insert_outbox(tx, game_id, turn, outbox_items, moment)
            return True

        return await self._run_write(body)

    async def spectators(self, game_id: int, *, ever: bool = False) -> list[int]:
        """The members watching now (``ever``: who watch or have watched), in the order they
        began."""
        where = "" if ever else " AND watching = TRUE"
        rows = await self._fetch(
            f"SELECT user_id FROM spectators WHERE game_id = $1{where} ORDER BY since, user_id",
            game_id,
        )
        return [int(r["user_id"]) for r in rows]
