"""Message catalogues (ru, en): every user-facing string, rendered with named placeholders.

Each string lives in ``locales/<lang>.json`` under a dotted key and is rendered with
``t("ru", "setup.done", game="#игра")``. Never build a sentence by concatenation in a cog.
``tests/app/test_i18n.py`` keeps both catalogues with the same keys and placeholders.

No discord import here, so the game service and the command line can render text too; the
slash-command translator is in ``bot/command_i18n.py``.
"""

from __future__ import annotations

import json
import logging
import string
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal, cast

log = logging.getLogger(__name__)

Lang = Literal["ru", "en"]
LANGUAGES: Final[tuple[Lang, ...]] = ("ru", "en")
DEFAULT_LANG: Final[Lang] = "en"
LOCALES_DIR: Final[Path] = Path(__file__).resolve().parent.parent / "locales"


@cache
def catalogue(lang: Lang) -> dict[str, str]:
    """The flat key -> template mapping of one language (read once, then cached)."""
    path = LOCALES_DIR / f"{lang}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{path} must be a flat JSON object of strings")
    return cast(dict[str, str], data)


def placeholders(template: str) -> set[str]:
    """Names of the ``{named}`` placeholders in a template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def has_key(key: str) -> bool:
    return key in catalogue(DEFAULT_LANG)


def t(lang: Lang, key: str, /, **values: Any) -> str:
    """Render ``key`` in ``lang`` with named placeholders.

    A key missing from ``lang`` falls back to English; a key missing everywhere is logged and
    returned as is (a visible bug, not a crash). A missing placeholder value raises KeyError:
    the catalogue tests make sure that cannot ship.
    """
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue(DEFAULT_LANG).get(key)
        if template is None:
            log.error("missing catalogue key %r (lang=%s)", key, lang)
            return key
    return template.format_map(values)


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
