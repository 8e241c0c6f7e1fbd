"""README.md and docs/ stay true: the invite link's permission integer is the one the bot
needs, the documents stand alone, and the references (rules, commands) match the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from discord import app_commands

import main
from bot.client import MafiaBot
from bot.layout import INVITE_PERMISSIONS, REQUIRED_BOT_PERMISSIONS

README = Path(__file__).resolve().parents[2] / "README.md"
DOCS = README.parent / "docs"


def test_readme_invite_link_asks_for_the_permissions_the_bot_checks() -> None:
    numbers = re.findall(r"permissions=(\d+)", README.read_text(encoding="utf-8"))
    assert numbers == [str(INVITE_PERMISSIONS.value)]
    required = REQUIRED_BOT_PERMISSIONS.value
    assert INVITE_PERMISSIONS.value & required == required


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


def _rule_ids_in_test_names() -> dict[int, str]:
    """Rule ID -> one test named after it (``test_R33_...``, ``test_R3_R49_...``)."""
    found: dict[int, str] = {}
    for path in sorted((README.parent / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_R"
            ):
                for number in re.findall(r"R(\d+)(?=_)", node.name):
                    found.setdefault(int(number), f"{path.name}::{node.name}")
    return found


def test_every_rule_id_named_by_a_test_is_in_the_reference() -> None:
    """``grep R33`` finds the rule in docs/REFERENCE.md as well as its code and tests."""
    reference = (DOCS / "REFERENCE.md").read_text(encoding="utf-8")
    cited = _rule_ids_in_test_names()
    assert len(cited) > 40  # the suite does name its tests after the rules
    missing = {
        f"R{number}": test
        for number, test in sorted(cited.items())
        if not re.search(rf"\bR{number}\b", reference)
    }
    assert missing == {}


def test_the_reference_defines_every_rule_id() -> None:
    """Every ID from R1 to R56 is defined in the reference: a list item that starts with it,
    or (R39-R42) the original's order of resolution quoted at the head of section 8."""
    reference = (DOCS / "REFERENCE.md").read_text(encoding="utf-8")
    defined = {
        int(n)
        for head in re.findall(r"^- (R\d+(?:/R\d+)*) ", reference, flags=re.MULTILINE)
        for n in re.findall(r"R(\d+)", head)
    }
    section_8 = reference.split("## 8.")[1].split("Decision:")[0]
    defined.update(int(n) for n in re.findall(r"\(R(\d+)\)", section_8))
    assert set(range(1, 57)) - defined == {11, 38, 48}  # numbers the original never used


def _documented_commands() -> set[str]:
    """The slash commands named in the first column of docs/COMMANDS.md's tables."""
    text = (DOCS / "COMMANDS.md").read_text(encoding="utf-8")
    names: set[str] = set()
    for first_cell in re.findall(r"^\| ([^|]*)\|", text, flags=re.MULTILINE):
        names.update(re.findall(r"`(/[^`]+)`", first_cell))
    return names


async def test_the_commands_document_lists_exactly_the_registered_commands(
    tmp_path: Path,
) -> None:
    """docs/COMMANDS.md names every slash command the bot registers, and no other (a planned
    command is not documented as existing)."""
    bot = main.create_bot(str(tmp_path / "m.db"), sync_commands=False)
    assert isinstance(bot, MafiaBot)
    try:
        await bot.setup_hook()
        registered = {
            "/" + command.qualified_name
            for command in bot.tree.walk_commands()
            if isinstance(command, app_commands.Command)
        }
    finally:
        bot.context.clock.stop()
        await bot.close_store()
    assert _documented_commands() == registered
