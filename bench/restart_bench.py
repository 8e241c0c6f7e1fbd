"""Restart: re-arming every running game through the bot's real start path.

    python -m bench.restart_bench [--games 1000] [--big 10000] [--runs 5]

Builds a database of ``--games`` running games (12 players, four resolved turns and a fifth in
progress: about 150 accepted log entries each, with their resolutions, snapshots, posts and
delivered outbox) by playing one game through the real ``GameService`` and copying its rows.
Then, each in a fresh child process (so that memory and the garbage collector see only that
work), times the median of ``--runs`` runs of:

- the plain read: ``SELECT`` of the running games' rows (games, players, log entries,
  resolutions) with ``sqlite3``, every row fetched;
- the start path, as ``bot/client.py`` does it: ``open_store`` + ``GameService.load`` +
  ``GameClock.rearm`` (until the clock sleeps until its first event): the figure against
  the goals; then ``gc.collect`` + ``gc.freeze`` as ``main.py run`` does (freeze_heap),
  printed apart;
- a full ``gc.collect()`` with the games loaded, before and after the freeze; the peak RSS.

Goals: the start within 2x the plain read and under 0.5 s for 1,000 games; 10,000
games (``--big``, 0 to skip) under 3 s and 600 MB. Also printed, not a goal: the start after
an unclean shutdown (integrity check) and without snapshots (an old database: full replay).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from db.sqlite import migrations

ROOT = Path(__file__).resolve().parents[1]
T0 = dt.datetime(2025, 3, 1, 10, 0, tzinfo=dt.UTC)
PLAYERS = 12
RESOLVED_TURNS = 4
#: The restart happens this long before the open turn's deadline (21:00 Moscow on the forum
#: schedule): 19:30 Moscow, in the forum day (12:00-21:00), when the hunts-open notice (12:00)
#: and the reminders (18:00) of the turn were queued before the restart, and the clock, once
#: re-armed, must see from the store that they were (the last-hour notice, 20:00, is next).
BEFORE_DEADLINE = dt.timedelta(hours=1, minutes=30)
MOSCOW = ZoneInfo("Europe/Moscow")


class _Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now


async def _play_template(path: Path) -> int:
    """One running game played through the real service; returns its accepted entries."""
    from core.clock import Event
    from core.service import GameService, ServiceError
    from db.store import SQLiteStore

    store = await SQLiteStore.open(path, synchronous="NORMAL")
    clock = _Clock()
    service = GameService(store, clock=clock)
    try:
        await service.new_game(1, 1, "forum", "Europe/Moscow", seed=7)
        users = [1000 + i for i in range(PLAYERS)]
        for uid in users:
            await service.join(1, uid)
        live = await service.start(1)

        async def send(uid: int, raw: dict[str, Any]) -> None:
            with contextlib.suppress(ServiceError):  # refused: logged, as a player's mistake
                await service.submit(1, uid, raw)

        for turn in range(1, RESOLVED_TURNS + 2):
            state = live.engine.state
            alive = [p for p in live.players if state.players[p.nick].alive]
            last = turn == RESOLVED_TURNS + 1
            for p in alive[: len(alive) // 2] if last else alive:
                for n in range(2):
                    await service.post(1, p.user_id, f"post {n} of turn {turn}")
            if turn > 1:  # one vote each, for the next in seat order: nobody is hanged
                for i, p in enumerate(alive):
                    target = alive[(i + 1) % len(alive)].nick
                    await send(p.user_id, {"do": "vote", "target": target})
            if last:
                break
            town = [p for p in alive if not state.players[p.nick].is_mafia]
            victim = town[-1].nick
            for p in alive:
                role = state.players[p.nick].role
                if role in ("boss", "mafioso") and p.nick in state.players:
                    await send(p.user_id, {"do": "kill", "target": victim})
                elif role == "doctor":
                    await send(p.user_id, {"do": "heal", "target": victim})
                elif role == "commissar":
                    await send(p.user_id, {"do": "check", "target": alive[0].nick})
            deadline = live.record.deadline
            assert deadline is not None
            clock.now = deadline
            await service.deadline_reached(live.id)
            if live.engine.phase.value == "pistol":
                await service.deadline_reached(live.id)
            assert service.live.get(live.id) is live, "the template game ended"
        # The forum day of the open turn until the restart: what the clock queued by then.
        deadline = live.record.deadline
        assert deadline is not None
        clock.now = deadline - BEFORE_DEADLINE
        assert await service.timed_notice(live.id, Event.HUNTS_OPEN)
        await service.send_reminders(live.id)
        rows = await store.log_entries(live.id, accepted_only=True)
        return len(rows)
    finally:
        await store.close()


def build(path: Path, games: int) -> tuple[int, dt.datetime]:
    """``games`` copies of the template game in a fresh database, their deadlines spread
    over the hour after the template's; returns the accepted entries and the moment of the
    restart (:data:`BEFORE_DEADLINE` before the first deadline)."""
    template = path.with_name("template.db")
    if not template.exists():
        asyncio.run(_play_template(template))
    migrations.migrate(path)
    conn = sqlite3.connect(path, isolation_level=None)
    cols = {
        table: [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        for table in (
            "games",
            "players",
            "log_entries",
            "resolutions",
            "snapshots",
            "pistol_windows",
            "outbox",
            "posts",
        )
    }
    # Generated columns (none since migration 19) are not listed by table_info.
    conn.execute("ATTACH ? AS t", (str(template),))
    conn.execute("BEGIN")
    conn.execute("CREATE TEMP TABLE k (n INTEGER PRIMARY KEY)")
    conn.executemany("INSERT INTO k VALUES (?)", [(n,) for n in range(1, games + 1)])
    [(stored,)] = conn.execute("SELECT deadline FROM t.games").fetchall()
    first = dt.datetime.fromisoformat(stored)
    game_cols = [c for c in cols["games"] if c not in ("id", "guild_id", "table_id", "deadline")]
    conn.execute(
        f"INSERT INTO games (id, guild_id, table_id, deadline, {', '.join(game_cols)}) "
        f"SELECT k.n, 10000 + k.n, 10000 + k.n, "
        f"strftime('%Y-%m-%dT%H:%M:%S.000000+00:00', ?, '+' || (k.n % 3600) || ' seconds'), "
        f"{', '.join('g.' + c for c in game_cols)} FROM k, t.games g",
        (first.strftime("%Y-%m-%d %H:%M:%S"),),
    )
    for table in (
        "players",
        "log_entries",
        "resolutions",
        "snapshots",
        "pistol_windows",
        "outbox",
        "posts",
    ):
        rest = [c for c in cols[table] if c not in ("id", "game_id")]
        conn.execute(
            f"INSERT INTO {table} (game_id, {', '.join(rest)}) "
            f"SELECT k.n, {', '.join('x.' + c for c in rest)} FROM k, t.{table} x"
        )
    conn.execute("UPDATE outbox SET sent = 1, sent_at = created_at")
    conn.execute("COMMIT")
    conn.execute("DETACH t")
    accepted = conn.execute(
        "SELECT count(*) FROM log_entries WHERE outcome = 'accepted'"
    ).fetchone()[0]
    conn.close()
    migrations.mark_closed_cleanly(path)  # as the bot leaves it after a clean shutdown
    return int(accepted), first - BEFORE_DEADLINE


# --- the children -----------------------------------------------------------------------------


def _plain_read(path: Path) -> dict[str, Any]:
    start = time.perf_counter()
    conn = sqlite3.connect(path)
    rows = 0
    for sql in (
        "SELECT * FROM games WHERE status = 'running'",
        "SELECT p.* FROM players p JOIN games g ON g.id = p.game_id WHERE g.status = 'running'",
        "SELECT e.* FROM log_entries e JOIN games g ON g.id = e.game_id WHERE g.status = 'running'",
        "SELECT r.* FROM resolutions r JOIN games g ON g.id = r.game_id WHERE g.status = 'running'",
    ):
        rows += len(conn.execute(sql).fetchall())
    conn.close()
    return {"seconds": time.perf_counter() - start, "rows": rows}


async def _start(path: Path, at: dt.datetime) -> dict[str, Any]:
    """What ``MafiaBot.setup_hook`` does with the store, the service and the clock, with the
    service's clock at ``at`` when the start begins (and running on from there)."""
    from bot.clock import GameClock
    from core.service import GameService
    from db.store import open_store

    async def deliver() -> None:
        return None

    gc.collect()
    start = time.perf_counter()

    def now() -> dt.datetime:
        return at + dt.timedelta(seconds=time.perf_counter() - start)

    store = await open_store(path)
    service = GameService(store, clock=now)
    await service.load()
    armed = time.perf_counter()
    clock = GameClock(service, deliver)
    clock.rearm()
    # The clock acts on what is due (it looks in the outbox for the notices and reminders
    # queued before the restart), then sleeps until its first event.
    await asyncio.sleep(0)
    while not clock._sleeping:
        await asyncio.sleep(0.0005)
    loaded = time.perf_counter()
    queued = len(await store.pending_outbox())
    gc.collect()  # as main.py run (freeze_heap)
    gc.freeze()
    seconds = time.perf_counter() - start
    t = time.perf_counter()
    gc.collect()
    frozen_gc = time.perf_counter() - t
    gc.unfreeze()
    t = time.perf_counter()
    gc.collect()
    full_gc = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    out = {
        "seconds": seconds,
        "load_seconds": loaded - start,
        "clock_seconds": loaded - armed,
        "games": len(service.live),
        "queued": queued,
        "checked": getattr(store, "integrity_checked", None),
        "full_gc": full_gc,
        "frozen_gc": frozen_gc,
        "rss": rss,
    }
    clock.stop()
    await store.close()
    return out


