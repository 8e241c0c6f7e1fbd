"""Round trips of every stored object, and the invariants the schema enforces."""

from __future__ import annotations

import datetime as dt

import pytest

from db.convert import stored_time, to_db_time
from db.errors import NotFound, OpenGameExists, ReplacementRefused, StoreError
from db.models import OutboxItem, PlayerSpec, TableSettings, refused
from db.store import KEEP, SQLiteStore, default_db_path, open_store

from .conftest import T0, game_script, player_specs, running_game


def test_default_db_path_follows_mafia_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MAFIA_DB", raising=False)
    assert default_db_path() == "mafia.db"
    monkeypatch.setenv("MAFIA_DB", "/srv/mafia/game.db")
    assert default_db_path() == "/srv/mafia/game.db"


def test_times_are_stored_as_sortable_utc_text() -> None:
    moscow = dt.timezone(dt.timedelta(hours=3))
    t = dt.datetime(2025, 3, 1, 21, 0, tzinfo=moscow)
    assert to_db_time(t) == "2025-03-01T18:00:00.000000+00:00"
    assert stored_time(to_db_time(t)) == t
    with pytest.raises(ValueError, match="naive"):
        to_db_time(dt.datetime(2025, 3, 1, 21, 0))


async def test_guild_settings_round_trip_and_update(store: SQLiteStore) -> None:
    assert await store.get_table(10) is None
    settings = TableSettings(
        guild_id=10,
        language="en",
        host_role_id=11,
        category_id=12,
        game_channel_id=13,
        discussion_channel_id=14,
        mafia_channel_id=15,
        host_channel_id=16,
        webhook_id=17,
        default_schedule="fast",
        timezone="Asia/Yekaterinburg",
    )
    await store.save_table(settings)
    assert await store.get_table(10) == settings
    changed = TableSettings(guild_id=10, language="ru")
    await store.save_table(changed)
    assert await store.get_table(10) == changed
    assert await store.get_table(11) is None


async def test_game_round_trip(store: SQLiteStore) -> None:
    game = await store.create_game(
        5,
        seed=2**63 - 1,
        schedule_kind="forum",
        schedule_params={"dawn": "09:00", "hunts": "12:00", "deadline": "21:00"},
        timezone="Europe/Moscow",
        activity_rules=True,
        roles={"boss": 1, "mafioso": 2, "villager": 5},
        host_user_id=99,
    )
    assert game.status == "lobby" and game.turn == 0 and game.phase == "lobby"
    assert game.deadline is None and not game.paused and game.winner is None
    assert game.created_at.tzinfo is not None
    assert await store.get_game(game.id) == game
    assert await store.require_game(game.id) == game
    assert await store.open_game(5) == game
    assert await store.latest_game() == game
    assert await store.latest_game(5) == game
    assert await store.latest_game(6) is None
    assert await store.get_game(game.id + 1) is None
    with pytest.raises(NotFound):
        await store.require_game(game.id + 1)

    updated = await store.update_lobby(
        game.id,
        roles=["boss", "mafioso", "villager"],
        signup_message_id=1234,
        schedule_kind="fast",
        schedule_params={"minutes": 5},
        timezone="UTC",
        activity_rules=False,
        seed=-3,
    )
    assert updated.roles == ["boss", "mafioso", "villager"]
    assert updated.signup_message_id == 1234
    assert (updated.schedule_kind, updated.schedule_params) == ("fast", {"minutes": 5})
    assert (updated.timezone, updated.activity_rules, updated.seed) == ("UTC", False, -3)
    assert await store.update_lobby(game.id) == updated
    assert (await store.update_lobby(game.id, signup_message_id=None)).signup_message_id is None
    with pytest.raises(ValueError, match="64-bit"):
        await store.create_game(6, seed=2**64, schedule_kind="fast", timezone="UTC")


