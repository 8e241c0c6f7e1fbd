"""Two bot processes on one database, kill -9 either: ``main.py demo --shard-count 2
--shard-id K``.

SimCord hosts one bot per process, so each process is a demo with its own simulated server, a
server on its shard; the two share only the database (PostgreSQL, and SQLite's file, which
several processes of one machine may share too). Each bot is created with its shard, so it
loads, arms and delivers its own server's game only. One process is SIGKILLed after a random
number of transcript lines (in the middle of a turn, a resolution or a delivery) and started
again with the same arguments until it finishes; the other runs untouched at the same time.

The proofs, against a calm reference of each shard's demo run alone on a store of its own:
both processes end well with their reference's ending; in the shared store every game is over,
every announcement sent, no turn resolved twice and each game's stored log is its reference's;
and the untouched process printed its reference word for word (its messages went out once and
in order, whatever the other did to the shared store meanwhile). Then one after the other: a
process leaves alone the other shard's game it finds running in the store. And two things the
restarts showed: a demo resumed in a pistol window ends when it would have (its clock), and a
finished demo shows its end as it was posted.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import pytest

from core.i18n import t
from core.shards import shard_of
from db.store import open_store
from sandbox.demo import DEMO_GUILD_ID, DemoOptions, demo_guild_id, run_demo
from tests.e2e.test_demo import final_announcement

pytestmark = pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = 8
#: Each shard's demo: (shard id, seed) of 2 shards.
SHARDS = ((0, 5), (1, 6))
#: Seconds any one demo process may take before the test gives up on it (never hang).
TIMEOUT = 60.0
#: Kills of the victim before it is let finish.
KILLS = 2


def _url(engine: str, tmp_path: Path, name: str) -> str:
    if engine == "postgres":
        from tests import pgserver

        return pgserver.fresh_url()
    return str(tmp_path / f"{name}.db")


def _start(shard: int, seed: int, db: str) -> subprocess.Popen[str]:
    return subprocess.Popen(_command(shard, seed, db), cwd=ROOT, stdout=subprocess.PIPE, text=True)


def _kill_after(proc: subprocess.Popen[str], count: int) -> list[str]:
    """The lines ``proc`` prints until the ``count``-th, then SIGKILL (all, if it ends first)."""
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if len(lines) >= count:
            proc.send_signal(signal.SIGKILL)
            break
    out, _err = proc.communicate(timeout=TIMEOUT)
    return lines + out.splitlines()


def _command(shard: int, seed: int, db: str) -> list[str]:
    return [
        sys.executable,
        "main.py",
        "demo",
        "--players",
        str(PLAYERS),
        "--seed",
        str(seed),
        "--shard-count",
        "2",
        "--shard-id",
        str(shard),
        "--db",
        db,
    ]


async def _stored(db: str) -> dict[int, dict[str, Any]]:
    """What the store holds of each game, by its server's id."""
    store = await open_store(db)
    try:
        games: dict[int, dict[str, Any]] = {}
        for game in await store.list_games():
            games[game.guild_id] = {
                "status": game.status,
                "winner": game.winner,
                "moment": (game.turn, game.phase, game.deadline),
                "outbox": [(o.id, o.sent) for o in await store.outbox(game.id)],
                "unsent": [o.id for o in await store.outbox(game.id) if not o.sent],
                "resolutions": [r.turn for r in await store.resolutions(game.id)],
                "script": await store.load_script(game.id),
            }
        return games
    finally:
        await store.close()


@contextmanager
def _processes() -> Iterator[list[subprocess.Popen[str]]]:
    """Every process started in the block is killed on the way out if still running."""
    started: list[subprocess.Popen[str]] = []
    try:
        yield started
    finally:
        for proc in started:
            if proc.poll() is None:
                proc.kill()
            proc.communicate()


@attrs.frozen
class Calm:
    """A shard's demo run alone to the end on a store of its own."""

    lines: list[str]  # its transcript
    game: dict[str, Any]  # its stored game (:func:`_stored`)