def _catalogues() -> dict[str, Any]:
    """The message catalogues' share of a start (core/i18n.py), in a fresh process: the
    commands' modules are imported as ``setup_hook`` loads them (their English names and
    descriptions are rendered then), which tells which messages a start renders; then, on
    catalogues of their own, the work of that start is timed: finding the entries of both
    languages and parsing those messages, plus the Russian ones of the commands (what a
    start that syncs the commands translates). Beside it, in the same process, the parse of
    the whole files as every start did before (English once, Russian twice: its bundle and
    its catalogue)."""
    import importlib

    from fluent.runtime import FluentResource

    from bot.client import EXTENSIONS
    from core import i18n

    for extension in EXTENSIONS:
        importlib.import_module(extension)
    rendered = list(i18n._sources("en")._parsed)
    commands = [k for k in i18n._sources("ru").texts if k.startswith(("cmd-", "choice-"))]
    gc.collect()
    start = time.perf_counter()
    en, ru = i18n._Sources("en"), i18n._Sources("ru")
    for entry_id in rendered:
        en.entry(entry_id)
    lazy = time.perf_counter() - start
    for entry_id in commands:
        ru.entry(entry_id)
    synced = time.perf_counter() - start
    texts = {
        lang: [p.read_text(encoding="utf-8") for p in i18n.catalogue_files(lang)]
        for lang in i18n.LANGUAGES
    }
    start = time.perf_counter()
    times_of: tuple[tuple[i18n.Lang, int], ...] = (("en", 1), ("ru", 2))
    for lang, times in times_of:
        for _ in range(times):
            for text in texts[lang]:
                FluentResource(text)
    whole = time.perf_counter() - start
    entries = sum(len(i18n._sources(lang).texts) for lang in i18n.LANGUAGES)
    return {
        "seconds": lazy,
        "synced": synced,
        "whole": whole,
        "rendered": len(rendered),
        "commands": len(commands),
        "entries": entries,
    }


