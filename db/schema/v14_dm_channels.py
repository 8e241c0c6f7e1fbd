"""Migration 14.

``dm_channels``: the DM channel of each user the bot wrote to in private, per bot account.
Discord keeps a DM channel for good, so it is opened once (a request) and then known by its id,
also after a restart (``bot/delivery/router.py``). Not a game's data: no game references it.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The DM channel of each user the bot wrote to in private, per bot account: opened once, then
-- known by its id, also after a restart (bot/delivery/router.py).
CREATE TABLE dm_channels (
    bot_id     INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (bot_id, user_id)
) STRICT;
"""

POSTGRES = """
-- The DM channel of each user the bot wrote to in private, per bot account (as on SQLite).
CREATE TABLE dm_channels (
    bot_id     BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (bot_id, user_id)
);
"""

MIGRATION = Migration(
    14,
    "the DM channel of each user the bot wrote to, per bot account, kept across restarts",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
