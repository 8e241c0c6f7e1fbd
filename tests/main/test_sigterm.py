"""SIGTERM (Docker's and systemd's stop) stops the real bot, in a real process, as Ctrl-C
does: the row being sent finishes, the store closes cleanly, the exit status is 0 within the
grace period (Docker waits 10 s before it kills; the bound here is the busy machine's, far
wider, since no test races the machine's speed)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from db.sqlite.migrations import closed_cleanly

ROOT = Path(__file__).resolve().parents[2]
#: How long the child may take on the busiest machine, start-up included.
BOUND_SECONDS = 120


def _child(database: Path, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.main.sigterm_driver", "--db", str(database), "--mode", mode],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _posts(database: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(database)
    try:
        rows = conn.execute("SELECT kind, sent FROM outbox WHERE kind = 'post'").fetchall()
        return [(str(k), int(s)) for k, s in rows]
    finally:
        conn.close()


def test_sigterm_stops_a_running_bot_with_status_0(tmp_path: Path) -> None:
    database = tmp_path / "mafia.db"
    child = _child(database, "idle")
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # blocks until the game runs: no timing involved
        assert line == "ready\n", child.stderr.read() if child.stderr else ""
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=BOUND_SECONDS)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert out == "stopped\n"
    assert closed_cleanly(database)  # the store's close ran


def test_sigterm_while_a_post_is_sent_lets_it_finish(tmp_path: Path) -> None:
    database = tmp_path / "mafia.db"
    child = _child(database, "sending")
    try:
        out, err = child.communicate(timeout=BOUND_SECONDS)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    assert out == "stopped\n"
    assert closed_cleanly(database)
    assert _posts(database) == [("post", 1)]  # sent and marked: nothing to send twice
