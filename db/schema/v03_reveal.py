"""Migration 3.

``games.reveal``: whether the members behind the nicknames are named when the game ends
(existing games keep naming them); ``games.started_at``: when it started (NULL for games started
before).
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Whether the members behind the nicknames are named when the game ends (the host's choice at
-- /mafia new; forum hosts usually do, so existing games keep naming them).
ALTER TABLE games ADD COLUMN reveal INTEGER NOT NULL DEFAULT 1 CHECK (reveal IN (0, 1));
-- When the game started (/mafia start, on the service's clock); NULL for games started before.
ALTER TABLE games ADD COLUMN started_at TEXT;
"""

POSTGRES = """
-- Whether the members behind the nicknames are named when the game ends.
ALTER TABLE games ADD COLUMN reveal BOOLEAN NOT NULL DEFAULT TRUE;
-- When the game started (/mafia start, on the service's clock); NULL for games started before.
ALTER TABLE games ADD COLUMN started_at TIMESTAMPTZ;
"""

MIGRATION = Migration(
    3,
    "whether a game names its players' members at the end, and when it started",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
