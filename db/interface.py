"""What the bot asks of its store, one Protocol per concern, and :class:`GameStore`, all of them.

The service depends on these Protocols, not on a database. :class:`db.sqlite.SQLiteStore`
(``db.sqlite.SQLiteStore``) implements them on SQLite; another backend (PostgreSQL) implements the
same methods with the same contract. Every dialect detail (PRAGMAs, ``INSERT OR IGNORE`` /
``ON CONFLICT``, rowids, driver exceptions, WAL, backups) stays inside the backend.

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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Protocol, Self

from db.models import (
    ACCEPTED,
    KEEP,
    AuditRecord,
    Bar,
    DowntimeCause,
    Fence,
    GameHead,
    GameRecord,
    GameStatus,
    JSONDict,
    Keep,
    LogEntry,
    OutboxItem,
    OutboxRecord,
    PlayerRecord,
    PlayerSpec,
    PostRecord,
    PresetRecord,
    Replacement,
    ReplaceRequest,
    ResolutionRecord,
    RestartGame,
    ReviewRecord,
    TableSettings,
)

__all__ = [
    "AuditLog",
    "Confirmations",
    "DowntimeLog",
    "GameLoader",
    "GameRepository",
    "GameStore",
    "Outbox",
    "Presets",
    "RequestLog",
    "Reviews",
    "SettingsRepository",
    "Spectators",
    "StoreLifecycle",
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
        """Open a new game in the lobby (status and phase ``lobby``, turn 0, no deadline) at
        the table ``table_id`` (default: the server's first table, keyed by ``guild_id``).
        ``reveal``: whether the members behind the nicknames are named at the end.
        ``wishes``: whether members who sign up may wish for a role (R58).

        Raises :class:`~db.errors.OpenGameExists`, writing nothing, if the table already has a
        game in the lobby or running. Game ids increase with creation.
        """
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
        """Seat ``players`` (seat ``i`` is ``players[i]``: the script's order) and move the
        game from the lobby to running with this turn, phase and deadline (and ``seed`` if
        given, else the lobby's), in one transaction, with ``outbox_items`` (the role cards
        and the first turn's opening) queued at turn ``turn``. ``started_at`` (default: now)
        is kept for the end-of-game announcement.

        Raises :class:`~db.errors.NotFound` if the game is not in the lobby, and
        :class:`~db.errors.StoreError` if two seats share a user or a nickname (nicknames
        compare case-insensitively); either way nothing is written.
        """
        ...

    async def set_deadline(
        self,
        game_id: int,
        deadline: dt.datetime | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Move the deadline (``/mafia extend``); ``outbox_items`` (its public notice) are
        queued at the game's turn in the same transaction. Raises
        :class:`~db.errors.NotFound`."""
        ...

    async def set_phase(
        self, game_id: int, phase: str, deadline: dt.datetime | Keep | None = KEEP
    ) -> GameRecord:
        """Set the phase (and the deadline unless ``KEEP``). Raises
        :class:`~db.errors.NotFound`."""
        ...

    async def pause_game(
        self,
        game_id: int,
        remaining_seconds: float,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Stop the clock: keep the time left, clear the deadline; ``outbox_items`` are
        queued in the same transaction. Raises :class:`~db.errors.NotFound`."""
        ...

    async def resume_game(
        self,
        game_id: int,
        deadline: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> GameRecord:
        """Restart the clock with ``deadline``; clears the pause; ``outbox_items`` are
        queued in the same transaction. Raises :class:`~db.errors.NotFound`."""
        ...

    async def finish_game(
        self,
        game_id: int,
        winner: str | None,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """End the game (``/mafia end``, or a winner found outside a resolution): status and
        phase ``finished``, ``winner``, no deadline, no pause; the game keeps its turn.

        Once only: returns False, writing nothing (not the announcements either), if the game
        had already finished. ``outbox_items`` are committed in the same transaction, on the
        game's current turn. Raises :class:`~db.errors.NotFound` if there is no such game.
        """
        ...

    async def add_signup(self, game_id: int, user_id: int, *, limit: int | None = None) -> bool:
        """Sign ``user_id`` up. False, writing nothing, if already signed up or if the game
        is not in the lobby (or does not exist). ``limit``: the most members the sign-up
        may hold; raises :class:`~db.errors.SignupFull`, writing nothing, when it holds as
        many already. Atomic: of members racing for the last place, one gets it, whichever
        process they reach."""
        ...

    async def set_wish(self, game_id: int, user_id: int, wish: str | None) -> bool:
        """A signed-up member's role wish (R58; None withdraws it). False, writing nothing,
        if he is not signed up or the game is not in the lobby. Leaving the sign-up drops
        the wish with it."""
        ...

    async def wishes(self, game_id: int) -> dict[int, str]:
        """The role wishes of the game's sign-ups: user id -> role code, for those who wished
        (kept after the start, with the sign-ups)."""
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
        """Change a player's anonymous profile (R10); ``KEEP`` leaves a field as it is, None
        clears it. Raises :class:`~db.errors.NotFound` if the user does not play."""
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

    The log is the game's history: replaying its *accepted* entries in ``seq`` order through
    the rules engine rebuilds the game (see :class:`GameLoader`). ``seq`` is the arrival order
    within a game: 1, 2, 3... in the order the writes reach the store, assigned inside the
    write, so concurrent callers never share or swap numbers.
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
        """Append a request (or host command, or shot) to the game's log; committed (durable)
        on return, so the player may be told. ``section`` is one of ``SECTIONS``, ``outcome``
        ``accepted`` or ``refused:<code>`` (``ValueError`` otherwise). Raises
        :class:`~db.errors.NotFound` if there is no such game.

        ``fence``: what the request was validated against. Checked in the transaction of the
        append: if the game is not running at ``fence.turn`` in ``fence.phase`` with
        ``fence.entries`` accepted entries at that turn or later (another process resolved
        the turn or logged an entry meanwhile), nothing is written and
        :class:`~db.errors.StaleGame` is raised."""
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
        """A host command that is part of the script: its ``host`` log entry, its audit row
        (in the game's guild) and the announcements it causes, in ONE transaction. ``fence``:
        as for :meth:`add_request` (:class:`~db.errors.StaleGame`, writing nothing)."""
        ...

    async def log_entries(
        self, game_id: int, turn: int | None = None, *, accepted_only: bool = False
    ) -> list[LogEntry]:
        """The log of a game (or of one turn), in arrival order (``seq``)."""
        ...

    async def post_counts(self, game_id: int, turn: int) -> dict[str, int]:
        """Accepted entries whose payload's ``do`` is ``post``, counted per payload ``by``
        (nickname), in one turn (R52 reminders). Nicknames with no post are absent."""
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
        """Keep a public post of #game (a living player's or a ghost's) for the archive;
        committed on return, before the caller publishes it. ``at`` defaults to now. Raises
        :class:`~db.errors.NotFound` if there is no such game."""
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
        """Store a turn's result, its announcements and the next turn, in ONE transaction.

        ``snapshot``: the game's state once the turn closed (``rules.snapshot.state_to_dict``),
        kept with the resolution so that a restart replays only the log from ``next_turn`` on
        (:meth:`GameLoader.load_restart`); without one (or with ``winner``) the game keeps no
        snapshot and is rebuilt from its full log.

        Once only: if ``(game_id, turn)`` was already resolved, nothing is written (not the
        announcements either) and False is returned; a turn is never resolved twice, even by
        two concurrent callers or two processes. Otherwise the result, the outbox rows and the
        game's new turn, phase and deadline commit together. With ``winner`` the game finishes
        instead (status ``finished``, no deadline, ``turn`` stays the last turn played).
        Raises :class:`~db.errors.NotFound` for no such game and
        :class:`~db.errors.StoreError` (writing nothing) if the game is not running at
        ``turn``.

        ``fence``: what the result was computed from. A turn already resolved returns False
        first; otherwise, if the game does not match the fence (see :meth:`add_request`: a
        request another process logged meanwhile would be missing from the result),
        :class:`~db.errors.StaleGame` is raised, writing nothing.
        """
        ...

    async def game_head(self, game_id: int) -> GameHead | None:
        """The game's row and its number of accepted log entries at its turn or later, in
        one cheap read (a process checks its in-memory game is current before it resolves a
        turn); None if there is no such game."""
        ...

    async def resolution_exists(self, game_id: int, turn: int) -> bool:
        """Whether ``(game_id, turn)`` has been resolved."""
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


class Outbox(Protocol):
    """Announcements to deliver, queued in the transaction of what caused them.

    Delivery is at least once: an item stays pending until :meth:`mark_sent`, so after a crash
    between sending and marking it comes back from :meth:`pending_outbox` and is sent again.
    Queue order is the order of insertion (ids increase with it).

    Several deliverers (processes) share the outbox through leases: :meth:`claim_outbox`
    hands each pending row to one owner until its lease ends; a deliverer that died leaves
    its rows to be claimed again once their leases expire. Lease times are the store's own
    clock (UTC now).
    """

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        """Queue announcements on their own (e.g. the host's narrative, R47), all in one
        transaction; returns their ids in the order given. Raises
        :class:`~db.errors.NotFound` if there is no such game."""
        ...

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        """Announcements not yet marked sent, in queue order (of one game, or of all games)."""
        ...

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        """Every announcement of a game, sent or not, in queue order."""
        ...

    async def last_outbox(
        self, game_id: int, kind: str, turn: int | None = None
    ) -> OutboxRecord | None:
        """The game's latest announcement of ``kind`` (of ``turn`` if given), sent or not;
        None if there is none. One indexed lookup (``outbox_by_kind``), where :meth:`outbox`
        reads the game's whole outbox: what the clock asks of every game after a restart
        (was this turn's notice queued already?)."""
        ...

    async def outbox_backlog(self) -> tuple[int, dt.datetime | None]:
        """How many announcements wait to be sent (every game's), and when the oldest of them
        was queued (None: none waits). What a monitor watches (``bot/metrics.py``)."""
        ...

    async def claim_outbox(
        self,
        owner: str,
        *,
        game_id: int | None = None,
        limit: int = 100,
        lease_seconds: float = 60.0,
        shard_count: int | None = None,
        shard_ids: Sequence[int] = (),
    ) -> list[OutboxRecord]:
        """Claim pending rows (of one game, or of all) for ``owner``, in ONE transaction, and
        return them in queue order: at most ``limit`` of them, oldest first, each now leased
        by ``owner`` until now + ``lease_seconds``.

        ``shard_count`` and ``shard_ids`` (a process running some Discord shards): only rows
        of games whose server is on one of those shards, by Discord's formula
        ``(guild_id >> 22) % shard_count`` (``core/shards.py``); the others are left
        unleased for the process running their shard. ``ValueError`` for ids without a
        count, a count without ids, or an id not below the count.

        A row is claimable when it is not sent and has no live lease of another owner (never
        leased, its lease expired, or ``owner``'s own: claiming again renews it). A game
        with a live lease of another owner on any pending row gives none of its rows (one
        deliverer per game at a time keeps its order). Two concurrent claims never return
        the same row while its lease lives."""
        ...

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        """Extend every lease ``owner`` holds on a pending row to now + ``lease_seconds``
        (a slow but live deliverer keeps its rows), in one transaction; returns the ids of
        those rows, in queue order (a row missing from them was taken over, or sent)."""
        ...

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        """End at once every live lease of an owner whose id starts with ``slot`` (``slot``
        ends with the separator of owner ids, ``#``), except ``keep``'s: the leases of an
        earlier run of this same process (same host, same shards) that was killed. Its rows
        become claimable now instead of when their leases would end, and are claimed as
        taken over (``retaken``: their history is read before they are sent again). Returns
        the ids of those rows, in queue order."""
        ...

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        """Mark an announcement delivered (and release its lease). True once; False if it
        already was (or does not exist). ``owner``: the deliverer marking it (for the
        record: a row is marked sent whoever holds its lease, since it was sent).
        ``message_id``: the last Discord message it posted, kept with it (``message_id``).
        ``together``: the rows sent in the same messages, marked in the same write (with the
        same ``message_id``): a crash leaves them all pending, or none."""
        ...

    async def publish_post(
        self,
        outbox_id: int,
        game_id: int,
        turn: int,
        nick: str,
        text: str,
        *,
        ghost: bool = False,
        at: dt.datetime | None = None,
        message_id: int | None = None,
    ) -> PostRecord | None:
        """A player's post queued in the outbox (kind ``post``) was shown in #game: keep it
        for the archive (as :meth:`RequestLog.add_post`) and mark its row sent, in ONE
        transaction. None, writing nothing, if the row was marked sent already (or does not
        exist): a post is archived once however often its delivery is confirmed."""
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
        """Insert or replace (every field) the table ``settings.table_id``. Raises
        :class:`~db.errors.TableNameTaken`, writing nothing, if another table of the server
        has the name."""
        ...

    async def drop_table(self, table_id: int) -> bool:
        """Forget a table (its games stay, for history). False if there was none."""
        ...

    async def purge_guild(self, guild_id: int) -> int:
        """Delete everything kept for the server ``guild_id`` (the bot left it): its tables,
        every game of every table with its seats, sign-ups, log, results and announcements,
        and its audit log, in one transaction. Returns the number of games deleted."""
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
        """Record a host command; returns the new row's id (ids increase with insertion). A
        row about a game belongs to the game's server and table, else to ``table_id``
        (default: the server's first table)."""
        ...

    async def audit_log(
        self, *, game_id: int | None = None, guild_id: int | None = None
    ) -> list[AuditRecord]:
        """Audit rows matching every filter given, in insertion order."""
        ...

    async def audit_page(
        self, table_id: int, *, limit: int, offset: int = 0, before: int | None = None
    ) -> tuple[list[AuditRecord], int]:
        """One page of a table's audit log, newest first: at most ``limit`` rows (clamped
        to 1..:data:`AUDIT_PAGE_MAX`) after skipping ``offset`` (at least 0), and the number
        of rows the table's log holds. ``before``: only rows whose id is below it, and the
        number of those (keyset paging: rows added meanwhile never shift a page)."""
        ...


class GameLoader(Protocol):
    """Whole games read back as docs/REPLAY.md scripts: for export, and to pick every running
    game up again at start. Each method reads one consistent snapshot, even while another
    process writes."""

    async def load_script(self, game_id: int) -> JSONDict:
        """The game as a docs/REPLAY.md script: setup plus accepted log entries by turn
        (:func:`db.scripts.build_script`).

        Refused entries are left out. Turns run from 1 to the last turn with an entry or a
        resolution; replaying the script reproduces the game (an unresolved current turn in
        it would be resolved by a replay). Raises :class:`~db.errors.NotFound`.
        """
        ...

    async def load_restart(self) -> list[RestartGame]:
        """Every running game (in :meth:`GameRepository.running_games` order) as the bot's
        start needs it: players by seat, the snapshot of its state kept with its last
        resolution if it is of the game's current turn, and only the accepted log entries
        not in it (all of them without a usable snapshot). A fixed, small number of queries
        however many games there are; one JSON document decoded per game, not per entry."""
        ...


class KillBoards(Protocol):
    """The mafia's kill board (R23): one message per game and turn in the mafia's room,
    edited in place; its message id is kept so that it is posted once, also across a
    restart."""

    async def kill_board(self, game_id: int, turn: int) -> int | None:
        """The message id of the game's board for ``turn``, if one was posted (0: a post was
        begun and its id not kept yet)."""
        ...

    async def set_kill_board(self, game_id: int, turn: int, message_id: int) -> None:
        """Keep the board's message id for the game's ``turn`` (replacing one kept before:
        the message was deleted and posted again)."""
        ...


class Reviews(Protocol):
    """The host's review of a turn's results (``/mafia new review``, ``core/review.py``).

    The draft is the #host outbox row of kind ``review_draft`` that the resolution queued (in
    its transaction); its payload holds the held announcements and when they go out
    unreviewed. These calls keep the host's story and publish the held results once."""

    async def pending_reviews(self, game_id: int | None = None) -> list[ReviewRecord]:
        """Every draft not yet published (of one game, or of all), oldest first, with the
        host's story so far."""
        ...

    async def review_published_at(self, game_id: int, turn: int) -> dt.datetime | None:
        """When the results of ``turn`` were published (the next turn opened then, R59), if
        they were reviewed and are out; None otherwise."""
        ...

    async def set_review_story(self, game_id: int, turn: int, story: str) -> bool:
        """Keep (or replace) the host's story of the draft of ``turn``; False, writing
        nothing, once it is published."""
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
        """Publish the draft of ``turn`` exactly once, in ONE transaction: mark it published
        at ``at``, queue ``items`` (the story, the held results, the next turn's opening)
        under ``outbox_turn``, and set the running game's deadline to ``deadline`` (None:
        leave it). False, writing nothing, if it was already published (a second click, the
        clock, another process)."""
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
        """Wait for the writes in flight to finish, then release the connection.
        Idempotent."""
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
        """``process`` (a key naming the shards it runs) serves its games at ``at``. If its
        previous beat (for a key never seen, the newest beat of any: the bot was re-sharded)
        is more than ``gap`` before ``at``, the span between is downtime of each game of
        ``game_ids`` (still running), kept in the same transaction; returns its start (None:
        no downtime)."""
        ...

    async def downtime(
        self, game_id: int, since: dt.datetime
    ) -> list[tuple[dt.datetime, dt.datetime, DowntimeCause]]:
        """The game's downtime spans ending after ``since``: (start, end, cause), by start."""
        ...

    async def last_beat(self) -> dt.datetime | None:
        """The newest heartbeat of any process (None: no bot ever beat here): what
        ``main.py health`` compares with the time."""
        ...


class Confirmations(Protocol):
    """A host's confirmation whose options do not fit in its button's id, until it expires:
    kept in the store, so a restart keeps it."""

    async def put_confirmation(
        self,
        token: str,
        data: Mapping[str, Any],
        *,
        guild_id: int,
        now: dt.datetime,
        expires_at: dt.datetime,
    ) -> None:
        """Keep ``data`` under ``token`` until ``expires_at`` (those expired by ``now`` are
        dropped), as the server ``guild_id``'s (it goes with the server's data)."""
        ...

    async def get_confirmation(self, token: str, now: dt.datetime) -> JSONDict | None:
        """The data kept under ``token`` if it has not expired by ``now``."""
        ...


class DMChannels(Protocol):
    """The DM channel of each user the bot wrote to in private, per bot account: opened once,
    then known by its id (Discord keeps it for good), also after a restart. Kept per server
    the bot wrote to him for, so that it goes with that server's data (``purge_guild``,
    ``purge_member``)."""

    async def dm_channel(self, bot_id: int, guild_id: int, user_id: int) -> int | None:
        """The id of the DM channel between the bot ``bot_id`` and ``user_id``, if kept; one
        kept for another server only is kept for ``guild_id`` too from now on."""
        ...

    async def save_dm_channel(
        self, bot_id: int, guild_id: int, user_id: int, channel_id: int
    ) -> None:
        """Keep the id of the DM channel between the bot ``bot_id`` and ``user_id``, opened
        to write to him for the server ``guild_id``."""
        ...


class PostPictures(Protocol):
    """The picture of a player's post (``/say`` with an image), already stripped of its
    metadata (``core/images.py``), kept from the moment the post is queued until it is shown,
    so that a restart in between still shows it once. Never the uploaded file's name."""

    async def queue_picture_post(
        self, game_id: int, turn: int, item: OutboxItem, filename: str, data: bytes
    ) -> int:
        """Queue the post ``item`` (as :meth:`Outbox.add_outbox`) and keep its picture, in ONE
        transaction; the outbox row's id."""
        ...

    async def post_picture(self, outbox_id: int) -> tuple[str, bytes] | None:
        """The picture of the post of outbox row ``outbox_id`` (file name, bytes), or None."""
        ...

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        """Delete the picture of ``outbox_id`` (once it was shown, or dropped) and those of
        every row already sent; how many were deleted."""
        ...


class Presets(Protocol):
    """A server's own named setups (``/mafia preset``), at most a limit per server. A name is
    stored as written and found by its key (``rules.names.name_key``: R44's comparison)."""

    async def save_preset(
        self, guild_id: int, name_key: str, name: str, roles: Sequence[str], *, limit: int
    ) -> bool:
        """Save (or replace) the server's preset of that key; True if it is new. Raises
        :class:`db.errors.PresetsFull` for a new one past ``limit`` (nothing saved)."""
        ...

    async def presets(self, guild_id: int) -> list[PresetRecord]:
        """The server's presets, by name."""
        ...

    async def preset_named(self, guild_id: int, name_key: str) -> PresetRecord | None:
        """The server's preset of that key, if any."""
        ...

    async def delete_preset(self, guild_id: int, name_key: str) -> bool:
        """Delete the server's preset of that key; False if there was none."""
        ...


class Spectators(Protocol):
    """The members who watch a game's ghosts' room (R62): a row stays when one stops watching,
    so that the game knows he has watched (he cannot stand by as a substitute, R60)."""

    async def set_spectator(
        self,
        game_id: int,
        user_id: int,
        watching: bool,
        *,
        turn: int = 0,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """He watches (or stops), and ``outbox_items`` are queued for ``turn``, in ONE
        transaction; False if that was so already (nothing written)."""
        ...

    async def spectators(self, game_id: int, *, ever: bool = False) -> list[int]:
        """The members watching now (``ever``: who watch or have watched), in the order they
        began."""
        ...


class Substitutes(Protocol):
    """Substitutes and reliability (R60, R63): the list of members standing by for a running
    game, the players' requests to be replaced, the replacements, and the server's bars."""

    async def stand_by(self, game_id: int, user_id: int, now: dt.datetime) -> str | None:
        """Put ``user_id`` on the game's substitutes' list (kept once, in order of standing
        by). Returns None when he stands by (now or already), else why not: ``no_game`` (the
        game is not running), ``playing`` (he holds a seat), ``replaced`` (he was replaced in
        this game and never comes back, R60)."""
        ...

    async def stand_down(self, game_id: int, user_id: int) -> bool:
        """Take ``user_id`` off the list; False if he was not on it."""
        ...

    async def substitutes(self, game_id: int) -> list[int]:
        """The members standing by, in order of standing by."""
        ...

    async def ask_replacement(
        self,
        game_id: int,
        user_id: int,
        reason: str | None,
        now: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """Keep the player's request to be replaced (a new one replaces his earlier one) and
        queue ``outbox_items`` (the hosts' notice) in the same transaction. Raises
        :class:`~db.errors.NotFound` if he holds no seat."""
        ...

    async def replace_requests(self, game_id: int) -> list[ReplaceRequest]:
        """The players' standing requests to be replaced, oldest first."""
        ...

    async def replace_player(
        self,
        game_id: int,
        nick: str,
        new_user_id: int,
        outbox_items: Sequence[OutboxItem] = (),
        *,
        previous_user_id: int | None = None,
        from_list: bool = False,
        fence: Fence | None = None,
        now: dt.datetime | None = None,
        sent_at: dt.datetime | None = None,
    ) -> PlayerRecord:
        """A substitute takes over ``nick`` (``/mafia replace``), in one transaction: the seat
        changes hands, the replacement is recorded (``replacements``), the substitute leaves
        the list and the replaced player's request is done; ``outbox_items`` are queued at the
        game's turn. Refused, writing nothing, by :class:`~db.errors.ReplacementRefused`: the
        seat is no longer ``previous_user_id``'s, or was handed over at or after ``sent_at``
        (when the host sent his command: two replacements of one player at once make one),
        the substitute holds a seat or was replaced in this game, or (``from_list``) he no longer
        stands by. Raises :class:`~db.errors.NotFound` for an unknown nick and
        :class:`~db.errors.StaleGame` if the game no longer matches ``fence``."""
        ...

    async def replacements(self, game_id: int) -> list[Replacement]:
        """The game's replacements, in order."""
        ...

    async def bar_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        until: dt.datetime | None,
        reason: str,
        actor_id: int,
        now: dt.datetime,
        table_id: int | None = None,
    ) -> Bar:
        """Bar ``user_id`` from signing up at the server's tables until ``until`` (None:
        until lifted), replacing an earlier bar; its audit row in the same transaction."""
        ...

    async def unbar_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        actor_id: int,
        now: dt.datetime,
        table_id: int | None = None,
    ) -> bool:
        """Lift the member's bar (audited); False if none was in force at ``now``."""
        ...

    async def bar_of(self, guild_id: int, user_id: int, now: dt.datetime) -> Bar | None:
        """The member's bar in force at ``now`` (an expired one is none)."""
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
