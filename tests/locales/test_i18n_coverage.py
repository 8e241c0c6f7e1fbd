"""The catalogues and the code agree: every message of the catalogues is used somewhere in the
code, and every message the code names exists in both languages.

The code is read, not run: every string literal and f-string of the product's Python files.
A message is used when a literal is its key, or an f-string builds keys it matches
(``f"death.{cause}"`` uses every ``death.*``; ``f"{key}.with.{atom}"`` every ``*.with.*``).
A message is named where a call that takes a catalogue key gets a literal or an f-string:
``t(lang, key)``, ``ltext(key)``, the refusals (``UserError``, ``ServiceError``,
``Refusal``, ...), the matchers of the demo (``Matcher``, ``_template``) and ``_keyed``."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from core.i18n import LANGUAGES, catalogue

ROOT = Path(__file__).resolve().parents[2]
#: The product's code (tests excluded: a test naming a message does not use it).
SOURCES = ("bot", "cogs", "core", "db", "rules", "sandbox", "tools", "main.py")
#: Calls that take a catalogue key, and the position of the key.
KEY_ARGUMENT = {
    "t": 1,
    "Matcher": 1,
    "_template": 1,
    "ltext": 0,
    "_keyed": 0,
    "UserError": 0,
    "NotHost": 0,
    "BotMissingPermissions": 0,
    "ServiceError": 0,
    "Refusal": 0,
    "ImageRefused": 0,
}
#: What a placeholder of an f-string stands for in a key: one or more dotted words.
PLACEHOLDER = r"[\w.]+"


def python_files() -> list[Path]:
    out: list[Path] = []
    for name in SOURCES:
        path = ROOT / name
        out += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return out


def key_pattern(node: ast.JoinedStr) -> re.Pattern[str] | None:
    """The keys an f-string builds, if it builds dotted keys (a literal part with a dot
    between words, no space); None for any other f-string."""
    literal = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))
    if " " in literal or not re.search(r"[a-z_]\.|\.[a-z_]", literal):
        return None
    parts = [
        re.escape(str(v.value)) if isinstance(v, ast.Constant) else PLACEHOLDER for v in node.values
    ]
    return re.compile("".join(parts) + "$")


def callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


@cache
def scanned() -> tuple[frozenset[str], tuple[re.Pattern[str], ...], tuple[tuple[str, object], ...]]:
    """Every string literal, every f-string's key pattern, and every key argument (where,
    the literal or the pattern)."""
    literals: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    named: list[tuple[str, object]] = []
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr):
                pattern = key_pattern(node)
                if pattern is not None:
                    patterns.append(pattern)
            elif isinstance(node, ast.Call):
                position = KEY_ARGUMENT.get(callee(node) or "")
                if position is None or len(node.args) <= position:
                    continue
                arg = node.args[position]
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    named.append((where, arg.value))
                elif isinstance(arg, ast.JoinedStr) and (found := key_pattern(arg)) is not None:
                    named.append((where, found))
    return frozenset(literals), tuple(patterns), tuple(named)


def test_the_scan_sees_the_code() -> None:
    """The scan finds keys the way the code names them: literals and built families."""
    literals, patterns, named = scanned()
    assert "card.rules" in literals and "announce.results" in literals
    assert any(p.match("death.lynch") for p in patterns)
    assert len(named) > 300


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalogue_message_is_used_in_the_code(lang: str) -> None:
    literals, patterns, _ = scanned()
    unused = [
        key
        for key in catalogue(lang)  # type: ignore[arg-type]
        if key not in literals and not any(p.match(key) for p in patterns)
    ]
    assert unused == [], f"{lang}: messages no code uses: {unused}"


def test_every_message_the_code_names_exists_in_both_languages() -> None:
    _, _, named = scanned()
    for lang in LANGUAGES:
        keys = catalogue(lang)
        missing = []
        for where, key in named:
            if isinstance(key, str):
                if key not in keys:
                    missing.append((where, key))
            elif not any(key.match(k) for k in keys):  # a family with no message at all
                missing.append((where, key.pattern))
        assert missing == [], f"{lang}: {missing}"


def test_a_message_left_behind_or_a_key_misspelt_is_seen() -> None:
    """The two checks can fail: a key no code names, a call naming a key no catalogue has."""
    literals, patterns, _ = scanned()
    assert "card.day" not in literals and not any(p.match("card.day") for p in patterns)
    tree = ast.parse('t(lang, "card.no_such_message")')
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert callee(call) == "t" and KEY_ARGUMENT["t"] == 1
    assert "card.no_such_message" not in catalogue("en")
