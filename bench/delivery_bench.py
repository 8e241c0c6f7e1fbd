"""Delivery at one deadline: a thousand games due together, against Discord's limits.

    python -m bench.delivery_bench [--games 150] [--latency 0.08] [--engine sqlite|postgres|both]

A local web server plays Discord's REST API for the few routes delivery uses (log in, create a
message, open a DM channel, read a channel's latest messages, a thread's members and lock) with
``--latency`` seconds per round trip and Discord's limits as Discord answers them: the global
limit of 50 requests per second per bot, and 5 messages per 5 s per channel (a DM channel is a
channel). Over a limit it answers 429 with ``retry_after`` and the ``X-RateLimit-*``, ``Retry-
After``, ``X-RateLimit-Scope`` and ``Via`` headers; every answer carries the bucket's headers,
which discord.py reads to wait before a bucket runs dry. (Webhook executions, 5 per 2 s per
webhook, are not used by delivery: /say and /post go through webhooks, one command at a time.)

The real bot parts run against it: discord.py's client (its own bucket handling, pointed at the
server through ``discord.http.Route.BASE``) with the bot's global limiter
(``bot.delivery.global_rate_trace``), ``bot.delivery.Delivery`` and the clock runner
``bot.clock.GameClock``, on games set up through ``core.service.GameService`` in a SQLite file
(then again in PostgreSQL, ``--engine``):
``--games`` forum games (11 players, one server each, all with the 21:00 Moscow deadline).

Two figures, each the time from the clock's wake-up to the last message, against the time the
limits allow for the requests Discord needs (messages, plus the DM channels opened the first
time: requests / 50 per s, or the busiest channel's 5-per-5-s bound if larger):
the reminders 3 h before the deadline (one DM per player who has not posted), then the
deadline (every game resolved and its dawn report delivered). Each also checks that every
game's messages arrived in its outbox's order and none twice.

Between the two the bot restarts (``--no-restart``: it does not): a new client and delivery,
the store and its games kept, so what it remembers of Discord (the DM channels it opened) is
what the store kept. Each phase also prints its REST requests per game by channel kind (#game,
#host, the mafia room, DMs), measured / goal, the goal being the fewest Discord's limits allow
for what the phase says: its rows' messages packed in order into as few messages as one
message's limits allow (2,000 characters, ten embeds, 6,000 characters of embeds), what the
rules need besides messages (the room's members let in or out), and a DM channel opened only
for a user the bot never wrote to; within 1.2x of it.

The server watch (``bot.serverlife.ServerWatch``) runs as in the bot: the clock's actions ask
it to look at the games, and a phase ends when its checks are done too, so its requests count.
A read of a mafia room's member list (``GET .../thread-members``) is no work of a deadline:
each phase prints how many it made (issue 34: none; before, one per game after the deadline's
last message). The watch's first look when the bot is ready (one read per room) is printed
apart ("ready").
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import sqlite3
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import attrs
import discord
from aiohttp import web

from bench import pg
from bench.fake_discord import (
    API,
    BOT_ID,
    CHANNEL_LIMIT,
    CHANNEL_PERIOD,
    GLOBAL_LIMIT,
    FakeDiscord,
    thread,
    user,
)
from bot.clock import GameClock
from bot.delivery import WORKERS, Delivery, global_rate_trace
from bot.embeds import EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, Post
from bot.mafia_room import room_name
from bot.render import render_console, render_posts
from bot.serverlife import ServerWatch
from bot.webhooks import MESSAGE_LIMIT, split_message
from core.service import GameService
from db.models import TableSettings
from db.store import open_store

GOAL = 1.2
PLAYERS = 11
ROLES = "mafioso=3 commissar=1 doctor=1 villager=6"


@attrs.define
class Table:
    guild_id: int
    game: int
    mafia: int
    host: int
    room: int = 0
    game_id: int = 0


class Clock:
    """The service's time, moved by the benchmark (the clock runner sleeps on asyncio)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def setup_games(service: GameService, games: int) -> list[Table]:
    """``games`` forum games started through the service, one server each; their start's
    outbox marked sent (the role cards went out long ago)."""
    ids = itertools.count(10**16)
    tables = []
    for _ in range(games):
        guild = next(ids)
        table = Table(guild_id=guild, game=next(ids), mafia=next(ids), host=next(ids))
        await service.store.save_table(
            TableSettings(
                guild_id=guild,
                language="en",
                game_channel_id=table.game,
                mafia_channel_id=table.mafia,
                host_channel_id=table.host,
            )
        )
        record = await service.new_game(guild, 1, "forum", "Europe/Moscow")
        for _ in range(PLAYERS):
            await service.join(guild, next(ids))
        await service.set_roles(guild, ROLES, None)
        live = await service.start(guild, theme="en")
        table.game_id, table.room = record.id, next(ids)
        state = live.engine.state
        by_role = {p.role: live.user_of(p.nick) for p in state.players.values()}
        victim = next(n for n, p in state.players.items() if p.role == "villager")
        mafioso, commissar = by_role["mafioso"], by_role["commissar"]
        assert mafioso is not None and commissar is not None
        await service.submit(guild, mafioso, {"do": "kill", "target": victim})
        await service.submit(guild, commissar, {"do": "check", "target": victim})
        tables.append(table)
    return tables


