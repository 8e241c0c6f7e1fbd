"""Play scripted games through the real service on a real file (the crash-safety test's child).

    python -m tests.db.crash_driver --db FILE|URL --script SCRIPT.json --sent SENT --games N
        [--kill-at K --kill-when before|after|during --kill-delay SECONDS]
        [--shard-count N --shard-id K]

Plays ``SCRIPT`` as N games in N guilds, one after another, through
:class:`core.service.GameService` on the store (SQLite or PostgreSQL), the way the bot does without
Discord: the host opens a signup, the players join, the host starts (roles dealt by the service
from the seed; the script's players are matched to the dealt seats by role), requests and host
actions go through ``submit`` / ``host_action``, the deadline through ``deadline_reached``, and the
outbox is delivered ("sent" = a line appended to SENT) and marked sent. The clock is virtual and
read from the game (a request just before the deadline, the resolution at it), so a run killed and
restarted computes the same times as one that was not.

Killed at any point and started again on the same file, it loads the service (which rebuilds
every game from the store) and carries on where the log ends: a request is sent again only if
the log of its turn does not hold it yet.

Kill points are inside the real service's store calls: a delegating wrapper of the store
counts the writes, and at the ``--kill-at``-th one SIGKILLs this process ``before`` it runs,
``after`` it committed, or ``during`` it (from a timer thread, ``--kill-delay`` seconds after
it began). ``--kill-at 0`` arms the timer at start-up (opening, migration check, rebuild).

With ``--shard-count N --shard-id K`` it loads and plays only the games of the
servers on shard K (game i is on server ``guild_of(i)``, on shard ``i % N``), so several
drivers share one store as the bot's shard processes do. Delivery claims rows under a lease of
this process (``claim_outbox``); a row a killed run had claimed is taken over once its lease
expires, and the history (SENT) is read before sending it, so each is sent exactly once.

Exit status: 0 when every game is over, 3 if a turn was resolved twice.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import inspect
import json
import os
import signal
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any, cast

from core.service import GameService, ServiceError
from db.interface import GameStore
from db.store import SQLiteStore, open_store
from rules.model import HostAction, Phase

T0 = dt.datetime(2025, 3, 1, 18, 0, tzinfo=dt.UTC)
HOST_ID = 1
USER_BASE = 1000
RESOLVED_TWICE = 3

#: The store calls that write (the kill points).
WRITES = frozenset(
    {
        "create_game",
        "update_lobby",
        "start_game",
        "set_deadline",
        "pause_game",
        "resume_game",
        "finish_game",
        "add_signup",
        "remove_signup",
        "set_profile",
        "replace_player",
        "add_request",
        "add_host_action",
        "record_resolution",
        "begin_pistol_window",
        "add_outbox",
        "mark_sent",
        "claim_outbox",
        "renew_outbox",
        "add_audit",
    }
)

#: How long a delivery lease lasts here: a killed driver's claimed rows are taken over by its
#: next run this soon after (the bot's is a minute).
LEASE_SECONDS = 0.3


def guild_of(index: int) -> int:
    """The server id of the script's ``index``-th game (1, 2, ...): on shard ``index % count``
    of any shard count (Discord's formula, ``core.shards.shard_of``)."""
    return (index << 22) + index


def _kill_now() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _arm_kill(delay: float) -> None:
    timer = threading.Timer(delay, _kill_now)
    timer.daemon = True
    timer.start()


class KillingStore:
    """The real store; counts the writes, kills the process at the chosen one, and records
    every turn resolved (a second resolution of one turn exits with status 3)."""

    def __init__(
        self, real: SQLiteStore, resolved: Path, kill_at: int | None, when: str, delay: float
    ):
        self.real = real
        self.resolved = resolved
        self.kill_at = kill_at
        self.when = when
        self.delay = delay
        self.writes = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.real, name)
        if name not in WRITES or not inspect.iscoroutinefunction(attr):
            return attr

        async def write(*args: Any, **kwargs: Any) -> Any:
            self.writes += 1
            here = self.writes == self.kill_at
            if here and self.when == "before":
                _kill_now()
            if here and self.when == "during":
                _arm_kill(self.delay)
            if name == "record_resolution":
                game_id, turn = args[0], args[1]
                if any(r.turn == turn for r in await self.real.resolutions(game_id)):
                    print(f"RESOLVED TWICE: game {game_id} turn {turn}", file=sys.stderr)
                    os._exit(RESOLVED_TWICE)
            result = await attr(*args, **kwargs)
            if name == "record_resolution":
                with self.resolved.open("a", encoding="utf-8") as f:
                    f.write(f"{args[0]} {args[1]}\n")
            if here and self.when == "after":
                _kill_now()
            return result

        return write


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> dt.datetime:
        return self.now


