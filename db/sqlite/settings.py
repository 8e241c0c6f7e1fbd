"""Guild settings (``/mafia setup``): one row per guild."""

from __future__ import annotations

import sqlite3

import aiosqlite

from db.models import GuildSettings
from db.sqlite.base import SQLiteBase
from db.sqlite.convert import opt_int, to_db_time, utcnow


def _settings(row: sqlite3.Row) -> GuildSettings:
    return GuildSettings(
        guild_id=int(row["guild_id"]),
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

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        row = await self._read_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None else _settings(row)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        s = settings
        params = (
            s.guild_id,
            s.language,
            s.host_role_id,
            s.category_id,
            s.game_channel_id,
            s.discussion_channel_id,
            s.mafia_channel_id,
            s.host_channel_id,
            s.webhook_id,
            s.default_schedule,
            s.timezone,
            to_db_time(utcnow()),
        )

        async def body(db: aiosqlite.Connection) -> None:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, host_role_id, category_id, "
                "game_channel_id, discussion_channel_id, mafia_channel_id, host_channel_id, "
                "webhook_id, default_schedule, timezone, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language, "
                "host_role_id = excluded.host_role_id, category_id = excluded.category_id, "
                "game_channel_id = excluded.game_channel_id, "
                "discussion_channel_id = excluded.discussion_channel_id, "
                "mafia_channel_id = excluded.mafia_channel_id, "
                "host_channel_id = excluded.host_channel_id, webhook_id = excluded.webhook_id, "
                "default_schedule = excluded.default_schedule, timezone = excluded.timezone, "
                "updated_at = excluded.updated_at",
                params,
            )

        await self._write(body)
