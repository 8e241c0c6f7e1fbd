"""``/vote`` until the reply, next to a no-op command, with 1,000 games loaded.

    python -m bench.vote_bench [--games 1000] [--played 40] [--votes 1200]
        [--engine sqlite|postgres|both] [--log-only]

First, the log's write alone (:func:`log_writes`, ``--log-only`` for it only): one fenced
vote's statements on the writer against a database of schema 18 and one of the current schema
(migration 19 trimmed the request log), next to a bare ``INSERT``: WAL frames per commit and
µs without and with the fsync. A vote writes three pages (the table's row, ``UNIQUE (game_id,
seq)``, the fence's index ``log_entries_accepted``) where a bare ``INSERT`` writes one; the
three are the floor while the log keeps a row id, its order and the database's own guard on
it, and a count of the turn's entries that reads no rows.

On each engine in turn: SQLite (the file), then PostgreSQL (the same games copied into a
server the benchmark starts itself, with PostgreSQL's durable defaults: fsync and synchronous
commit on; or ``$MAFIA_BENCH_PG``).

The world: a database holding ``--games`` running games, all loaded by the bot's real start
path (``setup_hook``: ``GameService.load``) and live in its service. ``--played`` of them are
real games in SimCord (a server each, ``/mafia setup``, ``/mafia new`` with 60-minute turns, 8
players ``/join``, ``/mafia roles``, ``/mafia start``, each player ``/say`` once, turn 1
resolved by the clock: votes open in turn 2; no timer of the bot is left to SimCord's wall
clock, see :func:`scenario`); the
rest are written straight into the file before the bot starts (a server and table each, 8
seats, turn 1 resolved and about 20 requests of turn 2 logged, their role cards delivered, a
deadline far away), so the store and the service hold 1,000 games as a community's would.

What is timed: from the moment the benchmark hands the command to SimCord (``slash``) to the
moment SimCord records the interaction's response (the bot's ``POST .../callback``, the
ephemeral reply the player sees). SimCord appends every REST call the bot makes to its log
(``Backend.http_requests``) as it receives it; the log is swapped for a list that stamps
``time.perf_counter()`` when a callback arrives (:class:`bench.e2e_bench.ReplyClock`). What the
bot does after replying (the settle, the mafia's room) is not counted: the player does not
wait for it. The no-op command (an answer after one yield to the loop) is timed the same way,
interleaved with the votes, in the same channels, by the same members: the simulator's and
discord.py's own cost of one interaction. One durable commit is timed in the same run too
(:func:`durable_commits`: on SQLite an ``INSERT`` + ``COMMIT``, WAL, ``synchronous=FULL``).

The goals: the ``/vote`` p50 within 2x (the no-op's p50 + one commit's p50), the ``/vote``
p99 under 10 ms.

The votes (``--votes``, 1,200 by default: the p99 is the 12th worst sample) go round the
played games, each by the next of its players, naming another; every one is accepted (a vote
replaces the voter's earlier one); afterwards the benchmark checks that each was committed.
Prints p50 and p99 of each, each goal as ``measured / goal``, ``ok`` or ``MISSED``; and, for
reference, the ``/vote`` p99 / no-op p99 and a vote committed by the store alone in the same
run (``add_request``: the commit and the hop to the database thread, no Discord), the floor
the reply of a vote cannot go under; and the vote path of one fenced vote (as the service
writes it): on SQLite the hops to the database thread and the statements run there, on
PostgreSQL the round trips to the server.

Where the rest goes (measured on a 2-core machine): the commit (``synchronous=FULL``: an fsync
of the WAL) takes about 0.3 ms on the connection's thread, and the hop to that thread about as
much again inside SimCord, whose settle loop keeps the event loop's thread (and the GIL) busy
while the database thread waits to run; outside SimCord the whole ``add_request`` takes about
0.35 ms. The p99 is SQLite's automatic checkpoint: the commit that carries the write-ahead log
past 1,000 pages copies it into the database file and syncs it, 20 ms to over a second.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import simcord
from simcord import Env

from bench import pg
from bench.e2e_bench import Game, ReplyClock, add_noop_commands, percentile
from bot.client import MafiaBot
from bot.serverlife import DEBOUNCE_SECONDS
from db.models import Fence
from db.ops.requests import _ENTRIES, _INSERT_FENCED
from db.postgres import PostgresStore
from db.sqlite import migrations
from db.transfer import migrate_store
from main import create_bot

GAMES = 1000
PLAYED = 40
VOTES = 1200
PLAYERS = 8
#: The goals of /vote until the reply: p50 within 2x (a no-op command + one durable commit),
#: p99 under 10 ms.
GOAL_RATIO = 2.0
GOAL_P99_MS = 10.0
#: SimCord's settle timeout, s, for resolving the played games' first turn at once only.
ADVANCE_TIMEOUT = 120.0
#: The played games' turns, minutes: their clock's wake-ups stay far from the set-up's.
TURN_MINUTES = 60

_SEATS = [
    ("Anna", "commissar"),
    ("Bob", "mafioso"),
    ("Cid", "boss"),
    ("Dan", "villager"),
    ("Eve", "doctor"),
    ("Fay", "villager"),
    ("Gus", "villager"),
    ("Hal", "villager"),
]
_NOW = "2026-03-01T09:00:00.000000+00:00"
_FAR = "2099-03-01T18:00:00.000000+00:00"  # no background game falls due while we measure
_FIRST_GUILD = 5_000_000  # far from SimCord's snowflakes


def populate(path: Path, games: int, version: int | None = None) -> None:
    """Write ``games`` running games (turn 2 open) straight into a fresh database (of the
    latest schema, or of schema ``version``)."""
    migrations.migrate(path, version)
    rng = random.Random(1)
    nicks = [n for n, _ in _SEATS]
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for gid in range(1, games + 1):
        guild = _FIRST_GUILD + gid
        conn.execute(
            "INSERT INTO game_tables (table_id, guild_id, language, game_channel_id, updated_at) "
            "VALUES (?, ?, 'en', ?, ?)",
            (guild, guild, guild + 1, _NOW),
        )
        conn.execute(
            "INSERT INTO games (id, guild_id, table_id, status, seed, schedule_kind, "
            "schedule_params, timezone, turn, phase, deadline, created_at, updated_at) "
            "VALUES (?, ?, ?, 'running', ?, 'forum', '{}', 'Europe/Moscow', 2, 'open', ?, ?, ?)",
            (gid, guild, guild, gid, _FAR, _NOW, _NOW),
        )
        conn.executemany(
            "INSERT INTO players (game_id, seat, user_id, nick, role) VALUES (?, ?, ?, ?, ?)",
            [(gid, seat, guild * 100 + seat, n, r) for seat, (n, r) in enumerate(_SEATS)],
        )
        entries: list[tuple[int, dict[str, Any]]] = []
        for turn in (1, 2):
            for nick in nicks:
                entries += [(turn, {"by": nick, "do": "post"})] * rng.randint(1, 2)
                if turn == 2 and nick != "Dan":
                    target = rng.choice([n for n in nicks if n not in (nick, "Dan")])
                    entries.append((turn, {"by": nick, "do": "vote", "target": target}))
        entries.insert(0, (1, {"by": "Bob", "do": "kill", "target": "Dan"}))
        conn.executemany(
            "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, user_id, "
            "at) VALUES (?, ?, ?, 'requests', ?, 'accepted', NULL, ?)",
            [(gid, t, i, json.dumps(p), _NOW) for i, (t, p) in enumerate(entries, start=1)],
        )
        conn.execute(
            "INSERT INTO resolutions (game_id, turn, result, resolved_at) VALUES (?, 1, ?, ?)",
            (gid, json.dumps({"turn": 1, "deaths": [], "winner": None}), _NOW),
        )
        conn.executemany(  # delivered long ago: the start path queues nothing for them
            "INSERT INTO outbox (game_id, turn, kind, payload, sent, created_at, sent_at) "
            "VALUES (?, 1, 'role_card', ?, 1, ?, ?)",
            [(gid, json.dumps({"to": n, "turn": 1}), _NOW, _NOW) for n in nicks],
        )
    conn.execute("COMMIT")
    conn.close()


async def run(games: int, played: int, votes: int, engine: str = "sqlite") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        began = time.perf_counter()
        populate(path, games - played)
        database = str(path)
        if engine == "postgres":  # the same games, copied by `main.py migrate-store`
            database = pg.database()
            await migrate_store(str(path), database)
        built = time.perf_counter() - began
        print(f"vote on {pg.ENGINE_NAMES[engine]}:")
        bot = create_bot(database, freeze_heap=True)  # as main.py runs it
        assert isinstance(bot, MafiaBot)
        add_noop_commands(bot)
        try:
            async with simcord.run(bot) as env:  # SimCord's default settle timeout, 5 s
                await scenario(env, games, played, votes, built, database, Path(tmp))
        finally:
            await bot.close_store()


async def scenario(
    env: Env, games: int, played: int, votes: int, built: float, database: str, tmp: Path
) -> None:
    began = time.perf_counter()
    tables: list[Game] = []
    # Virtual time moves only when the benchmark advances it. A bot's timer still pending in
    # SimCord fires on the wall clock too, as long after it was armed as it was set for, and
    # then moves virtual time on in the middle of whatever command is running (which may not
    # settle in time). So no timer of the bot is left to the wall clock: each game's start arms
    # the server watch's debounced check (15 s), run at once by advancing past it; and the
    # turns last TURN_MINUTES, so that the game clock's next wake-up stays minutes of virtual
    # time away while the games are set up and the commands timed.
    for _ in range(played):
        game = Game(env)
        await game.start(PLAYERS, turn_minutes=TURN_MINUTES)
        for actor in game.players:  # R52: a player who never posts leaves at the deadline
            await actor.slash(game.channel("game"), "say", text="Good morning, all.")
        await advance_long(env, DEBOUNCE_SECONDS)
        tables.append(game)
    bot = tables[0].bot
    # The games started one after another (virtual time moved on meanwhile): until the last
    # of their turn-1 deadlines, so that every one of them resolves, and past the checks the
    # resolutions armed.
    deadlines = [bot.service.game_in(g.guild.id) for g in tables]
    last = max(d.record.deadline for d in deadlines if d is not None and d.record.deadline)
    await advance_long(env, (last - env.now()).total_seconds() + DEBOUNCE_SECONDS)
    loaded = len(bot.service.live)
    for game in tables:
        live = bot.service.game_in(game.guild.id)
        assert live is not None and live.engine.turn == 2, (
            "a played game is not in turn 2",
            live and (live.engine.turn, live.engine.phase, live.record.deadline, env.now()),
        )
    print(
        f"vote: {loaded} games loaded ({games - played} written to the file in {built:.1f} s, "
        f"{played} played in SimCord {simcord.__version__}, set up in "
        f"{time.perf_counter() - began:.1f} s); {votes} votes and {votes} no-ops, interleaved"
    )
    clock = ReplyClock.install(env)
    frozen = env.now()
    voters = [(game, game.alive()) for game in tables]
    samples: dict[str, list[float]] = {"noop": [], "/vote": []}
    warmup = 20
    for i in range(votes + warmup):
        game, alive = voters[i % len(voters)]
        actor = alive[(i // len(voters)) % len(alive)]
        target = alive[(i // len(voters) + 1) % len(alive)]
        channel = game.channel("game")
        noop = await clock.time(actor.slash(channel, "noop"))
        vote = await clock.time(actor.slash(channel, "vote", target=game.nick_of[target.id]))
        if i >= warmup:
            samples["noop"].append(noop)
            samples["/vote"].append(vote)
    # No timer of the bot fired on the wall clock while the commands were timed.
    assert env.now() == frozen, f"virtual time moved from {frozen} to {env.now()} while timed"
    committed = 0  # every vote was accepted and committed
    for game in tables:
        live = bot.service.game_in(game.guild.id)
        assert live is not None and live.engine.turn == 2
        entries = await bot.store.log_entries(live.id, 2, accepted_only=True)
        committed += sum(1 for e in entries if e.payload.get("do") == "vote")
    assert committed == votes + warmup, f"{committed} votes committed of {votes + warmup}"
    # The reference: one vote committed by the store alone (a background game's, no Discord).
    alone: list[float] = []
    ballot = {"by": "Fay", "do": "vote", "target": "Gus"}
    for i in range(200):
        began = time.perf_counter()
        await bot.store.add_request(1 + i % (games - played), 2, "requests", ballot, None)
        alone.append((time.perf_counter() - began) * 1000)
    report(samples, alone, await durable_commits(database, tmp))
    await vote_path(bot.store, 1 + (games - played) // 2)


async def vote_path(store: Any, game_id: int) -> None:
    """What one fenced vote (``add_request`` as the service calls it) costs the engine:
    SQLite, hops to the connection's thread and statements run there; PostgreSQL, round
    trips to the server (every statement asyncpg sends, BEGIN and COMMIT included, each one
    round trip once its statement is prepared)."""
    head = await store.game_head(game_id)
    assert head is not None
    ballot = {"by": "Fay", "do": "vote", "target": "Gus"}
    fence = Fence(turn=head.record.turn, phase=head.record.phase, entries=head.entries)
    await store.add_request(game_id, fence.turn, "requests", ballot, None, fence=fence)
    fence = attrs.evolve(fence, entries=fence.entries + 1)  # warm: statements prepared
    if isinstance(store, PostgresStore):
        sent: list[str] = []

        def logged(record: Any) -> None:
            sent.append(record.query)

        pool: Any = store._pool  # its connections (asyncpg keeps them in holders)
        connections = [h._con for h in pool._holders if h._con is not None]
        for conn in connections:
            conn.add_query_logger(logged)
        try:
            await store.add_request(game_id, fence.turn, "requests", ballot, None, fence=fence)
            await asyncio.sleep(0.05)  # the loggers are called soon after each query
        finally:
            for conn in connections:
                conn.remove_query_logger(logged)
        print(
            f"  the vote path: {len(sent)} round trips per fenced vote "
            f"({', '.join(_statements(q) for q in sent)})"
        )
        return
    statements: list[str] = []
    conn = store._db
    hops = 0
    execute = conn._execute

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal hops
        hops += 1
        return await execute(fn, *args, **kwargs)

    conn._execute = counted
    await conn.set_trace_callback(statements.append)
    hops = 0
    try:
        await store.add_request(game_id, fence.turn, "requests", ballot, None, fence=fence)
    finally:
        conn._execute = execute
        await conn.set_trace_callback(None)
    print(
        f"  the vote path: {hops} hop to the database thread per fenced vote, running "
        f"{len(statements)} statements there ({', '.join(q.split()[0] for q in statements)})"
    )


def _statements(query: str) -> str:
    """The first word of each statement of one round trip (``BEGIN + SELECT``)."""
    return " + ".join(part.split()[0] for part in query.split(";") if part.strip())


def log_writes(
    games: int = GAMES, rounds: int = 5, votes: int = 300, day: Sequence[int] = (0, 150)
) -> None:
    """What one fenced vote costs the writer in the log itself, schema 18 against 19
    (migration 19: no generated columns, no ``json_valid`` CHECK, a narrow covering index
    for the fence's count): the store's own statement (the fenced ``INSERT``, which checks the
    fence and numbers the entry, as :meth:`~db.ops.requests.RequestLogOps.add_request` runs
    it, in one ``BEGIN IMMEDIATE`` ... ``COMMIT``) on a plain ``sqlite3`` connection, no event
    loop and no hop, against ``games`` games of 25-odd entries each, a vote for each game in turn;
    then again with each game's day ``day`` posts longer (the fence counts the accepted
    entries of the turn: a forum day of a dozen players is a few hundred).

    - WAL frames per vote: pages the commit appends to the write-ahead log (its growth, the
      automatic checkpoint off), each a page written before the fsync;
    - µs per vote on the writer, ``synchronous=NORMAL`` (no fsync: the statements' CPU and
      the log's write) and ``FULL`` (durable: the bot's setting).

    The medians of ``rounds`` rounds of ``votes`` votes, the two schemas taking turns (the
    machine may be shared: a round is a fair comparison only with its neighbour)."""
    insert_sql = _INSERT_FENCED.replace("$", "?")
    payload = json.dumps({"by": "Fay", "do": "vote", "target": "Gus"}, separators=(",", ":"))

    def voter(path: Path) -> Callable[[sqlite3.Connection, int], None]:
        """The fenced vote on ``path``'s games, each fence as the service keeps it (the
        game's accepted entries of its turn, one more after each vote)."""
        with contextlib.closing(sqlite3.connect(path)) as conn:
            sql = f"SELECT g.id, {_ENTRIES} FROM games g"
            counts = {int(r[0]): int(r[1]) for r in conn.execute(sql)}

        def vote(conn: sqlite3.Connection, game: int) -> None:
            row = conn.execute(
                insert_sql,
                (game, 2, "requests", payload, "accepted", None, _NOW, 2, "open", counts[game]),
            ).fetchall()
            assert row, f"game {game}: the fence did not hold"
            counts[game] += 1

        return vote

    def bare(conn: sqlite3.Connection, game: int) -> None:
        conn.execute("INSERT INTO bench_commit VALUES (?, ?)", (game, _NOW))

    print(
        f"the log's write, one fenced vote on the writer ({games:,} games; the store's "
        f"statements, no hop; medians of {rounds} rounds of {votes}):"
    )
    print("  write         posts today   WAL frames   µs no fsync   µs durable")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {v: Path(tmp) / f"v{v}.db" for v in (18, migrations.LATEST_VERSION)}
        for version, path in paths.items():
            populate(path, games, version)
        with contextlib.closing(sqlite3.connect(paths[18], isolation_level=None)) as conn:
            conn.execute("CREATE TABLE bench_commit (n INTEGER, at TEXT)")
        added = 0
        for posts in day:
            for path in paths.values():
                _add_posts(path, posts - added)
            added = posts
            runs = {f"vote, v{v}": (path, voter(path)) for v, path in paths.items()}
            if posts == day[0]:
                runs["bare INSERT"] = (paths[18], bare)
            found: dict[str, dict[str, list[float]]] = {
                name: {"frames": [], "cpu": [], "durable": []} for name in runs
            }
            for _ in range(rounds):
                for name, (path, write) in runs.items():
                    for sync, key in (("NORMAL", "cpu"), ("FULL", "durable")):
                        frames, micros = _log_round(path, sync, write, votes)
                        found[name][key].append(micros)
                        if sync == "FULL":
                            found[name]["frames"].append(frames)
            for name, values in found.items():
                print(
                    f"  {name:<13} {f'+{posts}':>11} "
                    f"{statistics.median(values['frames']):12.2f} "
                    f"{statistics.median(values['cpu']):13.1f} "
                    f"{statistics.median(values['durable']):12.1f}"
                )


