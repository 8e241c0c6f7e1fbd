"""Migration 15.

``post_pictures``: the picture of a player's post (/say with an image), re-encoded without
metadata, kept by its outbox row from the moment the post is queued until it is shown.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The picture of a player's post (/say with an image), re-encoded from its pixels alone (no
-- metadata, core/images.py), kept from the moment the post is queued (in the transaction that
-- queues its outbox row) until it is shown: a restart in between still posts it. Deleted once
-- delivered, and with its outbox row. ``filename`` is neutral ("picture.jpg"), never the one
-- the player uploaded.
CREATE TABLE post_pictures (
    outbox_id INTEGER PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    filename  TEXT NOT NULL,
    data      BLOB NOT NULL
) STRICT;
"""

POSTGRES = """
-- The picture of a player's post until it is shown (as on SQLite, above).
CREATE TABLE post_pictures (
    outbox_id BIGINT PRIMARY KEY REFERENCES outbox (id) ON DELETE CASCADE,
    filename  TEXT NOT NULL,
    data      BYTEA NOT NULL
);
"""

MIGRATION = Migration(
    15,
    "the picture of a player's post (/say with an image) until it is shown",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
