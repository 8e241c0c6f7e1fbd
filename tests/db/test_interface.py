"""The store's interface (db/ops/store.py, ``GameStore``): both engines inherit every operation
from it and override none, each operation carries its contract (a docstring) next to its body,
mypy rejects a store that lacks some, and no SQL or SQLite driver leaks out of the backends
(db/ops/, the operations written once for both engines; db/dialect.py, what differs between
them; db/sqlite/, db/postgres/; and db/sqlite/migrations.py, the SQLite schema)."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from db import interface
from db.errors import StoreError
from db.interface import GameStore
from db.models import OutboxItem, PlayerSpec, TableSettings
from db.postgres import PostgresStore
from db.store import SQLiteStore, is_postgres_url, open_store

ROOT = Path(__file__).resolve().parents[2]


def _operations(cls: type[Any]) -> dict[str, Any]:
    """The public methods of ``cls`` (its operations), with ``async with``'s two."""
    return {
        name: value
        for name, value in inspect.getmembers(cls)
        if inspect.isfunction(value)
        and (not name.startswith("_") or name in ("__aenter__", "__aexit__"))
    }


# --- the SQLite store satisfies the interface ---------------------------------------------------


async def test_the_sqlite_store_is_a_game_store(db_path: Path) -> None:
    # The typed assignment is the static check (see test_mypy_accepts_the_sqlite_store...); the
    # calls check that the interface is usable as it is.
    store: GameStore = await SQLiteStore.open(db_path)
    async with store:
        await store.save_table(TableSettings(guild_id=5, language="en"))
        game = await store.create_game(5, seed=1, schedule_kind="fast", timezone="UTC")
        await store.start_game(
            game.id, [PlayerSpec(user_id=1, nick="Anna", role="villager")], deadline=None
        )
        entry = await store.add_request(game.id, 1, "requests", {"by": "Anna", "do": "post"}, 1)
        assert entry.seq == 1
        assert [e.payload for e in await store.log_entries(game.id, 1)] == [
            {"by": "Anna", "do": "post"}
        ]
        [item_id] = await store.add_outbox(game.id, 1, [OutboxItem("note", {"text": "hi"})])
        assert await store.mark_sent(item_id)
        await store.add_audit(5, game.id, 9, "extend")
        [loaded] = await store.load_restart()
        assert [(p.nick, p.role) for p in loaded.players] == [("Anna", "villager")]
        assert loaded.log == [(1, "requests", {"by": "Anna", "do": "post"})]
    with pytest.raises(StoreError, match="closed"):
        await store.get_game(game.id)


async def test_open_store_returns_the_interface(target: str) -> None:
    store = await open_store(target)
    try:
        assert isinstance(store, PostgresStore if is_postgres_url(target) else SQLiteStore)
        assert await store.get_table(1) is None
    finally:
        await store.close()


def test_open_store_picks_postgresql_by_the_url_scheme() -> None:
    assert is_postgres_url("postgresql://bot@db.example/mafia")
    assert is_postgres_url("postgres://bot:secret@10.0.0.5:5433/mafia?search_path=bot")
    assert not is_postgres_url("mafia.db")
    assert not is_postgres_url("/srv/postgresql/mafia.db")
    assert not is_postgres_url(Path("postgresql://x"))  # a path is a file, whatever its name


#: Every backend of the interface, by its pytest id.
BACKENDS: dict[str, type[Any]] = {"sqlite": SQLiteStore, "postgres": PostgresStore}


def test_the_interface_is_what_the_service_imports() -> None:
    from db.ops.store import GameStore as ops_store

    assert GameStore is ops_store
    assert {"create_game", "claim_outbox", "stand_by", "close", "use_clock"} <= set(
        _operations(GameStore)
    )


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_both_engines_run_the_same_operations_and_override_none(backend: str) -> None:
    """Each engine adds its transactions (``_engine_read``...) and ``open``; every operation,
    the lifecycle's included, is the one written in db/ops/ (or db/tx.py)."""
    store = BACKENDS[backend]
    assert issubclass(store, GameStore)
    ours = _operations(store)
    assert set(ours) - {"open"} == set(_operations(GameStore))
    overridden = [name for name, fn in _operations(GameStore).items() if ours[name] is not fn]
    assert overridden == []


@pytest.mark.parametrize("name", sorted(_operations(GameStore)))
def test_every_operation_states_its_contract(name: str) -> None:
    fn = _operations(GameStore)[name]
    assert inspect.iscoroutinefunction(fn) or name == "use_clock"
    if not name.startswith("__"):
        assert inspect.getdoc(fn), f"{name} has no docstring: its contract goes with its body"


