"""Store benchmarks: request throughput and latency, the start's batch read, memory of loaded games.

    python -m bench.db_bench [--games 1000] [--requests 2000]

Works on a real file in a temporary directory holding ``--games`` running games (8 players,
two resolved turns and a third in progress: about 60 log entries each).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from db.sqlite import migrations
from db.store import SQLiteStore

PLAYERS = [
    ("Anna", "commissar"),
    ("Bob", "mafioso"),
    ("Cid", "boss"),
    ("Dan", "villager"),
    ("Eve", "doctor"),
    ("Fay", "villager"),
    ("Gus", "villager"),
    ("Hal", "sergeant"),
]
NOW = "2025-03-01T09:00:00.000000+00:00"


def _turn_entries(rng: random.Random, turn: int) -> list[tuple[str, dict[str, Any]]]:
    nicks = [n for n, _ in PLAYERS]
    out: list[tuple[str, dict[str, Any]]] = []
    for nick in nicks:
        out.extend(("requests", {"by": nick, "do": "post"}) for _ in range(rng.randint(1, 3)))
        if turn > 1:
            target = rng.choice([n for n in nicks if n != nick])
            out.append(("requests", {"by": nick, "do": "vote", "target": target}))
    out.append(("requests", {"by": "Bob", "do": "kill", "target": "Dan"}))
    out.append(("requests", {"by": "Anna", "do": "check", "target": "Cid"}))
    rng.shuffle(out)
    return out


def populate(path: Path, games: int) -> int:
    """Write ``games`` running games straight into a fresh database; returns log rows."""
    migrations.migrate(path)
    rng = random.Random(1)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    rows = 0
    for gid in range(1, games + 1):
        conn.execute(
            "INSERT INTO games (id, guild_id, table_id, status, seed, schedule_kind, "
            "schedule_params, timezone, turn, phase, deadline, created_at, updated_at) "
            "VALUES (?, ?, ?, 'running', ?, 'forum', '{}', 'Europe/Moscow', 3, 'open', ?, ?, ?)",
            (
                gid,
                10_000 + gid,
                10_000 + gid,  # each server's first table is keyed by the server's id
                gid,
                f"2025-03-0{1 + gid % 9}T18:00:00.000000+00:00",
                NOW,
                NOW,
            ),
        )
        conn.executemany(
            "INSERT INTO players (game_id, seat, user_id, nick, role) VALUES (?, ?, ?, ?, ?)",
            [(gid, seat, gid * 100 + seat, n, r) for seat, (n, r) in enumerate(PLAYERS)],
        )
        entries = []
        for turn in (1, 2, 3):
            entries += [(turn, s, p) for s, p in _turn_entries(rng, turn)]
        conn.executemany(
            "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, user_id, "
            "at) VALUES (?, ?, ?, ?, ?, 'accepted', NULL, ?)",
            [(gid, t, i, s, json.dumps(p), NOW) for i, (t, s, p) in enumerate(entries, start=1)],
        )
        rows += len(entries)
        conn.executemany(
            "INSERT INTO resolutions (game_id, turn, result, resolved_at) VALUES (?, ?, ?, ?)",
            [(gid, t, json.dumps({"turn": t, "deaths": [], "winner": None}), NOW) for t in (1, 2)],
        )
    conn.execute("COMMIT")
    conn.close()
    return rows


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench_requests(path: Path, games: int, count: int, synchronous: str) -> None:
    store = await SQLiteStore.open(path, synchronous=synchronous)
    rng = random.Random(2)
    try:
        latencies: list[float] = []
        start = time.perf_counter()
        for i in range(count):
            gid = rng.randint(1, games)
            t0 = time.perf_counter()
            await store.add_request(gid, 3, "requests", {"by": "Fay", "do": "post", "i": i}, 1)
            latencies.append(time.perf_counter() - t0)
        seq_elapsed = time.perf_counter() - start

        start = time.perf_counter()
        await asyncio.gather(
            *(
                store.add_request(
                    rng.randint(1, games), 3, "requests", {"by": "Gus", "do": "post"}, 1
                )
                for _ in range(count)
            )
        )
        par_elapsed = time.perf_counter() - start
    finally:
        await store.close()
    print(
        f"db: add_request, synchronous={synchronous}: {count / seq_elapsed:,.0f} req/s one "
        f"after another (p50 {_pct(latencies, 0.5) * 1e3:.2f} ms, "
        f"p99 {_pct(latencies, 0.99) * 1e3:.2f} ms); "
        f"{count / par_elapsed:,.0f} req/s from {count} concurrent tasks"
    )


async def bench_load(path: Path, games: int) -> None:
    """The store's part of the bot's start: the running games' batch read (``load_restart``;
    the whole start path is ``bench.restart_bench``'s figure)."""
    store = await SQLiteStore.open(path)
    try:
        start = time.perf_counter()
        running = await store.running_games()
        clock_elapsed = time.perf_counter() - start

        start = time.perf_counter()
        loaded = await store.load_restart()
        load_elapsed = time.perf_counter() - start
        del loaded

        tracemalloc.start()
        loaded = await store.load_restart()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        entries = sum(len(g.log) for g in loaded)
    finally:
        await store.close()
    print(
        f"db: start-up with {len(running)} running games: running_games() "
        f"{clock_elapsed * 1e3:.1f} ms; load_restart() (players and logs, no snapshots, "
        f"{entries:,} entries) {load_elapsed * 1e3:.0f} ms"
    )
    print(
        f"db: memory of {len(loaded)} loaded games (tracemalloc): {current / 2**20:.1f} MiB "
        f"held, {peak / 2**20:.1f} MiB peak ({current / max(1, len(loaded)) / 1024:.1f} KiB "
        "per game)"
    )


#: The size the store's code (db/, every engine and concern) should stay near.
GOAL_DB_LINES = 5_000


def db_lines() -> tuple[int, int]:
    """Lines of Python in db/ (every file, migrations included), and in db/ops/ (the
    operations, written once for both engines)."""
    root = Path(__file__).resolve().parents[1] / "db"

    def count(paths: list[Path]) -> int:
        return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in paths)

    return count(sorted(root.rglob("*.py"))), count(sorted((root / "ops").glob("*.py")))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.db_bench")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args(argv)
    total, ops = db_lines()
    print(
        f"db: {total:,} lines of Python in db/ / goal ~{GOAL_DB_LINES:,} = "
        f"{total / GOAL_DB_LINES:.2f} (of which {ops:,} in db/ops/, the operations written "
        "once for both engines)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        start = time.perf_counter()
        rows = populate(path, args.games)
        size = path.stat().st_size
        print(
            f"db: {args.games} running games, {rows:,} log entries, {size / 2**20:.1f} MiB "
            f"file (built in {time.perf_counter() - start:.1f} s)"
        )
        asyncio.run(bench_load(path, args.games))
        for synchronous in ("FULL", "NORMAL"):
            asyncio.run(bench_requests(path, args.games, args.requests, synchronous))


if __name__ == "__main__":
    main()
