"""The application commands a bot syncs: names, descriptions, locales, options, choices, the
8,000 characters of a command and the commands of a scope."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sandbox.contract.check import Check
from sandbox.contract.limits import (
    CHAT_INPUT,
    COMMANDS_PER_SCOPE,
    LOCALES,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
)


def _name_char_ok(ch: str) -> bool:
    """``[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]`` without a Unicode-property regex engine:
    letters and numbers by category, Devanagari and Thai by their blocks (which hold their
    combining vowel signs, not letters to Unicode)."""
    code = ord(ch)
    return (
        ch in "-_'"
        or unicodedata.category(ch)[0] in ("L", "N")
        or 0x0900 <= code <= 0x097F  # Devanagari
        or 0xA8E0 <= code <= 0xA8FF  # Devanagari Extended
        or 0x0E00 <= code <= 0x0E7F  # Thai
    )


def _check_name(check: Check, name: object, where: str, *, chat_input: bool) -> None:
    if not isinstance(name, str):
        check.fail("command.name", where, f"not a string: {name!r}")
        return
    if not chat_input:
        check.length("command.name", name, where)
        return
    if not 1 <= len(name) <= 32 or not all(_name_char_ok(ch) for ch in name):
        check.fail("command.name", where, repr(name))
    if name != name.lower():
        check.fail("command.name_lowercase", where, repr(name))


def _check_localized(
    check: Check,
    data: Mapping[str, Any],
    field: str,
    where: str,
    each: Callable[[object, str], None],
) -> None:
    each(data.get(field), f"{where}.{field}")
    localized = data.get(f"{field}_localizations") or {}
    for locale, value in localized.items():
        if locale not in LOCALES:
            check.fail("command.locale", f"{where}.{field}_localizations", repr(locale))
        each(value, f"{where}.{field}_localizations[{locale}]")


def _check_option(check: Check, option: Mapping[str, Any], where: str) -> None:
    where = f"{where} {option.get('name')!r}"
    _check_localized(
        check,
        option,
        "name",
        where,
        lambda v, w: _check_name(check, v, w, chat_input=True),
    )
    _check_localized(
        check, option, "description", where, lambda v, w: check.length("command.description", v, w)
    )
    kind = option.get("type")
    if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
        _check_options(check, option.get("options") or [], where)
        return
    choices = option.get("choices") or []
    check.length("command.choices", choices, f"{where}.choices")
    for choice in choices:
        cwhere = f"{where}.choices {choice.get('name')!r}"
        _check_localized(
            check, choice, "name", cwhere, lambda v, w: check.length("command.choice_name", v, w)
        )
        if isinstance(choice.get("value"), str):
            check.length("command.choice_value", choice["value"], f"{cwhere}.value")
    if kind == STRING:
        check.number(
            "command.string_length", option.get("min_length"), f"{where}.min_length", 0, 6000
        )
        check.number(
            "command.string_length", option.get("max_length"), f"{where}.max_length", 1, 6000
        )


def _check_options(check: Check, options: Sequence[Mapping[str, Any]], where: str) -> None:
    check.length("command.options", list(options), f"{where}.options")
    seen_optional = False
    for option in options:
        if option.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required"):
                if seen_optional:
                    check.fail(
                        "command.required_first",
                        f"{where} {option.get('name')!r}",
                        "a required option after an optional one",
                    )
            else:
                seen_optional = True
        _check_option(check, option, where)


def _longest(node: Mapping[str, Any], field: str) -> int:
    """A field's characters as Discord counts them towards the 8,000: its longest
    localization, the default value included."""
    values = [node.get(field), *(node.get(f"{field}_localizations") or {}).values()]
    return max((len(v) for v in values if isinstance(v, str)), default=0)


def command_characters(node: Mapping[str, Any]) -> int:
    """The characters of a command (or of one of its options or choices) counted towards
    the 8,000: name, description and value of it and of everything under it."""
    total = _longest(node, "name") + _longest(node, "description")
    if node.get("value") is not None:
        total += len(str(node["value"]))
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        total += command_characters(child)
    return total


def check_command(check: Check, command: Mapping[str, Any], where: str = "command") -> None:
    """One command of the sync payload: names, descriptions, options, choices, the total."""
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    where = f"{where} {command.get('name')!r}"
    _check_localized(
        check, command, "name", where, lambda v, w: _check_name(check, v, w, chat_input=chat_input)
    )
    if chat_input:
        _check_localized(
            check,
            command,
            "description",
            where,
            lambda v, w: check.length("command.description", v, w),
        )
        _check_options(check, command.get("options") or [], where)
    elif command.get("description"):
        check.fail("command.description", f"{where}.description", "must be empty")
    total = command_characters(command)
    if total > 8000:
        check.fail("command.total", where, f"{total} characters")


def check_commands(check: Check, commands: object) -> None:
    """A whole sync (bulk overwrite) payload: each command, and the count of each type."""
    if not isinstance(commands, list):
        return
    counts: dict[int, int] = {}
    for command in commands:
        if isinstance(command, Mapping):
            kind = command.get("type", CHAT_INPUT)
            counts[kind] = counts.get(kind, 0) + 1
            check_command(check, command)
    for kind, count in counts.items():
        most = COMMANDS_PER_SCOPE.get(kind, 1)  # PRIMARY_ENTRY_POINT: one
        check.number("command.count", count, f"commands of type {kind}", 0, most)
