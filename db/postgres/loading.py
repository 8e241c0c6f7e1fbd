"""Reading whole games back: one game's script (export), and every running game at start."""

from __future__ import annotations

import datetime as dt
import json

from db.errors import NotFound
from db.models import JSONDict, PlayerRecord, RestartGame
from db.postgres.base import Conn, PostgresBase
from db.postgres.convert import loads_dict
from db.postgres.games import GAME_COLUMNS
from db.postgres.players import PLAYER_COLUMNS
from db.records import game_record, player_record
from db.scripts import build_script


async def write_snapshot(
    db: Conn, game_id: int, turn: int, state: str | None, now: dt.datetime
) -> None:
    """In a resolution's transaction (the game's row locked): the game's state from ``turn``
    on (JSON text), or no snapshot at all (``None``: none given, or the game is over). Its
    ``seq`` is the log's last (see :func:`db.sqlite.loading.write_snapshot`)."""
    if state is None:
        await db.execute("DELETE FROM snapshots WHERE game_id = $1", game_id)
        return
    await db.execute(
        "INSERT INTO snapshots (game_id, turn, seq, state, taken_at) VALUES ($1, $2, "
        "(SELECT COALESCE(MAX(seq), 0) FROM log_entries WHERE game_id = $1), $3, $4) "
        "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, seq = excluded.seq, "
        "state = excluded.state, taken_at = excluded.taken_at",
        game_id,
        turn,
        state,
        now,
    )


class LoadingMixin(PostgresBase):
    """:class:`db.interface.GameLoader` on PostgreSQL: each method reads in one
    ``REPEATABLE READ`` snapshot."""

    async def load_script(self, game_id: int) -> JSONDict:
        async with self._reading() as db:
            game = await db.fetchrow(
                "SELECT seed, activity_rules FROM games WHERE id = $1", game_id
            )
            if game is None:
                raise NotFound(f"no game {game_id}")
            players = await db.fetch(
                "SELECT nick, role FROM players WHERE game_id = $1 ORDER BY seat", game_id
            )
            entries = await db.fetch(
                "SELECT turn, section, payload FROM log_entries "
                "WHERE game_id = $1 AND outcome = 'accepted' ORDER BY seq",
                game_id,
            )
            last = await db.fetchval(
                "SELECT COALESCE(MAX(turn), 0) FROM resolutions WHERE game_id = $1", game_id
            )
        return build_script(
            int(game["seed"]),
            bool(game["activity_rules"]),
            ((str(p["nick"]), str(p["role"])) for p in players),
            ((int(e["turn"]), str(e["section"]), loads_dict(e["payload"])) for e in entries),
            int(last or 0),
        )

    async def load_restart(self) -> list[RestartGame]:
        # A snapshot is usable only if it is of the game's current turn: it was written with
        # the resolution that opened this turn (the same transaction set games.turn).
        usable = "FROM games g LEFT JOIN snapshots s ON s.game_id = g.id AND s.turn = g.turn "
        async with self._reading() as db:
            games = await db.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'running' "
                "ORDER BY deadline IS NULL, deadline, id"
            )
            players = await db.fetch(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id IN "
                "(SELECT id FROM games WHERE status = 'running') ORDER BY game_id, seat"
            )
            snapshots = await db.fetch(
                f"SELECT g.id AS game_id, s.state {usable} "
                "WHERE g.status = 'running' AND s.state IS NOT NULL"
            )
            # The log after the snapshot (all of it without one), one JSON array per game
            # built by the server in seq order, [[turn, section, payload], ...]: one document
            # decoded per game instead of one per entry.
            entries = await db.fetch(
                "SELECT e.game_id, json_agg(json_build_array(e.turn, e.section, e.payload) "
                f"ORDER BY e.seq)::text AS log {usable} "
                "JOIN log_entries e ON e.game_id = g.id AND e.seq > COALESCE(s.seq, 0) "
                "WHERE g.status = 'running' AND e.outcome = 'accepted' GROUP BY e.game_id"
            )
            resolved = await db.fetch(
                "SELECT r.game_id, array_agg(r.turn) AS turns FROM games g "
                "JOIN resolutions r ON r.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY r.game_id"
            )
            windows = await db.fetch(
                "SELECT w.game_id, array_agg(w.turn) AS turns FROM games g "
                "JOIN pistol_windows w ON w.game_id = g.id WHERE g.status = 'running' "
                "GROUP BY w.game_id"
            )
            cards = await db.fetch(
                "SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id "
                "WHERE o.kind = 'role_card' AND g.status = 'running'"
            )
        seats: dict[int, list[PlayerRecord]] = {}
        for row in players:
            player = player_record(row)
            seats.setdefault(player.game_id, []).append(player)
        states = {int(row["game_id"]): loads_dict(row["state"]) for row in snapshots}
        logs: dict[int, list[tuple[int, str, JSONDict]]] = {
            int(row["game_id"]): [(t, sec, p) for t, sec, p in json.loads(row["log"])]
            for row in entries
        }
        done = {int(row["game_id"]): frozenset(row["turns"]) for row in resolved}
        opened = {int(row["game_id"]): frozenset(row["turns"]) for row in windows}
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
