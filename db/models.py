"""Rows of the store, as attrs classes. Plain data: no behaviour, no database handle.

Times are timezone-aware ``datetime`` objects in UTC. Payloads (requests, host commands,
results, announcements) are plain JSON dicts, never engine objects: the store does not depend
on ``rules``.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

JSONDict = dict[str, Any]

GameStatus = Literal["lobby", "running", "finished"]
Section = Literal["host", "requests", "after"]
SECTIONS: tuple[Section, ...] = ("host", "requests", "after")

ACCEPTED = "accepted"

#: R59: why the bot could not serve a game: it was not running, or Discord did not answer it.
DowntimeCause = Literal["down", "discord"]


class Keep(enum.Enum):
    """The type of :data:`KEEP`."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP  # "leave this field as it is" for optional update arguments


def refused(code: str) -> str:
    """The ``outcome`` of a request that the rules refused with ``code``."""
    return f"refused:{code}"


def _first_table(self: Any) -> int:
    return int(self.guild_id)


@attrs.frozen
class TableSettings:
    """One table of a server (a category with its channels, written by ``/mafia setup``).

    ``table_id`` is the table's key, a Discord id unique everywhere: the server's own id for
    its first table, the id of the category built for any other. ``name`` is empty for the
    server's first, unnamed table."""

    guild_id: int
    table_id: int = attrs.field(default=attrs.Factory(_first_table, takes_self=True))
    name: str = ""
    language: str = "ru"
    host_role_id: int | None = None
    category_id: int | None = None
    game_channel_id: int | None = None
    discussion_channel_id: int | None = None
    mafia_channel_id: int | None = None
    host_channel_id: int | None = None
    webhook_id: int | None = None
    default_schedule: str = "forum"
    timezone: str = "Europe/Moscow"


@attrs.frozen
class GameRecord:
    """One game: its setup, where its clock stands, and how it ended."""

    id: int
    guild_id: int
    status: GameStatus
    seed: int
    schedule_kind: str
    schedule_params: JSONDict
    timezone: str
    activity_rules: bool
    roles: Any  # the role list chosen in the lobby (JSON), or None
    host_user_id: int | None
    signup_message_id: int | None
    turn: int  # 0 in the lobby, then the current turn (1-based)
    phase: str
    deadline: dt.datetime | None  # UTC; None while paused, in the lobby, or finished
    paused: bool
    paused_remaining: float | None  # seconds left on the clock when paused
    winner: str | None
    created_at: dt.datetime
    updated_at: dt.datetime
    reveal: bool = True  # name the members behind the nicknames at the end (/mafia new reveal)
    #: The table the game is played at (its key; the server's id for its first table).
    table_id: int = attrs.field(default=attrs.Factory(_first_table, takes_self=True))
    started_at: dt.datetime | None = None  # UTC, when the game started; None before that
    wishes: bool = False  # the sign-up takes role wishes (R58; /mafia new wishes)


@attrs.frozen
class PlayerSpec:
    """A seat to fill when a game starts (input of ``GameStore.start_game``)."""

    user_id: int
    nick: str
    role: str
    avatar_url: str | None = None
    signature: str | None = None


@attrs.frozen
class PlayerRecord:
    """A seat of a started game. ``role`` is the role dealt at the start."""

    game_id: int
    seat: int  # 0-based; the order of ``players`` in the script
    user_id: int
    nick: str
    role: str
    avatar_url: str | None
    signature: str | None


@attrs.frozen
class PostRecord:
    """One public post of #game as published (``/say``, ``/post``), kept for the archive."""

    id: int  # increases with publication order within the store
    game_id: int
    turn: int  # the game's turn when it was posted
    nick: str
    text: str  # as typed (escaped only where it is shown)
    ghost: bool  # posted by a dead player
    at: dt.datetime


@attrs.frozen
class Fence:
    """What a fenced write was decided against (several processes may serve one game): the
    game's ``turn`` and ``phase`` in the store, and ``entries``, the number of its accepted
    log entries at ``turn`` or later. A fenced write whose game no longer matches raises
    :class:`~db.errors.StaleGame`, writing nothing."""

    turn: int
    phase: str
    entries: int


@attrs.frozen
class GameHead:
    """A game as the store holds it now, cheaply (``GameStore.game_head``): its row and
    its number of accepted log entries at its turn or later (what :class:`Fence` compares)."""

    record: GameRecord
    entries: int


