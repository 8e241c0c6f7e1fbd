"""``core/stats.py`` over games finished through the service on a real SQLite file: wins by the
faction at the end (R15, R22), deaths by cause, checks and their accuracy (R18, R22, R25), the
leaderboard and others' view without the games whose members were hidden, a cancelled sign-up
left out, table totals, and the per-game cache (forget)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core import stats
from core.service import GameService
from db.store import SQLiteStore
from rules.model import HostAction

GUILD = 1
HOST = 999
START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


class Table:
    """One game at a time at the server's first table, driven through the service."""

    def __init__(self, service: GameService, clock: FakeClock) -> None:
        self.service = service
        self.clock = clock

    async def start(self, roles: str, users: range, *, reveal: bool = True) -> dict[str, int]:
        """Role -> user ids holding it (in seat order)."""
        await self.service.new_game(
            GUILD, HOST, "fast", "UTC", roles=roles, seed=7, activity_rules=False, reveal=reveal
        )
        for uid in users:
            await self.service.join(GUILD, uid)
        live = await self.service.start(GUILD)
        by_role: dict[str, int] = {}
        for p in live.players:
            by_role.setdefault(p.role, p.user_id)
        return by_role

    def nick(self, uid: int) -> str:
        live = self.service.game_in(GUILD)
        assert live is not None
        found = live.nick_of(uid)
        assert found is not None
        return found

    async def do(self, uid: int, verb: str, target_uid: int) -> None:
        await self.service.submit(GUILD, uid, {"do": verb, "target": self.nick(target_uid)})

    async def deadline(self) -> None:
        live = self.service.game_in(GUILD)
        assert live is not None
        self.clock.now += timedelta(minutes=11)
        await self.service.deadline_reached(live.id)


async def three_games(store: SQLiteStore) -> tuple[Table, dict[str, dict[str, int]]]:
    """A: town wins (revealed); B: the Foundling converts and is lynched (members hidden);
    C: a slandered check, then the host ends the game (no winner); and a cancelled sign-up."""
    clock = FakeClock()
    table = Table(GameService(store, clock), clock)
    roles: dict[str, dict[str, int]] = {}

    # A: users 1-4. The commissar checks the mafioso (turn 1), everyone hangs him (turn 2).
    a = roles["A"] = await table.start("mafioso=1 commissar=1 villager=2", range(1, 5))
    await table.do(a["commissar"], "check", a["mafioso"])
    await table.deadline()
    for uid in range(1, 5):
        await table.do(uid, "vote", a["villager"] if uid == a["mafioso"] else a["mafioso"])
    await table.deadline()
    assert table.service.game_in(GUILD) is None

    # B (hidden members): users 1-4. Turn 1: check the foundling (not mafia). Turn 2: the Boss
    # is hanged, the Foundling converts (R22, step 5 after the lynch). Turn 3: the check on
    # him says mafia (true: converted the turn before), and he is hanged: town wins.
    b = roles["B"] = await table.start(
        "boss=1 foundling=1 commissar=1 villager=1", range(1, 5), reveal=False
    )
    await table.do(b["commissar"], "check", b["foundling"])
    await table.deadline()
    await table.do(b["commissar"], "check", b["foundling"])
    for uid in range(1, 5):
        await table.do(uid, "vote", b["commissar"] if uid == b["boss"] else b["boss"])
    await table.deadline()
    await table.do(b["commissar"], "check", b["foundling"])
    for uid in range(1, 5):
        if uid not in (b["boss"], b["foundling"]):
            await table.do(uid, "vote", b["foundling"])
    await table.deadline()
    assert table.service.game_in(GUILD) is None

    # C: users 2-7. The troublemaker slanders a villager the commissar checks (R25: "mafia",
    # inaccurate); the host ends the game (no winner).
    c = roles["C"] = await table.start(
        "mafioso=1 troublemaker=1 commissar=1 villager=3", range(2, 8)
    )
    live = table.service.game_in(GUILD)
    assert live is not None
    villager = next(p.user_id for p in live.players if p.role == "villager")
    roles["C"]["slandered"] = villager
    await table.do(c["troublemaker"], "slander", villager)
    await table.do(c["commissar"], "check", villager)
    await table.deadline()
    await table.service.end(GUILD, HOST)

    # A sign-up cancelled before the start: finished, but never played.
    await table.service.new_game(GUILD, HOST, "fast", "UTC")
    await table.service.join(GUILD, 1)
    await table.service.end(GUILD, HOST)
    return table, roles


