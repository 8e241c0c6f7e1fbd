"""Races: two commands at once end in one success and one clear refusal, never a
store error; a resolution names its turn; an open sign-up can be ended; a member who left the
server drops out of the sign-up. The service on a real SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest

from core.i18n import t
from core.service import GameService, LateRefusal, ServiceError
from db.store import SQLiteStore
from rules.model import Phase
from tests.integration.test_service import GUILD, HOST, FakeClock, nick, started

ROLES = "mafioso=1 commissar=1 villager=2"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def outcomes(*calls: Awaitable[Any]) -> tuple[list[Any], list[str]]:
    """Run the calls at once: what succeeded, and the keys of the refusals. Anything else
    (a store error) fails the test."""
    done = await asyncio.gather(*calls, return_exceptions=True)
    ok = [d for d in done if not isinstance(d, BaseException)]
    refused = []
    for d in done:
        if isinstance(d, ServiceError):
            refused.append(d.key)
        elif isinstance(d, BaseException):
            raise d
    return ok, refused


async def lobby(service: GameService, n: int = 4) -> None:
    await service.new_game(GUILD, HOST, "fast", "UTC", roles=ROLES, seed=11)
    for uid in range(1, n + 1):
        await service.join(GUILD, uid)


async def test_two_new_games_at_once(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    ok, refused = await outcomes(
        service.new_game(GUILD, HOST, "fast", "UTC"), service.new_game(GUILD, HOST, "fast", "UTC")
    )
    assert len(ok) == 1 and refused == ["error.game_exists"]


async def test_two_starts_at_once(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await lobby(service)
    ok, refused = await outcomes(service.start(GUILD), service.start(GUILD))
    assert len(ok) == 1 and refused == ["error.no_signup"]
    assert len(await store.outbox(ok[0].id)) == 5  # four cards and one opening, once


async def test_join_and_leave_racing_the_start(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await lobby(service)
    ok, refused = await outcomes(
        service.start(GUILD), service.join(GUILD, 50), service.leave(GUILD, 1)
    )
    assert len(ok) == 1 and refused == ["error.no_signup", "error.no_signup"]
    live = service.game_in(GUILD)
    assert live is not None and {p.user_id for p in live.players} == {1, 2, 3, 4}


async def test_roles_during_the_start(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await lobby(service)
    ok, refused = await outcomes(service.start(GUILD), service.set_roles(GUILD, ROLES, None))
    assert len(ok) == 1 and refused == ["error.no_signup"]


async def test_end_twice_at_once(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await started(service, ROLES, 4)
    ok, refused = await outcomes(service.end(GUILD, HOST), service.end(GUILD, HOST))
    assert len(ok) == 1 and refused == ["error.no_running_game"]
    ends = [a for a in await store.audit_log(guild_id=GUILD) if a.command == "end"]
    assert len(ends) == 1


async def test_end_cancels_an_open_signup(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await lobby(service)
    cancelled = await service.end(GUILD, HOST)
    assert cancelled is not None and cancelled.status == "lobby"
    assert await store.open_game(GUILD) is None
    with pytest.raises(ServiceError) as err:
        await service.join(GUILD, 9)
    assert err.value.key == "error.no_signup"
    await service.new_game(GUILD, HOST, "fast", "UTC")  # a new sign-up may open


async def test_resolve_names_its_turn(store: SQLiteStore, clock: FakeClock) -> None:
    """Two confirmations of turn 1: turn 1 is resolved once, turn 2 stays open (its players
    are not removed for inactivity)."""
    service = GameService(store, clock)
    await started(service, ROLES, 4)
    live = service.game_in(GUILD)
    assert live is not None
    ok, refused = await outcomes(
        service.resolve(GUILD, HOST, turn=1, stage="open"),
        service.resolve(GUILD, HOST, turn=1, stage="open"),
    )
    assert len(ok) == 1 and refused == ["error.turn_already_resolved"]
    live = service.game_in(GUILD)
    assert live is not None and live.engine.turn == 2
    assert [r.turn for r in await store.resolutions(live.id)] == [1]
    with pytest.raises(ServiceError) as err:  # a preview from an earlier game
        await service.resolve(GUILD, HOST, turn=2, stage="open", game_id=live.id + 1)
    assert err.value.key == "error.no_running_game"


async def test_a_member_who_left_drops_out_of_the_signup(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await lobby(service, 5)
    assert await service.member_left(GUILD, 5) == ("signup", 4)
    assert await service.member_left(GUILD, 5) is None
    live = await service.start(GUILD)  # four roles, four players
    assert len(live.players) == 4
    by_user = {p.user_id: p.nick for p in live.players}
    assert await service.member_left(GUILD, 2) == ("player", by_user[2])
    assert await service.member_left(GUILD, 77) is None


async def test_start_drops_signups_of_members_gone_meanwhile(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await lobby(service, 5)
    live = await service.start(GUILD, is_member=lambda uid: uid != 3)
    assert sorted(p.user_id for p in live.players) == [1, 2, 4, 5]


async def test_host_commands_racing_the_end_are_refused(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """A command that waited for the game while it ended changes nothing and says so (before:
    the deadline of a finished game moved, and a request reached the store as an error)."""
    service = GameService(store, clock)
    by_role = await started(service, ROLES, 4)
    live = service.game_in(GUILD)
    assert live is not None
    ok, refused = await outcomes(
        service.end(GUILD, HOST),
        service.extend(GUILD, HOST, 5),
        service.pause(GUILD, HOST),
        service.submit(GUILD, by_role["villager"], {"do": "post"}),
    )
    assert len(ok) == 1 and refused == ["error.no_running_game"] * 3
    assert [a.command for a in await store.audit_log(guild_id=GUILD)] == ["end"]


async def test_R18_a_second_resolve_leaves_the_pistol_window_alone(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """Turn 1 killed the commissar: its pistol window opens (R18). The second confirmation of
    "resolve turn 1" does not close the window; only a confirmation of the window does."""
    service = GameService(store, clock)
    roles = await started(service, ROLES, 4)
    com_nick = nick(service, roles["commissar"])
    await service.submit(GUILD, roles["mafioso"], {"do": "kill", "target": com_nick})
    ok, refused = await outcomes(
        service.resolve(GUILD, HOST, turn=1, stage="open"),
        service.resolve(GUILD, HOST, turn=1, stage="open"),
    )
    assert len(ok) == 1 and refused == ["error.turn_already_resolved"]
    live = service.game_in(GUILD)
    assert live is not None and live.engine.phase is Phase.PISTOL and live.engine.turn == 1
    await service.resolve(GUILD, HOST, turn=1, stage="pistol")
    assert live.engine.phase is Phase.OPEN and live.engine.turn == 2


async def pistol_window(service: GameService, clock: FakeClock) -> dict[str, list[int]]:
    """Eight players, turn 1 resolved with the commissar killed: his pistol window is open
    (R18). Returns role -> user ids."""
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=2 commissar=1 villager=5", seed=11
    )
    for uid in range(1, 9):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    by_role: dict[str, list[int]] = {}
    for p in live.players:
        by_role.setdefault(p.role, []).append(p.user_id)
    com = nick(service, by_role["commissar"][0])
    for uid in live.players:
        await service.submit(GUILD, uid.user_id, {"do": "post"})
    for maf in by_role["mafioso"]:
        await service.submit(GUILD, maf, {"do": "kill", "target": com})
    clock.advance(minutes=10)
    await service.deadline_reached(live.id, if_due=True)
    assert live.engine.phase is Phase.PISTOL and live.engine.turn == 1
    return by_role


async def test_R18_the_last_shot_at_the_close_resolves_only_its_window(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """The last shot lands in the instant the window closes (the clock waits for the shot's
    lock and closes the window first): the shot closes nothing more. Before, it resolved the
    turn that had just opened: everyone removed for not posting in it (R52), a false draw."""
    service = GameService(store, clock)
    by_role = await pistol_window(service, clock)
    live = service.game_in(GUILD)
    assert live is not None and live.record.deadline is not None
    clock.now = live.record.deadline  # the window closes now
    target = nick(service, by_role["villager"][0])
    ok, refused = await outcomes(
        service.submit(GUILD, by_role["commissar"][0], {"do": "shoot", "target": target}),
        service.deadline_reached(live.id, if_due=True),
    )
    assert len(ok) == 2 and refused == []
    assert [r.turn for r in await store.resolutions(live.id)] == [1]
    assert service.game_in(GUILD) is live
    assert live.engine.turn == 2 and live.engine.phase is Phase.OPEN
    assert len(live.engine.state.living()) == 6  # the commissar and the one he shot


async def test_R18_a_resolve_confirmed_at_the_close_resolves_only_its_window(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """The host confirms "close the pistol window of turn 1" as the clock closes it: turn 2,
    just opened, stays open."""
    service = GameService(store, clock)
    await pistol_window(service, clock)
    live = service.game_in(GUILD)
    assert live is not None and live.record.deadline is not None
    clock.now = live.record.deadline
    ok, refused = await outcomes(
        service.deadline_reached(live.id, if_due=True),
        service.resolve(GUILD, HOST, turn=1, stage="pistol"),
    )
    assert len(ok) == 1 and refused == ["error.turn_already_resolved"]
    assert [r.turn for r in await store.resolutions(live.id)] == [1]
    assert live.engine.turn == 2 and live.engine.phase is Phase.OPEN


async def test_R5_a_vote_racing_the_deadline_says_it_counts_for_the_next_turn(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """A vote sent in turn 2 waits while the deadline resolves turn 2: it is decided in turn 3
    and its answer says so (R5), instead of a bare "counted" the player reads as turn 2."""
    service = GameService(store, clock)
    by_role = await pistol_window(service, clock)
    live = service.game_in(GUILD)
    assert live is not None
    await service.resolve(GUILD, HOST, turn=1, stage="pistol")
    assert live.engine.turn == 2
    voter, target = by_role["villager"][0], nick(service, by_role["villager"][1])
    for p in live.players:  # R52: everyone talks in turn 2
        if live.engine.state.alive(p.nick):
            await service.submit(GUILD, p.user_id, {"do": "post"})
    assert live.record.deadline is not None
    clock.now = live.record.deadline
    ok, refused = await outcomes(
        service.deadline_reached(live.id, if_due=True),
        service.submit(GUILD, voter, {"do": "vote", "target": target}),
    )
    assert refused == []
    accepted = next(a for a in ok if a is not None)
    assert (accepted.turn, accepted.sent_turn) == (3, 2)
    assert live.engine.turn == 3
    reply = t("en", "play.late", sent=accepted.sent_turn, turn=accepted.turn)
    assert "Turn 2" in reply and "turn 3" in reply
    # A vote decided in the turn it was sent in says nothing more.
    again = await service.submit(GUILD, voter, {"do": "vote", "target": target})
    assert (again.turn, again.sent_turn) == (3, None)


async def test_R5_a_vote_overtaken_by_the_pistol_window_says_it_was_not_counted(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """The deadline opens a pistol window (R18) while a vote waits: the vote is refused, and
    the refusal says first that turn 1 closed before it arrived (in both languages)."""
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=2 commissar=1 villager=5", seed=11
    )
    for uid in range(1, 9):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    com = next(p for p in live.players if p.role == "commissar")
    mafia = [p.user_id for p in live.players if p.role == "mafioso"]
    villager = next(p for p in live.players if p.role == "villager")
    for maf in mafia:
        await service.submit(GUILD, maf, {"do": "kill", "target": com.nick})
    assert live.record.deadline is not None
    clock.now = live.record.deadline
    done = await asyncio.gather(
        service.deadline_reached(live.id, if_due=True),
        service.submit(GUILD, villager.user_id, {"do": "hunt", "target": com.nick}),
        return_exceptions=True,
    )
    assert live.engine.phase is Phase.PISTOL
    late = done[1]
    assert isinstance(late, LateRefusal) and late.key == "refusal.request_closed"
    assert late.render("en").startswith(t("en", "play.late_refused", sent=1))
    assert late.render("ru").endswith(t("ru", "refusal.request_closed"))
