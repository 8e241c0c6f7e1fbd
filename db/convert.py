"""Values to and from the columns of both engines: JSON as compact text (kept as written on
both, so an export reads the same bytes), integers checked against the signed 64-bit range,
sections and outcomes checked; times as SQLite's sortable UTC text (:func:`to_db_time`) or
PostgreSQL's ``TIMESTAMPTZ`` (:func:`aware`): :class:`db.dialect.Dialect` picks. Pure
functions, no connection."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from db.errors import StoreError
from db.models import ACCEPTED, SECTIONS, JSONDict, Section

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def machine_clock() -> dt.datetime:
    """The machine's UTC time: what a store stamps with until the game service binds its
    clock (:meth:`db.tx.Engine.use_clock`). Nothing else in ``db/`` reads a clock."""
    return dt.datetime.now(dt.UTC)


def to_db_time(value: dt.datetime) -> str:
    """A timezone-aware datetime as sortable UTC text (read back by :func:`stored_time`)."""
    return aware(value).isoformat(timespec="microseconds")


def aware(value: dt.datetime) -> dt.datetime:
    """A timezone-aware datetime, in UTC (``ValueError`` for a naive one, before any write)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"naive datetime {value!r}: pass a timezone-aware time")
    return value.astimezone(dt.UTC)


def stored_time(value: str | dt.datetime) -> dt.datetime:
    """A stored time (SQLite's UTC text, PostgreSQL's ``timestamptz``) as a UTC datetime."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC)
    return dt.datetime.fromisoformat(value).astimezone(dt.UTC)


def opt_stored_time(value: str | dt.datetime | None) -> dt.datetime | None:
    return None if value is None else stored_time(value)


def dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError(f"not JSON-serialisable: {e}") from e


def loads_dict(text: str) -> JSONDict:
    value = json.loads(text)
    if not isinstance(value, dict):
        raise StoreError(f"stored JSON is not an object: {text[:60]}")
    return value


def int64(name: str, value: int) -> int:
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise ValueError(f"{name} {value} does not fit in a signed 64-bit integer")
    return value


def opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def check_section(section: str) -> Section:
    if section not in SECTIONS:
        raise ValueError(f"section must be one of {SECTIONS}, not {section!r}")
    return section


def check_outcome(outcome: str) -> str:
    if outcome != ACCEPTED and not (outcome.startswith("refused:") and len(outcome) > 8):
        raise ValueError(f"outcome must be 'accepted' or 'refused:<code>', not {outcome!r}")
    return outcome
