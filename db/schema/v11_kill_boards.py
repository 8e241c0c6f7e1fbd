"""Migration 11.

``kill_boards``: the mafia's kill board message in the mafia's room, per game and turn, posted
once and edited in place.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The mafia's kill board: one message per game and turn in the mafia's room, edited in place
-- as the kill requests change. Its message id is kept so that the board is posted once, also
-- across restarts and whichever process serves the game; 0 while the first post is on its way
-- (a crash then: the board is looked for in the room before it is posted again).
CREATE TABLE kill_boards (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 1),
    message_id INTEGER NOT NULL CHECK (message_id >= 0),
    PRIMARY KEY (game_id, turn)
) STRICT;
"""

POSTGRES = """
-- The mafia's kill board's message in the mafia's room, per game and turn (as on SQLite,
-- above).
CREATE TABLE kill_boards (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL CHECK (turn >= 1),
    message_id BIGINT NOT NULL CHECK (message_id >= 0),
    PRIMARY KEY (game_id, turn)
);
"""

MIGRATION = Migration(
    11,
    "the mafia's kill board message per game and turn",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
