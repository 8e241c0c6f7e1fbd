"""Drive scripted games through Store + rules engine, resumably (the crash-safety test's child).

    python -m tests.db.crash_driver --db FILE --script SCRIPT.json --sent SENT --games N
        [--kill-after-ticks K --kill-delay SECONDS]

Plays ``SCRIPT`` as N games in N guilds, one after another, the way the bot does: each
request is checked by the engine, then appended to the log (committed) before going on; at
the deadline the engine resolves the turn, the result and its announcements are recorded in
one transaction, and the outbox is delivered ("sent" = a line appended to SENT) and marked
sent. Killed at any point and started again on the same file, it rebuilds every engine from
the stored log and carries on where the log ends. One line ("tick") is printed on standard
output per store operation.

With ``--kill-after-ticks K`` the process SIGKILLs itself ``--kill-delay`` seconds after its
K-th tick (K = 0: after start-up began), from a timer thread, so the kill lands at a random
point inside whatever runs then (a transaction, the migration check, the rebuild, ...). The
kill is aimed from inside because a parent reading the ticks through a pipe lags behind.

Exit status: 0 when every game is over, 3 if a turn would have been resolved twice, 4 if the
rebuilt engine refuses an entry that the log says was accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from db.models import ACCEPTED, OutboxItem, PlayerSpec, refused
from db.store import Store
from rules.engine import Game
from rules.model import HostAction, Phase, Refusal, TurnResult
from rules.requests import parse_request

T0 = dt.datetime(2025, 3, 1, 18, 0, tzinfo=dt.UTC)
HOST_ID = 1
USER_BASE = 1000


class ReplayMismatch(Exception):
    pass


class ResolvedTwice(Exception):
    pass


_kill_plan: list[tuple[int, float]] = []  # (ticks, delay) of the planned SIGKILL
_ticks = 0
_verbose = False  # ticks are printed by the command line only


def _arm_kill(delay: float) -> None:
    timer = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGKILL))
    timer.daemon = True
    timer.start()


def tick(what: str) -> None:
    global _ticks
    _ticks += 1
    if _verbose:
        print(what, flush=True)
    if _kill_plan and _kill_plan[0][0] == _ticks:
        _arm_kill(_kill_plan[0][1])


def deadline(turn: int) -> dt.datetime:
    return T0 + dt.timedelta(hours=turn)


def _outcome(refusal: Refusal | None) -> str:
    return ACCEPTED if refusal is None else refused(str(refusal.code))


def _must(refusal: Refusal | None, where: str) -> None:
    if refusal is not None:
        raise ReplayMismatch(f"{where}: the log says accepted, the engine says {refusal.code}")


async def rebuild(store: Store, game_id: int) -> Game:
    """The engine state of a game, from its stored setup and log (the current turn open)."""
    record = await store.require_game(game_id)
    players = await store.players(game_id)
    script = await store.load_script(game_id)
    resolved = {r.turn for r in await store.resolutions(game_id)}
    game = Game.new(
        [(p.nick, p.role) for p in players], seed=record.seed, activity_rules=record.activity_rules
    )
    for number, turn in enumerate(script["turns"], start=1):
        for h in turn["host"]:
            _must(game.host_action(HostAction.from_dict(h)), f"turn {number} host")
        if game.phase is Phase.OVER:
            break
        for r in turn["requests"]:
            _must(game.submit(parse_request(r)), f"turn {number} request {r}")
        if number in resolved or await store.pistol_window(game_id, number) is not None:
            game.resolve()
            for a in turn["after"]:
                _must(game.submit(parse_request(a)), f"turn {number} after {a}")
            if number in resolved:
                game.finish_turn()
    return game


async def deliver(store: Store, game_id: int, sent: Path) -> None:
    """Send what the outbox holds (at least once), then confirm each item."""
    for item in await store.pending_outbox(game_id):
        with sent.open("a", encoding="utf-8") as f:
            f.write(f"{item.id}\n")
        await store.mark_sent(item.id)
        tick(f"sent {item.id}")


def _result_items(result: TurnResult) -> list[OutboxItem]:
    data = result.to_dict()
    items = [OutboxItem("turn_result", data)]
    items += [OutboxItem("check", c) for c in data["checks"]]
    items += [OutboxItem("note", n) for n in data["notes"]]
    return items


async def play_game(store: Store, guild_id: int, script: dict[str, Any], sent: Path) -> int:
    """Play (or resume) the script's game in ``guild_id`` until it is over; its id."""
    record = await store.latest_game(guild_id)
    if record is None:
        record = await store.create_game(
            guild_id,
            seed=int(script.get("seed", 0)) + guild_id,
            schedule_kind="fast",
            timezone="UTC",
            activity_rules=bool(script.get("activity_rules", False)),
            host_user_id=HOST_ID,
        )
        tick("created")
    game_id = record.id
    users = {p["nick"]: USER_BASE + i for i, p in enumerate(script["players"])}
    if record.status == "lobby":
        specs = [PlayerSpec(users[p["nick"]], p["nick"], p["role"]) for p in script["players"]]
        record = await store.start_game(game_id, specs, deadline=deadline(1))
        tick("started")
    await deliver(store, game_id, sent)
    if record.status == "finished":
        return game_id
    engine = await rebuild(store, game_id)
    while record.status == "running":
        turn = record.turn
        plan: dict[str, list[dict[str, Any]]] = (
            script["turns"][turn - 1] if turn <= len(script["turns"]) else {}
        )
        done = Counter(e.section for e in await store.log_entries(game_id, turn))
        if engine.phase is Phase.OPEN:
            for h in plan.get("host", [])[done["host"] :]:
                refusal = engine.host_action(HostAction.from_dict(h))
                await store.add_host_action(
                    game_id, turn, h, actor_id=HOST_ID, command=h["do"], outcome=_outcome(refusal)
                )
                tick(f"host {h}")
            if engine.phase is Phase.OVER:  # ended by a host exclusion
                await store.finish_game(game_id, engine.winner)
                tick("finished by the host")
                break
            for r in plan.get("requests", [])[done["requests"] :]:
                refusal = engine.submit(parse_request(r))
                await store.add_request(
                    game_id, turn, "requests", r, users[r["by"]], _outcome(refusal)
                )
                tick(f"request {r}")
            partial = engine.resolve()
            if plan.get("after"):
                await store.begin_pistol_window(
                    game_id,
                    turn,
                    partial.to_dict(),
                    [OutboxItem("deaths", partial.to_dict())],
                    deadline(turn) + dt.timedelta(minutes=1),
                )
                tick("pistol window")
                await deliver(store, game_id, sent)
        for a in plan.get("after", [])[done["after"] :]:
            refusal = engine.submit(parse_request(a))
            await store.add_request(game_id, turn, "after", a, users[a["by"]], _outcome(refusal))
            tick(f"after {a}")
        result = engine.finish_turn()
        if await store.resolution_exists(game_id, turn):
            raise ResolvedTwice(f"game {game_id} turn {turn} was resolved already")
        first = await store.record_resolution(
            game_id,
            turn,
            result.to_dict(),
            _result_items(result),
            turn + 1,
            deadline(turn + 1),
            winner=result.winner,
        )
        if not first:
            raise ResolvedTwice(f"game {game_id} turn {turn} was resolved already")
        with (sent.parent / "resolved.log").open("a", encoding="utf-8") as f:
            f.write(f"{game_id} {turn}\n")
        tick(f"resolved {turn}")
        await deliver(store, game_id, sent)
        record = await store.require_game(game_id)
        if record.status == "running" and turn >= len(script["turns"]):
            await store.finish_game(game_id, None)  # the script ran out
            tick("script over")
            record = await store.require_game(game_id)
    await deliver(store, game_id, sent)
    return game_id


async def run(db: Path, script: dict[str, Any], sent: Path, games: int) -> None:
    store = await Store.open(db)
    try:
        tick("open")
        for guild_id in range(1, games + 1):
            await play_game(store, guild_id, script, sent)
    finally:
        await store.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--script", required=True, type=Path)
    parser.add_argument("--sent", required=True, type=Path)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--kill-after-ticks", type=int, default=None)
    parser.add_argument("--kill-delay", type=float, default=0.0)
    args = parser.parse_args(argv)
    global _verbose
    _verbose = True
    if args.kill_after_ticks == 0:
        _arm_kill(args.kill_delay)
    elif args.kill_after_ticks is not None:
        _kill_plan.append((args.kill_after_ticks, args.kill_delay))
    script = json.loads(args.script.read_text(encoding="utf-8"))
    try:
        asyncio.run(run(args.db, script, args.sent, args.games))
    except ResolvedTwice as e:
        print(f"RESOLVED TWICE: {e}", file=sys.stderr)
        return 3
    except ReplayMismatch as e:
        print(f"REPLAY MISMATCH: {e}", file=sys.stderr)
        return 4
    tick("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
