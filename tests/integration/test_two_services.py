"""Two processes serving one game (a re-shard, a restarted shard whose old process
is not dead yet): two GameService instances, each on its own store opened on ONE database, in
one event loop: on SQLite two connections to one file, on PostgreSQL two stores (two pools,
as two processes would have) on one fresh schema of the test server. The store is the truth,
not either service's memory: a turn is resolved once, with every request either service
accepted, each announcement is queued once, and both services end with the game the store
holds."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import pytest

from core.service import STALE_ATTEMPTS, GameService, LiveGame, ServiceError
from db.errors import StaleGame
from db.interface import GameStore
from db.models import Fence
from db.store import open_store
from rules.snapshot import state_to_dict
from tests import pgserver
from tests.integration.test_service import GUILD, FakeClock, nick, started

ROLES = "mafioso=1 commissar=1 villager=2"


@pytest.fixture(params=["sqlite", "postgres"])
async def stores(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[GameStore, GameStore]]:
    target = pgserver.fresh_url() if request.param == "postgres" else str(tmp_path / "game.db")
    a = await open_store(target)
    b = await open_store(target)
    yield a, b
    await b.close()
    await a.close()


async def two_services(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> tuple[GameService, GameService, dict[str, int]]:
    """A starts the game; B loads it as a second process would (before anything is played)."""
    a = GameService(stores[0], clock)
    roles = await started(a, ROLES, 4)
    b = GameService(stores[1], clock)
    await b.load()
    return a, b, roles


def live(service: GameService) -> LiveGame:
    game = service.game_in(GUILD)
    assert game is not None
    return game


def same_game(a: GameService, b: GameService) -> None:
    """Both services hold the game the store holds: the same record and state."""
    ga, gb = live(a), live(b)
    assert ga.record == gb.record
    assert (ga.engine.turn, ga.engine.phase) == (gb.engine.turn, gb.engine.phase)
    sa, sb = ga.engine.state, gb.engine.state
    if sa.current is None and sb.current is None:
        assert state_to_dict(sa) == state_to_dict(sb)
    else:  # inside a pistol window (R18): who lives, who may still shoot
        assert {n: p.alive for n, p in sa.players.items()} == {
            n: p.alive for n, p in sb.players.items()
        }
        assert sa.pistols == sb.pistols
    assert (ga.entries, ga.entries_next) == (gb.entries, gb.entries_next)


async def each_once(store: GameStore, game_id: int) -> Counter[tuple[str, str, int]]:
    """The game's outbox by (kind, audience, turn queued at); fails if a message (the same
    kind, audience and payload) is queued twice."""
    outbox = await store.outbox(game_id)
    same = Counter(json.dumps(o.payload, sort_keys=True) for o in outbox)
    assert [k for k, n in same.items() if n > 1] == []
    return Counter((o.kind, str(o.payload["audience"]), o.turn) for o in outbox)


async def test_resolution_counts_the_request_another_process_accepted(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """A accepts the mafia's kill; B, loaded before it, resolves the turn: the kill counts
    (R18: the commissar dies and his pistol window opens), and A, whose own resolution comes
    too late, announces nothing and takes the store's game."""
    a, b, roles = await two_services(stores, clock)
    maf, com = roles["mafioso"], roles["commissar"]
    com_nick = nick(a, com)
    await a.submit(GUILD, maf, {"do": "kill", "target": com_nick})
    game_id = live(a).id

    clock.advance(minutes=10)
    await b.deadline_reached(game_id, if_due=True)
    assert not live(b).engine.state.alive(com_nick)
    record = await stores[0].require_game(game_id)
    assert (record.turn, record.phase) == (1, "pistol")
    await a.deadline_reached(game_id, if_due=True)  # the window's deadline is not due yet
    assert live(a).record.phase == "pistol"
    assert await stores[0].pistol_window(game_id, 1) is not None
    same_game(a, b)
    rows = await each_once(stores[0], game_id)
    assert rows[("pistol", com_nick, 1)] == 1 and rows[("results", "public", 1)] == 1

    # R18: the shot reaches A, which holds the window the store opened.
    await a.submit(GUILD, com, {"do": "shoot", "target": nick(a, maf)})
    final = await stores[1].require_game(game_id)
    assert final.status == "finished" and final.winner == "town"
    assert len(await stores[1].resolutions(game_id)) == 1
    await each_once(stores[1], game_id)