@pytest.fixture(scope="module")
def calm(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Calm]:
    """Each shard's calm reference, both run at once (each on a SQLite file of its own: the
    demo on PostgreSQL is the demo on SQLite word for word, tests/e2e/test_demo.py)."""
    folder = tmp_path_factory.mktemp("calm")
    dbs = {shard: str(folder / f"calm{shard}.db") for shard, _seed in SHARDS}
    with _processes() as started:
        started += [
            subprocess.Popen(
                _command(shard, seed, dbs[shard]), cwd=ROOT, stdout=subprocess.PIPE, text=True
            )
            for shard, seed in SHARDS
        ]
        outs = [proc.communicate(timeout=TIMEOUT)[0] for proc in started]
        assert [proc.returncode for proc in started] == [0, 0]
    references = {}
    for (shard, _seed), out in zip(SHARDS, outs, strict=True):
        games = asyncio.run(_stored(dbs[shard]))
        assert list(games) == [demo_guild_id(2, shard)]
        references[shard] = Calm(out.splitlines(), games[demo_guild_id(2, shard)])
    return references


def _play(options: DemoOptions) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = asyncio.run(run_demo(options, out))
    return code, out.getvalue().splitlines()


def test_demo_shard_options_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Both or neither, N from 1 to 16, K below N: else one line and status 2."""
    from main import main

    for wrong, expected in [
        (["--shard-count", "2"], "give both or neither"),
        (["--shard-id", "0"], "give both or neither"),
        (["--shard-count", "2", "--shard-id", "2"], "--shard-id must be from 0 to 1"),
        (["--shard-count", "17", "--shard-id", "0"], "from 1 to 16"),
        (["--shard-count", "0", "--shard-id", "0"], "from 1 to 16"),
        (["--shard-count", "4", "--shard-id", "-1"], "from 0 to 15"),
    ]:
        with pytest.raises(SystemExit) as exited:
            main(["demo", *wrong])
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert expected in err and len(err.strip().splitlines()) == 1, err


def test_a_demo_is_on_its_shard_and_plain_without_one() -> None:
    assert demo_guild_id() == DEMO_GUILD_ID
    for count in range(1, 17):
        ids = {demo_guild_id(count, k) for k in range(count)}
        assert len(ids) == count  # one server per shard
        for k in range(count):
            assert shard_of(demo_guild_id(count, k), count) == k
            assert demo_guild_id(count, k) == demo_guild_id(count, k)  # same on every run


#: Each process the victim once, on PostgreSQL. (SQLite's file, shared by the processes of one
#: machine, has its two at once in tests/db/test_two_processes.py, and one after the other
#: below: the time of the suite.)
@pytest.mark.parametrize(("engine", "victim"), [("postgres", 0), ("postgres", 1)])
def test_two_demo_processes_on_one_store_kill_9_either(
    engine: str, victim: int, tmp_path: Path, calm: dict[int, Calm]
) -> None:
    shared = _url(engine, tmp_path, "shared")
    seeds = dict(SHARDS)
    rng = random.Random(f"demo-processes:{engine}:{victim}")
    kills = 0
    finals: dict[int, list[str]] = {}
    lines: list[str]
    with _processes() as started:
        # Both at once on the one store; the other shard's process is never touched.
        procs = {shard: _start(shard, seed, shared) for shard, seed in SHARDS}
        started += procs.values()
        while True:
            proc = procs[victim]
            if kills < KILLS:  # killed after a random number of lines, mid-game
                lines = _kill_after(proc, rng.randint(2, len(calm[victim].lines) - 2))
            else:
                lines = proc.communicate(timeout=TIMEOUT)[0].splitlines()
            if proc.returncode != -signal.SIGKILL:
                break
            kills += 1
            procs[victim] = _start(victim, seeds[victim], shared)  # the same arguments
            started.append(procs[victim])
        assert proc.returncode == 0, f"shard {victim} ended with {proc.returncode}"
        finals[victim] = lines
        other = procs[1 - victim]
        finals[1 - victim] = other.communicate(timeout=TIMEOUT)[0].splitlines()
        assert other.returncode == 0, f"shard {1 - victim} ended with {other.returncode}"
    assert kills >= 1, "the victim finished before any kill"

    # Both end as when each ran alone; the untouched one printed its reference word for word.
    for shard, _seed in SHARDS:
        lines, reference = finals[shard], calm[shard].lines
        assert lines[-1] == reference[-1]
        assert final_announcement(lines) == final_announcement(reference)
    assert finals[1 - victim] == calm[1 - victim].lines

    # The shared store: each server's game, finished, sent, resolved once a turn, as alone.
    stored = asyncio.run(_stored(shared))
    assert sorted(stored) == sorted(demo_guild_id(2, shard) for shard, _seed in SHARDS)
    for shard, _seed in SHARDS:
        game, expected = stored[demo_guild_id(2, shard)], calm[shard].game
        assert game["status"] == "finished" and game["winner"] == expected["winner"]
        assert game["unsent"] == []
        assert game["resolutions"] == expected["resolutions"]  # one per turn, as alone
        assert game["script"] == expected["script"]


@pytest.mark.parametrize("engine", ["sqlite"])
def test_a_process_leaves_the_other_shards_game_alone(
    engine: str, tmp_path: Path, calm: dict[int, Calm]
) -> None:
    """Shard 1's process is killed mid-game, its game left running in the store; shard 0's
    then plays its own game to the end alone, loading, arming and delivering nothing of shard
    1's (whose deadlines its clock passes); shard 1's, started again, finishes its game."""
    shared = _url(engine, tmp_path, "shared")
    seeds = dict(SHARDS)
    rng = random.Random("demo-processes:alone")
    reference = calm[1].lines
    with _processes() as started:
        started.append(_start(1, seeds[1], shared))
        _kill_after(started[-1], rng.randint(len(reference) // 4, len(reference) // 2))
        assert started[-1].returncode == -signal.SIGKILL
        left = asyncio.run(_stored(shared))[demo_guild_id(2, 1)]
        assert left["status"] == "running"

        started.append(_start(0, seeds[0], shared))
        out, _err = started[-1].communicate(timeout=TIMEOUT)
        assert started[-1].returncode == 0
        assert out.splitlines() == calm[0].lines  # its own game only, word for word
        assert asyncio.run(_stored(shared))[demo_guild_id(2, 1)] == left  # untouched

        started.append(_start(1, seeds[1], shared))
        out, _err = started[-1].communicate(timeout=TIMEOUT)
        assert started[-1].returncode == 0
        lines = out.splitlines()
        assert lines[-1] == reference[-1]
        assert final_announcement(lines) == final_announcement(reference)
    stored = asyncio.run(_stored(shared))
    for shard, _seed in SHARDS:
        game, expected = stored[demo_guild_id(2, shard)], calm[shard].game
        assert game["status"] == "finished" and game["unsent"] == []
        assert game["resolutions"] == expected["resolutions"]
        assert game["script"] == expected["script"]


class Stopped(Exception):
    """The demo stopped where the test wanted (its output raised it)."""


class StopAt(io.StringIO):
    """A demo's output that stops the demo once it has printed ``text``."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def write(self, line: str) -> int:
        written = super().write(line)
        if self.text in line:
            raise Stopped(line)
        return written


