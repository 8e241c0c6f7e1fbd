"""Migration 9.

``outbox.message_id``: the last Discord message a row posted, recorded when it is marked sent,
so that a restarted deliverer finds what a send whose answer was lost did post.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- The id of the last Discord message an outbox row posted, recorded when it is marked sent:
-- after a restart, the bot's last message known in a destination is where it reads on from
-- to find what a send whose answer was lost did post (NULL: unknown, or sent before).
ALTER TABLE outbox ADD COLUMN message_id INTEGER;
"""

POSTGRES = """
-- The id of the last Discord message an outbox row posted, recorded when it is marked sent:
-- after a restart, the bot's last message known in a destination is where it reads on from
-- to find what a send whose answer was lost did post (NULL: unknown, or sent before).
ALTER TABLE outbox ADD COLUMN message_id BIGINT;
"""

MIGRATION = Migration(
    9,
    "the id of the last Discord message an outbox row posted",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
