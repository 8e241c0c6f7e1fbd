"""How values go to and come from PostgreSQL columns: times as ``TIMESTAMPTZ`` (aware
datetimes in, UTC datetimes out), JSON as ``JSON`` text (kept as written, so an export is
byte-identical to SQLite's), flags as ``BOOLEAN``. Pure functions, no connection. The
engine-neutral checks (JSON text, 64-bit ids, sections, outcomes) are SQLite's own."""

from __future__ import annotations

import datetime as dt

from db.sqlite.convert import (
    check_outcome,
    check_section,
    dumps,
    int64,
    loads_dict,
    opt_int,
    utcnow,
)

__all__ = [
    "aware",
    "check_outcome",
    "check_section",
    "dumps",
    "int64",
    "loads_dict",
    "opt_aware",
    "opt_int",
    "opt_utc",
    "utc",
    "utcnow",
]


def aware(value: dt.datetime) -> dt.datetime:
    """A timezone-aware datetime, in UTC (``ValueError`` for a naive one, before any write)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: pass a timezone-aware time")
    return value.astimezone(dt.UTC)


def opt_aware(value: dt.datetime | None) -> dt.datetime | None:
    return None if value is None else aware(value)


def utc(value: dt.datetime) -> dt.datetime:
    """A ``TIMESTAMPTZ`` read back (asyncpg gives it in UTC already), as a UTC datetime."""
    return value.astimezone(dt.UTC)


def opt_utc(value: dt.datetime | None) -> dt.datetime | None:
    return None if value is None else utc(value)
