"""Several games due at one deadline ("Delivery"): their announcements go out
together, not one game after another, and still each game's and each channel's messages in
order, each once; a table whose channel hangs holds up nobody else; the reminders of several
games reach every player who has not acted, once.

Four tables on one server, each with a game started at the same instant (same deadline). A
recorder on SimCord's HTTP layer notes every message the bot creates with its nonce
(``bot.delivery.nonce_of``: the outbox row and the piece), in the order Discord stored them.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections import Counter
from itertools import pairwise
from typing import Any

import attrs
import pytest
from simcord import ChannelHandle, Env, MemberActor
from simcord.http import FakeHTTPClient, router

from db.models import OutboxRecord, TableSettings
from rules.announce import reminder_announcements
from tests.e2e.helpers import World, add_players, bot_of, make_world, reply_text, slot
from tests.e2e.test_tables_play import build_table, start_at

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"
SEATS = 4
TURN = 10  # minutes, every table
EXTRA_TABLES = ("B", "C", "D")


class Recorder:
    """Every message created, with its nonce, in the order SimCord stored them; and requests
    to paths matching ``hold`` wait until ``release`` is set (a hanging Discord)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.created: list[tuple[int, str]] = []  # (channel id, nonce)
        self.hold: str | None = None
        self.release = asyncio.Event()
        original = router.dispatch
        request = FakeHTTPClient.request

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            nonce = body.get("nonce") if isinstance(body, dict) else None
            result = original(backend, method, path, **kwargs)
            if isinstance(nonce, str) and nonce.startswith("mafia-") and isinstance(result, dict):
                self.created.append((int(result["channel_id"]), nonce))
            return result

        async def held(client: FakeHTTPClient, route: Any, **kwargs: Any) -> Any:
            if self.hold is not None and fnmatch.fnmatch(route.url, f"*{self.hold}"):
                await self.release.wait()
            return await request(client, route, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)
        monkeypatch.setattr(FakeHTTPClient, "request", held)

    def rows(self) -> list[tuple[int, int, int]]:
        """(channel id, row id, piece) of each message, in order."""
        out = []
        for channel_id, nonce in self.created:
            _, row, piece = nonce.split("-")
            out.append((channel_id, int(row), int(piece)))
        return out


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    return Recorder(monkeypatch)


@attrs.define
class Tables:
    world: World
    tables: list[TableSettings]
    players: dict[int, list[MemberActor]]  # table -> its players


async def four_tables(env: Env) -> Tables:
    """Table A (``/mafia setup``) and B, C, D (built as ``/mafia setup table:`` builds them),
    a game at each, all started at the same virtual instant: one deadline for all."""
    world = make_world(env)
    names = [f"p{i}" for i in range(SEATS * (1 + len(EXTRA_TABLES)))]
    actors = add_players(world, names)
    admin, lobby = world.admin, world.lobby
    reply_text(await admin.slash(lobby, "mafia setup", language="en"))
    reply_text(
        await admin.slash(
            lobby, "mafia new", schedule="fast", timezone="UTC", turn_minutes=TURN,
            activity_rules=False,
        )
    )  # fmt: skip
    for actor in actors[:SEATS]:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await admin.slash(lobby, "mafia roles", roles=ROLES))
    store = bot_of(env).store
    first = await store.get_table(world.guild.id)
    assert first is not None
    tables = [first]
    players = {first.table_id: actors[:SEATS]}
    for index, name in enumerate(EXTRA_TABLES, start=1):
        table = await build_table(world, name, "en")
        seated = actors[SEATS * index : SEATS * (index + 1)]
        await start_at(world, table, ROLES, seated, turn_minutes=TURN)
        tables.append(table)
        players[table.table_id] = seated
    # The last start arms the clock (every game's deadline) and sends every game's outbox.
    host = ChannelHandle(env, world.guild, env.backend.channels[first.host_channel_id])
    reply_text(await admin.slash(host, "mafia start"))
    deadlines = {bot_of(env).service.game_in(t.table_id).record.deadline for t in tables}  # type: ignore[union-attr]
    assert len(deadlines) == 1, deadlines
    return Tables(world=world, tables=tables, players=players)


async def game_rows(env: Env) -> dict[int, int]:
    """Row id -> game id, of every outbox row."""
    store = bot_of(env).store
    out: dict[int, int] = {}
    for game in await store.list_games():
        rows: list[OutboxRecord] = await store.outbox(game.id)
        out.update({row.id: game.id for row in rows})
    return out


def assert_in_order_once(recorder: Recorder, since: int, owner: dict[int, int]) -> None:
    """Each game's messages and each channel's come in the outbox's order, each once."""
    sent = recorder.rows()[since:]
    assert len({(row, piece) for _, row, piece in sent}) == len(sent), "a message sent twice"
    by_game: dict[int, list[tuple[int, int]]] = {}
    by_channel: dict[int, list[tuple[int, int]]] = {}
    for channel_id, row, piece in sent:
        by_game.setdefault(owner[row], []).append((row, piece))
        by_channel.setdefault(channel_id, []).append((row, piece))
    for game_id, order in by_game.items():
        assert order == sorted(order), f"game {game_id} out of order: {order}"
    for channel_id, order in by_channel.items():
        assert order == sorted(order), f"channel {channel_id} out of order: {order}"


