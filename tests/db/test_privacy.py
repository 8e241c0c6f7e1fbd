"""Forgetting personal data in the store: a member's (``purge_member``, ``/mafia purge``) and a
whole server's (``purge_guild``, the bot left it). On both engines, read back through the
store and, where the store has no reader, with the engine's own driver."""

from __future__ import annotations

from db.models import OutboxItem, PlayerSpec, TableSettings
from db.store import SQLiteStore
from tests.db.conftest import T0, raw_rows

GUILD, OTHER_GUILD = 700000000000000001, 700000000000000002
SECOND_TABLE = 700000000000000050  # the category of the server's second table
MEMBER = 412345678901234567  # the member to forget: a Discord-sized id
FRIEND, HOST = 412345678901234568, 412345678901234569


async def _finished(
    store: SQLiteStore,
    guild_id: int,
    seats: list[int],
    *,
    table_id: int | None = None,
    host: int | None = HOST,
) -> int:
    """A game of ``seats`` (user ids) that started and ended, with a sign-up and a post each,
    the host's audit line and the end naming the members."""
    game = await store.create_game(
        guild_id,
        seed=1,
        schedule_kind="fast",
        timezone="UTC",
        host_user_id=host,
        table_id=table_id,
    )
    for user in seats:
        assert await store.add_signup(game.id, user)
    nicks = ["Anna", "Bob", "Cid", "Dan"]
    specs = [PlayerSpec(user, nicks[i], "villager") for i, user in enumerate(seats)]
    await store.start_game(game.id, specs, deadline=T0)
    for i, user in enumerate(seats):
        await store.add_request(game.id, 1, "requests", {"by": nicks[i], "do": "post"}, user)
    members = {nicks[i]: user for i, user in enumerate(seats)}
    over = {"winner": "town", "roles": [{"nick": n, "member": u} for n, u in members.items()]}
    audit = {"command": "end", "actor": MEMBER, "args": {}}
    await store.finish_game(
        game.id, "town", [OutboxItem("audit", audit), OutboxItem("game_over", over)]
    )
    return game.id


async def test_purge_member_forgets_him_in_the_servers_finished_games_only(
    store: SQLiteStore, target: str
) -> None:
    await store.save_table(TableSettings(guild_id=GUILD, language="en"))
    await store.save_table(
        TableSettings(table_id=SECOND_TABLE, guild_id=GUILD, name="Newcomers", language="ru")
    )
    first = await _finished(store, GUILD, [FRIEND, MEMBER, HOST])
    second = await _finished(store, GUILD, [MEMBER, FRIEND], table_id=SECOND_TABLE, host=MEMBER)
    without_him = await _finished(store, GUILD, [FRIEND, HOST])
    elsewhere = await _finished(store, OTHER_GUILD, [MEMBER, FRIEND])
    ended_at = (await store.require_game(first)).updated_at
    # A lobby of the server: the caller refuses a purge while he is in one; never touched.
    lobby = await store.create_game(GUILD, seed=2, schedule_kind="fast", timezone="UTC")
    assert await store.add_signup(lobby.id, MEMBER)
    await store.add_audit(GUILD, first, MEMBER, "mafia announce", {"text": "hi"})
    await store.add_audit(GUILD, None, HOST, "replace", {"nick": "Bob", "user_id": MEMBER})
    await store.add_audit(OTHER_GUILD, elsewhere, MEMBER, "mafia state", {})

    assert await store.purge_member(GUILD, MEMBER) == 2

    # His seats keep nickname and role, under a negative id unique in the game.
    assert [(p.nick, p.user_id) for p in await store.players(first)] == [
        ("Anna", FRIEND),
        ("Bob", -2),
        ("Cid", HOST),
    ]
    assert [(p.nick, p.role, p.user_id) for p in await store.players(second)] == [
        ("Anna", "villager", -1),
        ("Bob", "villager", FRIEND),
    ]
    assert await store.signups(first) == [FRIEND, HOST]
    assert await store.signups(second) == [FRIEND]
    # What was played stays (the replay is whole), without who sent it.
    assert [(e.payload["by"], e.user_id) for e in await store.log_entries(first)] == [
        ("Anna", FRIEND),
        ("Bob", None),
        ("Cid", HOST),
    ]
    assert (await store.require_game(second)).host_user_id is None
    record = await store.require_game(first)
    assert (record.host_user_id, record.updated_at) == (HOST, ended_at)  # when it ended stays
    over = next(o for o in await store.outbox(first) if o.kind == "game_over")
    assert over.payload["roles"] == [
        {"nick": "Anna", "member": FRIEND},
        {"nick": "Bob"},
        {"nick": "Cid", "member": HOST},
    ]
    audit_line = next(o for o in await store.outbox(second) if o.kind == "audit")
    assert audit_line.payload == {"command": "end", "actor": 0, "args": {}}
    # The server's audit log: his commands are anonymous, an option naming him is gone.
    assert [(a.actor_id, a.command, a.args) for a in await store.audit_log(guild_id=GUILD)] == [
        (0, "mafia announce", {"text": "hi"}),
        (HOST, "replace", {"nick": "Bob"}),
    ]
    # Nothing of his is left in the server's finished games.
    for table, column in (
        ("players", "user_id"),
        ("signups", "user_id"),
        ("log_entries", "user_id"),
        ("games", "host_user_id"),
    ):
        id_column = "id" if table == "games" else "game_id"
        assert not await raw_rows(
            target,
            f"SELECT 1 FROM {table} WHERE {column} = ? AND {id_column} IN (?, ?, ?)",
            MEMBER,
            first,
            second,
            without_him,
        ), table
    # ... while the lobby and the other server keep him.
    assert await store.signups(lobby.id) == [MEMBER]
    assert (await store.players(elsewhere))[0].user_id == MEMBER
    assert [a.actor_id for a in await store.audit_log(guild_id=OTHER_GUILD)] == [MEMBER]
    # Again: nothing left to forget.
    assert await store.purge_member(GUILD, MEMBER) == 0
    # Two members of one game purged: each seat keeps its own anonymous id.
    assert await store.purge_member(GUILD, FRIEND) == 3
    assert [p.user_id for p in await store.players(second)] == [-1, -2]


