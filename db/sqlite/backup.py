"""SQLite's part of ``main.py backup`` (:mod:`db.backup`): the online backup API from a
read-only connection, every page in one step (one consistent state, whatever the bot writes
meanwhile: in WAL mode a reader never blocks the writer), then the copy's integrity check."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from db.errors import BackupError


def copy_online(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"no database file at {source}")
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error as e:
        raise BackupError(f"cannot open {source}: {e}") from None
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # every page in one step: one consistent state
            check = dst.execute("PRAGMA integrity_check").fetchone()
            if check is None or check[0] != "ok":
                raise BackupError(f"the copy of {source} failed its integrity check: {check}")
        finally:
            dst.close()
    except sqlite3.Error as e:
        raise BackupError(f"cannot copy {source}: {e}") from None
    finally:
        src.close()
