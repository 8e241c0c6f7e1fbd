"""The name the code that depends on the store imports: :data:`GameStore` is
:class:`db.ops.store.GameStore`, the one class whose operations (each with its signature,
docstring and body, written once in :mod:`db.ops`) both engines inherit
(:class:`db.sqlite.SQLiteStore`, :class:`db.postgres.PostgresStore`). Its module docstring is
the contract every operation keeps.

:class:`RequestLog` still spells out the request log's contract, operation by operation, apart
from its bodies (:mod:`db.ops.requests`); ``tests/db/test_interface.py`` checks that the two
agree. It goes once its docstrings move to their bodies.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from db.models import (
    ACCEPTED,
    Fence,
    GameHead,
    JSONDict,
    LogEntry,
    OutboxItem,
    PostRecord,
    ResolutionRecord,
)
from db.ops.store import GameStore

__all__ = ["GameStore", "RequestLog"]


class RequestLog(Protocol):
    """The game's event log (host commands, requests, pistol shots) and the once-only stages
    of a turn: its resolution and its pistol window (R18).

    Replaying the *accepted* entries in ``seq`` order rebuilds the game. ``seq`` is the arrival
    order within a game (1, 2, 3...), assigned inside the write: callers never share a number.
    """

    async def add_request(
        self,
        game_id: int,
        turn: int,
        section: str,
        payload: Mapping[str, Any],
        user_id: int | None,
        outcome: str = ACCEPTED,
        *,
        fence: Fence | None = None,
    ) -> LogEntry:
        """Append a request (or host command, or shot) to the log, committed on return so the
        player may be told. ``section``: one of ``SECTIONS``; ``outcome``: ``accepted`` or
        ``refused:<code>``. ``fence``: what it was validated against; if the game no longer
        matches it (another process resolved the turn or logged an entry meanwhile),
        :class:`~db.errors.StaleGame`, writing nothing. ``NotFound`` if there is no such game."""
        ...

    async def add_host_action(
        self,
        game_id: int,
        turn: int,
        payload: Mapping[str, Any],
        *,
        actor_id: int,
        command: str,
        args: Mapping[str, Any] | None = None,
        outcome: str = ACCEPTED,
        outbox_items: Sequence[OutboxItem] = (),
        fence: Fence | None = None,
    ) -> LogEntry:
        """A host command of the script: its ``host`` log entry, its audit row and its
        announcements, in ONE transaction; ``fence`` as for :meth:`add_request`."""
        ...

    async def log_entries(
        self, game_id: int, turn: int | None = None, *, accepted_only: bool = False
    ) -> list[LogEntry]:
        """The log of a game (or of one turn), in arrival order (``seq``)."""
        ...

    async def add_post(
        self,
        game_id: int,
        turn: int,
        nick: str,
        text: str,
        *,
        ghost: bool = False,
        at: dt.datetime | None = None,
    ) -> PostRecord:
        """Keep a public post of #game (a player's or a ghost's) for the archive, before the
        caller publishes it (``at``: default now). ``NotFound`` if there is no such game."""
        ...

    async def posts(self, game_id: int) -> list[PostRecord]:
        """Every kept post of a game, in the order they were published."""
        ...

    async def record_resolution(
        self,
        game_id: int,
        turn: int,
        result: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem],
        next_turn: int,
        next_deadline: dt.datetime | None,
        *,
        next_phase: str = "day",
        winner: str | None = None,
        snapshot: Mapping[str, Any] | None = None,
        fence: Fence | None = None,
    ) -> bool:
        """Store a turn's result, its announcements and the next turn (with ``winner``: the
        end) in ONE transaction, with ``snapshot`` (the state once the turn closed) so that a
        restart replays only the log from ``next_turn`` on.

        Once only: False, writing nothing, if ``(game_id, turn)`` was resolved already, even by
        another process. ``NotFound`` for no such game, ``StoreError`` (writing nothing) if it
        is not running at ``turn``, ``StaleGame`` if it does not match ``fence``.
        """
        ...

    async def game_head(self, game_id: int) -> GameHead | None:
        """The game's row and its accepted entries at its turn or later, in one read (is a
        process's copy current?); None if there is no such game."""
        ...

    async def resolutions(self, game_id: int) -> list[ResolutionRecord]:
        """The resolved turns of a game, by turn."""
        ...

    async def begin_pistol_window(
        self,
        game_id: int,
        turn: int,
        partial_result: Mapping[str, Any],
        outbox_items: Sequence[OutboxItem],
        window_deadline: dt.datetime | None,
        *,
        phase: str = "pistol",
        fence: Fence | None = None,
    ) -> bool:
        """Steps 0-5 of a turn are resolved and a killed commissar may shoot (R18).

        ``partial_result``: the partial result; in a game with the host's review it also holds
        (key ``review``, ``core/review.py``) what the window holds back for the turn's draft.

        Stores the partial result and its announcements and sets the game's phase and the
        window's deadline, in ONE transaction. Once only per ``(game_id, turn)``, like
        :meth:`record_resolution` (False, writing nothing, if the window was already opened),
        and independent of it: the turn is still resolved afterwards. Same errors, and the
        same ``fence``.
        """
        ...

    async def pistol_window(self, game_id: int, turn: int) -> JSONDict | None:
        """The partial result stored when the turn's pistol window opened, if it did."""
        ...
