"""Migration 13.

``outbox_by_game``: a game's whole outbox (the #host notices already given, the history, a
retaken row's predecessors) in queue order, read from the game's own rows.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- A game's whole outbox (``outbox(game_id)``: the #host notices already given, the history,
-- a retaken row's predecessors) in queue order, read from the game's own rows instead of a
-- scan of every game's (the partial outbox_pending holds the unsent rows only).
CREATE INDEX outbox_by_game ON outbox (game_id, id);
"""

POSTGRES = """
-- A game's whole outbox in queue order, from its own rows (as on SQLite, above).
CREATE INDEX outbox_by_game ON outbox (game_id, id);
"""

MIGRATION = Migration(
    13,
    "an index of the outbox by game, for a game's whole outbox in queue order",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
