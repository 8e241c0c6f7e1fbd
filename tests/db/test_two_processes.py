"""Two processes on one store: each owns the servers of its shard; SIGKILL either
of them at random points, start it again, and nothing is lost, nothing is doubled.

The children are ``tests/db/crash_driver.py`` runs with ``--shard-count 2 --shard-id K``: the
real service on the real store (a PostgreSQL database, and SQLite's file, which several
processes of one machine may share too), each loading and playing only the games of the
servers on its shard, delivering under leases (``claim_outbox``) at the same time as the
other. Their kill points are drawn at random: inside any store write of the service (before
it, after its commit, during it) or during start-up. The stored games must equal those of one
calm process playing all of them, every announcement must have been sent exactly once, and no
turn resolved twice.
"""

from __future__ import annotations

import random
import signal
import subprocess
from pathlib import Path

import pytest

from .test_crash import (
    ROOT,
    SEED,
    assert_same_games,
    driver_command,
    kill_options,
    new_store,
    run_to_end,
)

#: Kills of each process.
KILLS = 8


def _spawn(workdir: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        driver_command(workdir, *extra), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _run_shards(workdir: Path, rng: random.Random, kills: int) -> list[int]:
    """Run shards 0 and 1 of 2 at the same time, each restarted after every kill, with a new
    random kill point, ``kills`` times, then once more unkilled; returns each one's kills."""
    killed = [0, 0]

    def start(shard: int) -> subprocess.Popen[bytes]:
        shards = ["--shard-count", "2", "--shard-id", str(shard)]
        extra = kill_options(rng) if killed[shard] < kills else []
        return _spawn(workdir, *shards, *extra)

    running = {0: start(0), 1: start(1)}
    while running:
        for shard, proc in list(running.items()):
            try:
                _out, err = proc.communicate(timeout=0.05)
            except subprocess.TimeoutExpired:
                continue
            if proc.returncode == 0:
                del running[shard]
            elif proc.returncode == -signal.SIGKILL:
                killed[shard] += 1
                running[shard] = start(shard)
            else:
                for other in running.values():
                    other.kill()
                pytest.fail(f"shard {shard} failed with {proc.returncode}: {err.decode()}")
    return killed


@pytest.mark.parametrize("engine", ["postgres", "sqlite"])
def test_either_process_killed_at_random_loses_nothing_and_doubles_nothing(
    tmp_path: Path, engine: str
) -> None:
    calm, crashy = tmp_path / "calm", tmp_path / "crashy"
    new_store(calm, engine)
    new_store(crashy, engine)
    run_to_end(calm)  # one process, every server

    killed = _run_shards(crashy, random.Random(SEED), KILLS)

    assert_same_games(calm, crashy)
    # Both were killed, over and over (a run that finished before its kill point counts
    # not: the workload must be long enough for the kills to land).
    assert killed[0] >= KILLS // 2 and killed[1] >= KILLS // 2, killed


@pytest.mark.parametrize("engine", ["postgres", "sqlite"])
def test_a_reshard_from_one_process_to_two_in_the_middle_of_the_games(
    tmp_path: Path, engine: str
) -> None:
    """One process plays every server (one shard) and is killed in the middle of the games;
    two processes (two shards) carry them on to the end: the games move with their servers."""
    calm, crashy = tmp_path / "calm", tmp_path / "crashy"
    new_store(calm, engine)
    new_store(crashy, engine)
    run_to_end(calm)

    one = subprocess.run(
        driver_command(crashy, "--kill-at", "60", "--kill-when", "after"),
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert one.returncode == -signal.SIGKILL, one.stderr.decode()
    _run_shards(crashy, random.Random(SEED), kills=0)

    assert_same_games(calm, crashy)