def role_list(script: dict[str, Any]) -> str:
    counts = Counter(p["role"] for p in script["players"])
    return " ".join(f"{role}={n}" for role, n in counts.items())


def sent_ids(sent: Path) -> set[int]:
    """The ids already in ``sent`` ("Discord's history" of this driver)."""
    try:
        text = sent.read_text(encoding="utf-8")
    except FileNotFoundError:
        return set()
    return {int(x) for x in text.split() if x.isdigit()}


async def deliver(store: SQLiteStore, game_id: int, sent: Path) -> None:
    """Send what the outbox holds for the game, exactly once, the way ``bot/delivery/``
    does: rows are claimed under a lease of this process (``claim_outbox``); a row taken over
    from a killed run (``retaken``, its lease expired) may have been sent already, so the
    history (``sent``) is read before sending it; each is confirmed (``mark_sent``). Rows
    still leased by a killed run are waited for until their lease expires."""
    owner = f"driver-{os.getpid()}"
    while True:
        rows = await store.claim_outbox(owner, game_id=game_id, lease_seconds=LEASE_SECONDS)
        if not rows:
            if not await store.pending_outbox(game_id):
                return
            await asyncio.sleep(LEASE_SECONDS / 3)  # a killed run's lease, not expired yet
            continue
        seen = sent_ids(sent) if any(row.retaken for row in rows) else set()
        for item in rows:
            if item.id not in seen:
                with sent.open("a", encoding="utf-8") as f:
                    f.write(f"{item.id}\n")
            await store.mark_sent(item.id, owner)


class Player:
    """One guild's game as the script sees it: script nicknames mapped to the dealt seats."""

    def __init__(
        self,
        service: GameService,
        store: SQLiteStore,
        clock: Clock,
        guild: int,
        script: dict[str, Any],
        sent: Path,
    ) -> None:
        self.service, self.store, self.clock = service, store, clock
        self.guild, self.script, self.sent = guild, script, sent
        self.users = [USER_BASE + i for i in range(len(script["players"]))]
        self.names: dict[str, str] = {}  # script nick -> game nick, once dealt

    def _maps(self) -> tuple[dict[str, str], dict[str, int]]:
        """script nick -> game nick, game nick -> user id (k-th holder of a role to k-th)."""
        live = self.service.game_in(self.guild)
        assert live is not None
        seats: dict[str, list[str]] = {}
        for p in live.players:
            seats.setdefault(p.role, []).append(p.nick)
        nick: dict[str, str] = {}
        for p in self.script["players"]:
            nick[p["nick"]] = seats[p["role"]].pop(0)
        self.names = nick
        return nick, {p.nick: p.user_id for p in live.players}

    def _translate(self, request: dict[str, Any], nick: dict[str, str]) -> dict[str, Any]:
        out = dict(request)
        for key in ("by", "target", "to", "player"):
            if key in out:
                out[key] = nick[out[key]]
        if "targets" in out:
            out["targets"] = [nick[n] for n in out["targets"]]
        return out

    async def _submit(
        self, request: dict[str, Any], nick: dict[str, str], users: dict[str, int]
    ) -> None:
        req = self._translate(request, nick)
        by = users[req.pop("by")]
        try:
            await self.service.submit(self.guild, by, req)
        except ServiceError as exc:
            if not exc.key.startswith("refusal."):
                raise  # a refusal is logged like an accepted request; anything else is a bug

    async def play(self) -> None:
        service, store, clock, guild = self.service, self.store, self.clock, self.guild
        record = await store.latest_game(guild)
        clock.now = T0
        if record is None:
            record = await service.new_game(
                guild,
                HOST_ID,
                "fast",
                "UTC",
                roles=role_list(self.script),
                seed=int(self.script.get("seed", 0)) + guild,
                activity_rules=bool(self.script.get("activity_rules", False)),
            )
        if record.status == "lobby":
            joined = set(await store.signups(record.id))
            for uid in self.users:
                if uid not in joined:
                    await service.join(guild, uid)
            await service.start(guild)
        await deliver(store, record.id, self.sent)
        turns = self.script["turns"]
        while (live := service.game_in(guild)) is not None:
            turn = live.engine.turn
            if turn > len(turns):
                await service.end(guild, HOST_ID)  # the script ran out
                break
            plan = turns[turn - 1]
            nick, users = self._maps()
            deadline = live.record.deadline
            assert deadline is not None
            done = Counter(e.section for e in await store.log_entries(live.id, turn))
            if live.engine.phase is Phase.OPEN:
                clock.now = deadline - dt.timedelta(minutes=1)
                for h in plan.get("host", [])[done["host"] :]:
                    action = HostAction.from_dict(self._translate(h, nick))
                    await service.host_action(guild, HOST_ID, action)
                if service.game_in(guild) is None:
                    break  # ended by a host exclusion
                for r in plan.get("requests", [])[done["requests"] :]:
                    await self._submit(r, nick, users)
                clock.now = deadline
                await service.deadline_reached(live.id)
            else:  # the pistol window (R18): shots, else the window closes at its end
                clock.now = deadline
                shots = plan.get("after", [])[done["after"] :]
                for a in shots:
                    await self._submit(a, nick, users)
                if service.game_in(guild) is live and live.engine.phase is Phase.PISTOL:
                    await service.deadline_reached(live.id)
            await deliver(store, live.id, self.sent)
        record = await store.latest_game(guild)
        assert record is not None
        await deliver(store, record.id, self.sent)


