"""Migration 7.

Outbox leases: the deliverer holding a row and until when, so that several processes may
deliver; an index of the pending rows in queue order.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Outbox rows claimed by one deliverer at a time (several processes may deliver): the owner
-- (a per-process id) and until when its claim holds. A row whose lease has expired (its
-- deliverer died) is claimed again by another; NULL: never claimed.
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TEXT;
-- The pending rows in queue order, whichever game (a claim walks them oldest first; the sent
-- rows, kept for the record, are never read by it).
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent = 0;
"""

POSTGRES = """
-- Outbox rows claimed by one deliverer at a time (as on SQLite, above): the owner (a
-- per-process id) and until when its claim holds (the server's clock); NULL: never claimed.
ALTER TABLE outbox ADD COLUMN lease_owner TEXT;
ALTER TABLE outbox ADD COLUMN lease_until TIMESTAMPTZ;
-- The pending rows in queue order, whichever game.
CREATE INDEX outbox_unsent ON outbox (id) WHERE NOT sent;
"""

MIGRATION = Migration(
    7,
    "outbox rows claimed by one deliverer at a time (owner and lease)",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
