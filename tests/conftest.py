"""Fixtures for every test package."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.browser import Browser, launch


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    """A headless Chromium (tests/browser.py), closed after the test. Without Chromium the
    test fails, saying how to install it, unless MAFIA_SKIP_BROWSER=1 (then it is skipped)."""
    async with launch() as running:
        yield running
