"""Stored rows to records (and a lobby's changes to columns), the same on both engines: a row
is anything that gives its columns by name (``sqlite3.Row``, ``asyncpg.Record``). Times come as
SQLite's UTC text or PostgreSQL's ``timestamptz`` and leave as UTC datetimes; JSON comes as its
text; flags as 0/1 or booleans."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

from db.convert import dumps, int64, loads_dict, opt_int, opt_stored_time, stored_time
from db.models import (
    KEEP,
    AuditRecord,
    GameRecord,
    GameStatus,
    Keep,
    LogEntry,
    OutboxRecord,
    PlayerRecord,
    PostRecord,
    ResolutionRecord,
    Section,
    TableSettings,
)
from db.tx import Row


def audit_record(row: Row) -> AuditRecord:
    return AuditRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        game_id=opt_int(row["game_id"]),
        actor_id=int(row["actor_id"]),
        command=str(row["command"]),
        args=loads_dict(row["args"]),
        at=stored_time(row["at"]),
        table_id=int(row["table_id"]),
    )


def outbox_record(row: Row) -> OutboxRecord:
    return OutboxRecord(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        kind=str(row["kind"]),
        payload=loads_dict(row["payload"]),
        sent=bool(row["sent"]),
        created_at=stored_time(row["created_at"]),
        sent_at=opt_stored_time(row["sent_at"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
    )


def player_record(row: Row) -> PlayerRecord:
    return PlayerRecord(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=int(row["user_id"]),
        nick=str(row["nick"]),
        role=str(row["role"]),
        avatar_url=row["avatar_url"],
        signature=row["signature"],
    )


def log_entry(row: Row) -> LogEntry:
    return LogEntry(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        seq=int(row["seq"]),
        section=cast(Section, row["section"]),
        payload=loads_dict(row["payload"]),
        outcome=str(row["outcome"]),
        user_id=opt_int(row["user_id"]),
        at=stored_time(row["at"]),
    )


def table_settings(row: Row) -> TableSettings:
    return TableSettings(
        table_id=int(row["table_id"]),
        guild_id=int(row["guild_id"]),
        name=str(row["name"]),
        language=str(row["language"]),
        host_role_id=opt_int(row["host_role_id"]),
        category_id=opt_int(row["category_id"]),
        game_channel_id=opt_int(row["game_channel_id"]),
        discussion_channel_id=opt_int(row["discussion_channel_id"]),
        mafia_channel_id=opt_int(row["mafia_channel_id"]),
        host_channel_id=opt_int(row["host_channel_id"]),
        webhook_id=opt_int(row["webhook_id"]),
        default_schedule=str(row["default_schedule"]),
        timezone=str(row["timezone"]),
    )


def game_record(row: Row) -> GameRecord:
    return GameRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        status=cast(GameStatus, row["status"]),
        seed=int(row["seed"]),
        schedule_kind=str(row["schedule_kind"]),
        schedule_params=loads_dict(row["schedule_params"]),
        timezone=str(row["timezone"]),
        activity_rules=bool(row["activity_rules"]),
        roles=None if row["roles"] is None else json.loads(row["roles"]),
        host_user_id=opt_int(row["host_user_id"]),
        signup_message_id=opt_int(row["signup_message_id"]),
        turn=int(row["turn"]),
        phase=str(row["phase"]),
        deadline=opt_stored_time(row["deadline"]),
        paused=bool(row["paused"]),
        paused_remaining=(
            None if row["paused_remaining"] is None else float(row["paused_remaining"])
        ),
        winner=row["winner"],
        created_at=stored_time(row["created_at"]),
        updated_at=stored_time(row["updated_at"]),
        reveal=bool(row["reveal"]),
        table_id=int(row["table_id"]),
        started_at=opt_stored_time(row["started_at"]),
        wishes=bool(row["wishes"]),
    )


def post_record(row: Row) -> PostRecord:
    return PostRecord(
        id=int(row["id"]),
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        nick=str(row["nick"]),
        text=str(row["text"]),
        ghost=bool(row["ghost"]),
        at=stored_time(row["at"]),
    )


def resolution_record(row: Row) -> ResolutionRecord:
    return ResolutionRecord(
        game_id=int(row["game_id"]),
        turn=int(row["turn"]),
        result=loads_dict(row["result"]),
        resolved_at=stored_time(row["resolved_at"]),
    )


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
