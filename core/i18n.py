"""Message catalogues (ru, en) on Project Fluent: every user-facing string.

Each language is a set of Fluent files, ``locales/<lang>/*.ftl``. Code names a message by a
dotted key and renders it with named values: ``t("ru", "setup.done", game="#игра")``. The
Fluent id is the key with dashes (``play.accepted.vote`` -> ``play-accepted-vote``), so call
sites never see Fluent. Plural forms (CLDR categories: Russian one/few/many, English
one/other) and any other choice are selectors in the translation, not code::

    status-posts = { $count ->
        [one] { $count } пост
        [few] { $count } поста
       *[many] { $count } постов
    } в этом ходу.

Pass numbers as numbers: an ``int`` selects its plural form, and is shown without digit
grouping (``1440``, as before Fluent). Fluent's Unicode isolation marks are off: some Discord
clients show them as garbage. ``tests/app/test_i18n.py`` keeps both languages with the same
messages and variables, and renders every message.

No discord import here, so the game service and the command line can render text too; the
slash-command translator is in ``bot/command_i18n.py``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.errors import FluentReferenceError
from fluent.runtime.types import fluent_number
from fluent.syntax import ast
from fluent.syntax.serializer import serialize_pattern

log = logging.getLogger(__name__)

Lang = Literal["ru", "en"]
LANGUAGES: Final[tuple[Lang, ...]] = ("ru", "en")
DEFAULT_LANG: Final[Lang] = "en"
LOCALES_DIR: Final[Path] = Path(__file__).resolve().parent.parent / "locales"
_UNKNOWN_VARIABLE: Final = re.compile(r"Unknown external: (\w+)")


def fluent_id(key: str) -> str:
    """The Fluent message id of a dotted catalogue key."""
    return key.replace(".", "-")


def catalogue_key(message_id: str) -> str:
    """The dotted catalogue key of a Fluent message id (keys never hold a dash)."""
    return message_id.replace("-", ".")


@cache
def _messages(lang: Lang) -> dict[str, ast.Message]:
    """The parsed messages of one language by dotted key; a syntax error fails loudly."""
    messages: dict[str, ast.Message] = {}
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        resource = FluentResource(path.read_text(encoding="utf-8"))
        for entry in resource.body:
            if isinstance(entry, ast.Junk):
                raise ValueError(f"{path}: cannot parse {entry.content!r}")
            if isinstance(entry, ast.Message):
                key = catalogue_key(entry.id.name)
                if key in messages:
                    raise ValueError(f"{path}: {entry.id.name} is defined twice")
                messages[key] = entry
    return messages


@cache
def _bundle(lang: Lang) -> FluentBundle:
    bundle = FluentBundle([lang], use_isolating=False)
    for path in sorted((LOCALES_DIR / lang).glob("*.ftl")):
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return bundle


@cache
def catalogue(lang: Lang) -> dict[str, str]:
    """Dotted key -> the Fluent source of the message (its plain text when it has no
    variables or selectors: command names, role names)."""
    return {
        key: serialize_pattern(message.value).strip()
        for key, message in _messages(lang).items()
        if message.value is not None
    }


def _walk(node: Any) -> Iterator[Any]:
    if isinstance(node, ast.BaseNode):
        yield node
        for value in vars(node).values():
            if isinstance(value, list):
                for item in value:
                    yield from _walk(item)
            else:
                yield from _walk(value)


def variables(lang: Lang, key: str) -> frozenset[str]:
    """Names of the variables (``$name``) a message uses, selectors included."""
    return frozenset(
        node.id.name
        for node in _walk(_messages(lang)[key])
        if isinstance(node, ast.VariableReference)
    )


def has_key(key: str) -> bool:
    return key in _messages(DEFAULT_LANG)


def _fluent_value(value: Any) -> Any:
    """A Python value as Fluent takes it: ints stay numbers (plural selection) without digit
    grouping; anything else is shown as ``str()`` shows it, as ``str.format`` did."""
    if isinstance(value, int) and not isinstance(value, bool):
        return fluent_number(value, useGrouping=False)
    return value if isinstance(value, str) else str(value)


def t(lang: Lang, key: str, /, **values: Any) -> str:
    """Render ``key`` in ``lang`` with named values.

    A key missing from ``lang`` falls back to English; a key missing everywhere is logged and
    returned as is (a visible bug, not a crash). A missing variable raises KeyError: the
    catalogue tests make sure that cannot ship.
    """
    bundle = _bundle(lang)
    message_id = fluent_id(key)
    if not bundle.has_message(message_id):
        bundle = _bundle(DEFAULT_LANG)
        if not bundle.has_message(message_id):
            log.error("missing catalogue key %r (lang=%s)", key, lang)
            return key
    pattern = bundle.get_message(message_id).value
    if pattern is None:
        log.error("catalogue key %r has no value (lang=%s)", key, lang)
        return key
    text, errors = bundle.format_pattern(
        pattern, {name: _fluent_value(value) for name, value in values.items()}
    )
    for error in errors:
        missing = _UNKNOWN_VARIABLE.search(str(error))
        if isinstance(error, FluentReferenceError) and missing is not None:
            raise KeyError(missing.group(1))
        log.error("catalogue key %r (lang=%s): %s", key, lang, error)
    return str(text)


class Matcher:
    """Reads the values back out of a rendered message (the demo reads the bot's replies).

    Each variable matches lazily; every variant of a selector is an alternative.
    """

    def __init__(self, lang: Lang, key: str) -> None:
        self._groups: dict[str, str] = {}
        message = _messages(lang).get(key) or _messages(DEFAULT_LANG)[key]
        assert message.value is not None
        self._regex = re.compile("^" + self._pattern(message.value) + "$")

    def _pattern(self, pattern: ast.Pattern) -> str:
        parts: list[str] = []
        for element in pattern.elements:
            if isinstance(element, ast.TextElement):
                parts.append(re.escape(element.value))
                continue
            expression = element.expression
            if isinstance(expression, ast.VariableReference):
                group = f"g{len(self._groups)}"
                self._groups[group] = expression.id.name
                parts.append(f"(?P<{group}>.+?)")
            elif isinstance(expression, ast.SelectExpression):
                variants = [self._pattern(v.value) for v in expression.variants]
                parts.append("(?:" + "|".join(variants) + ")")
            elif isinstance(expression, ast.StringLiteral):
                parts.append(re.escape(expression.parse()["value"]))
            else:
                raise ValueError(f"cannot match {type(expression).__name__}")
        return "".join(parts)

    def match(self, text: str) -> Mapping[str, str] | None:
        """The variables' texts when ``text`` is this message, else None."""
        found = self._regex.match(text)
        if found is None:
            return None
        return {
            self._groups[group]: value
            for group, value in found.groupdict().items()
            if value is not None
        }


def as_lang(value: str | None) -> Lang | None:
    """``"ru"``/``"en"`` (any case) -> Lang, anything else -> None."""
    if value is None:
        return None
    lowered = value.lower()
    for lang in LANGUAGES:
        if lowered == lang:
            return lang
    return None


def lang_for_locale(locale: object) -> Lang:
    """The catalogue for a Discord locale (``discord.Locale`` or its code): Russian for
    ``ru``, English for everything else."""
    value = getattr(locale, "value", locale)
    return "ru" if isinstance(value, str) and value.lower().startswith("ru") else "en"
