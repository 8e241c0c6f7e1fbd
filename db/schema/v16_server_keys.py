"""Migration 16.

A server's rows can all be found: ``dm_channels`` and ``confirmations`` were kept with no
server (``purge_guild``, when the bot leaves a server, could not tell which were its own; a
kicked server left its members' DM channel ids behind). Both now carry ``guild_id``:

- ``dm_channels``: a user's DM channel, kept for each server the bot wrote to him for (the
  channel is the same for every server; a server's row goes with the server, and with his data
  on that server, ``/mafia purge``). Rows are kept for every server where the user signed up,
  played or hosted; one tied to no server is dropped: the channel is opened again when needed.
- ``confirmations``: a host's pending Confirm, of the server it was asked on. The pending ones
  (an hour at most) are dropped: their Confirm says it expired, and the host asks again.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
ALTER TABLE dm_channels RENAME TO dm_channels_v14;
-- The DM channel of each user the bot wrote to in private, per bot account and per server
-- it wrote for (the same channel for every server: a server's row goes with the server's
-- data, bot/delivery/router.py).
CREATE TABLE dm_channels (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    bot_id     INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, bot_id)
) STRICT;
CREATE INDEX dm_channels_by_user ON dm_channels (user_id, bot_id);
INSERT INTO dm_channels (guild_id, user_id, bot_id, channel_id)
SELECT m.guild_id, d.user_id, d.bot_id, d.channel_id
FROM dm_channels_v14 d
JOIN (
    SELECT g.guild_id, p.user_id FROM players p JOIN games g ON g.id = p.game_id
    UNION SELECT g.guild_id, s.user_id FROM signups s JOIN games g ON g.id = s.game_id
    UNION SELECT guild_id, host_user_id FROM games WHERE host_user_id IS NOT NULL
) m ON m.user_id = d.user_id;
DROP TABLE dm_channels_v14;
DROP TABLE confirmations;
-- A host's confirmation whose options do not fit in its button's id (an /mafia exclude
-- reason), until it expires, with the server it was asked on: a restart keeps it.
CREATE TABLE confirmations (
    token      TEXT PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    expires_at TEXT NOT NULL,
    data       TEXT NOT NULL
) STRICT;
CREATE INDEX confirmations_by_guild ON confirmations (guild_id);
"""

POSTGRES = """
-- dm_channels and confirmations with their server (as on SQLite, above).
ALTER TABLE dm_channels RENAME TO dm_channels_v14;
ALTER TABLE dm_channels_v14 RENAME CONSTRAINT dm_channels_pkey TO dm_channels_v14_pkey;
CREATE TABLE dm_channels (
    guild_id   BIGINT NOT NULL,
    user_id    BIGINT NOT NULL,
    bot_id     BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    PRIMARY KEY (guild_id, user_id, bot_id)
);
CREATE INDEX dm_channels_by_user ON dm_channels (user_id, bot_id);
INSERT INTO dm_channels (guild_id, user_id, bot_id, channel_id)
SELECT m.guild_id, d.user_id, d.bot_id, d.channel_id
FROM dm_channels_v14 d
JOIN (
    SELECT g.guild_id, p.user_id FROM players p JOIN games g ON g.id = p.game_id
    UNION SELECT g.guild_id, s.user_id FROM signups s JOIN games g ON g.id = s.game_id
    UNION SELECT guild_id, host_user_id FROM games WHERE host_user_id IS NOT NULL
) m ON m.user_id = d.user_id;
DROP TABLE dm_channels_v14;
DELETE FROM confirmations;
ALTER TABLE confirmations ADD COLUMN guild_id BIGINT NOT NULL;
CREATE INDEX confirmations_by_guild ON confirmations (guild_id);
"""

MIGRATION = Migration(
    16,
    "dm_channels and confirmations keep their server, so that a server's purge finds them",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
