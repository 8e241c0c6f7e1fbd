"""Reading whole games back: one game's script (export), and every running game at start.
Each method reads in one snapshot (:meth:`db.tx.Engine._run_snapshot`)."""

from __future__ import annotations

import datetime as dt
import json
from operator import itemgetter
from typing import Any

from db.convert import loads_dict
from db.errors import NotFound
from db.models import JSONDict, PlayerRecord, RestartGame
from db.ops.games import GAME_COLUMNS
from db.ops.players import PLAYER_COLUMNS
from db.records import game_record
from db.scripts import build_script
from db.tx import Engine, Row, Tx

#: The outbox kinds queued once a turn that a restart reads back for the clock (core/clock.py:
#: the reminders, the hunts-open and last-hour notices).
TURN_NOTICES = ("reminder", "hunts_open", "last_hour")


async def write_snapshot(
    tx: Tx, game_id: int, turn: int, state: str | None, now: dt.datetime
) -> None:
    """In a resolution's transaction: the game's state from ``turn`` on (JSON text), or no
    snapshot at all (``None``: none given, or the game is over). It holds every entry logged
    so far (the live game applied them all, under its lock): its ``seq`` is the log's last,
    and a restart replays the entries after it (host commands given in a pistol window are
    logged at the next turn but already in the state)."""
    if state is None:
        await tx.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
        return
    await tx.execute(
        "INSERT INTO snapshots (game_id, turn, seq, state, taken_at) VALUES ($1, $2, "
        "(SELECT COALESCE(MAX(seq), 0) FROM log_entries WHERE game_id = $1), $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seq = excluded.seq, "
        "state = excluded.state, taken_at = excluded.taken_at",
        game_id,
        turn,
        state,
        tx.dialect.time(now),
    )


