"""A real PostgreSQL server for the tests, started on demand: no mock of the database.

``server()`` returns the URL of a server for this test run:

- ``MAFIA_TEST_PG`` (a ``postgresql://`` URL of a database the tests may fill) is used as is;
- otherwise a throw-away server is started once per run, from Debian's ``postgresql`` package
  (``/usr/lib/postgresql/*/bin``) or ``initdb``/``pg_ctl`` on the PATH: a new data directory in
  the temporary folder, a free port on 127.0.0.1, trust authentication for its own user
  ``mafia``, and no fsync (the tests crash the bot, never the server). Run as root, the server
  runs as the ``postgres`` user (PostgreSQL refuses root). It is stopped and removed at exit.

Each test gets a database schema of its own (:func:`fresh_url`): the URL carries
``?search_path=<schema>``, which asyncpg passes to the server as a setting, so every table the
store creates lives in that schema and the tests share one server without seeing each other.

Without a server (no PostgreSQL installed and no ``MAFIA_TEST_PG``) the PostgreSQL tests are
skipped with the reason, unless ``MAFIA_REQUIRE_PG=1`` (CI sets it): then they fail.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

_started: str | None = None
_failure: str | None = None
_counter = itertools.count(1)


def _bin_dir() -> Path | None:
    explicit = os.environ.get("MAFIA_PG_BIN")
    if explicit:
        return Path(explicit)
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_server_user(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


def _start(*, durable: bool = False) -> str:
    bindir = _bin_dir()
    if bindir is None:
        raise RuntimeError(
            "PostgreSQL is not installed (no initdb): apt-get install postgresql, "
            "or set MAFIA_TEST_PG to a postgresql:// URL"
        )
    root = Path(tempfile.mkdtemp(prefix="mafia-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    subprocess.run(
        _as_server_user(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "mafia",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
                "--no-instructions",
            ]
        ),
        check=True,
        capture_output=True,
        env=env,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=200"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    subprocess.run(
        _as_server_user(
            [
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
        env=env,
    )

    def stop() -> None:
        with contextlib.suppress(Exception):
            subprocess.run(
                _as_server_user(
                    [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
                ),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(root, ignore_errors=True)

    atexit.register(stop)
    url = f"postgresql://mafia@127.0.0.1:{port}/postgres"
    _wait_ready(url)
    return url


def _run(make: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run a coroutine to its end on a loop of its own, in a thread: callable from sync code
    and from inside a running event loop alike."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(lambda: asyncio.run(make())).result()


def _wait_ready(url: str) -> None:
    import asyncpg

    async def ping() -> None:
        conn = await asyncpg.connect(url)
        await conn.close()

    deadline = time.monotonic() + 30
    while True:
        try:
            _run(ping)
            return
        except (OSError, asyncpg.PostgresError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def start_server(*, durable: bool = True) -> str:
    """A new server of its own (the benchmarks'): ``durable`` keeps PostgreSQL's defaults
    (fsync, synchronous commit), so that a commit costs what it costs in production. Stopped
    at exit. Raises RuntimeError (or OSError, CalledProcessError) when none can start."""
    return _start(durable=durable)


def server() -> str | None:
    """The URL of this run's server (started on first use), or None with the reason in
    :func:`failure` when there is none."""
    global _started, _failure
    if _started is not None:
        return _started
    if _failure is not None:
        return None
    explicit = os.environ.get("MAFIA_TEST_PG")
    if explicit:
        _started = explicit
        return _started
    try:
        _started = _start()
    except (RuntimeError, OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", b"") or b""
        _failure = f"no PostgreSQL server for the tests: {e} {detail.decode(errors='replace')}"
        return None
    return _started


def failure() -> str:
    return _failure or "no PostgreSQL server"


def require_server() -> str:
    """The server's URL; skips the test without one (fails it when MAFIA_REQUIRE_PG=1)."""
    url = server()
    if url is None:
        if os.environ.get("MAFIA_REQUIRE_PG") == "1":
            pytest.fail(failure())
        pytest.skip(failure())
    return url


def fresh_url() -> str:
    """A URL whose tables live in a new, empty schema of this run's server."""
    import asyncpg

    base = require_server()
    schema = f"t{os.getpid()}_{next(_counter)}"

    async def create() -> None:
        conn = await asyncpg.connect(base)
        try:
            await conn.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await conn.close()

    _run(create)
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}search_path={schema}"