def test_a_demo_resumed_in_the_pistol_window_ends_when_it_would_have(tmp_path: Path) -> None:
    """Seed 13: the commissar, killed on turn 4, shoots in the pistol window and his shot ends
    the game (R18). A demo stopped as the window opens and started again continues at the
    moment it opened (its clock is not left at its start): the shot, hence the end of the
    game in the final announcement, comes when it did in the uninterrupted run."""
    code, calm = _play(DemoOptions(players=PLAYERS, seed=13, db=str(tmp_path / "calm.db")))
    assert code == 0
    shot = t("en", "death.pistol", nick="Bison", role=t("en", "role.foundling"), by="Heron")
    assert any(shot in line for line in calm)
    stopped = str(tmp_path / "stopped.db")
    with pytest.raises(Stopped):
        asyncio.run(
            run_demo(DemoOptions(players=PLAYERS, seed=13, db=stopped), StopAt("Results of turn 4"))
        )
    code, resumed = _play(DemoOptions(players=PLAYERS, seed=13, db=stopped))
    assert code == 0 and "(turn 4)" in resumed[0]
    assert any(shot in line for line in resumed)
    assert final_announcement(resumed) == final_announcement(calm)


def test_a_finished_demo_shows_its_end_as_it_was_posted(tmp_path: Path) -> None:
    """Run again on the store of a finished game, the demo shows the final announcement as
    it went out: its roles list, its dates and the members as a client shows them."""
    db = str(tmp_path / "demo.db")
    code, calm = _play(DemoOptions(players=PLAYERS, seed=5, db=db))
    assert code == 0
    code, again = _play(DemoOptions(players=PLAYERS, seed=5, db=db))
    assert code == 0 and again[0].endswith("is over; it ended so:")
    assert again[-1] == calm[-1]
    assert final_announcement(again) == final_announcement(calm)