def guild_data(table: Table, service: GameService) -> dict[str, Any]:
    live = service.live[table.game_id]

    def text(cid: int, name: str) -> dict[str, Any]:
        return {"id": str(cid), "type": 0, "name": name, "position": 0, "permission_overwrites": []}

    return {
        "id": str(table.guild_id),
        "name": f"server {table.guild_id}",
        "owner_id": "1",
        "preferred_locale": "en-US",
        "features": [],
        "emojis": [],
        "stickers": [],
        "roles": [{"id": str(table.guild_id), "name": "@everyone", "permissions": "0"}],
        "channels": [
            text(table.game, "game"),
            text(table.mafia, "mafia"),
            text(table.host, "host"),
        ],
        "threads": [thread(table.room, table.mafia, room_name("en", table.game_id))],
        "members": [
            {"user": user(p.user_id, f"u{p.user_id}"), "roles": [], "joined_at": None, "flags": 0}
            for p in live.players
        ]
        + [{"user": user(BOT_ID, "bench-bot", bot=True), "roles": [], "flags": 0}],
        "member_count": PLAYERS + 1,
    }


def check_order(server: FakeDiscord, since: int, owner: dict[int, int]) -> tuple[int, int, int]:
    """(games whose messages came out of their outbox's order, messages sent twice, games)."""
    sent = [tuple(map(int, n.split("-")[1:])) for _, _, n in server.messages[since:] if n]
    twice = len(sent) - len(set(sent))
    by_game: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for piece in sent:
        by_game[owner[piece[0]]].append(piece)
    disorder = sum(1 for order in by_game.values() if order != sorted(order))
    return disorder, twice, len(by_game)


async def phase(
    name: str,
    server: FakeDiscord,
    path: str,
    clock: GameClock,
    handled: Callable[[], bool],
    store: Any,
    tables: list[Table],
    service: GameService,
    watch: ServerWatch,
) -> bool:
    """Wake the clock; wait until it ``handled`` every game, the outbox is empty and the
    server watch has done the checks the clock's actions asked for (its requests count)."""
    users = {(g.id, p.nick): p.user_id for g in service.live.values() for p in g.players}
    since, requests, rejected = len(server.messages), server.requests, server.rejected
    routes = dict(server.routes)
    dms_before = len(server.dms)
    known_dms = dict(server.dms)
    by_channel, dm_opens = dict(server.by_channel), server.dm_opens
    reads, global_rejected = sum(server.member_reads.values()), server.global_rejected
    last_row = max(await asyncio.to_thread(row_games, path), default=0)
    start = time.monotonic()
    clock.rearm()
    while not handled():
        await asyncio.sleep(0.05)
    acted = time.monotonic() - start
    while await asyncio.to_thread(count_pending, path):  # not the store: no load on the loop
        await asyncio.sleep(0.2)
    while watch.busy:  # its checks run a debounce after the clock acted
        await asyncio.sleep(0.2)
    watched = time.monotonic() - start
    measured = server.messages[-1][0] - start
    sent = server.messages[since:]
    dms_opened = len(server.dms) - dms_before
    needed = len(sent) + dms_opened
    per_channel: dict[int, int] = defaultdict(int)
    for _, cid, _ in sent:
        per_channel[cid] += 1
    busiest = max(per_channel.values())
    channel_bound = (busiest - 1) // CHANNEL_LIMIT * CHANNEL_PERIOD
    allowed = max(needed / GLOBAL_LIMIT, channel_bound)
    owner = await asyncio.to_thread(row_games, path)
    disorder, twice, games = check_order(server, since, owner)
    ratio = measured / allowed
    ok = ratio <= GOAL and not (disorder or twice)
    print(
        f"  {name}: {len(sent)} messages + {dms_opened} DM channels opened, {games} games; "
        f"{server.requests - requests} requests, {server.rejected - rejected} answered 429 "
        f"({server.global_rejected - global_rejected} global; busiest channel: {busiest} "
        f"messages); room member lists read: {sum(server.member_reads.values()) - reads}; "
        f"the server watch done {watched:.1f} s after the wake-up"
    )
    by_route = {r: n - routes.get(r, 0) for r, n in server.routes.items() if n > routes.get(r, 0)}
    print(f"  {name}: requests by route: {by_route}; the clock acted on all in {acted:.1f} s")
    rows = await asyncio.to_thread(phase_rows, path, last_row)
    before = (by_channel, dm_opens, since, reads)
    kinds_ok = per_kind(name, server, tables, before, known_dms, rows, users)
    print(
        f"  {name}: {measured:.1f} s / allowed {allowed:.1f} s = {ratio:.2f} (goal {GOAL}) "
        f"{'ok' if ok else 'MISSED'}; games out of order: {disorder}, messages sent twice: "
        f"{twice}"
    )
    return ok and kinds_ok


