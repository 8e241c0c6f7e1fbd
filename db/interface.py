"""What the bot asks of its store, one Protocol per concern, and :class:`GameStore`, all of them.

The service depends on these Protocols, not on a database. Their bodies are written once, in
:mod:`db.ops` (a module per concern) over the transactions of :mod:`db.tx`, and run on either
engine: :class:`db.sqlite.SQLiteStore` and :class:`db.postgres.PostgresStore` compose the same
operations (:class:`db.ops.store.StoreOps`) with their engine's connection and transactions.
What differs between the engines' SQL is asked of :mod:`db.dialect`; every driver detail
(PRAGMAs, WAL, pools, driver exceptions, backups) stays inside the engine's package.

The contract every method keeps, unless its docstring says otherwise:

- **Committed on return.** Every method is a coroutine. A write is one transaction: when its
  coroutine returns, everything it wrote is durable (it survives a crash of the bot, and with
  the default settings a power cut); when it raises, nothing of it was written. A write whose
  caller is cancelled still finishes as a whole (committed or rolled back), never half.
- **One order.** Writes are applied one at a time, in the order the calls reach the store; a
  read sees every write that returned before it was called.
- **Errors.** A backend failure is raised as :class:`db.errors.StoreError` (or its subclasses
  :class:`~db.errors.NotFound`, :class:`~db.errors.OpenGameExists`,
  :class:`~db.errors.DatabaseUnusable`, :class:`~db.errors.StaleGame`) with a one-line
  message, never as a driver exception.
  An invalid argument (a naive datetime, a payload that is not JSON, a seed outside the
  signed 64-bit range, an unknown section or outcome) raises ``ValueError`` before anything is
  written. After :meth:`StoreLifecycle.close`, every method raises ``StoreError``.
- **Values.** Records are the attrs classes of :mod:`db.models`. Datetimes passed in must be
  timezone-aware; datetimes returned are in UTC. Payloads, results and arguments are JSON
  objects (``dict``); ids (Discord snowflakes, seeds) fit in a signed 64-bit integer.
- **Announcements.** A method that takes ``outbox_items`` commits them in the same
  transaction as the change that produced them, attached to that change's turn, in the order
  given (see :class:`Outbox`).

The concerns of delivering announcements (the outbox, posts' pictures, DM channels) are in
:mod:`db.interface_delivery`; :class:`GameStore` composes them with this module's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self

from db.interface_delivery import DMChannels, Outbox, PostPictures
from db.interface_table import Presets, Spectators, Substitutes
from db.models import (
    ACCEPTED,
    KEEP,
    AuditRecord,
    DowntimeCause,
    Fence,
    GameHead,
    GameRecord,
    GameStatus,
    JSONDict,
    Keep,
    LogEntry,
    OutboxItem,
    PlayerRecord,
    PlayerSpec,
    PostRecord,
    ResolutionRecord,
    RestartGame,
    ReviewRecord,
    TableSettings,
)

__all__ = [
    "AuditLog",
    "Confirmations",
    "DMChannels",
    "DowntimeLog",
    "GameLoader",
    "GameRepository",
    "GameStore",
    "KillBoards",
    "Outbox",
    "PostPictures",
    "Presets",
    "RequestLog",
    "Reviews",
    "SettingsRepository",
    "Spectators",
    "StoreLifecycle",
    "Substitutes",
]


class GameRepository(Protocol):
    """Games (lobby, start, clock, end), sign-ups, seated players and their profiles.

    A table has at most one game that is not finished (in the lobby or running), enforced
    atomically by the store, not by a check-then-insert of the caller.
    """

    async def create_game(
        self,
        guild_id: int,
        *,
        seed: int,
        schedule_kind: str,
        timezone: str,
        schedule_params: Mapping[str, Any] | None = None,
        activity_rules: bool = False,
        roles: Any = None,
        host_user_id: int | None = None,
        reveal: bool = True,
        table_id: int | None = None,
        wishes: bool = False,
    ) -> GameRecord:
        """Open a new game in the lobby (turn 0, no deadline) at ``table_id`` (default: the
        server's first table). Raises :class:`~db.errors.OpenGameExists`, writing nothing, if
        the table has a game in the lobby or running. Game ids increase with creation."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game, or None if there is none with that id."""
        ...

    async def require_game(self, game_id: int) -> GameRecord:
        """The game; raises :class:`~db.errors.NotFound` if there is none with that id."""
        ...

    async def open_game(self, table_id: int) -> GameRecord | None:
        """The table's game in the lobby or running, if any (there is at most one)."""
        ...

    async def latest_game(self, guild_id: int | None = None) -> GameRecord | None:
        """The most recently created game (of ``guild_id``, or of any guild), whatever its
        status."""
        ...

    async def list_games(
        self,
        *,
        guild_id: int | None = None,
        status: GameStatus | None = None,
        table_id: int | None = None,
    ) -> list[GameRecord]:
        """Games matching every filter given, oldest (lowest id) first."""
        ...

    async def running_games(self) -> list[GameRecord]:
        """Every running game, soonest deadline first, games without a deadline (paused) last,
        ties by id. Used at start to re-arm each game's clock."""
        ...

    async def update_lobby(
        self,
        game_id: int,
        *,
        roles: Any = KEEP,
        signup_message_id: int | Keep | None = KEEP,
        schedule_kind: str | Keep = KEEP,
        schedule_params: Mapping[str, Any] | Keep = KEEP,
        timezone: str | Keep = KEEP,
        activity_rules: bool | Keep = KEEP,
        seed: int | Keep = KEEP,
    ) -> GameRecord:
        """Change the setup of a game (normally while in the lobby); ``KEEP`` leaves a field
        as it is, None clears a nullable one. Returns the game as written (unchanged, without
        a write, if every field is ``KEEP``). Raises :class:`~db.errors.NotFound`."""
        ...

    async def start_game(
        self,
        game_id: int,
        players: Sequence[PlayerSpec],
        *,
        deadline: dt.datetime | None,
        turn: int = 1,
        phase: str = "day",
        seed: int | None = None,
        started_at: dt.datetime | None = None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Seat ``players`` (seat ``i`` is ``players[i]``) and move the game from the lobby to
        running at this turn, phase and deadline, with ``outbox_items`` queued at ``turn``, in
        one transaction. Raises :class:`~db.errors.NotFound` if the game is not in the lobby,
        :class:`~db.errors.StoreError` if two seats share a user or a nickname (compared
        case-insensitively); either way nothing is written."""
        ...

    async def set_deadline(
        self,
        game_id: int,
        deadline: dt.datetime | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Move the deadline (``/mafia extend``). Raises :class:`~db.errors.NotFound`."""
        ...

    async def pause_game(
        self,
        game_id: int,
        remaining_seconds: float,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Stop the clock: keep the time left, clear the deadline. Raises ``NotFound``."""
        ...

    async def resume_game(
        self,
        game_id: int,
        deadline: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Restart the clock with ``deadline``, clearing the pause. Raises ``NotFound``."""
        ...

    async def finish_game(
        self,
        game_id: int,
        winner: str | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """End the game (``/mafia end``, or a winner found outside a resolution); it keeps
        its turn. Once only: False, writing nothing (not the announcements either), if it had
        finished already. Raises :class:`~db.errors.NotFound`."""
        ...

    async def add_signup(self, game_id: int, user_id: int, *, limit: int | None = None) -> bool:
        """Sign ``user_id`` up; False, writing nothing, if signed up already or the game is
        not in the lobby. Raises :class:`~db.errors.SignupFull` when the sign-up holds
        ``limit`` members: of members racing for the last place, one gets it."""
        ...

    async def set_wish(self, game_id: int, user_id: int, wish: str | None) -> bool:
        """A signed-up member's role wish (R58; None withdraws it); False, writing nothing, if
        he is not signed up or the game is not in the lobby."""
        ...

    async def wishes(self, game_id: int) -> dict[int, str]:
        """User id -> role code, for the sign-ups who wished (kept after the start)."""
        ...

    async def remove_signup(self, game_id: int, user_id: int) -> bool:
        """Withdraw a sign-up. False if there was none or the game is not in the lobby."""
        ...

    async def signups(self, game_id: int) -> list[int]:
        """User ids signed up, in sign-up order (a user who leaves and rejoins goes last)."""
        ...

    async def players(self, game_id: int) -> list[PlayerRecord]:
        """The seats of a started game, by seat (the script's order); empty in the lobby."""
        ...

    async def player_by_user(self, game_id: int, user_id: int) -> PlayerRecord | None:
        """The seat of ``user_id`` in the game, if any."""
        ...

    async def player_by_nick(self, game_id: int, nick: str) -> PlayerRecord | None:
        """The seat called ``nick``, compared case-insensitively, if any."""
        ...

    async def set_profile(
        self,
        game_id: int,
        user_id: int,
        *,
        avatar_url: str | Keep | None = KEEP,
        signature: str | Keep | None = KEEP,
    ) -> PlayerRecord:
        """Change a player's anonymous profile (R10). Raises ``NotFound`` if he does not play."""
        ...

    async def purge_member(self, guild_id: int, user_id: int) -> int:
        """Forget a member's personal data kept for the server ``guild_id`` (``/mafia purge``),
        in one transaction; returns how many of its finished games held any of it.

        In every *finished* game of every table of the server: his seat no longer names him
        (its ``user_id`` becomes ``-1 - seat``: negative, so never a Discord id, and unique in
        the game), his sign-ups are deleted, his log entries keep what was played but not who
        sent it (``user_id`` None), a game he opened no longer names its host, and the
        announcements stored for those games drop his id (the end's ``member``, an audit
        line's ``actor`` becomes 0). In the server's audit log (any game) a row he ran has
        actor 0 and an option naming him is removed. Games in the lobby or running are not
        touched: the caller refuses the purge while he takes part in one. In any game of the
        server (R60, R63): a replacement names him no more (0), and his place on a
        substitutes' list, his request to be replaced and his bar are deleted.
        """
        ...


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


class SettingsRepository(Protocol):
    """A server's tables (a category each, with its channels and settings), written by
    ``/mafia setup``."""

    async def get_table(self, table_id: int) -> TableSettings | None:
        """The table with this key (the server's id for its first table), or None."""
        ...

    async def tables(self, guild_id: int) -> list[TableSettings]:
        """The server's tables, by name (the unnamed first table first)."""
        ...

    async def save_table(self, settings: TableSettings) -> None:
        """Insert or replace the table. Raises ``TableNameTaken`` if another has the name."""
        ...

    async def drop_table(self, table_id: int) -> bool:
        """Forget a table (its games stay, for history). False if there was none."""
        ...

    async def purge_guild(self, guild_id: int) -> int:
        """Delete everything kept for the server (the bot left it); how many games."""
        ...


#: The most rows :meth:`AuditLog.audit_page` returns at once.
AUDIT_PAGE_MAX = 100


class AuditLog(Protocol):
    """Every host command, whoever ran it and whether or not it touches the script (R56)."""

    async def add_audit(
        self,
        guild_id: int,
        game_id: int | None,
        actor_id: int,
        command: str,
        args: Mapping[str, Any] | None = None,
        *,
        table_id: int | None = None,
    ) -> int:
        """Record a host command (at its game's table, else ``table_id``); the row's id."""
        ...

    async def audit_log(
        self, *, game_id: int | None = None, guild_id: int | None = None
    ) -> list[AuditRecord]:
        """Audit rows matching every filter given, in insertion order."""
        ...

    async def audit_page(
        self, table_id: int, *, limit: int, offset: int = 0, before: int | None = None
    ) -> tuple[list[AuditRecord], int]:
        """A page of a table's audit, newest first (``limit`` clamped to 1..
        :data:`AUDIT_PAGE_MAX`), and how many rows there are (``before``: below that id)."""
        ...


class GameLoader(Protocol):
    """Whole games read back (docs/REPLAY.md), each in one consistent snapshot."""

    async def load_script(self, game_id: int) -> JSONDict:
        """The game as a script (:func:`db.scripts.build_script`): its setup and accepted
        entries by turn; replaying it reproduces the game. Raises ``NotFound``."""
        ...

    async def load_restart(self) -> list[RestartGame]:
        """Every running game as the start needs it: its players, the snapshot of its current
        turn (if kept) and the accepted entries not in it."""
        ...


class KillBoards(Protocol):
    """The mafia's kill board (R23): one message per turn, posted once across restarts."""

    async def kill_board(self, game_id: int, turn: int) -> int | None:
        """The board's message id for ``turn`` (0: posting begun, id not kept yet)."""
        ...

    async def set_kill_board(self, game_id: int, turn: int, message_id: int) -> None:
        """Keep (or replace) the board's message id for ``turn``."""
        ...


class Reviews(Protocol):
    """The host's review of a turn's results (``core/review.py``): the draft is the #host row
    of kind ``review_draft`` the resolution queued; its held results are published once."""

    async def pending_reviews(self, game_id: int | None = None) -> list[ReviewRecord]:
        """Every draft not yet published, oldest first, with the host's story so far."""
        ...

    async def review_published_at(self, game_id: int, turn: int) -> dt.datetime | None:
        """When the results of ``turn`` were published (the next turn opened then, R59), if
        they were reviewed and are out; None otherwise."""
        ...

    async def set_review_story(self, game_id: int, turn: int, story: str) -> bool:
        """Keep the host's story of ``turn``'s draft; False once it is published."""
        ...

    async def publish_review(
        self,
        game_id: int,
        turn: int,
        outbox_turn: int,
        items: Sequence[OutboxItem],
        deadline: dt.datetime | None,
        at: dt.datetime,
    ) -> bool:
        """Publish ``turn``'s draft once, in ONE transaction: mark it, queue ``items`` under
        ``outbox_turn``, set the deadline (None: leave it). False if published already."""
        ...


class StoreLifecycle(Protocol):
    """Closing the store, and its clock. (Opening is the backend's: ``await
    SQLiteStore.open(path)``.)"""

    def use_clock(self, clock: Callable[[], dt.datetime]) -> None:
        """Read ``clock`` for every time the store stamps by itself (a row's creation, a
        resolution, a sent mark) from now on (an outbox lease is process coordination, on
        the machine's or the database server's clock). The game service
        binds its own, the one injectable clock, so the store and the game never read two
        clocks (R59 compares their times); until then, the machine's UTC time."""
        ...

    async def close(self) -> None:
        """Wait for the writes in flight, then release the connection. Idempotent."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close the store."""
        ...


class DowntimeLog(Protocol):
    """R59: when each process last served its games, and the spans a game was not served."""

    async def beat(
        self,
        process: str,
        at: dt.datetime,
        game_ids: Sequence[int],
        *,
        gap: dt.timedelta,
        cause: DowntimeCause,
    ) -> dt.datetime | None:
        """``process`` serves ``game_ids`` at ``at``. A span over ``gap`` since its previous
        beat (of any process, for a new key) is kept as their downtime; its start, or None."""
        ...

    async def downtime(
        self, game_id: int, since: dt.datetime
    ) -> list[tuple[dt.datetime, dt.datetime, DowntimeCause]]:
        """The game's downtime spans ending after ``since``: (start, end, cause), by start."""
        ...

    async def last_beat(self) -> dt.datetime | None:
        """The newest heartbeat of any process (None: none ever)."""
        ...


class Confirmations(Protocol):
    """A host's confirmation too long for its button's id, kept until it expires."""

    async def put_confirmation(
        self,
        token: str,
        data: Mapping[str, Any],
        *,
        guild_id: int,
        now: dt.datetime,
        expires_at: dt.datetime,
    ) -> None:
        """Keep ``data`` under ``token`` until ``expires_at``, as the server's data."""
        ...

    async def get_confirmation(self, token: str, now: dt.datetime) -> JSONDict | None:
        """The data kept under ``token`` if it has not expired by ``now``."""
        ...


class GameStore(
    GameRepository,
    RequestLog,
    Outbox,
    SettingsRepository,
    AuditLog,
    GameLoader,
    DowntimeLog,
    Confirmations,
    KillBoards,
    Reviews,
    DMChannels,
    PostPictures,
    Presets,
    Spectators,
    Substitutes,
    StoreLifecycle,
    Protocol,
):
    """Everything the service needs of its store."""