def test_mypy_accepts_the_sqlite_store_as_a_game_store_and_rejects_half_a_store(
    tmp_path: Path,
) -> None:
    api = pytest.importorskip("mypy.api")
    half = tmp_path / "half_a_store.py"
    half.write_text(
        "from pathlib import Path\n"
        "from db.interface import GameStore\n"
        "from db.ops.outbox import OutboxOps\n"
        "from db.sqlite.base import SQLiteBase\n\n\n"
        "class HalfAStore(OutboxOps, SQLiteBase):\n"
        "    pass\n\n\n"
        "async def f(path: Path) -> GameStore:\n"
        "    return await HalfAStore.open(path)\n",
        encoding="utf-8",
    )
    this = Path(__file__).resolve()
    # Its own cache: other options than `make typecheck`'s would invalidate that one.
    cache = ROOT / ".mypy_cache" / "test_interface"
    out, err, status = api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(cache), str(this), str(half)]
    )
    lines = [line for line in out.splitlines() if ": error:" in line]
    assert [line for line in lines if half.name not in line] == [], out + err
    # The negative control: the check is live (the outbox alone is not a GameStore).
    assert any(half.name in line and "GameStore" in line for line in lines), out + err
    assert status == 1


# --- no SQL and no SQLite driver outside db/sqlite/ ---------------------------------------------

_SQL = re.compile(
    r"\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\b|\bUPDATE\s+\w+\s+SET\b"
    r"|\bDELETE\s+FROM\b|\bCREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\b|\bPRAGMA\b"
    r"|\bON\s+CONFLICT\b|^\s*(?:BEGIN|COMMIT|ROLLBACK)\b"
)
_DRIVERS = ("sqlite3", "aiosqlite", "asyncpg")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = node.body[0] if node.body else None
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant):
                ids.add(id(doc.value))
    return ids


def _sql_and_drivers(path: Path) -> list[str]:
    """Each string constant that looks like SQL, and each import of a SQLite driver."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and _SQL.search(node.value):
                found.append(f"{path}:{node.lineno}: SQL {node.value[:50]!r}")
        elif isinstance(node, ast.Import):
            found += [
                f"{path}:{node.lineno}: import {a.name}"
                for a in node.names
                if a.name.split(".")[0] in _DRIVERS
            ]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in _DRIVERS:
            found.append(f"{path}:{node.lineno}: from {node.module} import")
    return found


def _outside_the_backend() -> list[Path]:
    db = ROOT / "db"
    # migrate-store (transfer.py) copies rows from one engine to the other, and backup.py copies
    # either engine's store (SQLite's online backup, pg_dump): they speak both.
    # dialect.py holds the pieces of SQL that differ between the engines (db/ops/ asks it).
    outside = ("transfer.py", "backup.py", "dialect.py")
    files = [p for p in sorted(db.glob("*.py")) if p.name not in outside]
    for package in ("core", "bot", "cogs", "rules", "sandbox"):
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def test_no_sql_or_sqlite_driver_outside_the_sqlite_backend() -> None:
    # (db/postgres/ is a backend too: the scan reads db/*.py, not its subpackages; asyncpg is
    # a driver like sqlite3.)
    files = _outside_the_backend()
    names = {p.relative_to(ROOT).as_posix() for p in files}
    assert {"db/interface.py", "db/models.py", "db/store.py", "core/service.py"} <= names
    leaks = [line for path in files for line in _sql_and_drivers(path)]
    assert leaks == []


def test_the_scan_finds_the_sql_of_the_sqlite_backend() -> None:
    """The scanner is live: it sees every concern's statements (written once, in db/ops/, for
    both engines, which import no driver there) and the driver imports."""
    for name in ("games", "players", "requests", "outbox", "audit", "settings", "loading"):
        found = _sql_and_drivers(ROOT / "db" / "ops" / f"{name}.py")
        assert any(": SQL " in line for line in found), name
        assert not any("import" in line for line in found), name
    found = _sql_and_drivers(ROOT / "db" / "sqlite" / "base.py")
    assert any("PRAGMA" in line for line in found)
    assert any("import sqlite3" in line for line in found)
    assert any("import aiosqlite" in line for line in found)


def test_the_scan_finds_the_sql_of_the_postgresql_backend() -> None:
    found = _sql_and_drivers(ROOT / "db" / "dialect.py")
    assert any(": SQL " in line for line in found)  # the engines' differences
    found = _sql_and_drivers(ROOT / "db" / "postgres" / "base.py")
    assert any("import asyncpg" in line for line in found)
    assert any("from asyncpg.pool import" in line for line in found)


def test_the_interface_does_not_depend_on_a_backend() -> None:
    db = ROOT / "db"
    modules: list[Path] = [
        Path(str(interface.__file__)),
        db / "models.py",
        db / "scripts.py",
        *sorted((db / "ops").glob("*.py")),
    ]
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        } | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        backends = ("db.sqlite", "db.postgres", "db.store")
        assert not {m for m in imported if m.startswith(backends)}
