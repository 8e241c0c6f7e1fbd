"""Migration 18.

Reserved: number 18 belongs to another change, which brings its own DDL when it lands; kept
empty (on PostgreSQL a no-op statement) so that 20 keeps its number.
"""

from __future__ import annotations

from db.schema.migration import Migration

SQLITE = """
-- Number 18 is another change's (it lands with it); kept empty here so that 20 keeps its number.
"""

POSTGRES = """
-- Number 18 is another change's (it lands with it); kept empty here so that 20 keeps its number.
SELECT 1;
"""

MIGRATION = Migration(
    18,
    "reserved: number 18 is another change's, landing with it (no schema change yet)",
    sqlite=SQLITE,
    postgres=POSTGRES,
)
