"""Slash-command names and descriptions in Russian, from the message catalogue.

Keys are derived from the command tree, so a cog writes only the English base name::

    cmd.<qualified.name>.name                      /mafia setup -> cmd.mafia.setup.name
    cmd.<qualified.name>.description
    cmd.<qualified.name>.opt.<option>.name
    cmd.<qualified.name>.opt.<option>.description

Choice names (and any string that does not fit the scheme) carry an explicit key:
``Choice(name=ltext("choice.language.ru"), value="ru")``. The English base text of a
description comes from the English catalogue through :func:`ltext`, so English is written once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from discord import Locale, app_commands

from core.i18n import DEFAULT_LANG, catalogue, t

log = logging.getLogger(__name__)

T = TypeVar("T")


def ltext(key: str, /) -> app_commands.locale_str:
    """A command string: the English text of ``key``, carrying the key for the translator."""
    return app_commands.locale_str(t(DEFAULT_LANG, key), key=key)


def described(command: str, *options: str) -> Callable[[T], T]:
    """``app_commands.describe`` of a command's options by the scheme above: ``command`` is the
    qualified name with dots (``mafia.exclude``), each option described by its catalogue key
    ``cmd.<command>.opt.<option>.description``."""
    keys = {option: ltext(f"cmd.{command}.opt.{option}.description") for option in options}
    return app_commands.describe(**keys)


def command_key(context: app_commands.TranslationContextTypes) -> str | None:
    """The derived catalogue key of a command tree string, or None when it has none."""
    location = context.location
    loc = app_commands.TranslationContextLocation
    data: Any = context.data
    if location in (loc.command_name, loc.group_name):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.name"
    if location in (loc.command_description, loc.group_description):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.description"
    if location in (loc.parameter_name, loc.parameter_description):
        suffix = "name" if location is loc.parameter_name else "description"
        qualified = data.command.qualified_name.replace(" ", ".")
        return f"cmd.{qualified}.opt.{data.name}.{suffix}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Serves Russian command names, descriptions and choices from the ``ru`` catalogue.

    English is the base language of the command tree, so only Russian is translated; any other
    client locale sees the English base strings.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not Locale.russian:
            return None
        key = string.extras.get("key") or command_key(context)
        if key is None:
            return None
        if key not in catalogue("ru"):
            log.warning("no Russian command text for %r", key)
            return None
        return t("ru", key)
