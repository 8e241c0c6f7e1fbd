"""The layers, as the folders show them (read from the source with ``ast``):

- ``core/``, ``rules/`` and ``db/`` know nothing of Discord: no import of discord, of SimCord or
  of the adapter packages (``bot``, ``cogs``, ``sandbox``); importing all of ``core/`` loads no
  discord module;
- ``bot/`` and ``cogs/`` receive what they need (``bot/context.py``) instead of importing the
  module that defines the bot class, ``bot/client.py`` (only ``main.py`` does, the factory's
  caller);
- the product (``core/``, ``rules/``, ``db/``, ``bot/``, ``cogs/``) never imports the demo harness
  or SimCord, development dependencies;
- no two of our modules import each other at run time (imports for the type checker only, under
  ``if TYPE_CHECKING:``, aside).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

DISCORD_FREE = ("core", "rules", "db")
ADAPTERS = ("bot", "cogs")
BOT_CLASS_MODULE = "bot.client"


def modules(*packages: str) -> list[Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, anywhere in it (``TYPE_CHECKING`` and functions too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def top(name: str) -> str:
    return name.split(".")[0]


def test_the_layout_exists() -> None:
    for package in (*DISCORD_FREE, *ADAPTERS, "sandbox"):
        assert (ROOT / package / "__init__.py").is_file(), package
    assert not (ROOT / "app").exists(), "app/ was split into core/, bot/ and sandbox/"


@pytest.mark.parametrize("path", modules(*DISCORD_FREE), ids=module_name)
def test_the_core_imports_nothing_of_discord(path: Path) -> None:
    forbidden = {"discord", "simcord", "bot", "cogs", "sandbox", "main"}
    bad = sorted({name for name in imported(path) if top(name) in forbidden})
    assert not bad, f"{module_name(path)} imports {bad}"


def test_importing_all_of_core_loads_no_discord_module() -> None:
    names = [module_name(p) for p in modules(*DISCORD_FREE)]
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'simcord'))\n"
        "print(loaded)\n"
        "sys.exit(1 if loaded else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", modules(*ADAPTERS), ids=module_name)
def test_adapters_do_not_import_the_bot_class(path: Path) -> None:
    if module_name(path) == BOT_CLASS_MODULE:
        return
    bad = sorted(
        {n for n in imported(path) if n == BOT_CLASS_MODULE or n.startswith(BOT_CLASS_MODULE + ".")}
    )
    assert not bad, f"{module_name(path)} imports {bad}: take a GameContext instead"


@pytest.mark.parametrize("path", modules(*DISCORD_FREE, *ADAPTERS), ids=module_name)
def test_the_product_does_not_import_development_tools(path: Path) -> None:
    bad = sorted({name for name in imported(path) if top(name) in ("simcord", "sandbox", "tests")})
    assert not bad, f"{module_name(path)} imports {bad}"


def runtime_imports(path: Path, ours: set[str]) -> set[str]:
    """Our modules that ``path`` imports when it runs (not under ``if TYPE_CHECKING:``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return found & ours


def test_no_import_cycle_at_run_time() -> None:
    paths = {module_name(p): p for p in modules(*DISCORD_FREE, *ADAPTERS, "sandbox")}
    ours = set(paths)
    graph = {name: runtime_imports(path, ours) - {name} for name, path in paths.items()}
    cycles: set[tuple[str, ...]] = set()

    def walk(name: str, stack: list[str], done: set[str]) -> None:
        for dep in sorted(graph[name]):
            if dep in stack:
                loop = stack[stack.index(dep) :]
                first = loop.index(min(loop))  # one spelling per cycle
                cycles.add((*loop[first:], *loop[:first], min(loop)))
            elif dep not in done:
                done.add(dep)
                walk(dep, [*stack, dep], done)

    for name in sorted(graph):
        walk(name, [name], {name})
    assert not cycles, " ; ".join(" -> ".join(c) for c in sorted(cycles))