async def test_R15_R18_R22_R25_stats_of_finished_games(store: SQLiteStore) -> None:
    _table, roles = await three_games(store)
    a, b, c = roles["A"], roles["B"], roles["C"]
    games = await stats.server_games(store, GUILD)
    assert [g.winner for g in games] == [None, "town", "town"]  # newest first, no sign-up
    assert [g.reveal for g in games] == [True, False, True]

    # R22: the converted Foundling plays with the mafia at the end, and lost.
    seat = next(s for s in games[1].seats if s.user_id == b["foundling"])
    assert (seat.role, seat.side, seat.won, seat.cause) == ("foundling", "mafia", False, "lynch")

    # B's commissar, reading his own numbers: 3 checks in B, all answered and accurate (turn 1
    # and 2: the Foundling is town; turn 3: converted the turn before); in A if he sat there.
    commissar = b["commissar"]
    own = stats.member_stats(games, commissar, own=True)
    in_a = 1 if commissar == a["commissar"] else 0
    in_c = 1 if commissar == c["commissar"] else 0
    assert own.checks == 3 + in_a + in_c
    assert own.answered == 3 + in_a + in_c
    assert own.accurate == 3 + in_a  # R25: C's check on the slandered villager is wrong
    # Others do not see game B (members hidden).
    other = stats.member_stats(games, commissar, own=False)
    assert other.checks == in_a + in_c

    # C's commissar: the slandered check said "mafia" on a villager (R25).
    cc = next(s for s in games[0].seats if s.user_id == c["commissar"])
    assert (cc.checks, cc.answered, cc.accurate) == (1, 1, 0)

    # User 1 played A and B (not C); every seat of A won but the mafioso.
    user1 = stats.member_stats(games, 1, own=True)
    won_a = a["mafioso"] != 1
    won_b = 1 not in (b["boss"], b["foundling"])
    assert (user1.games, user1.wins) == (2, won_a + won_b)
    assert stats.member_stats(games, 1, own=False).games == 1  # B hidden from others
    assert user1.lynched == (a["mafioso"] == 1) + (1 in (b["boss"], b["foundling"]))

    # The leaderboard counts A and C only (B hidden): A's town won, C had no winner.
    board = stats.leaderboard(games)
    assert {r.user_id for r in board} == set(range(1, 8))
    assert [r.wins for r in board] == sorted((r.wins for r in board), reverse=True)
    assert sum(r.wins for r in board) == 3  # A's commissar and two villagers
    assert sum(r.games for r in board) == 4 + 6
    # First a winner of A with the best rate: user 1 (not in C) if he won A, else one of C too.
    assert board[0].wins == 1 and board[0].games == (1 if a["mafioso"] != 1 else 2)

    [totals] = stats.table_totals(games)
    assert (totals.table_id, totals.games, totals.winners) == (GUILD, 3, {"town": 2, "none": 1})


async def test_facts_are_computed_once_and_forgotten_on_purge(store: SQLiteStore) -> None:
    await three_games(store)
    first = await stats.server_games(store, GUILD)
    assert stats.cached_count(store) == 3
    again = await stats.server_games(store, GUILD)
    assert all(x is y for x, y in zip(first, again, strict=True))  # from memory
    stats.forget([first[0].id])
    assert stats.cached_count(store) == 2
    third = await stats.server_games(store, GUILD)
    assert third[0] is not first[0] and third[0] == first[0]
    assert third[1] is first[1]


async def test_R55_a_game_of_another_server_is_unknown(store: SQLiteStore) -> None:
    await three_games(store)
    [game_id, *_] = [g.id for g in await stats.server_games(store, GUILD)]
    assert await stats.server_game(store, GUILD, game_id) is not None
    assert await stats.server_game(store, GUILD + 1, game_id) is None
    assert await stats.server_game(store, GUILD, 10**6) is None
    assert await stats.server_games(store, GUILD + 1) == []


async def test_R22_a_check_after_a_conversion_that_night_is_accurate(store: SQLiteStore) -> None:
    """The host excludes the Boss before the deadline: the Foundling converts at once (R22,
    before step 2d), so the commissar's check on him that night says "mafia", which is true."""
    clock = FakeClock()
    table = Table(GameService(store, clock), clock)
    roles = await table.start("boss=1 foundling=1 commissar=1 villager=1", range(1, 5))
    await table.do(roles["commissar"], "check", roles["foundling"])
    await table.service.host_action(GUILD, HOST, HostAction("exclude", table.nick(roles["boss"])))
    await table.deadline()
    await table.service.end(GUILD, HOST)
    [game] = await stats.server_games(store, GUILD)
    seat = next(s for s in game.seats if s.user_id == roles["commissar"])
    assert (seat.checks, seat.answered, seat.accurate) == (1, 1, 1)
    foundling = next(s for s in game.seats if s.user_id == roles["foundling"])
    assert (foundling.side, foundling.won) == ("mafia", False)  # no winner: host ended
