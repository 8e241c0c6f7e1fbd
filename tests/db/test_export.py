"""The stored log as a docs/REPLAY.md script (load_script, `main.py export`), and the running games
as the bot's start reads them (load_restart)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from db.export import export_main
from db.models import OutboxItem, refused
from db.store import SQLiteStore, build_script, open_store
from rules.replay import run_script

from .conftest import T0, game_script, running_game
from .crash_driver import play_game

NEXT = T0 + dt.timedelta(days=1)


def test_build_script_groups_entries_by_turn_and_fills_gaps() -> None:
    script = build_script(
        5,
        True,
        [("Anna", "commissar"), ("Bob", "mafioso")],
        [
            (1, "requests", {"by": "Anna", "do": "post"}),
            (3, "host", {"do": "double_kill"}),
            (1, "requests", {"by": "Bob", "do": "post"}),
            (3, "after", {"by": "Anna", "do": "shoot", "target": "Bob"}),
        ],
        last_turn=4,
    )
    empty: dict[str, list[Any]] = {"host": [], "requests": [], "after": []}
    assert script == {
        "seed": 5,
        "activity_rules": True,
        "players": [{"nick": "Anna", "role": "commissar"}, {"nick": "Bob", "role": "mafioso"}],
        "turns": [
            {
                "host": [],
                "requests": [{"by": "Anna", "do": "post"}, {"by": "Bob", "do": "post"}],
                "after": [],
            },
            empty,
            {
                "host": [{"do": "double_kill"}],
                "requests": [],
                "after": [{"by": "Anna", "do": "shoot", "target": "Bob"}],
            },
            empty,
        ],
    }
    assert build_script(1, False, [], [])["turns"] == []


async def test_load_script_keeps_accepted_entries_in_arrival_order(store: SQLiteStore) -> None:
    game_id = await running_game(store, seed=99)
    kill = {"by": "Bob", "do": "kill", "target": "Dan"}
    await store.add_request(game_id, 1, "requests", {"by": "Cid", "do": "vote"}, 1, refused("x"))
    await store.add_request(game_id, 1, "requests", kill, 1001)
    await store.add_host_action(game_id, 1, {"do": "double_kill"}, actor_id=5, command="dk")
    await store.record_resolution(game_id, 1, {}, [], 2, NEXT)
    await store.record_resolution(game_id, 2, {}, [], 3, NEXT)  # a turn with no entries
    await store.add_request(game_id, 3, "requests", {"by": "Eve", "do": "post"}, 1004)
    script = await store.load_script(game_id)
    assert script["seed"] == 99 and script["activity_rules"] is False
    assert [p["nick"] for p in script["players"]] == [p["nick"] for p in game_script()["players"]]
    assert script["turns"] == [
        {"host": [{"do": "double_kill"}], "requests": [kill], "after": []},
        {"host": [], "requests": [], "after": []},
        {"host": [], "requests": [{"by": "Eve", "do": "post"}], "after": []},
    ]


async def test_load_restart_gives_each_running_game_with_its_log(store: SQLiteStore) -> None:
    a = await running_game(store, guild_id=1)
    b = await running_game(store, guild_id=2, seed=3)
    lobby = await store.create_game(3, seed=1, schedule_kind="fast", timezone="UTC")
    done = await running_game(store, guild_id=4)
    await store.finish_game(done, "town")
    await store.add_request(a, 1, "requests", {"by": "Anna", "do": "post"}, 1000)
    await store.add_request(b, 1, "requests", {"by": "Bob", "do": "post"}, 1001)
    await store.record_resolution(b, 1, {}, [], 2, NEXT)
    await store.begin_pistol_window(b, 2, {}, [OutboxItem("deaths", {})], NEXT)
    await store.add_request(b, 2, "after", {"by": "Anna", "do": "shoot", "target": "Bob"}, 1000)

    loaded = await store.load_restart()
    assert [g.game.id for g in loaded] == [a, b]
    assert lobby.id not in {g.game.id for g in loaded}
    for item in loaded:
        assert item.game == await store.require_game(item.game.id)
        assert item.players == await store.players(item.game.id)
        entries = await store.log_entries(item.game.id, accepted_only=True)
        assert item.snapshot is None  # none written: every accepted entry, in arrival order
        assert item.log == [(e.turn, e.section, e.payload) for e in entries]
    assert (loaded[0].resolved_turns, loaded[0].pistol_window_turns) == (frozenset(), frozenset())
    assert (loaded[1].resolved_turns, loaded[1].pistol_window_turns) == ({1}, {2})
    assert loaded[1].game.phase == "pistol"


async def test_load_restart_gives_the_snapshot_and_only_the_log_after_it(
    store: SQLiteStore,
) -> None:
    """The snapshots, on both engines: a resolution keeps the state it leaves, and the
    start replays only what was logged after it; a stale snapshot is not used."""
    game_id = await running_game(store)
    await store.add_request(game_id, 1, "requests", {"by": "Anna", "do": "post"}, 1000)
    state = {"format": 1, "turn": 2, "alive": ["Anna", "Bob"]}
    assert await store.record_resolution(game_id, 1, {}, [], 2, NEXT, snapshot=state)
    after = {"by": "Bob", "do": "post"}
    await store.add_request(game_id, 2, "requests", after, 1001)
    await store.add_request(game_id, 2, "requests", {"by": "Cid", "do": "vote"}, 1, refused("x"))
    [item] = await store.load_restart()
    assert item.snapshot == state
    assert item.log == [(2, "requests", after)]
    assert item.resolved_turns == {1}
    # A resolution without a snapshot: the game is rebuilt from its whole log.
    assert await store.record_resolution(game_id, 2, {}, [], 3, NEXT)
    [item] = await store.load_restart()
    assert item.snapshot is None
    assert [entry[2] for entry in item.log] == [{"by": "Anna", "do": "post"}, after]
    assert item.resolved_turns == {1, 2}


def test_export_reports_problems_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    assert export_main(str(missing), None) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such database" in err and not missing.exists()

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00garbage" * 100)
    assert export_main(str(junk), None) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a SQLite database" in err


def test_export_reads_either_engine(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``main.py export --db FILE|URL``: a SQLite file or a PostgreSQL URL, read-only."""

    async def fill() -> tuple[int, dict[str, Any]]:
        async with await open_store(target) as store:
            game_id = await running_game(store, seed=99)
            kill = {"by": "Bob", "do": "kill", "target": "Dan"}
            await store.add_request(game_id, 1, "requests", kill, 1001)
            return game_id, await store.load_script(game_id)

    game_id, script = asyncio.run(fill())
    assert export_main(target, None) == 0
    assert json.loads(capsys.readouterr().out) == script
    assert export_main(target, game_id + 1) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"no game {game_id + 1}" in err