async def play_game(
    store: SQLiteStore, guild: int, script: dict[str, Any], sent: Path
) -> dict[str, str]:
    """Play (or resume) the script's game in ``guild`` through a service on ``store`` until
    it is over, without kills; the script's nicknames -> the game's."""
    clock = Clock()
    service = GameService(store, clock)
    await service.load()
    player = Player(service, store, clock, guild, script, sent)
    await player.play()
    return player.names


async def run(args: argparse.Namespace, script: dict[str, Any]) -> None:
    real = await open_store(args.db)
    with (args.sent.parent / "opens.log").open("a", encoding="utf-8") as f:
        checked = getattr(real, "integrity_checked", False)  # SQLite's
        f.write("checked\n" if checked else "unchecked\n")
    try:
        store = KillingStore(
            real, args.sent.parent / "resolved.log", args.kill_at, args.kill_when, args.kill_delay
        )
        clock = Clock()
        service = GameService(cast(GameStore, store), clock)
        # Shards: this process plays the games of the servers on its shard.
        mine = [i for i in range(1, args.games + 1) if i % args.shard_count == args.shard_id]
        owned = {guild_of(i) for i in mine}
        # Rebuilds every running game of its servers (and repairs a half-done start).
        await service.load(owns=owned.__contains__)
        for index in mine:
            await Player(
                service, cast(SQLiteStore, store), clock, guild_of(index), script, args.sent
            ).play()
    finally:
        await real.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True, help="a SQLite file or a postgresql:// URL")
    parser.add_argument("--script", required=True, type=Path)
    parser.add_argument("--sent", required=True, type=Path)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--kill-at", type=int, default=None)
    parser.add_argument("--kill-when", choices=("before", "after", "during"), default="after")
    parser.add_argument("--kill-delay", type=float, default=0.0)
    parser.add_argument("--shard-count", type=int, default=1)
    parser.add_argument("--shard-id", type=int, default=0)
    args = parser.parse_args(argv)
    if args.kill_at == 0:
        _arm_kill(args.kill_delay)
    script = json.loads(args.script.read_text(encoding="utf-8"))
    asyncio.run(run(args, script))
    return 0


if __name__ == "__main__":
    sys.exit(main())
