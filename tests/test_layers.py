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
import inspect
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from db.interface import GameStore

ROOT = Path(__file__).resolve().parents[1]

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


@pytest.mark.parametrize("path", modules("db"), ids=module_name)
def test_the_store_imports_nothing_above_it(path: Path) -> None:
    """``db/`` is the bottom layer: it imports no use case (``core``), so the store, the
    transfer and the backup read a URL by one rule of its own (``db/urls.py``)."""
    bad = sorted({name for name in imported(path) if top(name) == "core"})
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


#: What the store's interface (``GameStore``, db/ops/store.py) offers to read. Every other method of
#: ``GameStore`` writes (or is its lifecycle, ``STORE_LIFECYCLE``): a method added to the
#: interface is a write until it is listed here.
STORE_READS = frozenset(
    {
        "get_game",
        "require_game",
        "open_game",
        "latest_game",
        "list_games",
        "running_games",
        "wishes",
        "signups",
        "players",
        "player_by_user",
        "player_by_nick",
        "log_entries",
        "posts",
        "game_head",
        "resolutions",
        "pistol_window",
        "pending_outbox",
        "outbox",
        "last_outbox",
        "outbox_backlog",
        "last_beat",
        "get_table",
        "tables",
        "audit_log",
        "audit_page",
        "load_script",
        "load_restart",
        "kill_board",
        "pending_reviews",
        "substitutes",
        "replace_requests",
        "replacements",
        "bar_of",
        "downtime",
        "get_confirmation",
        "post_picture",
        "presets",
        "preset_named",
        "spectators",
    }
)
STORE_LIFECYCLE = frozenset({"close", "__aenter__", "__aexit__"})


def store_methods() -> set[str]:
    """Every operation of the store's interface, ``GameStore`` (db/ops/store.py): its public
    methods, ``async with``'s included."""
    return {
        name
        for name, value in inspect.getmembers(GameStore, inspect.isfunction)
        if not name.startswith("_") or name in STORE_LIFECYCLE
    }


def store_writes() -> set[str]:
    return store_methods() - STORE_READS - STORE_LIFECYCLE


def test_the_store_writes_are_known() -> None:
    """The reads listed are the interface's (none renamed away), and what is left of it are
    the writes the next test looks for."""
    assert store_methods() >= STORE_READS
    writes = store_writes()
    assert {"save_table", "drop_table", "update_lobby", "purge_guild", "purge_member"} <= writes
    assert {"claim_outbox", "mark_sent", "set_kill_board", "put_confirmation"} <= writes
    assert not writes & STORE_READS


def store_calls(path: Path, names: set[str]) -> list[str]:
    """The calls in ``path`` of a method in ``names`` on something named like the store
    (``store``, ``self.store``, ``ctx.store``, ``self._store``...), with their lines."""
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in names:
            continue
        owner = node.func.value
        owner_name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
        if owner_name.lstrip("_").endswith("store"):
            found.append(f"{module_name(path)}:{node.lineno} {ast.unparse(node.func)}")
    return found


@pytest.mark.parametrize("path", modules(*ADAPTERS), ids=module_name)
def test_the_adapters_write_to_the_store_only_through_the_service(path: Path) -> None:
    """``cogs/`` and ``bot/`` may read the store, but every write goes through the game
    service (``core/service.py``), which keeps its running games in step with what it
    commits."""
    assert not store_calls(path, store_writes()), store_calls(path, store_writes())


def test_the_write_check_sees_a_write() -> None:
    """The check above finds a write when there is one: the service's own modules make
    them."""
    assert store_calls(ROOT / "core" / "table_service.py", store_writes())


def test_the_delivery_is_in_no_import_cycle_even_for_the_type_checker() -> None:
    """The delivery (``bot/delivery/``) renders and hooks rows through ``bot/kinds.py``; the
    kinds' hooks see a port (``bot/kinds.py`` ``KindPort``), never the delivery: no chain of
    imports, ``TYPE_CHECKING`` ones included, leads from the delivery back to it (the old
    circle router -> worker -> kinds -> render -> mafia_room)."""
    paths = {module_name(p): p for p in modules("bot")}
    ours = set(paths)
    graph = {name: (set(imported(path)) & ours) - {name} for name, path in paths.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for dep in graph[todo.pop()]:
                if dep == goal:
                    return True
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return False

    delivery = sorted(name for name in ours if name.startswith("bot.delivery."))
    assert delivery
    looped = [name for name in delivery if reaches(name, name)]
    assert not looped, looped


def store_uses(path: Path) -> list[str]:
    """Every use in ``path`` of something named like the store (``ctx.store``, ``self.store``,
    ``self._store``, a name ``store``), with its line."""
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.arg):
            name = node.arg
        else:
            continue
        if name.lstrip("_") == "store":
            found.append(f"{module_name(path)}:{node.lineno} {name}")
    return found


@pytest.mark.parametrize("path", modules("cogs"), ids=module_name)
def test_the_cogs_never_touch_the_store(path: Path) -> None:
    """A command flows cog -> service -> store: the cogs change things through the game
    service, which returns what their replies need, and read through the facade
    ``core/reads.py`` (``GameContext.reads``), never the store itself."""
    assert not store_uses(path), store_uses(path)


def test_the_store_check_sees_a_use() -> None:
    """The check above finds the store where it is used: the bot's delivery holds it."""
    assert store_uses(ROOT / "bot" / "killboard.py")


def verb_branches(path: Path) -> list[str]:
    """Every comparison in ``path`` with a request's verb written out (``verb == "shoot"``,
    ``r.do != "post"``, ``do in ("kill", ...)``), with its line."""
    from rules.roles import known_verbs

    verbs = set(known_verbs())
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = {
            c.value
            for side in sides
            for c in ([side] if isinstance(side, ast.Constant) else getattr(side, "elts", []))
            if isinstance(c, ast.Constant) and c.value in verbs
        }
        if named:
            found.append(f"{module_name(path)}:{node.lineno} {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", modules("cogs"), ids=module_name)
def test_the_cogs_do_not_branch_on_a_verb(path: Path) -> None:
    """What a verb does differently (a shot in the window after a night, a kill on the
    mafia's board, a note that stands as sent) is its ``Verb``'s (``rules/roles/base.py``),
    read by the service and the generic request path: a cog compares no verb."""
    assert not verb_branches(path), verb_branches(path)


def test_the_verb_check_sees_a_branch() -> None:
    """The rules compare verbs (the validation is where they differ)."""
    assert verb_branches(ROOT / "rules" / "validation.py")
