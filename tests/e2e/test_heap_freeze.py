"""`main.py run` freezes the start-up heap (BotSettings.freeze_heap): a full garbage
collection then skips the modules and the loaded games instead of stalling every game."""

from __future__ import annotations

import gc
from pathlib import Path

import simcord

from bot.client import MafiaBot
from main import create_bot


async def _started_bot_freezes(tmp_path: Path, **settings: object) -> int:
    bot = create_bot(str(tmp_path / "mafia.db"), **settings)
    assert isinstance(bot, MafiaBot)
    try:
        async with simcord.run(bot):
            return gc.get_freeze_count()
    finally:
        await bot.close_store()
        gc.unfreeze()


async def test_run_freezes_the_start_up_heap(tmp_path: Path) -> None:
    """``create_bot``'s defaults are production's (``main.py run``)."""
    assert await _started_bot_freezes(tmp_path) > 10_000


async def test_tests_and_tools_may_leave_the_collector_alone(tmp_path: Path) -> None:
    assert await _started_bot_freezes(tmp_path, freeze_heap=False) == 0
