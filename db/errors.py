"""Errors raised by the persistence layer.

Every error carries a one-line, user-presentable message (``str(err)``): the command line and
the bot print it as is, never a traceback.
"""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot do what was asked (unusable file, broken invariant, missing row)."""

    def __init__(self, message: str) -> None:
        # One line, whatever the cause said.
        super().__init__(" ".join(message.split()))

    @property
    def message(self) -> str:
        return str(self)


class DatabaseUnusable(StoreError):
    """The file is not a database of this bot: corrupt, foreign, or from a newer version."""


class OpenGameExists(StoreError):
    """The guild already has a game in the lobby or running (at most one per guild)."""


class NotFound(StoreError):
    """A game, player or outbox item that the caller named does not exist."""


class SignupFull(StoreError):
    """The sign-up already holds as many members as a game can seat: nobody more was added."""


class PresetsFull(StoreError):
    """The server holds as many presets as it may: the new one was not saved."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"at most {limit} presets per server")
        self.limit = limit


class TableNameTaken(StoreError):
    """Another table of the server already has this name (names are unique per server)."""


class StaleGame(StoreError):
    """A fenced write (a request, a host command, a resolution) was refused, writing nothing:
    the game in the store is no longer what the caller validated against (another process
    moved its turn or phase, or logged an entry meanwhile). The caller reloads the game from
    the store and decides again."""


class ConstraintViolation(StoreError):
    """The database refused a change that breaks one of the schema's constraints (raised by
    both engines' transactions; the operations turn the ones they expect into the errors
    above)."""


class UniqueViolation(ConstraintViolation):
    """A UNIQUE or PRIMARY KEY constraint refused a row."""


class ForeignKeyViolation(ConstraintViolation):
    """A FOREIGN KEY constraint refused a row: what it names does not exist."""


class BackupError(StoreError):
    """``main.py backup`` could not make the copy; the message says why (never a password)."""


class ReplacementRefused(Exception):
    """A replacement (R60) the store's transaction refused, writing nothing: ``code`` says why
    (``seat_changed``: the nickname's holder is no longer the one the host saw, another
    replacement came first; ``playing``: the substitute holds a
    seat; ``replaced``: the substitute was replaced in this game before; ``left_list``: the
    first substitute left the list meanwhile). Not a :class:`StoreError`: the store is fine
    and the game need not be reloaded."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code