def assert_together(
    recorder: Recorder, since: int, owner: dict[int, int], games: int, only: set[int] | None = None
) -> None:
    """The games went out together: each game (in the order of their first messages) began
    before the one before it had its last message out. One game after another would send a
    whole game before the next one's first message. ``only``: these rows only."""
    positions: dict[int, list[int]] = {}
    sent = [row for _, row, _ in recorder.rows()[since:] if only is None or row in only]
    for index, row in enumerate(sent):
        positions.setdefault(owner[row], []).append(index)
    assert len(positions) == games, positions.keys()
    spans = sorted((p[0], p[-1]) for p in positions.values())
    for (_, earlier_last), (first, _) in pairwise(spans):
        assert first < earlier_last, f"one game after another: {positions}"


async def test_games_due_together_are_delivered_together_in_order_once(
    simcord_env: Env, recorder: Recorder
) -> None:
    """Four games resolved at one deadline: every row sent, each message once, each game's
    and each channel's in the outbox's order, and the games' messages interleaved."""
    env = simcord_env
    world = await four_tables(env)
    service = bot_of(env).service
    games = [service.game_in(t.table_id) for t in world.tables]
    turn = {g.id: g.engine.turn for g in games if g is not None}
    for table, game in zip(world.tables, games, strict=True):
        # Each commissar checks someone: each game's dawn writes to #game (the results and
        # the opening share a message), #host and a DM.
        assert game is not None
        state = game.engine.state
        commissar = next(n for n, p in state.players.items() if p.role == "commissar")
        target = next(n for n in state.players if n != commissar)
        user = game.user_of(commissar)
        assert user is not None
        await service.submit(table.table_id, user, {"do": "check", "target": target})
    since = len(recorder.created)
    deadline = games[0].record.deadline  # type: ignore[union-attr]
    assert deadline is not None
    await env.advance_time((deadline - env.now()).total_seconds())
    for game in await bot_of(env).store.list_games():
        assert game.turn > turn[game.id] or game.winner is not None, "a game not resolved"
    assert await bot_of(env).store.pending_outbox() == []
    owner = await game_rows(env)
    assert_in_order_once(recorder, since, owner)
    assert_together(recorder, since, owner, len(world.tables))


async def test_a_hanging_channel_holds_up_only_its_table(
    simcord_env: Env, recorder: Recorder
) -> None:
    """Discord does not answer in one table's #game: the other tables' announcements of the
    same deadline all go out meanwhile; the held table's follow, in order, once."""
    env = simcord_env
    world = await four_tables(env)
    service = bot_of(env).service
    held = world.tables[1]
    recorder.hold = f"/channels/{held.game_channel_id}/messages"
    since = len(recorder.created)
    deadline = service.game_in(held.table_id).record.deadline  # type: ignore[union-attr]
    assert deadline is not None
    with pytest.raises(TimeoutError, match="did not settle"):  # the held request waits
        await env.advance_time((deadline - env.now()).total_seconds())
    store = bot_of(env).store
    held_game = await store.get_game(service.game_in(held.table_id).id)  # type: ignore[union-attr]
    assert held_game is not None
    for game in await store.list_games():  # every game was resolved meanwhile
        assert game.turn == 2 or game.winner is not None, f"game {game.id} waited"
    waiting = {row.game_id for row in await store.pending_outbox()}
    assert waiting == {held_game.id}, "another table waited for the held one"
    recorder.hold = None
    recorder.release.set()
    await env.settle()
    assert await store.pending_outbox() == []
    assert_in_order_once(recorder, since, await game_rows(env))


async def test_reminders_of_games_due_together_reach_everyone_once(
    simcord_env: Env, recorder: Recorder
) -> None:
    """R31, R52: the reminders of four games fall due together; every living player who has
    not acted gets his reminder once, in his game's order, the games' reminders together."""
    env = simcord_env
    world = await four_tables(env)
    service = bot_of(env).service
    first = service.game_in(world.tables[0].table_id)
    assert first is not None and first.record.deadline is not None
    await env.advance_time((first.record.deadline - env.now()).total_seconds())  # to turn 2
    games = [g for t in world.tables if (g := service.game_in(t.table_id)) is not None]
    assert len(games) == len(world.tables) and all(g.engine.turn == 2 for g in games)
    expected = Counter(
        (g.id, a.audience) for g in games for a in reminder_announcements(g.engine.state)
    )
    assert expected and all(count == 1 for count in expected.values())
    since = len(recorder.created)
    deadline = games[0].record.deadline
    assert deadline is not None
    await env.advance_time((deadline - env.now()).total_seconds() - 1)
    store = bot_of(env).store
    assert await store.pending_outbox() == []
    reminders = {
        row.id: (row.game_id, str(row.payload.get("audience")))
        for g in games
        for row in await store.outbox(g.id)
        if row.kind == "reminder"
    }
    got = Counter(reminders[row] for _, row, _ in recorder.rows()[since:] if row in reminders)
    assert got == expected
    owner = await game_rows(env)
    assert_in_order_once(recorder, since, owner)
    assert_together(recorder, since, owner, len(games), only=set(reminders))
