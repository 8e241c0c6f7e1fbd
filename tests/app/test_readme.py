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


def _user_documents() -> list[Path]:
    return [README, *sorted((README.parent / "docs").glob("*.md"))]


def test_user_documents_stand_alone() -> None:
    """README and docs/ carry everything: no pointer to files a user of the bot never has."""
    for doc in _user_documents():
        text = doc.read_text(encoding="utf-8")
        assert "../shared" not in text, doc.name
        assert "RULES.md" not in text, doc.name


def test_paths_named_in_the_documents_exist() -> None:
    """Every project path the documents name in backquotes (``core/service.py``, ``cogs/``,
    ``tests/rules/test_new_role.py``) is there: the architecture section stays true."""
    root = README.parent
    tops = ("bench", "bot", "cogs", "core", "db", "docs", "locales", "rules", "sandbox", "tests")
    pattern = re.compile(rf"`((?:{'|'.join(tops)})/[\w./]*)`")
    missing = []
    for doc in _user_documents():
        for path in pattern.findall(doc.read_text("utf-8")):
            if "*" not in path and not (root / path).exists():
                missing.append(f"{doc.name}: {path}")
    assert missing == []
