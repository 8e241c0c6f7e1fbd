"""The base of every error a user causes: a catalogue key and named placeholder values.

No discord import, so the game service can raise refusals too (``ServiceError`` should derive
from :class:`Refusal`). ``MafiaTree.on_error`` turns any :class:`Refusal` raised under a command
into a private reply in the reader's language and does not log it as a failure.
"""

from __future__ import annotations

from typing import Any

from core.i18n import Lang, t


class Refusal(Exception):
    """A refusal the user caused and can fix: shown to him privately, never a traceback."""

    def __init__(self, key: str, /, *, in_lang: Lang | None = None, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values
        #: The game's language when the guild's is not saved yet (``/mafia setup`` answers in
        #: the language it was just given, unless the reader's client has its own).
        self.in_lang = in_lang

    def render(self, lang: Lang) -> str:
        """The reply text in ``lang``."""
        return t(lang, self.key, **self.values)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, **{self.values!r})"
