"""Tables (``/mafia setup``): a server's categories, each with its channels and settings."""

from __future__ import annotations

import sqlite3

import aiosqlite

from db.errors import TableNameTaken
from db.models import TableSettings
from db.sqlite.base import SQLiteBase
from db.sqlite.convert import opt_int, to_db_time, utcnow

_COLUMNS = (
    "table_id",
    "guild_id",
    "name",
    "language",
    "host_role_id",
    "category_id",
    "game_channel_id",
    "discussion_channel_id",
    "mafia_channel_id",
    "host_channel_id",
    "webhook_id",
    "default_schedule",
    "timezone",
)


def _table(row: sqlite3.Row) -> TableSettings:
    return TableSettings(
        table_id=int(row["table_id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        language=str(row["language"]),
        host_role_id=opt_int(row["host_role_id"]),
        category_id=opt_int(row["category_id"]),
        game_channel_id=opt_int(row["game_channel_id"]),
        discussion_channel_id=opt_int(row["discussion_channel_id"]),
        mafia_channel_id=opt_int(row["mafia_channel_id"]),
        host_channel_id=opt_int(row["host_channel_id"]),
        webhook_id=opt_int(row["webhook_id"]),
        default_schedule=str(row["default_schedule"]),
        timezone=str(row["timezone"]),
    )


class SettingsMixin(SQLiteBase):
    """:class:`db.interface.SettingsRepository` on SQLite."""

    async def get_table(self, table_id: int) -> TableSettings | None:
        row = await self._read_one("SELECT * FROM game_tables WHERE table_id = ?", (table_id,))
        return None if row is None else _table(row)

    async def tables(self, guild_id: int) -> list[TableSettings]:
        rows = await self._read(
            "SELECT * FROM game_tables WHERE guild_id = ? ORDER BY name COLLATE NOCASE, table_id",
            (guild_id,),
        )
        return [_table(row) for row in rows]

    async def save_table(self, settings: TableSettings) -> None:
        s = settings
        params = (*(getattr(s, column) for column in _COLUMNS), to_db_time(utcnow()))
        updates = ", ".join(f"{c} = excluded.{c}" for c in (*_COLUMNS[1:], "updated_at"))

        async def body(db: aiosqlite.Connection) -> None:
            try:
                await db.execute(
                    f"INSERT INTO game_tables ({', '.join(_COLUMNS)}, updated_at) "
                    f"VALUES ({', '.join('?' * (len(_COLUMNS) + 1))}) "
                    f"ON CONFLICT (table_id) DO UPDATE SET {updates}",
                    params,
                )
            except sqlite3.IntegrityError as e:  # another table of the server has this name
                raise TableNameTaken(f"table name {s.name!r} is taken: {e}") from e

        await self._write(body)

    async def drop_table(self, table_id: int) -> bool:
        async def body(db: aiosqlite.Connection) -> bool:
            cursor = await db.execute("DELETE FROM game_tables WHERE table_id = ?", (table_id,))
            return cursor.rowcount > 0

        return await self._write(body)