async def test_both_resolve_the_same_turn_at_once(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """A and B resolve turn 1 at the same moment, each having accepted a request the other
    never saw: one resolution row, counting both requests (R5), each message queued once,
    and the loser takes the winner's game instead of announcing its own."""
    a, b, roles = await two_services(stores, clock)
    game_id = live(a).id
    villagers = [p for p in live(a).players if p.role == "villager"]
    com = roles["commissar"]
    maf_nick = nick(a, roles["mafioso"])
    await a.submit(GUILD, com, {"do": "check", "target": maf_nick})
    note = {"do": "note", "to": maf_nick, "text": "it was the baker"}
    await b.submit(GUILD, villagers[0].user_id, note)

    clock.advance(minutes=10)
    # As each process's clock calls it (``if_due``): a call that finds the game already moved
    # on to turn 2 (the other process resolved turn 1 first) resolves nothing more.
    await asyncio.gather(
        a.deadline_reached(game_id, if_due=True), b.deadline_reached(game_id, if_due=True)
    )
    assert len(await stores[0].resolutions(game_id)) == 1
    [resolution] = await stores[0].resolutions(game_id)
    checks = resolution.result.get("checks")
    assert checks and checks[0]["target"] == maf_nick  # A's request counted
    rows = await each_once(stores[0], game_id)
    assert rows[("check", nick(a, com), 1)] == 1
    assert rows[("turn_open", "public", 1)] == 2  # turn 1's opening, then turn 2's
    same_game(a, b)
    assert live(a).engine.turn == 2
    assert a.reloads + b.reloads >= 1  # the loser (or a stale winner) reloaded


async def test_R37_second_note_refused_by_the_other_process(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """R37: one note a game. A accepted a villager's note; B, loaded before, refuses his
    second note as one process would, and logs the refusal."""
    a, b, roles = await two_services(stores, clock)
    uid = roles["villager"]
    to = nick(a, roles["commissar"])
    await a.submit(GUILD, uid, {"do": "note", "to": to, "text": "first"})
    with pytest.raises(ServiceError) as err:
        await b.submit(GUILD, uid, {"do": "note", "to": to, "text": "second"})
    assert err.value.key == "refusal.note_already_sent"
    entries = await stores[1].log_entries(live(b).id)
    assert [e.outcome for e in entries] == ["accepted", "refused:note_already_sent"]
    same_game(a, b)


async def test_R5_replacement_accepted_by_the_other_process(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """R5: a player's later request of the same kind replaces the earlier one: the
    commissar's check sent through A, replaced through B, resolved by A: the check is B's,
    and A's own copy learns of the replacement before it resolves."""
    a, b, roles = await two_services(stores, clock)
    com = roles["commissar"]
    maf_nick = nick(a, roles["mafioso"])
    villager = nick(a, roles["villager"])
    await a.submit(GUILD, com, {"do": "check", "target": maf_nick})
    accepted = await b.submit(GUILD, com, {"do": "check", "target": villager})
    assert [r.target for r in live(b).engine.standing_requests(nick(b, com))] == [villager]
    assert accepted.withdrawn == ()
    clock.advance(minutes=10)
    await a.deadline_reached(live(a).id, if_due=True)
    [resolution] = await stores[0].resolutions(live(a).id)
    assert [c["target"] for c in resolution.result["checks"]] == [villager]
    await b.deadline_reached(live(b).id, if_due=True)  # B's clock: B takes the store's game
    assert b.reloads == 2  # A's check refused B's first append (the fence); A's resolution
    same_game(a, b)


async def test_a_stale_append_is_refused_by_the_store(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """The fence: a request validated against turn 1 cannot be added once another process
    resolved the turn, nor once it logged an entry the validation did not see."""
    a, b, roles = await two_services(stores, clock)
    game = live(b)
    fence = game.fence()
    assert fence == Fence(turn=1, phase="open", entries=0)
    by = nick(b, roles["villager"])
    payload = {"by": by, "do": "note", "to": nick(b, roles["mafioso"]), "text": "x"}
    await a.submit(GUILD, roles["commissar"], {"do": "check", "target": by})
    with pytest.raises(StaleGame):
        await stores[1].add_request(game.id, 1, "requests", payload, 1, fence=fence)
    clock.advance(minutes=10)
    await a.deadline_reached(game.id)
    with pytest.raises(StaleGame):
        moved = Fence(turn=1, phase="open", entries=1)
        await stores[1].add_request(game.id, 1, "requests", payload, 1, fence=moved)
    assert len(await stores[1].log_entries(game.id)) == 1


async def test_one_process_alone_never_reloads(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """The checks cost a process serving its games alone no rebuild: a whole game (requests,
    a refusal, a host action, the pistol window, the shot) reloads nothing."""
    from rules.model import HostAction

    service = GameService(stores[0], clock)
    roles = await started(service, ROLES, 4)
    maf, com = roles["mafioso"], roles["commissar"]
    com_nick, maf_nick = nick(service, com), nick(service, maf)
    note = {"do": "note", "to": maf_nick, "text": "first"}
    await service.submit(GUILD, roles["villager"], note)
    with pytest.raises(ServiceError):
        await service.submit(GUILD, roles["villager"], note)
    await service.submit(GUILD, maf, {"do": "kill", "target": com_nick})
    clock.advance(minutes=10)
    await service.deadline_reached(live(service).id)
    assert live(service).record.phase == "pistol"
    await service.host_action(GUILD, 999, HostAction(do="double_kill"))  # R36: next turn
    assert live(service).entries_next == 1
    await service.submit(GUILD, com, {"do": "shoot", "target": maf_nick})
    assert service.reloads == 0


class BusyElsewhere:
    """A's store (the real one) while another process keeps changing the game: before each
    of A's appends, ``before`` lets B log a request of its own, so the fence A validated
    against is stale by the time A's append reaches the store."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self.before: Callable[[], Awaitable[object]] | None = None
        self.appends = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def add_request(self, *args: Any, **kwargs: Any) -> Any:
        self.appends += 1
        if self.before is not None:
            await self.before()
        return await self._store.add_request(*args, **kwargs)


async def test_a_request_refused_as_stale_every_time_is_told_the_game_changed(
    stores: tuple[GameStore, GameStore], clock: FakeClock
) -> None:
    """The store is the truth, up to a point: a request whose append is refused as stale
    (B logged a kill request meanwhile) is decided again on the game reloaded from the store, at
    most STALE_ATTEMPTS times; then the player is told the game changed and nothing of his
    is logged. Once B stops, the same request goes through on A's first try."""
    busy = BusyElsewhere(stores[0])
    a = GameService(cast(GameStore, busy), clock)
    roles = await started(a, ROLES, 4)
    b = GameService(stores[1], clock)
    await b.load()
    game_id = live(a).id
    maf, com = roles["mafioso"], roles["commissar"]
    targets = [p.nick for p in live(b).players if p.role == "villager"]  # two of them

    async def b_kills() -> None:  # B's mafioso changes his kill: one more accepted entry
        await b.submit(GUILD, maf, {"do": "kill", "target": targets[busy.appends % 2]})

    busy.before = b_kills
    with pytest.raises(ServiceError) as err:
        await a.submit(GUILD, com, {"do": "check", "target": nick(a, maf)})
    assert err.value.key == "error.game_changed"
    assert busy.appends == STALE_ATTEMPTS
    assert a.reloads == STALE_ATTEMPTS
    logged = await stores[1].log_entries(game_id)
    assert [e.payload["do"] for e in logged] == ["kill"] * STALE_ATTEMPTS  # none of A's

    busy.before = None
    accepted = await a.submit(GUILD, com, {"do": "check", "target": nick(a, maf)})
    assert accepted.request.do == "check"
    assert a.reloads == STALE_ATTEMPTS  # A held the store's game: no reload this time
    assert [e.payload["do"] for e in await stores[1].log_entries(game_id)][-1] == "check"
    await b.deadline_reached(game_id)  # B's clock: B takes the store's game, A's check in it
    assert b.reloads == 1
    assert len(await stores[1].resolutions(game_id)) == 1
    assert live(b).engine.turn == 2


class RacedAt:
    """A's store, on which another process's work runs just before A's first call of
    ``method`` reaches the store (once)."""

    def __init__(self, store: GameStore, method: str) -> None:
        self._store = store
        self._method = method
        self.meanwhile: Callable[[], Awaitable[object]] | None = None

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name != self._method:
            return real

        async def call(*args: Any, **kwargs: Any) -> Any:
            meanwhile, self.meanwhile = self.meanwhile, None
            if meanwhile is not None:
                await meanwhile()
            return await real(*args, **kwargs)

        return call


@pytest.mark.parametrize("raced", ["add_request", "record_resolution"])
async def test_R59_a_retry_after_a_stale_write_resolves_each_turn_once_with_downtime(
    stores: tuple[GameStore, GameStore], clock: FakeClock, raced: str
) -> None:
    """Three minutes of turn 1 are downtime in the store (R59). At the deadline A measures
    them and logs the measure (``add_request``), then resolves (``record_resolution``); B's
    resolution races either write. Whichever wins, turn 1 is resolved once, excused (nobody
    who stayed silent leaves, R52), its last measure logged in turn 1 and none in turn 2, and
    both processes hold turn 2 open with its deadline ahead, as the store does."""
    raced_store = RacedAt(stores[0], raced)
    a = GameService(cast(GameStore, raced_store), clock)
    await started(a, ROLES, 4)
    b = GameService(stores[1], clock)
    await b.load()
    game_id = live(a).id
    await a.heartbeat("all", cause="down")
    clock.advance(minutes=3)  # not served: no beat
    assert await a.heartbeat("all") is not None  # kept as downtime of the game
    for _ in range(14):  # the rest of the turn, served
        clock.advance(seconds=30)
        await a.heartbeat("all")
    deadline = live(a).record.deadline
    assert deadline is not None and clock() == deadline

    async def b_resolves() -> None:
        await b.deadline_reached(game_id, if_due=True)

    raced_store.meanwhile = b_resolves
    await a.deadline_reached(game_id, if_due=True)
    assert raced_store.meanwhile is None  # the race ran
    assert [r.turn for r in await stores[1].resolutions(game_id)] == [1]
    measures = [
        (e.turn, e.payload)
        for e in await stores[1].log_entries(game_id)
        if e.payload.get("do") == "downtime"
    ]
    assert measures and {turn for turn, _ in measures} == {1}
    assert measures[-1][1] == {"do": "downtime", "lost": 180, "length": 600}
    rows = await each_once(stores[1], game_id)
    assert rows[("results", "public", 1)] == 1 and rows[("downtime", "public", 1)] == 1
    for service in (a, b):
        game = live(service)
        assert (game.engine.turn, game.engine.phase.value) == (2, "open")
        assert game.record.deadline is not None and game.record.deadline > clock()
        assert len(game.engine.state.living()) == 4  # excused: nobody left for silence
    same_game(a, b)
    assert live(a).record == await stores[1].require_game(game_id)


def count_judgements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every time the rules judge a request (``rules.validation.validate_request``, wherever
    it is called from), its verb and text (a reload judges again the log it replays)."""
    import core.play_service
    import rules.engine
    from rules.validation import validate_request

    verbs: list[str] = []

    def judge(state: Any, req: Any, **kwargs: Any) -> Any:
        verbs.append(f"{req.do} {req.text}")
        return validate_request(state, req, **kwargs)

    monkeypatch.setattr(rules.engine, "validate_request", judge)
    monkeypatch.setattr(core.play_service, "validate_request", judge, raising=False)
    return verbs


async def test_a_request_is_judged_once_per_state_it_is_committed_against(
    stores: tuple[GameStore, GameStore], clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One process alone: a request is judged once on its way to the commit. Behind another
    process: once against the state it held (the fence refuses the append), once against the
    store's (R37: B refuses the second note as one process would)."""
    a, b, roles = await two_services(stores, clock)
    verbs = count_judgements(monkeypatch)
    uid = roles["villager"]
    to = nick(a, roles["commissar"])
    await a.submit(GUILD, uid, {"do": "note", "to": to, "text": "first"})
    assert verbs == ["note first"]
    verbs.clear()
    with pytest.raises(ServiceError) as err:
        await b.submit(GUILD, uid, {"do": "note", "to": to, "text": "second"})
    assert err.value.key == "refusal.note_already_sent"
    assert b.reloads == 1
    assert [v for v in verbs if v == "note second"] == ["note second", "note second"]
