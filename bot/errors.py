"""Refusals raised by the Discord layer (see ``core/refusal.py`` for the base).

They are also discord.py ``AppCommandError``s, so they can be raised from checks
(``interaction_check``), not only from command bodies: discord.py passes only its own error
type through a check to the tree's error handler.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from core.i18n import Lang, has_key, t
from core.refusal import Refusal


class UserError(Refusal, app_commands.AppCommandError):
    """A :class:`Refusal` raised by a cog or a check."""


class NotHost(UserError, app_commands.CheckFailure):
    """The caller has neither Manage Server nor the guild's host role."""


class BotMissingPermissions(UserError):
    """The bot lacks guild permissions it needs; ``missing`` lists discord.Permissions flags,
    rendered as the ``{permissions}`` placeholder in the reader's language."""

    def __init__(
        self, key: str, /, *, missing: list[str], in_lang: Lang | None = None, **values: Any
    ) -> None:
        super().__init__(key, in_lang=in_lang, **values)
        self.missing = missing

    def render(self, lang: Lang) -> str:
        names = ", ".join(
            t(lang, f"perm.{flag}") if has_key(f"perm.{flag}") else flag.replace("_", " ")
            for flag in self.missing
        )
        return t(lang, self.key, permissions=names, **self.values)
