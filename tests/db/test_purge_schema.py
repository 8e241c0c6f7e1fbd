"""Nothing of a server survives its purge, whatever table holds it: the test walks the schema
itself (both engines), so a table added later cannot be forgotten by ``purge_guild`` (the bot
left the server) or ``purge_member`` (``/mafia purge member``).

Two servers are filled through the store, every table of each (ids of their own: the server,
its members, its channels, its roles). A row is a server's when one of its values is one of
that server's ids (a column, or inside a JSON text), or when a foreign key points to a row of
that server (a game's seats, its outbox, an outbox row's picture), as the schema declares it.
Then:

- every table holds rows of both servers, except the few listed in :data:`NOT_A_SERVERS`
  (with why), which may hold neither and have no column naming a server or a member;
- after ``purge_guild`` no table holds any row of the purged server, and every row of the
  other server is still there, unchanged;
- after ``purge_member`` no row of that server's finished games names the member, and his
  rows on the other server are unchanged.

A table added to the schema fails the first check until the fill below writes rows of a
server into it; then the purge must delete them (``db/ops/privacy.py``).
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterable
from typing import Any, Final

import asyncpg
import attrs

from db.interface import GameStore
from db.models import OutboxItem, PlayerSpec, TableSettings
from db.store import is_postgres_url
from tests.db.conftest import T0

#: The tables that hold nothing of a server or a member, and why. Nothing else may be here.
NOT_A_SERVERS: Final[dict[str, str]] = {
    "heartbeats": "a bot process's name and when it last served its games (R59)",
    "schema_version": "PostgreSQL's schema marker: the application and its version",
}

#: The tables whose rows of a server may still name a member after ``/mafia purge member``,
#: and why (README's "Your data" must say so too). None: his id goes from every table.
KEPT_BY_MEMBER_PURGE: Final[dict[str, str]] = {}

#: A column whose name says it holds a server's or a member's id: never in NOT_A_SERVERS.
ID_COLUMN: Final = re.compile(r"(guild|server|user|member|actor|host|author|owner)(_user)?_id$")

HOW_TO_FIX: Final = (
    "If the table keeps anything of a server or of a member, write rows of both servers into "
    "it in _fill() (tests/db/test_purge_schema.py) and make purge_guild / purge_member delete "
    "them (db/ops/privacy.py); if it cannot hold any, list it in NOT_A_SERVERS with why."
)


@attrs.frozen
class Server:
    """A server's ids, all its own (``base`` keeps two servers apart)."""

    base: int

    @property
    def guild(self) -> int:
        return 710_000_000_000_000_000 + self.base

    @property
    def members(self) -> list[int]:
        return [410_000_000_000_000_000 + self.base * 100 + i for i in range(5)]

    @property
    def second_table(self) -> int:
        return 610_000_000_000_000_000 + self.base * 100

    def channels(self, table: int) -> dict[str, int]:
        """The ids of a table's category, channels, host role and webhook."""
        start = 620_000_000_000_000_000 + self.base * 100 + table * 10
        names = ("category", "game", "discussion", "mafia", "host", "role", "webhook")
        return {name: start + i for i, name in enumerate(names)}

    def ids(self, *, members: bool = True) -> frozenset[int]:
        """Every id that names something of this server (its members' too, if ``members``)."""
        mine = {self.guild, self.second_table}
        for table in (0, 1):
            mine |= set(self.channels(table).values())
        return frozenset(mine | (set(self.members) if members else set()))


A, B = Server(1), Server(2)


def _table(server: Server, index: int) -> TableSettings:
    ids = server.channels(index)
    return TableSettings(
        guild_id=server.guild,
        table_id=server.guild if index == 0 else server.second_table,
        name="" if index == 0 else "Newcomers",
        language="en",
        host_role_id=ids["role"],
        category_id=ids["category"],
        game_channel_id=ids["game"],
        discussion_channel_id=ids["discussion"],
        mafia_channel_id=ids["mafia"],
        host_channel_id=ids["host"],
        webhook_id=ids["webhook"],
    )


