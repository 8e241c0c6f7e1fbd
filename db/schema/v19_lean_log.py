"""Migration 19.

The request log (``log_entries``) costs a vote less to write: every ``/vote`` is one row
appended, committed before the player is told, so each index and each check of the row is
paid on the hot path.

- The generated columns ``verb`` and ``by_nick`` (``json_extract`` of the payload, twice per
  row) and their index ``log_entries_by_verb`` go: nothing queries them (the post counters of
  R52 are counted by the engine from the log it replays). The one read that used the index,
  the count a fenced write compares (a game's accepted entries at its turn or later,
  :class:`db.models.Fence`), gets a narrower partial index of its own,
  ``log_entries_accepted``: ``(game_id, turn) WHERE outcome = 'accepted'`` on PostgreSQL,
  ``(game_id, turn, outcome)`` with the same WHERE on SQLite, where the count now reads the
  index alone (with ``log_entries_by_verb`` it read every counted entry's row too).
- SQLite: the ``json_valid(payload)`` CHECK goes. Every payload is written by the store
  (:func:`db.convert.dumps`, which refuses what is not JSON) or copied from another store of
  ours (:mod:`db.transfer`); it was parsed a second time in the writer's transaction.

``UNIQUE (game_id, seq)`` stays: it is a game's arrival order (the next ``seq`` is its last
entry + 1, one step down the index), the order the log is read in, and the database's own
guard against two entries under one number. The ``id`` stays the table's row id (SQLite's
rowid: numbered without an index of its own).

SQLite cannot drop a CHECK: the table is rebuilt, every row copied with its ``id``, in ``id``
order (nothing references ``log_entries``). PostgreSQL drops the columns and the index in
place (its payload is ``JSON``, checked by its type as before).
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The game's event log: host commands, requests and pistol shots in arrival order (seq).
CREATE TABLE log_entries_v19 (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn    INTEGER NOT NULL CHECK (turn >= 1),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    section TEXT NOT NULL CHECK (section IN ('host', 'requests', 'after')),
    payload TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome = 'accepted' OR substr(outcome, 1, 8) = 'refused:'),
    user_id INTEGER,
    at      TEXT NOT NULL,
    UNIQUE (game_id, seq)
) STRICT;
INSERT INTO log_entries_v19 (id, game_id, turn, seq, section, payload, outcome, user_id, at)
SELECT id, game_id, turn, seq, section, payload, outcome, user_id, at
FROM log_entries ORDER BY id;
DROP TABLE log_entries;
ALTER TABLE log_entries_v19 RENAME TO log_entries;
-- What a fenced write counts: a game's accepted entries at its turn or later. ``outcome``
-- is in the key only so that the count reads the index alone (SQLite does not take a
-- partial index's WHERE as covering the column it names; PostgreSQL does).
CREATE INDEX log_entries_accepted ON log_entries (game_id, turn, outcome)
    WHERE outcome = 'accepted';
"""

POSTGRES = """
-- As on SQLite, above: no generated columns, a narrower index for the fence's count.
DROP INDEX log_entries_by_verb;
ALTER TABLE log_entries DROP COLUMN verb, DROP COLUMN by_nick;
CREATE INDEX log_entries_accepted ON log_entries (game_id, turn) WHERE outcome = 'accepted';
"""

MIGRATION = Migration(
    19,
    "a leaner request log: no generated columns, a narrow index for the fence's count",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
