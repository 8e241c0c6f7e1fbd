"""Migration 12.

``reviews``: the host's review of a turn's results (``/mafia new review``): the host's story
and, once the results are out, when they were published.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The host's review of a turn's results (``/mafia new review``): the draft itself is the
-- #host outbox row of kind 'review_draft' queued with the resolution (it holds the results
-- and when they go out unreviewed); this row keeps the host's story and, once the results are
-- out, when they were published. Publication sets ``published_at`` once, in the transaction
-- that queues the held results: a second click or the clock finds it set and does nothing.
CREATE TABLE reviews (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL CHECK (turn >= 1),
    story        TEXT,
    published_at TEXT,
    PRIMARY KEY (game_id, turn)
) STRICT;
"""

POSTGRES = """
-- The host's review of a turn's results (as on SQLite, above).
CREATE TABLE reviews (
    game_id      BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL CHECK (turn >= 1),
    story        TEXT,
    published_at TIMESTAMPTZ,
    PRIMARY KEY (game_id, turn)
);
"""

MIGRATION = Migration(
    12,
    "the host's review of a turn's results (story, when published)",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