def _log_round(
    path: Path, sync: str, write: Callable[[sqlite3.Connection, int], None], votes: int
) -> tuple[float, float]:
    """One round of :func:`log_writes`: ``write`` in ``votes`` transactions, one game after
    another; (WAL frames per transaction, median µs per transaction)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {sync}")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
        wal = Path(f"{path}-wal")
        games = int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        begin = wal.stat().st_size if wal.exists() else 0
        out: list[float] = []
        for i in range(votes):
            began = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            write(conn, 1 + (i * 37) % games)
            conn.execute("COMMIT")
            out.append((time.perf_counter() - began) * 1e6)
        frames = (wal.stat().st_size - begin) / (page + 24) / votes
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return frames, statistics.median(out)
    finally:
        conn.close()


def _add_posts(path: Path, posts: int) -> None:
    """``posts`` more accepted posts in turn 2 of every game of ``path``."""
    if posts <= 0:
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        games = [int(r[0]) for r in conn.execute("SELECT id FROM games")]
        for game in games:
            last = int(
                conn.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM log_entries WHERE game_id = ?", (game,)
                ).fetchone()[0]
            )
            conn.executemany(
                "INSERT INTO log_entries (game_id, turn, seq, section, payload, outcome, "
                "user_id, at) VALUES (?, 2, ?, 'requests', ?, 'accepted', NULL, ?)",
                [
                    (game, last + i, json.dumps({"by": _SEATS[i % 8][0], "do": "post"}), _NOW)
                    for i in range(1, posts + 1)
                ],
            )
        conn.execute("COMMIT")
    finally:
        conn.close()


async def advance_long(env: Env, seconds: float) -> None:
    """``env.advance_time(seconds)`` with a settle timeout of :data:`ADVANCE_TIMEOUT`.

    Resolving the first turn of every played game at once (40 resolutions and their delivery)
    takes PostgreSQL (a commit is an fsync and a round trip) longer than SimCord's 5 s. Only
    this advance gets the longer timeout. SimCord's settle timeout is also its horizon: after a
    command, a bot's ``asyncio.sleep`` shorter than it is work the settle waits for on the
    wall clock (``docs/SIMCORD_NOTES.md``). Set for the whole run, 120 s made every command of
    the set-up wait for the server watch's 15 s debounce, and for the game clock's next
    wake-up (the staggered games' reminders and notices, seconds to minutes apart), whose
    wall-clock firing moves virtual time on and arms the next one: the set-up never settled
    (``GameClock._run: unknown wait (Future)``). While time is advanced, every timer is
    virtual, so the longer timeout waits for nothing but the work itself."""
    default = env.settle_timeout
    env.settle_timeout = ADVANCE_TIMEOUT
    try:
        await env.advance_time(seconds)
    finally:
        env.settle_timeout = default


async def durable_commits(database: str, tmp: Path, count: int = 200) -> list[float]:
    """One durable commit, ms, measured in the same run on the same disk: on SQLite an
    ``INSERT`` + ``COMMIT`` into a file of its own (WAL, ``synchronous=FULL``: an fsync of
    the WAL), on PostgreSQL an ``INSERT`` committed on its own (fsync and synchronous commit
    on) into a table of its own on the benchmark's server. Part of the goal of ``/vote``."""
    out: list[float] = []
    if database.startswith(("postgres://", "postgresql://")):
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            await conn.execute("CREATE TABLE bench_commit (n integer, at text)")
            for n in range(count):
                began = time.perf_counter()
                await conn.execute("INSERT INTO bench_commit VALUES ($1, $2)", n, _NOW)
                out.append((time.perf_counter() - began) * 1000)
            await conn.execute("DROP TABLE bench_commit")
        finally:
            await conn.close()
        return out
    conn3 = sqlite3.connect(tmp / "commit.db", isolation_level=None)
    try:
        conn3.execute("PRAGMA journal_mode = WAL")
        conn3.execute("PRAGMA synchronous = FULL")
        conn3.execute("CREATE TABLE bench_commit (n INTEGER, at TEXT)")
        for n in range(count):
            began = time.perf_counter()
            conn3.execute("BEGIN")
            conn3.execute("INSERT INTO bench_commit VALUES (?, ?)", (n, _NOW))
            conn3.execute("COMMIT")
            out.append((time.perf_counter() - began) * 1000)
    finally:
        conn3.close()
    return out


def report(samples: dict[str, list[float]], alone: list[float], commits: list[float]) -> None:
    print("  until the reply, ms   p50      p99     mean")
    for name, values in samples.items():
        print(
            f"  {name:<16} {statistics.median(values):8.3f} {percentile(values, 0.99):8.3f}"
            f" {statistics.fmean(values):8.3f}"
        )
    print(
        f"  {'(the store alone)':<16} {statistics.median(alone):8.3f} "
        f"{percentile(alone, 0.99):8.3f} {statistics.fmean(alone):8.3f}"
        "   one vote committed, no Discord"
    )
    print(
        f"  {'(one commit)':<16} {statistics.median(commits):8.3f} "
        f"{percentile(commits, 0.99):8.3f} {statistics.fmean(commits):8.3f}"
        "   INSERT + COMMIT alone, durable"
    )
    vote, noop = samples["/vote"], samples["noop"]
    p50 = statistics.median(vote)
    goal_p50 = GOAL_RATIO * (statistics.median(noop) + statistics.median(commits))
    print(
        f"  /vote p50: {p50:.2f} ms / {goal_p50:.2f} ms (2x (no-op p50 + one commit p50)) = "
        f"{p50 / goal_p50:.2f} {verdict(p50 <= goal_p50)}"
    )
    p99 = percentile(vote, 0.99)
    p99_ratio = p99 / percentile(noop, 0.99)
    print(f"  /vote p99 / no-op p99: {p99_ratio:.2f}x (for reference)")
    print(
        f"  /vote p99: {p99:.2f} ms / {GOAL_P99_MS:.0f} ms = {p99 / GOAL_P99_MS:.2f} "
        f"{verdict(p99 <= GOAL_P99_MS)}"
    )


def verdict(met: bool) -> str:
    return "ok" if met else "MISSED"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES, help="running games loaded")
    parser.add_argument("--played", type=int, default=PLAYED, help="of which played in SimCord")
    parser.add_argument("--votes", type=int, default=VOTES, help="votes timed (and no-ops)")
    parser.add_argument(
        "--engine",
        choices=("sqlite", "postgres", "both"),
        default="both",
        help="the store (default both, one after the other: the same games copied into a "
        "PostgreSQL server of the benchmark's own)",
    )
    parser.add_argument(
        "--log-only",
        action="store_true",
        help="only the log's write on the writer, schema 18 against the current one",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.played < args.games:
        parser.error("--played must be at least 1 and less than --games")
    # The no-op command has no Russian name: keep the translator's warning out of the numbers.
    logging.getLogger("bot.command_i18n").setLevel(logging.ERROR)
    log_writes(args.games)
    if args.log_only:
        return
    engines = ["sqlite", "postgres"] if args.engine == "both" else [args.engine]
    for engine in engines:
        if engine == "postgres" and (why := pg.unavailable()) is not None:
            print(f"vote on PostgreSQL: skipped, {why}")
            continue
        asyncio.run(run(args.games, args.played, args.votes, engine))


if __name__ == "__main__":
    main()
