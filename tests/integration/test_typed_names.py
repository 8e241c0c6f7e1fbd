"""R44 (docs/REFERENCE.md)
through the real service on a real SQLite file: a nickname typed in another case,
with spaces around it or with an invisible character in it finds the player, and is recorded
(log, audit, rebuilt game) under the game's own spelling of the nickname."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.service import GameService, ServiceError
from db.store import SQLiteStore
from rules.model import HostAction

GUILD = 1
HOST = 999
ZWSP = "\u200b"


class FixedClock:
    def __call__(self) -> datetime:
        return datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def russian_game(service: GameService) -> dict[str, str]:
    """A fast game with Russian nicknames; returns role -> nickname."""
    await service.new_game(
        GUILD,
        HOST,
        "fast",
        "UTC",
        roles="mafioso=2 commissar=1 villager=3",
        seed=4,
        activity_rules=False,
    )
    for uid in range(1, 7):
        await service.join(GUILD, uid)
    live = await service.start(GUILD, theme="ru")
    return {p.role: p.nick for p in live.players}


def mangled(nick: str) -> str:
    """The same name under R44, spelt differently: upper case, a zero-width space, spaces."""
    upper = nick.upper()
    return f"  {upper[:1]}{ZWSP}{upper[1:]} "


def user_of(service: GameService, nick: str) -> int:
    live = service.game_in(GUILD)
    assert live is not None
    found = live.user_of(nick)
    assert found is not None
    return found


async def test_R44_typed_target_in_another_spelling_is_recorded_under_the_nickname(
    store: SQLiteStore,
) -> None:
    service = GameService(store, FixedClock())
    nicks = await russian_game(service)
    maf, com = nicks["mafioso"], nicks["commissar"]
    typed = mangled(com)
    assert typed != com and typed.strip() != com

    accepted = await service.submit(GUILD, user_of(service, maf), {"do": "kill", "target": typed})
    assert accepted.request.target == com
    assert accepted.mafia_update is not None
    assert accepted.mafia_update.requests == ((maf, (com,)),)
    await service.submit(GUILD, user_of(service, com), {"do": "check", "target": maf.lower()})

    live = service.game_in(GUILD)
    assert live is not None
    entries = await store.log_entries(live.id)
    assert [(e.payload["do"], e.payload["target"], e.outcome) for e in entries] == [
        ("kill", com, "accepted"),
        ("check", maf, "accepted"),
    ]
    # A restart rebuilds the game from the log: the requests stand under the nicknames.
    restarted = GameService(store, FixedClock())
    [again] = await restarted.load()
    assert [(r.do, r.target) for r in again.engine.standing_requests(maf)] == [("kill", com)]


async def test_R44_a_name_that_matches_nobody_is_refused_as_before(store: SQLiteStore) -> None:
    service = GameService(store, FixedClock())
    nicks = await russian_game(service)
    maf, com = nicks["mafioso"], nicks["commissar"]
    near = com[:-1]  # one letter short: another name
    with pytest.raises(ServiceError) as err:
        await service.submit(GUILD, user_of(service, maf), {"do": "kill", "target": near})
    assert err.value.key == "error.unknown_nick" and err.value.values == {"nick": near}
    with pytest.raises(ServiceError) as err:
        await service.host_action(GUILD, HOST, HostAction("exclude", f"{com} 2"))
    assert err.value.key == "error.unknown_nick"
    with pytest.raises(ServiceError) as err:
        await service.replace(GUILD, HOST, ZWSP, 77)
    assert err.value.key == "error.unknown_nick"
    live = service.game_in(GUILD)
    assert live is not None
    assert await store.log_entries(live.id) == []


async def test_R44_host_commands_take_the_nickname_in_another_spelling(store: SQLiteStore) -> None:
    service = GameService(store, FixedClock())
    nicks = await russian_game(service)
    live = service.game_in(GUILD)
    assert live is not None
    villagers = [p.nick for p in live.players if p.role == "villager"]

    await service.host_action(GUILD, HOST, HostAction("deprive_vote", mangled(villagers[0])))
    assert villagers[0] in live.engine.state.deprived
    await service.host_action(GUILD, HOST, HostAction("exclude", villagers[1].casefold()))
    assert not live.engine.state.alive(villagers[1])
    entries = await store.log_entries(live.id)
    assert [(e.payload["do"], e.payload["player"]) for e in entries] == [
        ("deprive_vote", villagers[0]),
        ("exclude", villagers[1]),
    ]
    audit = await store.audit_log(game_id=live.id)
    assert [a.args.get("player") for a in audit[-2:]] == [villagers[0], villagers[1]]

    com = nicks["commissar"]
    previous, seat = await service.replace(GUILD, HOST, f" {com.lower()}{ZWSP}", 77)
    assert seat.nick == com and seat.user_id == 77 and previous is not None
    assert (await store.audit_log(game_id=live.id))[-1].args == {"nick": com, "user_id": 77}