async def _fill(store: GameStore, server: Server, *, member_elsewhere: int | None = None) -> None:
    """Rows of ``server`` in every table a server's data goes to, through the store as the
    bot writes them. ``member_elsewhere``: a member of another server who plays here too."""
    guild = server.guild
    host, *seated = server.members
    if member_elsewhere is not None:
        seated[-1] = member_elsewhere
    await store.save_table(_table(server, 0))
    await store.save_table(_table(server, 1))
    nicks = ["Anna", "Bob", "Cid", "Dan"]
    specs = [
        PlayerSpec(user, nicks[i], "villager", f"https://cdn/{user}.png", f"sig of {user}")
        for i, user in enumerate(seated)
    ]

    # A finished game, with everything a game keeps.
    done = await store.create_game(
        guild, seed=1, schedule_kind="fast", timezone="UTC", host_user_id=host, wishes=True
    )
    for user in seated:
        assert await store.add_signup(done.id, user)
    await store.set_wish(done.id, seated[0], "doctor")
    cards = [
        OutboxItem("role_card", {"audience": n, "member": u})
        for n, u in zip(nicks, seated, strict=True)
    ]
    await store.start_game(done.id, specs, deadline=T0, outbox_items=cards)
    for i, user in enumerate(seated):
        await store.add_request(done.id, 1, "requests", {"by": nicks[i], "do": "post"}, user)
        await store.add_post(done.id, 1, nicks[i], f"post of {nicks[i]}", at=T0)
    await store.add_host_action(
        done.id,
        1,
        {"do": "deprive", "target": "Bob"},
        actor_id=host,
        command="deprive",
        args={"player": "Bob"},
    )
    await store.begin_pistol_window(done.id, 1, {"dead": ["Dan"]}, [], T0)
    await store.record_resolution(
        done.id,
        1,
        {"dead": ["Dan"]},
        [OutboxItem("results", {"text": "turn 1"})],
        2,
        T0 + dt.timedelta(days=1),
    )
    await store.set_kill_board(done.id, 2, server.channels(0)["mafia"] + 1000)
    await store.set_review_story(done.id, 2, "the host's story")
    over = {
        "winner": "town",
        "roles": [{"nick": n, "member": u} for n, u in zip(nicks, seated, strict=True)],
    }
    await store.finish_game(done.id, "town", [OutboxItem("game_over", over)])

    # A running game at the second table, with a picture post waiting to be shown.
    running = await store.create_game(
        guild, seed=2, schedule_kind="fast", timezone="UTC", table_id=server.second_table
    )
    await store.start_game(running.id, specs[:2], deadline=T0)
    await store.record_resolution(
        running.id, 1, {"dead": []}, [], 2, T0 + dt.timedelta(days=1), snapshot={"turn": 2}
    )
    post = OutboxItem("post", {"nick": "Anna", "text": "look", "picture": True})
    await store.queue_picture_post(running.id, 1, post, "picture.jpg", b"\xff\xd8 pixels")

    # A lobby at the first table; the hosts' log, a pending confirmation, DM channels.
    lobby = await store.create_game(guild, seed=3, schedule_kind="fast", timezone="UTC")
    assert await store.add_signup(lobby.id, host)
    await store.add_audit(guild, None, host, "mafia setup", {"member": seated[0]})
    await store.put_confirmation(
        f"token{server.base}",
        {"player": "Bob", "reason": "spam"},
        guild_id=guild,
        now=T0,
        expires_at=T0 + dt.timedelta(hours=1),
    )
    for user in server.members:
        await store.save_dm_channel(1, guild, user, 800_000_000_000_000_000 + user % 10_000)
    # The server's own setups; a member who watched the finished game's ghosts' room (R62).
    await store.save_preset(guild, f"mine{server.base}", "Mine", ["villager"] * 4, limit=25)
    await store.set_spectator(done.id, host, True)
    # R60, R63: a substitute standing by, a request to be replaced, a replacement, a bar.
    assert await store.stand_by(running.id, host, T0) is None
    await store.ask_replacement(running.id, seated[0], "moving house", T0)
    await store.replace_player(running.id, "Bob", seated[2], previous_user_id=seated[1], now=T0)
    await store.bar_member(guild, seated[3], until=None, reason="no-show", actor_id=host, now=T0)