async def test_game_clock_round_trip(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    game = await store.require_game(game_id)
    assert (game.status, game.turn, game.phase, game.deadline) == ("running", 1, "day", T0)

    later = T0 + dt.timedelta(hours=2)
    assert (await store.set_deadline(game_id, later)).deadline == later
    game = await store.pause_game(game_id, 5400.5)
    assert (game.paused, game.paused_remaining, game.deadline) == (True, 5400.5, None)
    game = await store.resume_game(game_id, later)
    assert (game.paused, game.paused_remaining, game.deadline) == (False, None, later)
    with pytest.raises(NotFound):
        await store.set_deadline(game_id + 100, T0)


async def test_one_open_game_per_guild(store: SQLiteStore) -> None:
    first = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    with pytest.raises(OpenGameExists, match="table 1"):
        await store.create_game(1, seed=2, schedule_kind="forum", timezone="UTC")
    # Another guild may play at the same time.
    other = await store.create_game(2, seed=3, schedule_kind="forum", timezone="UTC")
    # Still refused once the first game runs.
    await store.start_game(first.id, player_specs(game_script()), deadline=T0)
    with pytest.raises(OpenGameExists):
        await store.create_game(1, seed=2, schedule_kind="forum", timezone="UTC")
    # A finished game frees the guild.
    assert await store.finish_game(first.id, None) is True
    assert await store.finish_game(first.id, "town") is False
    second = await store.create_game(1, seed=4, schedule_kind="forum", timezone="UTC")
    assert await store.open_game(1) == second
    assert [g.id for g in await store.list_games(guild_id=1)] == [first.id, second.id]
    assert [g.id for g in await store.list_games(status="lobby")] == [other.id, second.id]
    assert [g.id for g in await store.list_games()] == [first.id, other.id, second.id]


async def test_finish_game_records_the_winner_and_announcements(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    assert await store.finish_game(game_id, "mafia", [OutboxItem("game_over", {"w": "mafia"})])
    game = await store.require_game(game_id)
    assert (game.status, game.phase, game.winner, game.deadline) == (
        "finished",
        "finished",
        "mafia",
        None,
    )
    assert [o.kind for o in await store.pending_outbox(game_id)] == ["game_over"]
    with pytest.raises(NotFound):
        await store.finish_game(game_id + 1, None)


async def test_signups_in_order_only_in_the_lobby(store: SQLiteStore) -> None:
    game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    assert await store.add_signup(game.id, 30)
    assert await store.add_signup(game.id, 10)
    assert not await store.add_signup(game.id, 30)  # already signed up
    assert await store.add_signup(game.id, 20)
    assert await store.signups(game.id) == [30, 10, 20]
    assert await store.remove_signup(game.id, 10)
    assert not await store.remove_signup(game.id, 10)
    assert await store.signups(game.id) == [30, 20]
    assert not await store.add_signup(game.id + 1, 5)  # no such game
    await store.start_game(game.id, player_specs(game_script()), deadline=T0)
    assert not await store.add_signup(game.id, 40)
    assert not await store.remove_signup(game.id, 30)
    assert await store.signups(game.id) == [30, 20]


async def test_players_round_trip(store: SQLiteStore) -> None:
    game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    specs = [
        PlayerSpec(1, "Anna", "commissar", "https://example.org/a.png", "Ask me"),
        PlayerSpec(2, "Bob", "mafioso"),
        PlayerSpec(3, "Cid", "villager"),
        PlayerSpec(4, "Dan", "villager"),
    ]
    started = await store.start_game(game.id, specs, deadline=None, seed=77)
    assert started.seed == 77 and started.deadline is None
    players = await store.players(game.id)
    assert [(p.seat, p.user_id, p.nick, p.role) for p in players] == [
        (0, 1, "Anna", "commissar"),
        (1, 2, "Bob", "mafioso"),
        (2, 3, "Cid", "villager"),
        (3, 4, "Dan", "villager"),
    ]
    assert players[0].avatar_url == "https://example.org/a.png"
    assert players[0].signature == "Ask me"
    assert await store.player_by_user(game.id, 2) == players[1]
    assert await store.player_by_user(game.id, 9) is None
    assert await store.player_by_nick(game.id, "bob") == players[1]

    bob = await store.set_profile(game.id, 2, avatar_url="https://example.org/b.png")
    assert (bob.avatar_url, bob.signature) == ("https://example.org/b.png", None)
    bob = await store.set_profile(game.id, 2, signature="Bob's bar", avatar_url=KEEP)
    assert (bob.avatar_url, bob.signature) == ("https://example.org/b.png", "Bob's bar")
    assert await store.set_profile(game.id, 2) == bob
    bob = await store.set_profile(game.id, 2, avatar_url=None)
    assert bob.avatar_url is None
    with pytest.raises(NotFound):
        await store.set_profile(game.id, 9, signature="x")

    sub = await store.replace_player(game.id, "BOB", 20)
    assert (sub.seat, sub.user_id, sub.nick, sub.role) == (1, 20, "Bob", "mafioso")
    assert await store.player_by_user(game.id, 2) is None
    with pytest.raises(ReplacementRefused, match="playing"):
        await store.replace_player(game.id, "Cid", 1)
    with pytest.raises(NotFound):
        await store.replace_player(game.id, "Zed", 50)
    with pytest.raises(NotFound):  # not in the lobby any more
        await store.start_game(game.id, specs, deadline=None)


async def test_duplicate_nicknames_are_refused_case_insensitively(store: SQLiteStore) -> None:
    game = await store.create_game(1, seed=1, schedule_kind="forum", timezone="UTC")
    specs = [PlayerSpec(1, "Anna", "commissar"), PlayerSpec(2, "ANNA", "mafioso")]
    with pytest.raises(StoreError, match="cannot seat"):
        await store.start_game(game.id, specs, deadline=None)
    # The failed start changed nothing.
    assert (await store.require_game(game.id)).status == "lobby"
    assert await store.players(game.id) == []


async def test_log_entries_round_trip(store: SQLiteStore) -> None:
    game_id = await running_game(store)
    vote = {"by": "Cid", "do": "vote", "target": "Bob"}
    note = {"by": "Dan", "do": "note", "to": "Gus", "text": "Боб врёт"}
    e1 = await store.add_request(game_id, 1, "requests", vote, 1002, refused("no_lynch_on_turn_1"))
    e2 = await store.add_request(game_id, 1, "requests", note, 1003)
    e3 = await store.add_host_action(
        game_id, 2, {"do": "double_kill"}, actor_id=77, command="doublekill"
    )
    e4 = await store.add_request(game_id, 2, "after", {"by": "Anna", "do": "shoot"}, None)
    assert [e.seq for e in (e1, e2, e3, e4)] == [1, 2, 3, 4]
    assert not e1.accepted and e2.accepted
    stored = await store.log_entries(game_id)
    assert stored == [e1, e2, e3, e4]
    assert await store.log_entries(game_id, 1) == [e1, e2]
    assert await store.log_entries(game_id, accepted_only=True) == [e2, e3, e4]
    assert stored[1].payload["text"] == "Боб врёт"
    assert e3.section == "host" and e3.user_id == 77

    with pytest.raises(ValueError, match="section"):
        await store.add_request(game_id, 1, "night", vote, 1)
    with pytest.raises(ValueError, match="outcome"):
        await store.add_request(game_id, 1, "requests", vote, 1, "maybe")
    with pytest.raises(ValueError, match="outcome"):
        await store.add_request(game_id, 1, "requests", vote, 1, "refused:")
    with pytest.raises(NotFound):
        await store.add_request(game_id + 1, 1, "requests", vote, 1)
    with pytest.raises(ValueError, match="JSON"):
        await store.add_request(game_id, 1, "requests", {"by": object()}, 1)
    with pytest.raises(StoreError):
        await store.add_request(game_id, 0, "requests", vote, 1)  # turns start at 1
    # Each game has its own arrival order.
    other = await running_game(store, guild_id=2)
    assert (await store.add_request(other, 1, "requests", vote, 1)).seq == 1


async def test_audit_log_round_trip(store: SQLiteStore) -> None:
    game_id = await running_game(store, guild_id=3)
    a = await store.add_audit(3, game_id, 77, "extend", {"minutes": 30})
    b = await store.add_audit(3, None, 78, "setup", {"language": "en"})
    await store.add_host_action(
        game_id,
        1,
        {"do": "exclude", "player": "Dan"},
        actor_id=77,
        command="exclude",
        args={"player": "Dan", "reason": "spam"},
    )
    records = await store.audit_log(guild_id=3)
    assert [r.id for r in records][:2] == [a, b]
    assert [(r.command, r.actor_id, r.game_id, r.args) for r in records] == [
        ("extend", 77, game_id, {"minutes": 30}),
        ("setup", 78, None, {"language": "en"}),
        ("exclude", 77, game_id, {"player": "Dan", "reason": "spam"}),
    ]
    assert [r.command for r in await store.audit_log(game_id=game_id)] == ["extend", "exclude"]
    assert all(r.guild_id == 3 for r in records)


async def test_audit_page_by_entry_id(store: SQLiteStore) -> None:
    """R56, /mafia log: a page below a given entry id stays the same page however many rows
    are added after it (keyset paging), with the count of the rows below."""
    ids = [await store.add_audit(5, None, 77, "extend", {"minutes": m}) for m in range(1, 8)]
    newest, total = await store.audit_page(5, limit=3)
    assert [r.id for r in newest] == ids[:-4:-1] and total == 7
    for m in (100, 200):
        await store.add_audit(5, None, 77, "extend", {"minutes": m})
    below, count = await store.audit_page(5, limit=3, before=newest[-1].id)
    assert [r.args["minutes"] for r in below] == [4, 3, 2] and count == 4
    last, count = await store.audit_page(5, limit=3, before=below[-1].id)
    assert [r.args["minutes"] for r in last] == [1] and count == 1
    assert await store.audit_page(6, limit=3, before=ids[-1]) == ([], 0)


async def test_running_games_soonest_deadline_first(store: SQLiteStore) -> None:
    ids = []
    for guild, hours in [(1, 5), (2, 1), (3, 3)]:
        game_id = await running_game(store, guild_id=guild)
        await store.set_deadline(game_id, T0 + dt.timedelta(hours=hours))
        ids.append(game_id)
    paused = await running_game(store, guild_id=4)
    await store.pause_game(paused, 60)
    await store.create_game(5, seed=1, schedule_kind="fast", timezone="UTC")  # lobby
    finished = await running_game(store, guild_id=6)
    await store.finish_game(finished, "town")
    running = await store.running_games()
    assert [g.id for g in running] == [ids[1], ids[2], ids[0], paused]
    assert [g.deadline for g in running][:3] == [T0 + dt.timedelta(hours=h) for h in (1, 3, 5)]


async def test_everything_survives_a_reopen(target: str) -> None:
    store = await open_store(target)
    game_id = await running_game(store)
    await store.add_request(game_id, 1, "requests", {"by": "Fay", "do": "post"}, 1005)
    await store.add_outbox(game_id, 1, [OutboxItem("narrative", {"text": "Ночь"})])
    await store.save_table(TableSettings(guild_id=1, language="en"))
    before = (
        await store.require_game(game_id),
        await store.players(game_id),
        await store.log_entries(game_id),
        await store.pending_outbox(),
        await store.get_table(1),
    )
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        await store.get_game(game_id)
    async with await open_store(target) as again:
        after = (
            await again.require_game(game_id),
            await again.players(game_id),
            await again.log_entries(game_id),
            await again.pending_outbox(),
            await again.get_table(1),
        )
    assert after == before
