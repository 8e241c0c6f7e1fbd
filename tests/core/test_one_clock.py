"""One injectable clock: nothing in the product reads the machine's clock beside it.

The game service reads its clock (``GameService(store, clock)``: ``discord.utils.utcnow`` in
the bot, virtual under SimCord; a fake in the tests) and binds the store to it
(``GameStore.use_clock``), so every time the bot decides on or stamps (a turn's opening and
resolution, a post, an outbox row, a heartbeat) comes from one clock. The outbox's leases
coordinate processes, not games: they are on a clock the processes share (the machine's, the
database server's), allowed below. R59
compares those times: under a clock that is not the machine's, a second clock would measure
nothing. Read from the source with ``ast`` (a new ``datetime.now()``, ``time.time()``,
``time.monotonic()`` or SQL ``CURRENT_TIMESTAMP`` fails here), with a short allow-list, each
entry justified; then the same clock exercised far from real time.
"""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.service import GameService
from db.store import SQLiteStore
from rules.downtime import Downtime
from tests.integration.test_downtime import activity_game
from tests.integration.test_service import GUILD

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("core", "rules", "db", "bot", "cogs")

#: Calls that read a clock: ``X.<name>()`` on the time and date modules and classes.
CLOCK_CALLS = frozenset(
    {
        "now",
        "utcnow",
        "today",
        "time",
        "time_ns",
        "monotonic",
        "monotonic_ns",
        "perf_counter",
        "perf_counter_ns",
        "process_time",
    }
)
#: Clock reads an SQL statement can make by itself.
SQL_CLOCKS = (
    "current_timestamp",
    "current_date",
    "current_time",
    "localtimestamp",
    "now()",
    "'now'",
    "clock_timestamp(",
    "statement_timestamp(",
    "transaction_timestamp(",
    "unixepoch(",
)

#: (file, function) -> why it may read the machine's clock.
ALLOWED: dict[tuple[str, str], str] = {
    ("core/service_base.py", "utc_now"): "the production clock itself: the service's default",
    ("db/convert.py", "machine_clock"): (
        "a store's clock until a service binds its own (a tool, a store test): db/tx.py only"
    ),
    ("db/tx.py", "_lease_now"): (
        "SQLite's outbox leases: process coordination on the clock every process on the host "
        "shares (each process's game clock is its own); no game time"
    ),
    ("bot/delivery/leases.py", "__init__"): "paces the lease renewals (process coordination)",
    ("bot/delivery/leases.py", "keep"): "paces the lease renewals (process coordination)",
    ("db/dialect.py", "lease_clock"): (
        "PostgreSQL's outbox leases: process coordination on the server's clock, so that "
        "deliverers on several hosts agree; no game time"
    ),
    ("db/sqlite/migrations.py", "backup_path"): "a backup file's name, before any store is open",
    ("db/sqlite/migrations.py", "_switch_to_wal"): "a busy timeout while a file is migrated",
    ("bot/tree.py", "interaction_check"): "a command's latency for the metrics: a duration",
    ("bot/tree.py", "command_outcome"): "a command's latency for the metrics: a duration",
    ("db/tx.py", "_observed"): "a store operation's latency for the metrics: a duration",
    ("main.py", "_cmd_health"): (
        "the health probe looks at the bot from outside, against the machine's time"
    ),
    ("main.py", "_cmd_backup"): "a copy is named by when the admin took it",
}


def product_files() -> list[Path]:
    files = [p for package in PRODUCT for p in (ROOT / package).rglob("*.py")]
    return sorted([*files, ROOT / "main.py"])


