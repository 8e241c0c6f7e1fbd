"""A running game as this process holds it (:class:`LiveGame`), and the values the game
service returns about it (:class:`Accepted`, :class:`QueuedPost`). Plain data with no store
and no Discord: ``core/clock.py``, the service's use cases and the bot's renderers all read
it, and nothing here imports the service.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from core.review import public_state
from db.models import Fence, GameRecord, PlayerRecord, ReviewRecord, TableSettings
from rules.engine import Game
from rules.killboard import KillBoard
from rules.model import GameState, Phase, Request
from rules.schedule import Schedule, reminder_at

if TYPE_CHECKING:
    from core.clock import NoticeMark


def schedule_of(rec: GameRecord) -> Schedule:
    """The schedule a game was opened with, from its record."""
    params = dict(rec.schedule_params)
    params.setdefault("kind", rec.schedule_kind)
    params.setdefault("tz", rec.timezone)
    return Schedule.from_dict(params)


@attrs.define
class LiveGame:
    record: GameRecord
    engine: Game
    players: list[PlayerRecord]
    schedule: Schedule
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    reminded_turn: int = 0  # the last turn whose reminders were queued
    #: The public timed notices queued (core/clock.py), by event name: once per turn.
    notices: dict[str, NoticeMark] = attrs.Factory(dict)
    #: The accepted log entries this process knows at the game's turn or later, and of
    #: those the ones logged for the next turn (a host action during the pistol window,
    #: R36): with the turn and phase, what every fenced write is checked against in the
    #: store, so a request another process logged is never missed (db.models.Fence).
    entries: int = 0
    entries_next: int = 0
    #: The turn's results held for the host's review (core/review.py): while set, the next
    #: turn has no deadline and player requests are refused.
    review: ReviewRecord | None = None

    @property
    def public_state(self) -> GameState:
        """The game as the players know it: while a turn's results wait for the host's review,
        as it stood before they were decided (core/review.py); else the game itself."""
        return public_state(self.review) or self.engine.state

    def fence(self) -> Fence:
        """What a decision taken on this game now was taken against."""
        return Fence(turn=self.record.turn, phase=self.record.phase, entries=self.entries)

    def count_entries(self, turns: Iterable[int]) -> None:
        """Set ``entries`` from the turns of the accepted log entries known."""
        turn = self.record.turn
        later = [t for t in turns if t >= turn]
        self.entries = len(later)
        self.entries_next = sum(1 for t in later if t > turn)

    def reminder_due_at(self, now: datetime | None = None) -> datetime | None:
        """When this turn's reminders are due, if they still are (not once the deadline
        has passed, as after a restart: the turn is resolved instead)."""
        deadline = self.record.deadline
        if (
            deadline is None
            or (now is not None and now >= deadline)
            or self.record.paused
            or self.reminded_turn >= self.engine.turn
            or self.engine.phase is not Phase.OPEN
        ):
            return None
        return reminder_at(self.schedule, deadline)

    @property
    def id(self) -> int:
        return self.record.id

    def nick_of(self, user_id: int) -> str | None:
        for p in self.players:
            if p.user_id == user_id:
                return p.nick
        return None

    def user_of(self, nick: str) -> int | None:
        for p in self.players:
            if p.nick == nick:
                return p.user_id
        return None


@attrs.frozen
class QueuedPost:
    """A player's post committed to the outbox (``GameService.queue_post``)."""

    game_id: int
    row_id: int
    turn: int
    payload: dict[str, Any]
    to_ghosts: bool = False  # R62: a dead player's post goes to the ghosts' room


@attrs.frozen
class ReplyHeader:
    """Which table and game a private reply is about, for a member seated at several tables
    of the server (``table``: None for a table whose settings are gone)."""

    table: TableSettings | None
    game_id: int


@attrs.frozen
class Accepted:
    """A committed request, with all its reply needs (``GameService.submit``): the caller
    reads nothing more. `mafia_update` is the mafia's kill board after a request that changes
    it (R23), to show in the mafia's room (of ``game``, in its ``table``'s language)."""

    request: Request
    turn: int
    mafia_update: KillBoard | None = None
    withdrawn: tuple[str, ...] = ()  # R17: verbs this request withdrew (hunt vs. ability)
    #: The turn open when the request was sent, if the deadline closed it while the request
    #: waited and it counts for a later turn (``turn``): the reply says so (R5).
    sent_turn: int | None = None
    #: The table's running game once it was committed (None: it ended meanwhile), its table
    #: and the header of the reply (None: the member plays at one table of the server).
    game: LiveGame | None = attrs.field(default=None, eq=False, repr=False)
    table: TableSettings | None = None
    header: ReplyHeader | None = None
    #: R5: a later request of its kind replaces it until then (None: it stands as sent, or
    #: the game has no deadline), said in the game's time ``zone``.
    until: datetime | None = None
    zone: str = ""
    #: R18: a shot of the window after a night, which may have closed it (the outbox and the
    #: clock catch up at once).
    after_night: bool = False
