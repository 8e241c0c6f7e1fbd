"""Message catalogues (ru, en) on Project Fluent: every user-facing string.

Each language is a set of Fluent files (:func:`catalogue_files`): ``locales/<lang>/*.ftl``,
and one file per role, ``locales/<lang>/roles/<code>.ftl``, with the texts of that role
(its name, card, refusals, causes of death, its verbs' commands; docs/ADDING_A_ROLE.md).
Code names a message by a dotted key and renders it with named values:
``t("ru", "setup.done", game="#игра")``. The Fluent id is the key with dashes
(``play.accepted.vote`` -> ``play-accepted-vote``), so call sites never see Fluent. Plural
forms (CLDR categories: Russian one/few/many, English one/other) and any other choice are
selectors in the translation, not code::

    status-posts = { $count ->
        [one] { $count } пост
        [few] { $count } поста
       *[many] { $count } постов
    } в этом ходу.

Pass numbers as numbers: an ``int`` selects its plural form, and is shown without digit
grouping (``1440``, as before Fluent). Fluent's Unicode isolation marks are off: some Discord
clients show them as garbage. ``tests/core/test_i18n.py`` keeps both languages with the same
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


#: Where a Fluent entry starts: its identifier at the start of a line (a term's with a dash),
#: then ``=``. Everything up to the next such line (its indented lines, blank lines, comments)
#: belongs to it: Fluent allows nothing else at the start of a line.
_ENTRY_START: Final = re.compile(r"^-?[a-zA-Z][a-zA-Z0-9_-]*[ ]*=", re.MULTILINE)


def catalogue_files(lang: Lang) -> list[Path]:
    """A language's Fluent files: the shared ones, then each role's (``roles/<code>.ftl``)."""
    base = LOCALES_DIR / lang
    return [*sorted(base.glob("*.ftl")), *sorted((base / "roles").glob("*.ftl"))]


class _Sources:
    """One language's Fluent files, each entry parsed on first use.

    Start-up reads the files and finds where each entry starts (a scan for the lines that
    begin an entry, no parse); an entry is parsed the first time it is looked up, from its
    own text. So a start-up costs milliseconds instead of the whole catalogue's parse, and a
    process only ever parses the messages it renders. The files are read once per process:
    nothing parsed is kept anywhere else, so a changed ``.ftl`` is read by the next start.
    A syntax error fails loudly when its entry (or the text before a file's first entry) is
    parsed; the catalogue tests parse every entry (:func:`catalogue`)."""

    def __init__(self, lang: Lang) -> None:
        #: Fluent id (a term's with its dash) -> its file and its text.
        self.texts: dict[str, tuple[Path, str]] = {}
        self._parsed: dict[str, ast.Message | ast.Term] = {}
        for path in catalogue_files(lang):
            text = path.read_text(encoding="utf-8")
            starts = [m.start() for m in _ENTRY_START.finditer(text)]
            self._check_preamble(path, text[: starts[0] if starts else len(text)])
            for begin, end in zip(starts, [*starts[1:], len(text)], strict=True):
                chunk = text[begin:end]
                entry_id = chunk[: chunk.index("=")].strip()
                if entry_id in self.texts:
                    raise ValueError(f"{path}: {entry_id} is defined twice")
                self.texts[entry_id] = (path, chunk)

    @staticmethod
    def _check_preamble(path: Path, text: str) -> None:
        """What comes before a file's first entry may only be comments."""
        if not text.strip():
            return
        for entry in FluentResource(text).body:
            if isinstance(entry, ast.Junk):
                raise ValueError(f"{path}: cannot parse {entry.content!r}")

    def entry(self, entry_id: str) -> ast.Message | ast.Term:
        """The parsed entry (KeyError if there is none)."""
        found = self._parsed.get(entry_id)
        if found is not None:
            return found
        path, text = self.texts[entry_id]
        entries: list[ast.Message | ast.Term] = []
        for item in FluentResource(text).body:
            if isinstance(item, ast.Junk):
                raise ValueError(f"{path}: cannot parse {item.content!r}")
            if isinstance(item, (ast.Message, ast.Term)):
                entries.append(item)
        name = entry_id.removeprefix("-")
        if len(entries) != 1 or entries[0].id.name != name:  # the scan and the parser disagree
            raise ValueError(f"{path}: cannot parse {text!r}")
        self._parsed[entry_id] = entries[0]
        return entries[0]

    def message(self, key: str) -> ast.Message:
        """The parsed message of a dotted key (KeyError if there is none)."""
        entry = self.entry(fluent_id(key))
        assert isinstance(entry, ast.Message)
        return entry

    def keys(self) -> list[str]:
        """The dotted keys of the messages, in file order."""
        return [catalogue_key(i) for i in self.texts if not i.startswith("-")]


class _LazyEntries(dict[str, ast.Message | ast.Term]):
    """A bundle's messages (or terms): each parsed and added when the bundle first asks."""

    def __init__(self, sources: _Sources, prefix: str) -> None:
        super().__init__()
        self._sources = sources
        self._prefix = prefix

    def __missing__(self, entry_id: str) -> ast.Message | ast.Term:
        full = self._prefix + entry_id
        if full not in self._sources.texts:
            raise KeyError(entry_id)
        entry = self[entry_id] = self._sources.entry(full)
        return entry

    def __contains__(self, entry_id: object) -> bool:
        return dict.__contains__(self, entry_id) or (
            isinstance(entry_id, str) and self._prefix + entry_id in self._sources.texts
        )


@cache
def _sources(lang: Lang) -> _Sources:
    return _Sources(lang)


def _message(lang: Lang, key: str) -> ast.Message:
    return _sources(lang).message(key)


@cache
def _bundle(lang: Lang) -> FluentBundle:
    """The language's bundle; it parses each message the first time it formats it (the
    bundle looks its messages and terms up with ``in`` and ``[]`` only)."""
    bundle = FluentBundle([lang], use_isolating=False)
    bundle._messages = _LazyEntries(_sources(lang), "")
    bundle._terms = _LazyEntries(_sources(lang), "-")
    return bundle


@cache
def catalogue(lang: Lang) -> dict[str, str]:
    """Dotted key -> the Fluent source of the message (its plain text when it has no
    variables or selectors: command names, role names)."""
    sources = _sources(lang)
    out: dict[str, str] = {}
    for entry_id in sources.texts:  # every entry parsed: a syntax error anywhere fails here
        entry = sources.entry(entry_id)
        if isinstance(entry, ast.Message) and entry.value is not None:
            out[catalogue_key(entry_id)] = serialize_pattern(entry.value).strip()
    return out


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
        for node in _walk(_message(lang, key))
        if isinstance(node, ast.VariableReference)
    )


def has_key(key: str) -> bool:
    return fluent_id(key) in _sources(DEFAULT_LANG).texts


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
        has = fluent_id(key) in _sources(lang).texts
        message = _message(lang if has else DEFAULT_LANG, key)
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