async def _fill_both(store: GameStore, *, shared: int | None = None) -> None:
    await _fill(store, A, member_elsewhere=shared)
    await _fill(store, B)
    # R59: a downtime span of every running game (the heartbeat itself is no server's).
    running = [g.id for g in await store.running_games()]
    await store.beat("all", T0, running, gap=dt.timedelta(minutes=1), cause="down")
    later = T0 + dt.timedelta(hours=1)
    await store.beat("all", later, running, gap=dt.timedelta(minutes=1), cause="down")


# --- reading the schema and every row, with the engine's own driver ---------------------------

#: A table's rows: column names, and each row's values.
Rows = tuple[list[str], list[tuple[Any, ...]]]
#: (child table, its column) -> (parent table, its column), from the schema's foreign keys.
ForeignKeys = dict[tuple[str, str], tuple[str, str]]

_PG_FOREIGN_KEYS = """
SELECT child.relname AS child, a.attname AS column_name,
       parent.relname AS parent, pa.attname AS parent_column
FROM pg_constraint c
JOIN pg_class child ON child.oid = c.conrelid
JOIN pg_class parent ON parent.oid = c.confrelid
JOIN pg_namespace n ON n.oid = child.relnamespace
CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(ck, pk)
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.ck
JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.pk
WHERE c.contype = 'f' AND n.nspname = current_schema()
"""