class LoadingOps(Engine):
    """Whole games read back (docs/REPLAY.md), each in one consistent snapshot."""

    async def load_script(self, game_id: int) -> JSONDict:
        """The game as a script (:func:`db.scripts.build_script`): its setup and accepted
        entries by turn; replaying it reproduces the game. Raises ``NotFound``."""

        async def body(tx: Tx) -> tuple[Row, list[Row], list[Row], Any]:
            game = await tx.fetchrow(
                "SELECT seed, activity_rules FROM games WHERE id = $1", game_id
            )
            if game is None:
                raise NotFound(f"no game {game_id}")
            players = await tx.fetch(
                "SELECT nick, role FROM players WHERE game_id = $1 ORDER BY seat", game_id
            )
            entries = await tx.fetch(
                "SELECT turn, section, payload FROM log_entries "
                "WHERE game_id = $1 AND outcome = 'accepted' ORDER BY seq",
                game_id,
            )
            last = await tx.fetchval(
                "SELECT COALESCE(MAX(turn), 0) FROM resolutions WHERE game_id = $1", game_id
            )
            return game, players, entries, last

        game, players, entries, last = await self._run_snapshot(body)
        return build_script(
            int(game["seed"]),
            bool(game["activity_rules"]),
            ((str(p["nick"]), str(p["role"])) for p in players),
            ((int(e["turn"]), str(e["section"]), loads_dict(e["payload"])) for e in entries),
            int(last or 0),
        )

    async def load_restart(self) -> list[RestartGame]:
        """Every running game as the start needs it: its players, the snapshot of its current
        turn (if kept) and the accepted entries not in it."""
        pg = self.dialect.name == "postgres"
        # A snapshot is usable only if it is of the game's current turn: it was written with
        # the resolution that opened this turn (the same transaction set games.turn).
        # (SQLite: games in id order, NOT INDEXED: the log is then grouped as it is read,
        # without a temporary B-tree.)
        usable = (
            "FROM games g "
            + ("" if pg else "NOT INDEXED ")
            + "LEFT JOIN snapshots s ON s.game_id = g.id AND s.turn = g.turn "
        )
        # The log after the snapshot (all of it without one), one JSON array per game built
        # by the database: one document decoded per game instead of one per entry.
        # PostgreSQL: [[turn, section, payload], ...] in seq order; SQLite (group_concat's
        # order is unspecified): [[seq, turn, section, payload], ...], sorted below.
        if pg:
            log = (
                "SELECT e.game_id, json_agg(json_build_array(e.turn, e.section, e.payload) "
                "ORDER BY e.seq)::text AS log "
            )
            turns = "array_agg({}.turn)"
        else:
            log = (
                "SELECT e.game_id, '[' || group_concat('[' || e.seq || ',' || e.turn || "
                "',\"' || e.section || '\",' || e.payload || ']', ',') || ']' AS log "
            )
            turns = "group_concat({}.turn)"

        async def body(tx: Tx) -> list[list[Row]]:
            games = await tx.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' "
                "ORDER BY deadline IS NULL, deadline, id"
            )
            players = await tx.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id IN "
                "(SELECT id FROM games WHERE status = 'running') ORDER BY game_id, seat"
            )
            snapshots = await tx.fetch(
                f"SELECT g.id AS game_id, s.state {usable} "
                "WHERE g.status = 'running' AND s.state IS NOT NULL"
            )
            entries = await tx.fetch(
                f"{log}{usable} JOIN log_entries e ON e.game_id = g.id "
                "AND e.seq > COALESCE(s.seq, 0) "
                "WHERE g.status = 'running' AND e.outcome = 'accepted' "
                f"GROUP BY {'e.game_id' if pg else 'g.id'}"
            )
            resolved = await tx.fetch(
                f"SELECT r.game_id, {turns.format('r')} AS turns FROM games g "
                "JOIN resolutions r ON r.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY r.game_id"
            )
            windows = await tx.fetch(
                f"SELECT w.game_id, {turns.format('w')} AS turns FROM games g "
                "JOIN pistol_windows w ON w.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY w.game_id"
            )
            cards = await tx.fetch(
                "SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id "
                "WHERE o.kind = 'role_card' AND g.status = 'running'"
            )
            notices = await tx.fetch(
                "SELECT o.game_id, o.kind, o.payload FROM outbox o JOIN games g "
                "ON g.id = o.game_id WHERE g.status = 'running' AND o.turn = g.turn "
                f"AND o.kind IN ({', '.join(repr(k) for k in TURN_NOTICES)}) ORDER BY o.id"
            )
            return [games, players, snapshots, entries, resolved, windows, cards, notices]

        rows = await self._run_snapshot(body)
        games, players, snapshots, entries, resolved, windows, cards, notices = rows
        seats: dict[int, list[PlayerRecord]] = {}
        for row in players:
            # The columns in field order, of the tables' types: no per-name lookup (10,000
            # games seat 100,000 players).
            player = PlayerRecord(*row)
            seats.setdefault(player.game_id, []).append(player)
        states = {int(row["game_id"]): loads_dict(row["state"]) for row in snapshots}
        logs: dict[int, list[tuple[int, str, JSONDict]]] = {}
        for row in entries:
            items: list[list[Any]] = json.loads(row["log"])
            if pg:
                logs[int(row["game_id"])] = [(t, sec, p) for t, sec, p in items]
            else:
                items.sort(key=itemgetter(0))
                logs[int(row["game_id"])] = [(t, sec, p) for _, t, sec, p in items]
        done = {int(row["game_id"]): _turns(row["turns"]) for row in resolved}
        opened = {int(row["game_id"]): _turns(row["turns"]) for row in windows}
        dealt = {int(row["game_id"]) for row in cards}
        marks: dict[int, dict[str, JSONDict]] = {}
        for row in notices:  # in queue order: the latest of a kind wins
            marks.setdefault(int(row["game_id"]), {})[str(row["kind"])] = loads_dict(row["payload"])
        empty: frozenset[int] = frozenset()
        return [
            RestartGame(
                game=game,
                players=seats.get(game.id, []),
                snapshot=states.get(game.id),
                log=logs.get(game.id, []),
                resolved_turns=done.get(game.id, empty),
                pistol_window_turns=opened.get(game.id, empty),
                cards_queued=game.id in dealt,
                turn_notices=marks.get(game.id, {}),
            )
            for game in map(game_record, games)
        ]


def _turns(value: str | list[int]) -> frozenset[int]:
    """``1,2,3`` (SQLite's group_concat) or ``[1, 2, 3]`` (PostgreSQL's array_agg)."""
    if isinstance(value, list):
        return frozenset(value)
    return frozenset(int(t) for t in value.split(","))