#: The channel kinds the requests are counted by.
CHANNEL_KINDS = ("#game", "#host", "mafia room", "DMs")


def per_kind(
    name: str,
    server: FakeDiscord,
    tables: list[Table],
    before: tuple[dict[int, int], int, int, int],
    known_dms: dict[int, int],
    rows: list[tuple[int, str, str, dict[str, Any]]],
    users: dict[tuple[int, str], int],
) -> bool:
    """Print the phase's requests per game by channel kind against the fewest Discord's
    limits allow for what it had to say (goal): its rows' messages packed into as few as one
    message's limits allow, in order (2,000 characters, ten embeds, 6,000 characters of
    embeds: ``bot.delivery.sender.fits``), plus what the rules need besides messages (the
    mafia room's members), and a DM channel opened only for a user never written to before.
    True when every kind is within :data:`GOAL` of its goal."""
    by_channel, dm_opens, since, reads = before
    kind_of: dict[int, str] = {}
    for table in tables:
        kind_of.update({table.game: "#game", table.host: "#host", table.room: "mafia room"})
        kind_of[table.mafia] = "mafia room"
    for channel in server.dms.values():
        kind_of[channel] = "DMs"
    measured: dict[str, int] = defaultdict(int)
    for channel, count in server.by_channel.items():
        measured[kind_of.get(channel, "other")] += count - by_channel.get(channel, 0)
    measured["DMs"] += server.dm_opens - dm_opens
    messages: dict[str, int] = defaultdict(int)
    for _, channel, _ in server.messages[since:]:
        messages[kind_of.get(channel, "other")] += 1
    goal: dict[str, int] = defaultdict(int)
    # The room's other requests (members let in or out, the lock) are the rules' own; a read
    # of its member list is not (the bot changed them itself, or hears of others' changes).
    room_reads = sum(server.member_reads.values()) - reads
    goal["mafia room"] = measured["mafia room"] - messages["mafia room"] - room_reads
    destinations: dict[tuple[int, str], list[list[Post]]] = defaultdict(list)
    for game_id, audience, kind, payload in rows:
        if kind == "post":
            continue
        if audience == "host":
            posts = [Post(content=p) for p in split_message(render_console("en", kind, payload))]
            where = "#host"
        else:
            posts = render_posts("en", kind, payload)
            where = {"public": "#game", "mafia": "mafia room"}.get(audience, "DMs")
            if where == "DMs" and users.get((game_id, audience)) not in known_dms:
                goal["DMs"] += 1  # never written to: his DM channel is opened once
        destinations[(game_id, f"{where}:{audience}")].append(posts)
    for (_, where), posted in destinations.items():
        goal[where.split(":")[0]] += fewest_messages(posted)
    games = len(tables)
    parts, ok = [], True
    for kind in CHANNEL_KINDS:
        m, g = measured[kind] / games, goal[kind] / games
        parts.append(f"{kind} {m:.2f} / {g:.2f}")
        ok = ok and measured[kind] <= GOAL * goal[kind] + 1e-9
    total_m, total_g = sum(measured[k] for k in CHANNEL_KINDS), sum(goal.values())
    print(
        f"  {name}: requests per game by channel (measured / goal): {', '.join(parts)}; "
        f"all {total_m / games:.2f} / {total_g / games:.2f} = "
        f"{total_m / max(total_g, 1):.2f} (goal {GOAL}) {'ok' if ok else 'MISSED'}"
    )
    return ok


