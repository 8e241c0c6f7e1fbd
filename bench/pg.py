"""PostgreSQL for the benchmarks: ``/vote`` and delivery print their figures on
PostgreSQL beside SQLite's.

The server is the machine's PostgreSQL, started by the benchmark itself with PostgreSQL's
durable defaults (fsync and synchronous commit on: a commit costs what it costs in
production), on a temporary data directory and port, and stopped at exit
(``tests/pgserver.py``); or the one at ``$MAFIA_BENCH_PG`` (a ``postgresql://`` URL of a
database the benchmark may fill). Each run gets a new schema of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

ENGINE_NAMES = {"sqlite": "SQLite (synchronous=FULL)", "postgres": "PostgreSQL (fsync on)"}

_server: str | None = None
_schemas = itertools.count(1)


def unavailable() -> str | None:
    """None when a PostgreSQL server can be had here, else why not."""
    from tests import pgserver

    if os.environ.get("MAFIA_BENCH_PG") or pgserver._bin_dir() is not None:
        return None
    return "no PostgreSQL here (install postgresql, or set MAFIA_BENCH_PG to a URL)"


def run_aside(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine on an event loop of its own in a thread: the benchmark's own checks
    put no load on the loop being measured."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(_call(make))).result()


async def _call(make: Callable[[], Awaitable[T]]) -> T:
    return await make()


def database() -> str:
    """A URL whose tables live in a new, empty schema of the benchmarks' server."""
    global _server
    import asyncpg

    from tests import pgserver

    if _server is None:
        _server = os.environ.get("MAFIA_BENCH_PG") or pgserver.start_server(durable=True)
    schema = f"bench{os.getpid()}_{next(_schemas)}"
    base = _server

    async def create() -> None:
        conn = await asyncpg.connect(base)
        try:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await conn.close()

    run_aside(create)
    return f"{base}{'&' if '?' in base else '?'}search_path={schema}"


def query(url: str, sql: str, *args: Any) -> list[Any]:
    """The rows of one statement, on a connection of its own (see :func:`run_aside`)."""
    import asyncpg

    async def go() -> list[Any]:
        conn = await asyncpg.connect(url)
        try:
            return list(await conn.fetch(sql, *args))
        finally:
            await conn.close()

    return run_aside(go)
