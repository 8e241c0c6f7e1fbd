"""README.md stays true: the invite link's permission integer is the one the bot needs."""

from __future__ import annotations

import re
from pathlib import Path

from bot.layout import REQUIRED_BOT_PERMISSIONS

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_invite_link_asks_for_the_permissions_the_bot_checks() -> None:
    numbers = re.findall(r"permissions=(\d+)", README.read_text(encoding="utf-8"))
    assert numbers == [str(REQUIRED_BOT_PERMISSIONS.value)]


def test_readme_names_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
