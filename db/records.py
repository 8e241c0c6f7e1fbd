"""Stored rows to records (and a lobby's changes to columns), the same on both engines: a row
is anything that gives its columns by name (``sqlite3.Row``, ``asyncpg.Record``), read into
the attrs class of :mod:`db.models` whose fields it names, each field decoded by its declared
type (:func:`reader`). Times come as SQLite's UTC text or PostgreSQL's ``timestamptz`` and leave
as UTC datetimes; JSON comes as its text; flags as 0/1 or booleans."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, get_type_hints

import attrs

from db.convert import dumps, int64, loads_dict, opt_int, opt_stored_time, stored_time
from db.models import (
    KEEP,
    AuditRecord,
    Bar,
    GameRecord,
    JSONDict,
    Keep,
    LogEntry,
    OutboxRecord,
    PlayerRecord,
    PostRecord,
    PresetRecord,
    Replacement,
    ReplaceRequest,
    ResolutionRecord,
    TableSettings,
)
from db.tx import Row

R = TypeVar("R", bound=attrs.AttrsInstance)


def _decoder(hint: Any) -> Callable[[Any], Any]:
    """How a column becomes a field of type ``hint``."""
    plain: dict[Any, Callable[[Any], Any]] = {
        int: int,
        str: str,
        bool: bool,
        dt.datetime: stored_time,
        JSONDict: loads_dict,
        int | None: opt_int,
        float | None: lambda v: None if v is None else float(v),
        dt.datetime | None: opt_stored_time,
        list[str]: json.loads,
        Any: lambda v: None if v is None else json.loads(v),  # JSON of any shape, or NULL
    }
    # str | None, and the Literal types (GameStatus, Section): as stored.
    return plain.get(hint, lambda v: v)


def columns(cls: type[attrs.AttrsInstance], *leave_out: str) -> str:
    """The columns a record is read from: its fields' names, in order, as a SELECT lists them
    (``leave_out``: fields no column holds)."""
    return ", ".join(f.name for f in attrs.fields(cls) if f.name not in leave_out)


def reader(cls: type[R]) -> Callable[[Row], R]:
    """The function that reads a row into ``cls`` (an attrs class of :mod:`db.models`), by its
    fields' names and types; a field with a default may be missing from the row."""
    hints = get_type_hints(cls)
    fields = [
        (f.name, _decoder(hints[f.name]), f.default is not attrs.NOTHING) for f in attrs.fields(cls)
    ]

    def read(row: Row) -> R:
        values: dict[str, Any] = {}
        for name, decode, optional in fields:
            try:
                value = row[name]
            except (KeyError, IndexError):
                if optional:
                    continue
                raise
            values[name] = decode(value)
        return cls(**values)

    return read


audit_record = reader(AuditRecord)
outbox_record = reader(OutboxRecord)
player_record = reader(PlayerRecord)
log_entry = reader(LogEntry)
table_settings = reader(TableSettings)
game_record = reader(GameRecord)
post_record = reader(PostRecord)
resolution_record = reader(ResolutionRecord)
replacement_record = reader(Replacement)
bar_record = reader(Bar)
replace_request_record = reader(ReplaceRequest)
preset_record = reader(PresetRecord)


def lobby_columns(
    *,
    roles: Any = KEEP,
    signup_message_id: int | Keep | None = KEEP,
    schedule_kind: str | Keep = KEEP,
    schedule_params: Mapping[str, Any] | Keep = KEEP,
    timezone: str | Keep = KEEP,
    activity_rules: bool | Keep = KEEP,
    seed: int | Keep = KEEP,
) -> dict[str, Any]:
    """The ``games`` columns ``update_lobby`` writes, encoded (``KEEP``: left out); raises
    ``ValueError`` for a seed outside 64 bits or a value that is not JSON."""
    columns: dict[str, Any] = {}
    if roles is not KEEP:
        columns["roles"] = None if roles is None else dumps(roles)
    if not isinstance(signup_message_id, Keep):
        columns["signup_message_id"] = signup_message_id
    if not isinstance(schedule_kind, Keep):
        columns["schedule_kind"] = schedule_kind
    if not isinstance(schedule_params, Keep):
        columns["schedule_params"] = dumps(dict(schedule_params))
    if not isinstance(timezone, Keep):
        columns["timezone"] = timezone
    if not isinstance(activity_rules, Keep):
        columns["activity_rules"] = bool(activity_rules)  # SQLite stores a bool as 0/1
    if not isinstance(seed, Keep):
        columns["seed"] = int64("seed", seed)
    return columns
