"""Migration 4.

Tables: several games on one server, each with its own category, channels, language, host role
and settings. A server's settings become its first, unnamed table, keyed by the server's id; its
games and audit rows belong to that table.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Tables: several games on one server, each with its own category, channels, language, host
-- role and settings. A table's key is a Discord id unique everywhere: the server's own id for
-- its first table (so every server set up before tables keeps its key and its games), the id of
-- the category built for any other. ``name`` is empty for a server's first, unnamed table.
CREATE TABLE game_tables (
    table_id              INTEGER PRIMARY KEY,
    guild_id              INTEGER NOT NULL,
    name                  TEXT NOT NULL DEFAULT '',
    language              TEXT NOT NULL DEFAULT 'ru',
    host_role_id          INTEGER,
    category_id           INTEGER,
    game_channel_id       INTEGER,
    discussion_channel_id INTEGER,
    mafia_channel_id      INTEGER,
    host_channel_id       INTEGER,
    webhook_id            INTEGER,
    default_schedule      TEXT NOT NULL DEFAULT 'forum',
    timezone              TEXT NOT NULL DEFAULT 'Europe/Moscow',
    updated_at            TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX game_tables_by_name ON game_tables (guild_id, name COLLATE NOCASE);
INSERT INTO game_tables (table_id, guild_id, name, language, host_role_id, category_id,
    game_channel_id, discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id,
    default_schedule, timezone, updated_at)
SELECT guild_id, guild_id, '', language, host_role_id, category_id, game_channel_id,
    discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id, default_schedule,
    timezone, updated_at
FROM guild_settings;
DROP TABLE guild_settings;

-- A game belongs to a table; at most one game in the lobby or running per table.
ALTER TABLE games ADD COLUMN table_id INTEGER NOT NULL DEFAULT 0;
UPDATE games SET table_id = guild_id;
DROP INDEX games_one_open_per_guild;
CREATE UNIQUE INDEX games_one_open_per_table ON games (table_id) WHERE status <> 'finished';
CREATE INDEX games_by_guild ON games (guild_id, id);

-- A table's #host reads only its own host commands (/mafia log).
ALTER TABLE audit_log ADD COLUMN table_id INTEGER NOT NULL DEFAULT 0;
UPDATE audit_log SET table_id = guild_id;
CREATE INDEX audit_by_table ON audit_log (table_id, id);
"""

POSTGRES = """
-- Tables: several games on one server (as on SQLite, above).
CREATE TABLE game_tables (
    table_id              BIGINT PRIMARY KEY,
    guild_id              BIGINT NOT NULL,
    name                  TEXT NOT NULL DEFAULT '',
    language              TEXT NOT NULL DEFAULT 'ru',
    host_role_id          BIGINT,
    category_id           BIGINT,
    game_channel_id       BIGINT,
    discussion_channel_id BIGINT,
    mafia_channel_id      BIGINT,
    host_channel_id       BIGINT,
    webhook_id            BIGINT,
    default_schedule      TEXT NOT NULL DEFAULT 'forum',
    timezone              TEXT NOT NULL DEFAULT 'Europe/Moscow',
    updated_at            TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX game_tables_by_name ON game_tables (guild_id, lower(name));
INSERT INTO game_tables (table_id, guild_id, name, language, host_role_id, category_id,
    game_channel_id, discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id,
    default_schedule, timezone, updated_at)
SELECT guild_id, guild_id, '', language, host_role_id, category_id, game_channel_id,
    discussion_channel_id, mafia_channel_id, host_channel_id, webhook_id, default_schedule,
    timezone, updated_at
FROM guild_settings;
DROP TABLE guild_settings;

-- A game belongs to a table; at most one game in the lobby or running per table.
ALTER TABLE games ADD COLUMN table_id BIGINT NOT NULL DEFAULT 0;
UPDATE games SET table_id = guild_id;
DROP INDEX games_one_open_per_guild;
CREATE UNIQUE INDEX games_one_open_per_table ON games (table_id) WHERE status <> 'finished';
CREATE INDEX games_by_guild ON games (guild_id, id);

-- A table's #host reads only its own host commands (/mafia log).
ALTER TABLE audit_log ADD COLUMN table_id BIGINT NOT NULL DEFAULT 0;
UPDATE audit_log SET table_id = guild_id;
CREATE INDEX audit_by_table ON audit_log (table_id, id);
"""

MIGRATION = Migration(
    4,
    "tables: several games on one server, a server's settings becoming its first table",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
