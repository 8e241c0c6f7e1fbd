"""Migration 17.

``presets``: a server's own named setups (``/mafia preset save``), offered wherever a preset is.
``spectators``: the members who watch a game's ghosts' room (R62, ``/spectate``), and whether
they watch now; a row stays when he stops (he has watched: he cannot stand by, R60).
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- A server's named role lists. ``name_key`` is the name compared as names are (R44: case,
-- width, invisible characters), so that one server cannot hold two presets of one name.
CREATE TABLE presets (
    guild_id   INTEGER NOT NULL,
    name_key   TEXT NOT NULL,
    name       TEXT NOT NULL,
    roles      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, name_key)
) STRICT;

-- The members who watch (``watching``) or have watched a game's ghosts' room (R62).
CREATE TABLE spectators (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    watching INTEGER NOT NULL CHECK (watching IN (0, 1)),
    since    TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
) STRICT;
"""

POSTGRES = """
-- A server's named role lists (as on SQLite, above).
CREATE TABLE presets (
    guild_id   BIGINT NOT NULL,
    name_key   TEXT NOT NULL,
    name       TEXT NOT NULL,
    roles      JSON NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (guild_id, name_key)
);

-- The members who watch or have watched a game's ghosts' room (as on SQLite, above).
CREATE TABLE spectators (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id  BIGINT NOT NULL,
    watching BOOLEAN NOT NULL,
    since    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
"""

MIGRATION = Migration(
    17,
    "a server's named presets; the spectators of a game's ghosts' room (R62)",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
