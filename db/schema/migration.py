"""One version of the schema, as both engines build it, and the check both runners make of a
database's tables."""

from __future__ import annotations

from collections.abc import Set

import attrs

from db.errors import DatabaseUnusable


@attrs.frozen
class Migration:
    """What takes a database from version ``number - 1`` to ``number``: the same change
    written for each engine. ``purpose``: one line, what the version adds."""

    number: int
    purpose: str
    #: The SQLite statements (``;``-terminated; run one by one in the runner's transaction).
    sqlite: str
    #: The PostgreSQL statements (run as one script in the runner's transaction).
    postgres: str


def check_tables(where: object, tables: Set[str], expected: Set[str]) -> None:
    """Raise :class:`~db.errors.DatabaseUnusable` unless a database (named ``where``) holds
    exactly the ``expected`` tables of its version: one more is another program's, one less a
    damaged database."""
    unknown = sorted(tables - expected)
    if unknown:
        raise DatabaseUnusable(
            f"{where}: not a forum-mafia database (unknown tables: {', '.join(unknown[:5])})"
        )
    missing = sorted(expected - tables)
    if missing:
        raise DatabaseUnusable(
            f"{where}: the database is damaged (missing tables: {', '.join(missing[:5])})"
        )


def check_version(where: object, version: int, latest: int, remedy: str) -> None:
    """Raise :class:`~db.errors.DatabaseUnusable` for a schema newer than this bot knows
    (``remedy``: what the admin may do)."""
    if version > latest:
        raise DatabaseUnusable(
            f"{where}: schema version {version} is newer than this bot knows ({latest}); "
            f"upgrade the bot or {remedy}"
        )


def require_current(where: object, version: int, latest: int) -> None:
    """What a read-only store opens: a database of the current schema, no other."""
    if version != latest:
        raise DatabaseUnusable(
            f"{where}: schema version {version}, but this bot reads version {latest} only; "
            "run the bot on it once to upgrade it"
            if version
            else f"{where}: not a forum-mafia database (no schema)"
        )


def goal_version(target: int | None, latest: int) -> int:
    """The version a migration goes to: ``target``, or the latest."""
    goal = latest if target is None else target
    if not 0 <= goal <= latest:
        raise ValueError(f"no schema version {goal}")
    return goal