async def read_all(target: str) -> tuple[dict[str, Rows], ForeignKeys]:
    """Every table of the database behind ``target`` with all its rows, and its foreign keys."""
    tables: dict[str, Rows] = {}
    keys: ForeignKeys = {}
    if is_postgres_url(target):
        conn = await asyncpg.connect(target)
        try:
            names = [
                str(r["tablename"])
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()"
                )
            ]
            for name in names:
                columns = [
                    str(r["column_name"])
                    for r in await conn.fetch(
                        "SELECT column_name FROM information_schema.columns WHERE "
                        "table_schema = current_schema() AND table_name = $1 "
                        "ORDER BY ordinal_position",
                        name,
                    )
                ]
                quoted = ", ".join(f'"{c}"' for c in columns)
                rows = await conn.fetch(f'SELECT {quoted} FROM "{name}"')
                tables[name] = (columns, [tuple(r) for r in rows])
            for r in await conn.fetch(_PG_FOREIGN_KEYS):
                keys[(r["child"], r["column_name"])] = (r["parent"], r["parent_column"])
        finally:
            await conn.close()
        return tables, keys
    conn3 = sqlite3.connect(target)
    try:
        names = [
            str(r[0])
            for r in conn3.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for name in names:
            columns = [str(r[1]) for r in conn3.execute(f'PRAGMA table_info("{name}")')]
            quoted = ", ".join(f'"{c}"' for c in columns)
            rows = conn3.execute(f'SELECT {quoted} FROM "{name}"').fetchall()
            tables[name] = (columns, [tuple(r) for r in rows])
            for fk in conn3.execute(f'PRAGMA foreign_key_list("{name}")'):
                keys[(name, str(fk[3]))] = (str(fk[2]), str(fk[4]))
    finally:
        conn3.close()
    return tables, keys


def _names(value: Any, ids: frozenset[int], texts: tuple[str, ...]) -> bool:
    """Whether a stored value is one of ``ids``, or a text (JSON) that contains one."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value in ids
    if isinstance(value, str):
        return any(text in value for text in texts)
    return False


def rows_of(tables: dict[str, Rows], keys: ForeignKeys, ids: frozenset[int]) -> dict[str, set[int]]:
    """Per table, the indexes of the rows that belong to whoever ``ids`` names: a value is
    one of them, or a foreign key points to such a row (followed until nothing changes)."""
    texts = tuple(str(i) for i in ids)
    owned = {
        name: {i for i, row in enumerate(rows) if any(_names(v, ids, texts) for v in row)}
        for name, (_columns, rows) in tables.items()
    }
    changed = True
    while changed:
        changed = False
        for (child, column), (parent, parent_column) in keys.items():
            if child not in tables or parent not in tables:
                continue
            parent_columns, parent_rows = tables[parent]
            at = parent_columns.index(parent_column)
            values = {parent_rows[i][at] for i in owned[parent]}
            child_columns, child_rows = tables[child]
            col = child_columns.index(column)
            for i, row in enumerate(child_rows):
                if i not in owned[child] and row[col] is not None and row[col] in values:
                    owned[child].add(i)
                    changed = True
    return owned


def _picked(tables: dict[str, Rows], owned: dict[str, set[int]]) -> dict[str, list[Any]]:
    return {
        name: sorted(map(repr, (tables[name][1][i] for i in rows))) for name, rows in owned.items()
    }


def _id_columns(tables: dict[str, Rows], names: Iterable[str]) -> dict[str, list[str]]:
    found = {name: [c for c in tables[name][0] if ID_COLUMN.search(c)] for name in names}
    return {name: columns for name, columns in found.items() if columns}


# --- the tests ---------------------------------------------------------------------------------


async def test_every_table_holding_a_servers_rows_is_emptied_of_them_by_purge_guild(
    store: GameStore, target: str
) -> None:
    await _fill_both(store)
    tables, keys = await read_all(target)
    listed = set(NOT_A_SERVERS) & set(tables)
    assert listed, "NOT_A_SERVERS names no table of the schema: keep it up to date"
    assert not _id_columns(tables, listed), (
        "a table of NOT_A_SERVERS has a column naming a server or a member: it holds their "
        f"data. {HOW_TO_FIX}"
    )
    of_a, of_b = rows_of(tables, keys, A.ids()), rows_of(tables, keys, B.ids())
    for name in tables:
        if name in NOT_A_SERVERS:
            assert not of_a[name] and not of_b[name], f"{name} holds a server's rows. {HOW_TO_FIX}"
            continue
        assert of_a[name] and of_b[name], (
            f"table {name!r}: the test wrote no row of a server into it, so it cannot tell "
            f"whether the purge deletes them. {HOW_TO_FIX}"
        )
        assert not of_a[name] & of_b[name], f"{name}: a row of both servers (the fill is wrong)"
    kept = _picked(tables, of_b)

    await store.purge_guild(A.guild)

    tables, keys = await read_all(target)
    left = {name: rows for name, rows in rows_of(tables, keys, A.ids()).items() if rows}
    assert not left, (
        f"purge_guild left rows of the server it purged in {sorted(left)}: delete them in "
        "PrivacyOps.purge_guild (db/ops/privacy.py), or by a foreign key ON DELETE CASCADE to "
        "a row it deletes"
    )
    assert _picked(tables, rows_of(tables, keys, B.ids())) == kept, "the other server lost rows"


async def test_purge_member_leaves_no_row_of_the_server_naming_him(
    store: GameStore, target: str
) -> None:
    """``/mafia purge member`` on server A (refused while he plays: here his games there are
    all finished) removes his id from every row of A, whatever the table; his rows of server
    B, where he plays too, stay as they were."""
    member = B.members[1]  # seated at B's games, and at A's finished game
    await _fill_both(store, shared=member)
    # On A he plays in the finished game only: out of its running game and its lobby.
    await store.save_dm_channel(1, A.guild, member, 900)
    tables, keys = await read_all(target)
    his = frozenset({member})
    of_a = rows_of(tables, keys, A.ids(members=False))
    of_b = rows_of(tables, keys, B.ids(members=False))
    him = rows_of(tables, keys, his)
    naming = {name for name in tables if of_a[name] & him[name]}
    assert {"players", "signups", "log_entries", "dm_channels"} <= naming  # the fill is right
    assert "audit_log" in {name for name in tables if of_b[name] & him[name]}
    kept = _picked(tables, {name: of_b[name] & him[name] for name in tables})
    running_a = {g.id for g in await store.list_games(guild_id=A.guild, status="running")}
    for game in running_a:
        assert member not in {p.user_id for p in await store.players(game)}

    await store.purge_member(A.guild, member)

    tables, keys = await read_all(target)
    of_a = rows_of(tables, keys, A.ids(members=False))
    him = rows_of(tables, keys, his)
    left = {
        name: sorted(of_a[name] & him[name])
        for name in tables
        if of_a[name] & him[name] and name not in KEPT_BY_MEMBER_PURGE
    }
    assert not left, (
        f"purge_member left rows of the server naming the member in {sorted(left)}: forget "
        "his id there in PrivacyOps.purge_member (db/ops/privacy.py), or, if they must stay, "
        "list the table in KEPT_BY_MEMBER_PURGE with why"
    )
    of_b = rows_of(tables, keys, B.ids(members=False))
    assert _picked(tables, {name: of_b[name] & him[name] for name in tables}) == kept