async def _create_empty(db_path: Path) -> None:
    await (await SQLiteStore.open(db_path)).close()


def test_export_of_an_empty_database_or_unknown_game(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_create_empty(db_path))
    assert export_main(str(db_path), None) == 2
    assert "no game to export" in capsys.readouterr().err
    assert export_main(str(db_path), 12) == 2
    assert "no game 12" in capsys.readouterr().err


def test_export_uses_mafia_db_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MAFIA_DB", str(tmp_path / "elsewhere.db"))
    assert export_main(None, None) == 2
    assert "elsewhere.db" in capsys.readouterr().err


# --- with the rules engine ----------------------------------------------------------------


async def _play(db_path: Path, guilds: int) -> dict[str, str]:
    """The scripted game played through the service in each guild; the last game's
    script nickname -> game nickname (the service deals roles and names, R13, R44)."""
    sent = db_path.parent / "sent.log"
    names: dict[str, str] = {}
    async with await SQLiteStore.open(db_path) as store:
        for guild in range(1, guilds + 1):
            names = await play_game(store, guild, game_script(), sent)
    return names


def _renamed(script: dict[str, Any], names: dict[str, str], seats: list[str]) -> dict[str, Any]:
    """``script`` with the game's nicknames, its players in the game's seat order."""
    text = json.dumps(script)
    for old, new in names.items():
        text = text.replace(f'"{old}"', json.dumps(new))
    out: dict[str, Any] = json.loads(text)
    out["players"] = sorted(out["players"], key=lambda p: seats.index(p["nick"]))
    return out


async def _stored(db_path: Path) -> tuple[Any, ...]:
    async with await SQLiteStore.open(db_path) as store:
        latest = await store.latest_game()
        assert latest is not None
        first = await store.latest_game(1)
        assert first is not None
        return (
            latest,
            first,
            await store.load_script(latest.id),
            [r.result for r in await store.resolutions(latest.id)],
        )


def test_export_replays_to_the_stored_results(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = asyncio.run(_play(db_path, guilds=2))
    assert export_main(str(db_path), None) == 0  # the most recent game: guild 2's
    exported = json.loads(capsys.readouterr().out)
    game, first, script, stored = asyncio.run(_stored(db_path))
    assert game.guild_id == 2
    assert exported == script
    assert export_main(str(db_path), first.id) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == first.seed

    # Refused requests are not part of the script (Cid's vote on turn 1, dead Dan's vote).
    seats = [p["nick"] for p in exported["players"]]
    original = _renamed(game_script(), names, seats)
    cid, bob = names["Cid"], names["Bob"]
    assert {"by": cid, "do": "vote", "target": bob} in original["turns"][0]["requests"]
    assert {"by": cid, "do": "vote", "target": bob} not in exported["turns"][0]["requests"]
    assert len(exported["turns"]) == 3  # turn 4 was never played: the town won on turn 3

    outcome = run_script(exported)
    assert outcome["winner"] == game.winner == "town"
    assert all(t["rejected"] == [] for t in outcome["turns"])
    keys = ("deaths", "checks", "lynch", "notes", "conversions", "promotions", "winner")
    assert len(outcome["turns"]) == len(stored)
    for replayed, kept in zip(outcome["turns"], stored, strict=True):
        assert {k: replayed[k] for k in keys} == {k: kept[k] for k in keys}
        assert replayed["after"]["deaths"] == kept["after"]["deaths"]
    # And the same as running the original script (with its refused requests) directly,
    # seed aside.
    direct = run_script({**original, "seed": exported["seed"]})
    for replayed, straight in zip(outcome["turns"], direct["turns"], strict=True):
        assert {k: replayed[k] for k in keys} == {k: straight[k] for k in keys}