def _functions(tree: ast.AST) -> dict[ast.AST, str]:
    """Every node of ``tree`` -> the name of the innermost function holding it."""
    owner: dict[ast.AST, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            owner[child] = inner
            visit(child, inner)

    visit(tree, "<module>")
    return owner


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _reads(node: ast.AST) -> str | None:
    """What ``node`` reads of a clock, if it does."""
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name is None:
            return None
        parts = name.split(".")
        on_a_clock = {"datetime", "dt", "date", "time", "utils", "discord"} & set(parts[:-1])
        if parts[-1] in CLOCK_CALLS and on_a_clock:
            return name
        if parts[-1] in {"utcnow", "machine_clock", "utc_now"}:
            return name
    elif isinstance(node, ast.ImportFrom) and node.module == "time":
        names = [alias.name for alias in node.names if alias.name in CLOCK_CALLS]
        if names:
            return f"from time import {', '.join(names)}"
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value.lower()
        for sql in SQL_CLOCKS:
            if sql in text:
                return f"SQL {sql}"
    return None


def clock_reads(path: Path) -> Iterator[tuple[str, int, str]]:
    """(function, line, what) for each machine-clock read in ``path`` (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    owner = _functions(tree)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        what = _reads(node)
        if what is not None:
            yield owner.get(node, "<module>"), getattr(node, "lineno", 0), what


def test_nothing_but_the_injectable_clock_reads_the_time() -> None:
    found = []
    for path in product_files():
        rel = path.relative_to(ROOT).as_posix()
        for function, line, what in clock_reads(path):
            if (rel, function) not in ALLOWED:
                found.append(f"{rel}:{line} in {function}: {what}")
    assert found == [], (
        "the machine's clock read beside the injectable one (GameService.clock, bound to "
        "the store):\n" + "\n".join(found)
    )


def test_the_allow_list_is_still_needed() -> None:
    """Each exception is still in the code (a stale entry would hide a new read there)."""
    seen = {
        (path.relative_to(ROOT).as_posix(), function)
        for path in product_files()
        for function, _line, _what in clock_reads(path)
    }
    assert set(ALLOWED) <= seen


def test_the_check_finds_the_reads_it_forbids(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import time\nimport datetime as dt\nfrom datetime import datetime\n"
        "from time import monotonic\nimport discord\n\n"
        "def a():\n    return datetime.now(dt.UTC)\n\n"
        "def b():\n    return time.time() + time.monotonic()\n\n"
        "def c():\n    return discord.utils.utcnow()\n\n"
        "SQL = 'INSERT INTO t (at) VALUES (CURRENT_TIMESTAMP)'\n"
        "def d(deadline):\n    return deadline.time()\n",  # a datetime's time of day: fine
        encoding="utf-8",
    )
    what = sorted((line, w) for _f, line, w in clock_reads(sample))
    assert what == [
        (4, "from time import monotonic"),
        (8, "datetime.now"),
        (11, "time.monotonic"),
        (11, "time.time"),
        (14, "discord.utils.utcnow"),
        (16, "SQL current_timestamp"),
    ]


def test_only_the_store_engine_reads_the_machine_clock_helper() -> None:
    users = [
        path.relative_to(ROOT).as_posix()
        for path in product_files()
        if "machine_clock" in path.read_text(encoding="utf-8")
    ]
    assert sorted(users) == ["db/convert.py", "db/tx.py"]


# --- the same clock, far from real time ---------------------------------------------------------

#: Years away from any machine's clock: a stamp taken from the machine would stand out.
FAR = datetime(2071, 6, 1, 18, 0, tzinfo=UTC)


class FarClock:
    def __init__(self) -> None:
        self.now = FAR

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "far.db")
    yield s
    await s.close()


async def test_R59_every_stamp_and_the_downtime_follow_a_clock_far_from_real_time(
    store: SQLiteStore,
) -> None:
    """A game on a fake clock in 2071: its resolution, outbox rows, posts, sent marks and
    heartbeat are stamped in 2071, and two minutes down in its second ten-minute turn (opened
    by a resolution the store stamped) excuse that turn (R59)."""
    clock = FarClock()
    service = GameService(store, clock)
    game_id = await activity_game(service)  # four players, ten-minute turns, R52/R53
    for uid in range(1, 5):  # turn 1: everyone posts (nobody leaves for silence, R52)
        assert await service.post(GUILD, uid, "hello")
    await service.heartbeat("all", cause="down")
    for _ in range(20):  # turn 1, served: a beat every half minute
        clock.advance(seconds=30)
        await service.heartbeat("all")
    await service.deadline_reached(game_id)
    [first] = await store.resolutions(game_id)
    assert first.resolved_at == FAR + timedelta(minutes=10)
    for _ in range(6):  # three minutes of turn 2, served
        clock.advance(seconds=30)
        await service.heartbeat("all")
    clock.advance(minutes=2)  # down: no beat
    assert await service.heartbeat("all", cause="down") == FAR + timedelta(minutes=13)
    for _ in range(10):  # the rest of turn 2, served
        clock.advance(seconds=30)
        await service.heartbeat("all")
    await service.deadline_reached(game_id)
    entries = await store.log_entries(game_id, 2)
    noted = [e.payload for e in entries if e.payload.get("do") == "downtime"]
    assert noted == [Downtime(lost=120, length=600).to_dict()]
    rows = await store.outbox(game_id)
    assert rows and all(FAR <= r.created_at <= clock.now for r in rows)
    row = rows[0]
    assert await store.mark_sent(row.id)
    [sent] = [r for r in await store.outbox(game_id) if r.id == row.id]
    assert sent.sent_at == clock.now
    for entry in await store.log_entries(game_id):
        assert FAR <= entry.at <= clock.now
    posts = await store.posts(game_id)
    assert len(posts) == 4 and all(p.at == FAR for p in posts)
    game = await store.require_game(game_id)
    assert game.started_at == FAR and game.created_at == FAR
