"""``main.py backup``: a consistent copy of a live store, while the bot runs.

- SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) from a read-only
  connection, in one step: the copy is the database as one transaction saw it, whatever the
  bot writes meanwhile (in WAL mode a reader never blocks the writer, nor the writer it). The
  copy is checked (``PRAGMA integrity_check``) before it takes its name. Restore: stop the bot,
  put the copy in the store's place (``MAFIA_DB``), start the bot.
- PostgreSQL: ``pg_dump --format=custom`` (one repeatable-read snapshot), run with the
  password in its environment, never on its command line. Restore: ``pg_restore --clean
  --if-exists --no-owner -d URL FILE`` into the (stopped bot's) database.

Copies are named by the time they were taken, ``mafia-20261202T061500Z.sqlite3`` or
``.pgdump``, so that they sort by age; ``keep`` removes the oldest of that name beyond it
(never another file). A copy is written under a temporary name and renamed when complete, so a
half-written copy never counts as one.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from db.errors import BackupError, StoreError
from db.sqlite.backup import copy_online
from db.urls import is_postgres_url, redact_secrets, shown

PREFIX: Final[str] = "mafia-"
SQLITE_SUFFIX: Final[str] = ".sqlite3"
POSTGRES_SUFFIX: Final[str] = ".pgdump"
#: The names of the copies this command makes (and may remove).
COPY_NAME: Final[re.Pattern[str]] = re.compile(
    r"^mafia-\d{8}T\d{6}Z(?:-\d+)?(?:\.sqlite3|\.pgdump)$"
)
#: pg_dump of a big store may take a while; a hung server must not hang the timer for ever.
PG_DUMP_TIMEOUT: Final[float] = 3600.0


def copy_name(at: dt.datetime, suffix: str, taken: set[str]) -> str:
    """The copy's file name for the time ``at`` (UTC), not one of ``taken``."""
    stamp = at.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    name = f"{PREFIX}{stamp}{suffix}"
    number = 1
    while name in taken:
        number += 1
        name = f"{PREFIX}{stamp}-{number}{suffix}"
    return name


def backup(
    database: str | os.PathLike[str], folder: Path, *, at: dt.datetime, keep: int | None = None
) -> Path:
    """Copy ``database`` into ``folder`` (made if missing), named by ``at``; then remove the
    oldest copies beyond ``keep``. The copy's path."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        taken = {p.name for p in folder.iterdir()}
    except OSError as e:
        raise BackupError(f"cannot write in {folder}: {e.strerror}") from None
    postgres = is_postgres_url(database)
    name = copy_name(at, POSTGRES_SUFFIX if postgres else SQLITE_SUFFIX, taken)
    target = folder / name
    partial = folder / f".{name}.partial"
    try:
        if postgres:
            _pg_dump(str(database), partial)
        else:
            copy_online(Path(os.fspath(database)), partial)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    if keep is not None:
        prune(folder, keep)
    return target


def prune(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest copies in ``folder`` beyond the newest ``keep``; the removed ones."""
    copies = sorted(p for p in folder.iterdir() if COPY_NAME.match(p.name))
    old = copies[: max(0, len(copies) - keep)]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def pg_dump_command(url: str, target: Path) -> tuple[list[str], dict[str, str]]:
    """The ``pg_dump`` command line and environment for ``url``: the password in
    ``PGPASSWORD`` (the command line is visible to every user of the machine), and a
    ``search_path`` setting (the store's schema) as ``--schema``."""
    parts = urlsplit(url)
    env = dict(os.environ)
    if parts.password is not None:
        env["PGPASSWORD"] = parts.password
        user = parts.username or ""
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{user}@{host}" if user else host)
    query = parse_qsl(parts.query, keep_blank_values=True)
    schemas = [value for key, value in query if key == "search_path"]
    query = [(key, value) for key, value in query if key != "search_path"]
    dsn = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(query)))
    command = [
        "pg_dump",
        "--format=custom",
        "--no-owner",
        f"--file={target}",
        *(f"--schema={s.strip()}" for schema in schemas for s in schema.split(",") if s.strip()),
        dsn,
    ]
    return command, env


def _pg_dump(url: str, target: Path) -> None:
    if shutil.which("pg_dump") is None:
        raise BackupError(
            "pg_dump is not installed: it comes with PostgreSQL's client tools "
            "(Debian, Ubuntu: apt-get install postgresql-client, of the server's version)"
        )
    command, env = pg_dump_command(url, target)
    try:
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=PG_DUMP_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise BackupError(f"pg_dump took over {PG_DUMP_TIMEOUT:g} s: stopped") from None
    if done.returncode != 0:
        secrets = tuple(s for s in (urlsplit(url).password,) if s)
        error = " ".join(done.stderr.split()) or f"exit status {done.returncode}"
        raise BackupError(f"pg_dump failed: {redact_secrets(error, secrets)}")


def backup_main(
    database: str | os.PathLike[str], folder: str, *, at: dt.datetime, keep: int | None
) -> int:
    """The command: the copy's path on standard output (status 0), or one line on standard
    error (status 1)."""
    try:
        path = backup(database, Path(folder).expanduser(), at=at, keep=keep)
    except StoreError as error:  # BackupError included
        print(f"backup of {shown(database)}: {error}", file=sys.stderr)
        return 1
    print(path)
    return 0
