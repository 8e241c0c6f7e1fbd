"""Migration 8.

Role wishes (R58): whether the game's sign-up takes them, and each signed-up member's wish.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Role wishes (R58): whether the game's sign-up takes them (the host's choice at /mafia new),
-- and each signed-up member's wish (a role code; NULL: none). A wish lives with its sign-up:
-- leaving the sign-up drops it. Kept after the start, for the hosts and the revealed archive.
ALTER TABLE games ADD COLUMN wishes INTEGER NOT NULL DEFAULT 0 CHECK (wishes IN (0, 1));
ALTER TABLE signups ADD COLUMN wish TEXT;
"""

POSTGRES = """
-- Role wishes (R58, as on SQLite, above): the game's choice, each sign-up's wish.
ALTER TABLE games ADD COLUMN wishes BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE signups ADD COLUMN wish TEXT;
"""

MIGRATION = Migration(
    8,
    "role wishes (R58): whether a sign-up takes them, each member's wish",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
