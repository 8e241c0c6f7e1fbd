"""The request log (requests, host commands, shots) and the once-only stages of
a turn: its resolution and its pistol window (R18).

Exactly once across processes: an append to a game's log first serialises on the game
(:func:`db.ops.common.serialise`: on PostgreSQL the game's row locked, once per transaction;
on SQLite ``BEGIN IMMEDIATE`` already did), then numbers the entry with the log's last ``seq``
+ 1 in a NEW statement (under PostgreSQL's ``READ COMMITTED`` each statement sees what
committed before it began, so after waiting for the lock it sees the other process's entry):
two processes appending at once take turns and keep ``seq`` gap-free and ordered, without ever
hitting ``UNIQUE (game_id, seq)``. A stage is claimed by inserting its ``(game_id, turn)`` key
with ``ON CONFLICT DO NOTHING`` (the loser gets False), after taking the same lock.

A fenced write (:class:`~db.models.Fence`) checks the game in its own transaction, after
taking the lock and in a new statement, so it compares with what every other process committed
before it: the game's status, turn and phase, and its accepted entries at that turn or later.
A mismatch raises :class:`~db.errors.StaleGame`, writing nothing. A fenced append checks it in
its INSERT (:data:`_INSERT_FENCED`: one statement, where a check then an INSERT were two round
trips on PostgreSQL); only when it wrote nothing does a second read say why (stale or missing).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from db.convert import check_outcome, check_section, dumps, loads_dict
from db.errors import ForeignKeyViolation, NotFound, StaleGame, StoreError
from db.models import (
    ACCEPTED,
    Fence,
    GameHead,
    JSONDict,
    LogEntry,
    OutboxItem,
    PostRecord,
    ResolutionRecord,
    Section,
)
from db.ops.audit import insert_audit
from db.ops.common import lock_game, serialise
from db.ops.games import FINISH_GAME, GAME_COLUMNS
from db.ops.loading import write_snapshot
from db.ops.outbox import insert_outbox, stored
from db.records import game_record, post_record, resolution_record
from db.records import log_entry as _entry
from db.tx import Engine, Tx

_ENTRY_COLUMNS = "id, game_id, turn, seq, section, payload, outcome, user_id, at"

#: A game's accepted log entries at its turn or later (``g`` is the game): what a
#: :class:`~db.models.Fence` counts, from the index ``log_entries_accepted`` alone (migration
#: 19; ``tests/db/test_lean_log.py`` checks both engines' plans).
_ENTRIES = (
    "(SELECT COUNT(*) FROM log_entries l WHERE l.game_id = g.id AND l.turn >= g.turn "
    "AND l.outcome = 'accepted') AS entries"
)

#: One log entry; ``seq`` is the game's next number, taken inside the INSERT: one step down
#: ``UNIQUE (game_id, seq)`` to the game's last entry. The payload was checked once, by
#: :func:`~db.convert.dumps` (no CHECK parses it again in the writer's transaction).
_INSERT_ENTRY = (
    "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, user_id, at) "
    "SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3, $4, $5, $6, $7 "
    "FROM log_entries WHERE game_id = $1 RETURNING id, seq"
)


#: One log entry appended only if its game still matches the fence (``$8`` turn, ``$9``
#: phase, ``$10`` accepted entries at that turn or later, the game running): the fence's check
#: and the write in ONE statement (one round trip on PostgreSQL, after the lock), ``seq``
#: taken as in :data:`_INSERT_ENTRY`. No row: the game is stale or missing
#: (:func:`_refuse_fenced` tells which).
_INSERT_FENCED = (
    "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, user_id, at) "
    "SELECT g.id, $2, (SELECT COALESCE(MAX(seq), 0) + 1 FROM log_entries WHERE game_id = $1), "
    "$3, $4, $5, $6, $7 FROM games g WHERE g.id = $1 AND g.status = 'running' "
    "AND g.turn = $8 AND g.phase = $9 AND (SELECT COUNT(*) FROM log_entries l "
    "WHERE l.game_id = g.id AND l.turn >= g.turn AND l.outcome = 'accepted') = $10 "
    "RETURNING id, seq"
)


async def check_fence(tx: Tx, game_id: int, fence: Fence | None) -> None:
    """Raise :class:`StaleGame` unless the game is running as ``fence`` says (nothing to do
    without a fence). Serialises on the game first, then reads in a NEW statement (see the
    module's docstring). Raises :class:`~db.errors.NotFound` if there is no such game."""
    if fence is None:
        return
    await serialise(tx, game_id)
    await _refuse_fenced(tx, game_id, fence, always=False)


async def _refuse_fenced(tx: Tx, game_id: int, fence: Fence, *, always: bool = True) -> None:
    """Raise :class:`~db.errors.NotFound` or :class:`StaleGame` for a game that does not match
    ``fence`` (``always``: one that a fenced INSERT found not matching, read again under the
    same lock to say why)."""
    row = await tx.fetchrow(
        f"SELECT status, turn, phase, {_ENTRIES} FROM games g WHERE g.id = $1", game_id
    )
    if row is None:
        raise NotFound(f"no game {game_id}")
    seen = (str(row["status"]), int(row["turn"]), str(row["phase"]), int(row["entries"]))
    if always or seen != ("running", fence.turn, fence.phase, fence.entries):
        raise StaleGame(
            f"game {game_id} is {seen[0]} at turn {seen[1]} ({seen[2]}, {seen[3]} entries), "
            f"not at turn {fence.turn} ({fence.phase}, {fence.entries} entries)"
        )


async def insert_entry(
    tx: Tx,
    game_id: int,
    turn: int,
    section: Section,
    payload: JSONDict,
    payload_text: str,
    outcome: str,
    user_id: int | None,
    at: dt.datetime,
    stamp: Any,
    fence: Fence | None = None,
) -> LogEntry:
    """Append one entry, serialised on the game (see the module's docstring). ``stamp`` is
    ``at`` as the engine stores it (``dialect.time(at)``), made before the transaction: off
    the writer's thread on SQLite. With ``fence``, the entry is written only if the game still
    matches it, checked in the INSERT itself (:data:`_INSERT_FENCED`); else
    :class:`StaleGame` (or :class:`~db.errors.NotFound`), writing nothing."""
    await serialise(tx, game_id)
    args: tuple[Any, ...] = (game_id, turn, section, payload_text, outcome, user_id, stamp)
    try:
        if fence is None:
            row = await tx.fetchrow(_INSERT_ENTRY, *args)
        else:
            row = await tx.fetchrow(_INSERT_FENCED, *args, fence.turn, fence.phase, fence.entries)
    except ForeignKeyViolation as e:
        raise NotFound(f"no game {game_id}") from e
    if row is None:
        assert fence is not None
        await _refuse_fenced(tx, game_id, fence)
    assert row is not None
    return LogEntry(
        id=int(row["id"]),
        game_id=game_id,
        turn=turn,
        seq=int(row["seq"]),
        section=section,
        payload=payload,
        outcome=outcome,
        user_id=user_id,
        at=at,
    )


async def _stage_done(
    tx: Tx, table: Literal["resolutions", "pistol_windows"], game_id: int, turn: int
) -> bool:
    """Whether the once-only stage ``table`` of ``(game_id, turn)`` has run, read after
    serialising on the game: a claim that lost returns False before its fence is checked."""
    await serialise(tx, game_id)
    sql = f"SELECT 1 FROM {table} WHERE game_id = $1 AND turn = $2"
    return await tx.fetchval(sql, game_id, turn) is not None


async def _claim_stage(
    tx: Tx,
    table: Literal["resolutions", "pistol_windows"],
    stamp: Literal["resolved_at", "opened_at"],
    game_id: int,
    turn: int,
    result_text: str,
    now: dt.datetime,
) -> bool:
    """Insert the (game, turn) row of a once-only stage of a turn, the game locked. False if
    it was there already (the stage ran: do nothing); raises if the game is missing or not at
    ``turn``."""
    game = await lock_game(tx, game_id)
    added = await tx.execute(
        f"INSERT INTO {table} (game_id, turn, result, {stamp}) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (game_id, turn) DO NOTHING",
        game_id,
        turn,
        result_text,
        tx.dialect.time(now),
    )
    if added == 0:
        return False
    if game["status"] != "running":
        raise StoreError(f"game {game_id} is not running (it is {game['status']})")
    if int(game["turn"]) != turn:
        raise StoreError(f"game {game_id} is at turn {game['turn']}, not {turn}")
    return True


class RequestLogOps(Engine):
    """The game's event log (host commands, requests, pistol shots) and the once-only stages
    of a turn: its resolution and its pistol window (R18).

    Replaying the *accepted* entries in ``seq`` order rebuilds the game. ``seq`` is the arrival
    order within a game (1, 2, 3...), assigned inside the write: callers never share a number.

    The once-only stages are the primary keys (game_id, turn) of ``resolutions`` and
    ``pistol_windows``.
    """

    # --- the log ---------------------------------------------------------------------------

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
        sec = check_section(section)
        check_outcome(outcome)
        data = dict(payload)
        text = dumps(data)
        now = self._now()
        stamp = self.dialect.time(now)

        async def body(tx: Tx) -> LogEntry:  # the vote path: one hop on SQLite
            return await insert_entry(
                tx, game_id, turn, sec, data, text, outcome, user_id, now, stamp, fence
            )

        return await self._run_write(body)

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
        check_outcome(outcome)
        data = dict(payload)
        text = dumps(data)
        args_text = dumps(dict(args or {}))
        now = self._now()
        stamp = self.dialect.time(now)

        async def body(tx: Tx) -> LogEntry:
            entry = await insert_entry(
                tx, game_id, turn, "host", data, text, outcome, actor_id, now, stamp, fence
            )
            await insert_audit(tx, None, game_id, actor_id, command, args_text, now)
            await insert_outbox(tx, game_id, turn, outbox_items, now)
            return entry

        return await self._run_write(body)

    async def log_entries(
        self, game_id: int, turn: int | None = None, *, accepted_only: bool = False
    ) -> list[LogEntry]:
        """The log of a game (or of one turn), in arrival order (``seq``)."""
        sql = f"SELECT {_ENTRY_COLUMNS} FROM log_entries WHERE game_id = $1"
        params: list[Any] = [game_id]
        if turn is not None:
            params.append(turn)
            sql += " AND turn = $2"
        if accepted_only:
            sql += " AND outcome = 'accepted'"
        rows = await self._fetch(sql + " ORDER BY seq", *params)
        return [_entry(r) for r in rows]

    # --- public posts (the archive) ---------------------------------------------------------

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
        if turn < 0:
            raise ValueError(f"turn must be at least 0, got {turn}")
        when = self._now() if at is None else at
        stamp = self.dialect.time(when)  # ValueError for a naive datetime, before any write

        async def body(tx: Tx) -> int:  # a hot path: one hop on SQLite
            try:
                post_id = await tx.fetchval(
                    "INSERT INTO posts (game_id, turn, nick, text, ghost, at) "
                    "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    game_id,
                    turn,
                    nick,
                    text,
                    bool(ghost),
                    stamp,
                )
            except ForeignKeyViolation as e:
                raise NotFound(f"no game {game_id}") from e
            return int(post_id)

        post_id = await self._run_write(body)
        return PostRecord(post_id, game_id, turn, nick, text, ghost, stored(when))

    async def posts(self, game_id: int) -> list[PostRecord]:
        """Every kept post of a game, in the order they were published."""
        rows = await self._fetch(
            "SELECT id, game_id, turn, nick, text, ghost, at FROM posts "
            "WHERE game_id = $1 ORDER BY id",
            game_id,
        )
        return [post_record(r) for r in rows]

    # --- resolutions and pistol windows ----------------------------------------------------

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
        now = self._now()
        stamp = self.dialect.time(now)
        result_text = dumps(dict(result))
        when = self.dialect.opt_time(next_deadline)
        snapshot_text = None if snapshot is None or winner is not None else dumps(dict(snapshot))

        async def body(tx: Tx) -> bool:
            if await _stage_done(tx, "resolutions", game_id, turn):
                return False  # once only: the claim was lost, whatever the fence says
            await check_fence(tx, game_id, fence)
            if not await _claim_stage(
                tx, "resolutions", "resolved_at", game_id, turn, result_text, now
            ):
                return False
            await insert_outbox(tx, game_id, turn, outbox_items, now)
            if winner is None:  # a pause stopped the closed turn's clock: the next has its own
                await tx.execute(
                    "UPDATE games SET turn = $1, phase = $2, deadline = $3, paused = FALSE, "
                    "paused_remaining = NULL, updated_at = $4 WHERE id = $5",
                    next_turn,
                    next_phase,
                    when,
                    stamp,
                    game_id,
                )
            else:
                await tx.execute(FINISH_GAME, winner, stamp, game_id)
            await write_snapshot(tx, game_id, next_turn, snapshot_text, now)
            return True

        return await self._run_write(body)

    async def resolutions(self, game_id: int) -> list[ResolutionRecord]:
        """The resolved turns of a game, by turn."""
        rows = await self._fetch(
            "SELECT game_id, turn, result, resolved_at FROM resolutions WHERE game_id = $1 "
            "ORDER BY turn",
            game_id,
        )
        return [resolution_record(r) for r in rows]

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
        now = self._now()
        text = dumps(dict(partial_result))
        when = self.dialect.opt_time(window_deadline)
        stamp = self.dialect.time(now)

        async def body(tx: Tx) -> bool:
            if await _stage_done(tx, "pistol_windows", game_id, turn):
                return False
            await check_fence(tx, game_id, fence)
            if not await _claim_stage(tx, "pistol_windows", "opened_at", game_id, turn, text, now):
                return False
            await insert_outbox(tx, game_id, turn, outbox_items, now)
            await tx.execute(  # the window's own clock: a pause stopped the closed turn's
                "UPDATE games SET phase = $1, deadline = $2, paused = FALSE, "
                "paused_remaining = NULL, updated_at = $3 WHERE id = $4",
                phase,
                when,
                stamp,
                game_id,
            )
            return True

        return await self._run_write(body)

    async def game_head(self, game_id: int) -> GameHead | None:
        """The game's row and its accepted entries at its turn or later, in one read (is a
        process's copy current?); None if there is no such game."""
        row = await self._fetchrow(
            f"SELECT {GAME_COLUMNS}, {_ENTRIES} FROM games g WHERE g.id = $1", game_id
        )
        if row is None:
            return None
        return GameHead(record=game_record(row), entries=int(row["entries"]))

    async def pistol_window(self, game_id: int, turn: int) -> JSONDict | None:
        """The partial result stored when the turn's pistol window opened, if it did."""
        row = await self._fetchrow(
            "SELECT result FROM pistol_windows WHERE game_id = $1 AND turn = $2", game_id, turn
        )
        return None if row is None else loads_dict(row["result"])