def _child(mode: str, path: Path, at: dt.datetime) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "bench.restart_bench", "--child", mode, str(path), at.isoformat()],
        cwd=ROOT,
        capture_output=True,
        check=False,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _median(path: Path, mode: str, runs: int, at: dt.datetime) -> dict[str, Any]:
    results = [_child(mode, path, at) for _ in range(runs)]
    out = dict(results[-1])
    keys = ("seconds", "load_seconds", "clock_seconds", "full_gc", "frozen_gc", "rss")
    for key in (*keys, "synced", "whole"):
        if key in out:
            out[key] = statistics.median(r[key] for r in results)
    return out


def _ratio(label: str, measured: float, goal: float, unit: str = "s") -> None:
    scale, fmt = (1 / 2**20, "{:.0f} MB") if unit == "MB" else (1.0, "{:.3f} s")
    m, g = fmt.format(measured * scale), fmt.format(goal * scale)
    verdict = "ok" if measured <= goal else "MISSED"
    print(f"restart: {label}: {m} / {g} = {measured / goal:.2f} {verdict}")


def bench(tmp: Path, games: int, runs: int, *, big: bool) -> None:
    path = tmp / f"restart-{games}.db"
    t = time.perf_counter()
    entries, at = build(path, games)
    size = path.stat().st_size
    print(
        f"restart: {games:,} running games, {entries:,} accepted log entries "
        f"({entries / games:.0f} a game), {size / 2**20:.0f} MiB file "
        f"(built in {time.perf_counter() - t:.1f} s); median of {runs} runs"
    )
    local = at.astimezone(MOSCOW)
    print(
        f"restart: at {local:%H:%M} Moscow time (the forum day: the turn's hunts-open notice "
        f"and reminders were queued before the restart; its deadline 21:00-22:00)"
    )
    plain = _median(path, "plain", runs, at)
    start = _median(path, "start", runs, at)
    assert start["games"] == games and start["checked"] is False, start
    assert start["queued"] == 0, f"the start queued {start['queued']} rows again"
    print(
        f"restart: start path (open_store + GameService.load + clock armed) "
        f"{start['load_seconds']:.3f} s (of which the clock, from rearm until it sleeps: "
        f"{start['clock_seconds']:.3f} s), then gc.collect + gc.freeze (main.py run) "
        f"{start['seconds'] - start['load_seconds']:.3f} s; plain read of {plain['rows']:,} "
        f"rows {plain['seconds']:.3f} s"
    )
    label = f"{games:,} games"
    if big:
        _ratio(f"{label}, start", start["load_seconds"], 3.0)
        _ratio(f"{label}, peak RSS", start["rss"], 600 * 2**20, "MB")
    else:
        _ratio(f"{label}, start vs 2x plain read", start["load_seconds"], 2 * plain["seconds"])
        _ratio(f"{label}, start", start["load_seconds"], 0.5)
        print(f"restart: {label}, peak RSS {start['rss'] / 2**20:.0f} MB")
    print(
        f"restart: a full gc.collect() with {label} loaded: {start['full_gc'] * 1e3:.1f} ms; "
        f"after gc.freeze(): {start['frozen_gc'] * 1e3:.2f} ms"
    )
    if big:
        return
    night = _child("start", path, at - dt.timedelta(hours=17))  # 02:30 Moscow: nothing due
    print(
        f"restart: the same at {(at - dt.timedelta(hours=17)).astimezone(MOSCOW):%H:%M} Moscow "
        f"time (no notice due): {night['load_seconds']:.3f} s (the clock "
        f"{night['clock_seconds']:.3f} s)"
    )
    unclean = _child("unclean", path, at)
    assert unclean["checked"] is True, unclean
    print(f"restart: after an unclean shutdown (integrity check): {unclean['load_seconds']:.3f} s")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM snapshots")  # an old database: every game from its full log
    conn.close()
    migrations.mark_closed_cleanly(path)
    full = _child("start", path, at)
    print(
        "restart: with no snapshots (an old database: every game from its full log): "
        f"{full['load_seconds']:.3f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.restart_bench")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--big", type=int, default=10000, help="the large run (0: skip it)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", nargs=3, metavar=("MODE", "PATH", "AT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, db = args.child[0], Path(args.child[1])
        if mode == "plain":
            result = _plain_read(db)
        elif mode == "catalogues":
            result = _catalogues()
        else:
            if mode == "unclean":
                migrations.clean_marker(db).unlink(missing_ok=True)
            result = asyncio.run(_start(db, dt.datetime.fromisoformat(args.child[2])))
        print(json.dumps(result))
        return
    cat = _median(Path("-"), "catalogues", args.runs, T0)
    print(
        f"restart: message catalogues at start-up (core/i18n.py, parsed lazily): "
        f"{cat['seconds'] * 1e3:.1f} ms (find the {cat['entries']} entries of both languages, "
        f"parse the {cat['rendered']} English messages the commands' modules render); "
        f"{cat['synced'] * 1e3:.1f} ms with the {cat['commands']} Russian ones of a command "
        f"sync; the whole files parsed, as every start did before: {cat['whole']:.3f} s"
    )
    with tempfile.TemporaryDirectory() as tmp:
        bench(Path(tmp), args.games, args.runs, big=False)
        if args.big:
            bench(Path(tmp), args.big, max(1, args.runs // 2), big=True)


if __name__ == "__main__":
    main()