def fewest_messages(rows: list[list[Post]]) -> int:
    """The fewest messages that carry these rows' messages in order: each row's last message
    and the next row's first in one where Discord's limits allow it (2,000 characters of
    text, ten embeds, 6,000 characters of embeds; a message shows its text above its embeds,
    so a text never follows embeds in one)."""
    out: list[Post] = []
    for posts in rows:
        rest = list(posts)
        if out and rest:
            a, b = out[-1], rest[0]
            content = "\n".join(x for x in (a.content, b.content) if x)
            embeds = (*a.embeds, *b.embeds)
            if (
                not (a.embeds and b.content)
                and len(content) <= MESSAGE_LIMIT
                and len(embeds) <= EMBEDS_PER_MESSAGE
                and sum(len(e) for e in embeds) <= EMBED_TOTAL_LIMIT
            ):
                out[-1] = Post(content=content, embeds=embeds)
                rest = rest[1:]
        out.extend(rest)
    return len(out)


def phase_rows(database: str, after: int) -> list[tuple[int, str, str, dict[str, Any]]]:
    """(game, audience, kind, payload) of each outbox row queued after row ``after``."""
    if pg_url(database):
        found = pg.query(
            database, f"SELECT game_id, payload FROM outbox WHERE id > {after} ORDER BY id"
        )
    else:
        with sqlite3.connect(database) as conn:
            found = conn.execute(
                "SELECT game_id, payload FROM outbox WHERE id > ? ORDER BY id", (after,)
            ).fetchall()
    out = []
    for game_id, raw in found:
        item = raw if isinstance(raw, dict) else json.loads(raw)
        inner = item.get("payload") or {}
        out.append((int(game_id), str(item.get("audience")), str(item.get("kind")), inner))
    return out


def count_pending(database: str) -> int:
    if pg_url(database):
        return int(pg.query(database, "SELECT COUNT(*) FROM outbox WHERE NOT sent")[0][0])
    with sqlite3.connect(database) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM outbox WHERE sent = 0").fetchone()[0])


def row_games(database: str) -> dict[int, int]:
    if pg_url(database):
        return {int(r[0]): int(r[1]) for r in pg.query(database, "SELECT id, game_id FROM outbox")}
    with sqlite3.connect(database) as conn:
        return dict(conn.execute("SELECT id, game_id FROM outbox"))


def pg_url(database: str) -> bool:
    from db.urls import is_postgres_url

    return is_postgres_url(database)