@attrs.frozen
class LogEntry:
    """One host command, request or pistol shot, in arrival order (``seq``) within its game."""

    id: int
    game_id: int
    turn: int
    seq: int
    section: Section
    payload: JSONDict
    outcome: str  # "accepted" or "refused:<code>"
    user_id: int | None
    at: dt.datetime

    @property
    def accepted(self) -> bool:
        return self.outcome == ACCEPTED


@attrs.frozen
class ResolutionRecord:
    game_id: int
    turn: int
    result: JSONDict
    resolved_at: dt.datetime


@attrs.frozen
class AuditSpec:
    """A host command's audit row (input), written with the outbox row that carries it."""

    actor_id: int
    command: str
    args: Mapping[str, Any] = attrs.Factory(dict)


@attrs.frozen
class OutboxItem:
    """An announcement to write to the outbox (input). ``audit``: the host command it is the
    #host line of; its audit row is written in the same transaction as the row (so the
    audit is exactly as durable as the command: once, with it)."""

    kind: str
    payload: Mapping[str, Any]
    audit: AuditSpec | None = None


@attrs.frozen
class OutboxRecord:
    """An announcement in the outbox. Delivered at least once: resent until marked sent."""

    id: int
    game_id: int
    turn: int
    kind: str
    payload: JSONDict
    sent: bool
    created_at: dt.datetime
    sent_at: dt.datetime | None
    #: From ``GameStore.claim_outbox`` only: the row was claimed before by another
    #: deliverer whose lease expired (it may have sent the row without marking it, so the
    #: target is checked before sending again).
    retaken: bool = False
    #: The last Discord message the row posted, recorded when it was marked sent (None:
    #: unknown, or not sent).
    message_id: int | None = None


@attrs.frozen
class AuditRecord:
    id: int
    guild_id: int
    game_id: int | None
    actor_id: int
    command: str
    args: JSONDict
    at: dt.datetime
    table_id: int = attrs.field(default=attrs.Factory(_first_table, takes_self=True))


@attrs.frozen
class RestartGame:
    """A running game as the bot's start loads it (``GameStore.load_restart``): its
    state at its last resolution, if a usable one is kept, and the log after it."""

    game: GameRecord
    players: list[PlayerRecord]
    #: ``rules.snapshot.state_to_dict`` at the start of ``game.turn``; None: no snapshot (an
    #: old database, a game in its first turn, a store that kept none).
    snapshot: JSONDict | None
    #: Accepted ``(turn, section, payload)`` in arrival order: those logged after the snapshot
    #: (the current turn's) with one, the whole log without one.
    log: list[tuple[int, str, JSONDict]]
    resolved_turns: frozenset[int]
    pistol_window_turns: frozenset[int]
    #: Whether the game's role cards were ever queued (the start queues them once).
    cards_queued: bool
    #: The once-a-turn rows of the game's current turn queued before the restart, by kind
    #: (``reminder``, ``hunts_open``, ``last_hour``): the stored payload of the latest of each,
    #: so the clock re-armed knows them without asking the store game by game.
    turn_notices: Mapping[str, JSONDict] = attrs.field(factory=dict)


@attrs.frozen
class ReviewRecord:
    """A turn's results held for the host's review (``/mafia new review``, core/review.py):
    the draft queued for #host with the resolution (an outbox row of kind ``review_draft``
    whose payload holds the held announcements and when they go out unreviewed), and the
    host's story so far. Only unpublished reviews are ever listed."""

    game_id: int
    guild_id: int
    turn: int
    draft: dict[str, Any]
    story: str | None = None


@attrs.frozen
class PresetRecord:
    """A server's own named setup (``/mafia preset save``): its name as the host wrote it and
    its role list (role codes)."""

    name: str
    roles: list[str]


@attrs.frozen
class Replacement:
    """One replacement of a game (R60): ``nick`` passed from ``old_user_id`` to
    ``new_user_id`` at ``turn``; ``seq`` orders a game's replacements from 1."""

    game_id: int
    seq: int
    nick: str
    old_user_id: int
    new_user_id: int
    turn: int
    at: dt.datetime


@attrs.frozen
class ReplaceRequest:
    """A player's request to be replaced (``/replaceme``, R60), told to the hosts."""

    user_id: int
    reason: str | None
    asked_at: dt.datetime


@attrs.frozen
class Bar:
    """A member barred from signing up at a server's tables (R63); ``until`` None: until a
    host lifts it."""

    guild_id: int
    user_id: int
    until: dt.datetime | None
    reason: str
    actor_id: int
    barred_at: dt.datetime