async def test_purge_guild_deletes_everything_of_the_server_and_nothing_else(
    store: SQLiteStore, target: str
) -> None:
    await store.save_table(TableSettings(guild_id=GUILD, language="en"))
    await store.save_table(
        TableSettings(table_id=SECOND_TABLE, guild_id=GUILD, name="Newcomers", language="ru")
    )
    await store.save_table(TableSettings(guild_id=OTHER_GUILD, language="ru"))
    await _finished(store, GUILD, [MEMBER, FRIEND])
    await _finished(store, GUILD, [MEMBER, FRIEND], table_id=SECOND_TABLE)
    running = await store.create_game(GUILD, seed=3, schedule_kind="fast", timezone="UTC")
    await store.start_game(running.id, [PlayerSpec(MEMBER, "Eve", "villager")], deadline=T0)
    await store.add_outbox(running.id, 1, [OutboxItem("note", {"text": "pending"})])
    await store.add_audit(GUILD, None, HOST, "mafia setup", {}, table_id=SECOND_TABLE)
    kept = await _finished(store, OTHER_GUILD, [MEMBER, FRIEND])
    await store.add_audit(OTHER_GUILD, kept, HOST, "mafia state", {})

    assert await store.purge_guild(GUILD) == 3

    assert await store.tables(GUILD) == []
    assert await store.list_games(guild_id=GUILD) == []
    assert await store.audit_log(guild_id=GUILD) == []
    assert await store.running_games() == []
    assert await store.pending_outbox(running.id) == []
    for table in ("players", "signups", "log_entries", "outbox", "resolutions"):
        assert (
            await raw_rows(target, f"SELECT game_id FROM {table} WHERE game_id <> ?", kept) == []
        ), table
    # The other server keeps all of its own.
    assert [t.guild_id for t in await store.tables(OTHER_GUILD)] == [OTHER_GUILD]
    assert [g.id for g in await store.list_games(guild_id=OTHER_GUILD)] == [kept]
    assert [p.user_id for p in await store.players(kept)] == [MEMBER, FRIEND]
    assert len(await store.audit_log(guild_id=OTHER_GUILD)) == 1
    assert await store.purge_guild(GUILD) == 0