async def run(
    games: int,
    latency: float,
    workers: int,
    reminders: bool,
    engine: str = "sqlite",
    restart: bool = True,
) -> None:
    server = FakeDiscord(latency)
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{port}{API}"
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.db") if engine == "sqlite" else pg.database()
        print(f"  on {pg.ENGINE_NAMES[engine]}")
        store = await open_store(path)
        # Monday 12:00 Moscow: the deadline is 21:00, the reminders at 18:00.
        clock_now = Clock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
        service = GameService(store, clock=clock_now, game_seed=7)
        began = time.monotonic()
        tables = await setup_games(service, games)
        await asyncio.to_thread(mark_all_sent, path)
        print(f"  set up {games} games in {time.monotonic() - began:.1f} s")

        for table in tables:  # the living mafia and the bot in each room
            game = service.live[table.game_id]
            roles = game.engine.state.players
            server.room_members[table.room] = {BOT_ID} | {
                p.user_id for p in game.players if roles[p.nick].role == "mafioso"
            }

        async def connect() -> tuple[discord.Client, Delivery, GameClock, ServerWatch]:
            """The bot's Discord side, as a (re)start builds it: a client that knows nothing
            but the servers, a delivery, a clock runner, the server watch (as ``bot/client.py``
            does, the clock's actions ask it to look at the games). When ready, the watch
            checks every running game, its mafia room's members read: waited for here and
            counted apart from the phases."""
            intents = discord.Intents(guilds=True, members=True)
            client = discord.Client(intents=intents, http_trace=global_rate_trace())
            await client.login("bench-token")
            state = client._connection
            for table in tables:
                state._add_guild_from_data(guild_data(table, service))  # type: ignore[arg-type]
            delivery = Delivery(client, store, service, workers=workers)
            watch = ServerWatch(client, store, service, delivery)

            async def deliver_game(game_id: int) -> None:
                watch.sweep_soon()
                await delivery.deliver_game(game_id)

            clock = GameClock(service, delivery.deliver, deliver_game=deliver_game)
            requests, reads = server.requests, sum(server.member_reads.values())
            began = time.monotonic()
            watch.start()
            while watch.busy:
                await asyncio.sleep(0.2)
            print(
                f"  ready: the watch's first look at every game: {server.requests - requests} "
                f"requests ({sum(server.member_reads.values()) - reads} room member lists) "
                f"in {time.monotonic() - began:.1f} s"
            )
            return client, delivery, clock, watch

        client, delivery, runner_clock, watch = await connect()
        deadline = next(iter(service.live.values())).record.deadline
        assert deadline is not None
        try:
            live = list(service.live.values())
            reminders_ok = True
            if reminders:
                clock_now.now = deadline - timedelta(hours=3) + timedelta(seconds=1)
                reminders_ok = await phase(
                    "reminders",
                    server,
                    path,
                    runner_clock,
                    lambda: all(g.reminded_turn == 1 for g in live),
                    store,
                    tables,
                    service,
                    watch,
                )
            else:  # queued nothing: the games stay as they are
                for game in live:
                    game.reminded_turn = 1
            # Everyone posts after his reminder (R52), so the dawn removes nobody for it.
            for game in live:
                for player in game.players:
                    await service.post(game.record.table_id, player.user_id, "here")
            if restart:  # the bot restarts between the reminders and the deadline
                runner_clock.stop()
                watch.stop()
                delivery.stop()
                await client.close()
                client, delivery, runner_clock, watch = await connect()
                print("  restarted: a new client and delivery (the store and its games kept)")
            clock_now.now = deadline + timedelta(seconds=1)
            dawn_ok = await phase(
                "deadline",
                server,
                path,
                runner_clock,
                lambda: all(g.engine.turn > 1 or g.id not in service.live for g in live),
                store,
                tables,
                service,
                watch,
            )
            resolved = sum(1 for g in await store.list_games() if g.turn > 1 or g.winner)
            print(f"  resolved {resolved} of {games} games")
        finally:
            runner_clock.stop()
            watch.stop()
            delivery.stop()
            await client.close()
            await store.close()
            await runner.cleanup()
            discord.http.Route.BASE = base
    print(f"  delivery: {'ok' if reminders_ok and dawn_ok else 'MISSED'}")


def mark_all_sent(database: str) -> None:
    if pg_url(database):
        pg.query(database, "UPDATE outbox SET sent = TRUE WHERE NOT sent")
        return
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE outbox SET sent = 1 WHERE sent = 0")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.08, help="seconds per round trip")
    parser.add_argument(
        "--workers", type=int, default=WORKERS, help="tables delivering at once (1: one by one)"
    )
    parser.add_argument(
        "--reminders",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="measure the reminders too (the longest part: two requests per private message)",
    )
    parser.add_argument(
        "--restart",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="restart the bot between the reminders and the deadline (a new client and "
        "delivery: what it remembers of Discord is what the store kept)",
    )
    parser.add_argument(
        "--engine",
        choices=("sqlite", "postgres", "both"),
        default="both",
        help="the store (default both, one after the other; PostgreSQL: a durable server "
        "of the benchmark's own, see bench/pg.py)",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    print(
        f"delivery ({args.games} games due together, {args.latency * 1000:.0f} ms round trip, "
        f"{args.workers} workers)"
    )
    engines = ["sqlite", "postgres"] if args.engine == "both" else [args.engine]
    for engine in engines:
        if engine == "postgres" and (why := pg.unavailable()) is not None:
            print(f"  on PostgreSQL: skipped, {why}")
            continue
        asyncio.run(
            run(args.games, args.latency, args.workers, args.reminders, engine, args.restart)
        )


if __name__ == "__main__":
    main()
