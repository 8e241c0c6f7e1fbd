"""The integrity check at start runs only after a run that did not close cleanly.

A clean ``close`` leaves ``FILE-clean`` (the database's size and modification time); opening
removes it before anything is written. SIGKILL while open, a change to the file since the
clean close, or a connection still open elsewhere: the next start checks the file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from db.sqlite import migrations
from db.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[2]

KILLED_WHILE_OPEN = """
import asyncio, os, signal, sys
from db.store import SQLiteStore

async def main():
    store = await SQLiteStore.open(sys.argv[1])
    await store.create_game(7, seed=1, schedule_kind="forum", timezone="UTC")
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


async def _checked(path: Path) -> bool:
    store = await SQLiteStore.open(path)
    try:
        return store.integrity_checked
    finally:
        await store.close()


async def test_a_clean_close_spares_the_next_start_its_integrity_check(db_path: Path) -> None:
    assert await _checked(db_path)  # a new file: no marker yet
    assert migrations.clean_marker(db_path).exists()
    assert not await _checked(db_path)
    assert not await _checked(db_path)


async def test_a_run_killed_while_open_is_checked_at_the_next_start(db_path: Path) -> None:
    assert await _checked(db_path)
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_WHILE_OPEN, str(db_path)], cwd=ROOT, check=False
    )
    assert proc.returncode == -signal.SIGKILL
    assert not migrations.clean_marker(db_path).exists()  # opening removed it
    assert await _checked(db_path)
    store = await SQLiteStore.open(db_path)  # the killed run's commit survived
    try:
        assert await store.open_game(7) is not None
    finally:
        await store.close()
    assert not await _checked(db_path)  # and this one closed cleanly again


async def test_a_file_changed_after_a_clean_close_is_checked(db_path: Path) -> None:
    assert await _checked(db_path)
    st = db_path.stat()
    os.utime(db_path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # restored, copied...
    assert await _checked(db_path)


async def test_no_marker_while_another_connection_has_the_file_open(db_path: Path) -> None:
    other = await SQLiteStore.open(db_path)
    try:
        await _checked(db_path)  # opened and closed while `other` still has the file open
        assert not migrations.clean_marker(db_path).exists()
    finally:
        await other.close()
    assert migrations.clean_marker(db_path).exists()  # the last one out leaves it
    assert not await _checked(db_path)


async def test_migrating_counts_as_opening(db_path: Path) -> None:
    """``migrate`` (the store's first step) removes the marker too: the file may change."""
    assert await _checked(db_path)
    assert not migrations.migrate(db_path).checked
    assert migrations.migrate(db_path).checked
