"""Reading whole games back: one game's script (export), and every running game at start."""

from __future__ import annotations

import json
from operator import itemgetter
from typing import Any

import aiosqlite

from db.errors import NotFound
from db.models import JSONDict, PlayerRecord, RestartGame
from db.records import game_record
from db.scripts import build_script
from db.sqlite.base import SQLiteBase, fetch_one
from db.sqlite.convert import loads_dict
from db.sqlite.games import GAME_COLUMNS
from db.sqlite.players import PLAYER_COLUMNS


async def write_snapshot(
    db: aiosqlite.Connection, game_id: int, turn: int, state: str | None, now: str
) -> None:
    """In a resolution's transaction: the game's state from ``turn`` on (JSON text), or no
    snapshot at all (``None``: none given, or the game is over). It holds every entry logged
    so far (the live game applied them all, under its lock): its ``seq`` is the log's last,
    and a restart replays the entries after it (host commands given in a pistol window are
    logged at the next turn but already in the state)."""
    if state is None:
        await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
        return
    await db.execute(
        "INSERT INTO snapshots (game_id, turn, seq, state, taken_at) VALUES (?, ?, "
        "(SELECT COALESCE(MAX(seq), 0) FROM log_entries WHERE game_id = ?), ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seq = excluded.seq, "
        "state = excluded.state, taken_at = excluded.taken_at",
        (game_id, turn, game_id, state, now),
    )


class LoadingMixin(SQLiteBase):
    """:class:`db.interface.GameLoader` on SQLite: each method reads in one snapshot."""

    async def load_script(self, game_id: int) -> JSONDict:
        async with self._reading() as db:
            game = await fetch_one(
                db, "SELECT seed, activity_rules FROM games WHERE id = ?", (game_id,)
            )
            if game is None:
                raise NotFound(f"no game {game_id}")
            players = await db.execute_fetchall(
                "SELECT nick, role FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            entries = await db.execute_fetchall(
                "SELECT turn, section, payload FROM log_entries "
                "WHERE game_id = ? AND outcome = 'accepted' ORDER BY seq",
                (game_id,),
            )
            last = await fetch_one(
                db,
                "SELECT COALESCE(MAX(turn), 0) AS t FROM resolutions WHERE game_id = ?",
                (game_id,),
            )
        return build_script(
            int(game["seed"]),
            bool(game["activity_rules"]),
            ((str(p["nick"]), str(p["role"])) for p in players),
            ((int(e["turn"]), str(e["section"]), loads_dict(e["payload"])) for e in entries),
            0 if last is None else int(last["t"]),
        )

    async def load_restart(self) -> list[RestartGame]:
        # A snapshot is usable only if it is of the game's current turn: it was written with
        # the resolution that opened this turn (the same transaction set games.turn).
        # (games in id order, NOT INDEXED: the log is then grouped as it is read, without
        # a temporary B-tree.)
        usable = (
            "FROM games g NOT INDEXED "
            "LEFT JOIN snapshots s ON s.game_id = g.id AND s.turn = g.turn "
        )
        async with self._reading() as db:
            games = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' "
                "ORDER BY deadline IS NULL, deadline, id"
            )
            players = await db.execute_fetchall(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id IN "
                "(SELECT id FROM games WHERE status = 'running') ORDER BY game_id, seat"
            )
            snapshots = await db.execute_fetchall(
                f"SELECT g.id AS game_id, s.state {usable} "
                "WHERE g.status = 'running' AND s.state IS NOT NULL"
            )
            # The log after the snapshot (all of it without one), one JSON array per game
            # built by SQLite, [[seq, turn, section, payload], ...]: one document decoded
            # per game instead of one per entry (group_concat's order is unspecified, hence
            # seq inside and a sort below).
            entries = await db.execute_fetchall(
                "SELECT e.game_id, '[' || group_concat('[' || e.seq || ',' || e.turn || "
                "',\"' || e.section || '\",' || e.payload || ']', ',') || ']' AS log "
                f"{usable} JOIN log_entries e ON e.game_id = g.id "
                "AND e.seq > COALESCE(s.seq, 0) "
                "WHERE g.status = 'running' AND e.outcome = 'accepted' GROUP BY g.id"
            )
            resolved = await db.execute_fetchall(
                "SELECT r.game_id, group_concat(r.turn) AS turns FROM games g "
                "JOIN resolutions r ON r.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY r.game_id"
            )
            windows = await db.execute_fetchall(
                "SELECT w.game_id, group_concat(w.turn) AS turns FROM games g "
                "JOIN pistol_windows w ON w.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY w.game_id"
            )
            cards = await db.execute_fetchall(
                "SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id "
                "WHERE o.kind = 'role_card' AND g.status = 'running'"
            )
        seats: dict[int, list[PlayerRecord]] = {}
        for row in players:
            # The columns in field order, of the STRICT table's types: no per-name lookup
            # (10,000 games seat 100,000 players).
            player = PlayerRecord(*row)
            seats.setdefault(player.game_id, []).append(player)
        states = {int(row["game_id"]): loads_dict(row["state"]) for row in snapshots}
        logs: dict[int, list[tuple[int, str, JSONDict]]] = {}
        for row in entries:
            items: list[list[Any]] = json.loads(row["log"])
            items.sort(key=itemgetter(0))
            logs[int(row["game_id"])] = [(t, sec, p) for _, t, sec, p in items]
        done = {int(row["game_id"]): _turns(row["turns"]) for row in resolved}
        opened = {int(row["game_id"]): _turns(row["turns"]) for row in windows}
        dealt = {int(row["game_id"]) for row in cards}
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
            )
            for game in map(game_record, games)
        ]


def _turns(text: str) -> frozenset[int]:
    return frozenset(int(t) for t in str(text).split(","))
