"""End-to-end tests: the real bot (built by ``main.create_bot``) against SimCord."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from discord.ext import commands
from simcord import Env
from simcord.http import router

from bot.client import MafiaBot
from core.i18n import Lang
from main import create_bot
from sandbox.clients import LOCALE_OF
from sandbox.contract import DiscordContract
from tests.e2e.helpers import TEST_BOT, Faults, Restart, bot_of, client_locale

ENGINES = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module that sets ``BOTH_ENGINES = True`` plays each of its games on SQLite and on
    PostgreSQL (tests/pgserver.py: a real server, a schema per test)."""
    if "database" in metafunc.fixturenames and getattr(metafunc.module, "BOTH_ENGINES", False):
        metafunc.parametrize("database", ENGINES, indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The store the test's bot runs on: a fresh SQLite file, or (parametrised) a fresh
    PostgreSQL schema."""
    if getattr(request, "param", "sqlite") == "postgres":
        from tests import pgserver

        return pgserver.fresh_url()
    return str(tmp_path / "mafia.db")


@pytest.fixture(autouse=True)
def discord_contract(monkeypatch: pytest.MonkeyPatch) -> Iterator[DiscordContract]:
    """The contract layer (sandbox/contract/): every request the bot sends in this
    test is checked against Discord's published limits. One that breaks a limit is refused as
    Discord would (HTTP 400), and fails the test at teardown, naming the limit and its source
    in Discord's documentation. A test that sends one on purpose reads ``contract.take()``."""
    contract = DiscordContract()
    monkeypatch.setattr(router, "dispatch", contract.guard(router.dispatch))
    yield contract
    contract.assert_clean()


@pytest_asyncio.fixture
async def simcord_bot(database: str) -> AsyncIterator[commands.Bot]:
    """Our bot on a fresh store, as production runs it (R59's heartbeat on). SimCord never
    calls ``bot.close()``, so the database (an aiosqlite thread that would keep the process
    alive) is closed here."""
    bot = create_bot(database, **TEST_BOT)
    yield bot
    if isinstance(bot, MafiaBot):
        await bot.close_store()


@pytest.fixture
def russian_clients() -> Iterator[None]:
    """Every member's Discord client is Russian: a test of a Russian game flags itself with
    ``@pytest.mark.usefixtures("russian_clients")`` to read its private replies in Russian
    (they follow the reader's client; SimCord alone sends ``en-US``)."""
    with client_locale(None, LOCALE_OF["ru"]):
        yield


@pytest.fixture
def clients_in(lang: Lang) -> Iterator[None]:
    """Every member's Discord client speaks ``lang``, the test's ``lang`` parameter (a test
    run in each language flags itself with ``@pytest.mark.usefixtures("clients_in")``)."""
    with client_locale(None, LOCALE_OF[lang]):
        yield


@pytest_asyncio.fixture
async def restart(simcord_env: Env) -> AsyncIterator[Restart]:
    """Stop the running bot (``close``: its clock, its gateway, its database) and start a new
    one from ``create_bot`` on the same database file, as a process restart would (with
    ``settings``, e.g. the shards, as the new process's command line gives them)."""
    started: list[MafiaBot] = []

    async def go(
        while_stopped: Callable[[str], Awaitable[None]] | None = None, **settings: object
    ) -> MafiaBot:
        """``while_stopped(database)`` runs between the stop and the new start."""
        old = bot_of(simcord_env)
        await old.close()
        if while_stopped is not None:
            await while_stopped(old.database)
        new = create_bot(old.database, **TEST_BOT, **settings)
        assert isinstance(new, MafiaBot)
        started.append(new)
        await simcord_env.restart_bot(new)  # login, setup_hook, READY: as at a real start
        return new

    yield go
    for bot in started:
        await bot.close_store()


@pytest.fixture
def faults(monkeypatch: pytest.MonkeyPatch) -> Faults:
    """Failures injected in SimCord's HTTP layer (tests/e2e/helpers.py), none until set."""
    return Faults(monkeypatch)
