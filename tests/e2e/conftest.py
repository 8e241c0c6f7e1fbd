"""End-to-end tests: the real bot (built by ``main.create_bot``) against SimCord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from discord.ext import commands

from bot.client import MafiaBot
from main import create_bot


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> AsyncIterator[commands.Bot]:
    """Our bot on a fresh database file. SimCord never calls ``bot.close()``, so the database
    (an aiosqlite thread that would keep the process alive) is closed here."""
    bot = create_bot(str(tmp_path / "mafia.db"))
    yield bot
    if isinstance(bot, MafiaBot):
        await bot.close_store()
