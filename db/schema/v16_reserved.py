"""Migration 16.

Reserved: number 16 belongs to another change, which brings its own DDL when it lands; kept
empty (on PostgreSQL a no-op statement) so that 17 keeps its number.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Number 16 is another change's (it lands with it); kept empty here so that 17 keeps its number.
"""

POSTGRES = """
-- Number 16 is another change's (it lands with it); kept empty here so that 17 keeps its number.
SELECT 1;
"""

MIGRATION = Migration(
    16,
    "reserved: number 16 is another change's, landing with it (no schema change yet)",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
