"""Migration 6.

``snapshots``: the state of each running game once its last turn was closed, so that a restart
replays only what was logged after it; an index of the outbox by kind.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The state of each running game once its last turn was closed (rules.snapshot.state_to_dict),
-- written in the transaction of that resolution: a restart loads it and replays only the
-- log entries logged after it (``seq`` above the snapshot's: the current turn's, and none
-- that the state already holds) on top. The log stays the truth: a snapshot whose turn is not
-- the game's turn, or of another format, is ignored and the game rebuilt from its full log.
CREATE TABLE snapshots (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL CHECK (turn >= 1),
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    state    TEXT NOT NULL,
    taken_at TEXT NOT NULL
) STRICT;
-- Whether a game's role cards were queued (the start), for every running game at once.
CREATE INDEX outbox_by_kind ON outbox (kind, game_id);
"""

POSTGRES = """
-- The state of each running game once its last turn was closed (as on SQLite, above).
CREATE TABLE snapshots (
    game_id  BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn     INTEGER NOT NULL CHECK (turn >= 1),
    seq      BIGINT NOT NULL CHECK (seq >= 0),
    state    JSON NOT NULL,
    taken_at TIMESTAMPTZ NOT NULL
);
-- Whether a game's role cards were queued (the start), for every running game at once.
CREATE INDEX outbox_by_kind ON outbox (kind, game_id);
"""

MIGRATION = Migration(
    6,
    "each running game's state once its last turn was closed, and outbox rows by kind",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
