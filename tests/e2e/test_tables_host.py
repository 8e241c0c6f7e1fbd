"""Tables, the hosts' side: ``/mafia setup table:`` builds a second table (its own category,
channels, language and host role) and repairs a table by its channel or its name; host
commands act on the table whose channels they are used in (two games open on one server),
and elsewhere are refused with the list; ``/mafia tables`` lists them; ``/mafia droptable``
removes one after a confirmation, never while it has a game; ``/mafia log`` pages one table's
commands only (R56); a member who leaves the server leaves every table's sign-up."""

from __future__ import annotations

from datetime import time

import simcord
from simcord import ChannelHandle, Env

from bot.layout import SLOTS
from bot.tables import table_list
from core.i18n import t
from core.zones import said_time
from db.models import TableSettings
from tests.e2e.helpers import (
    World,
    bot_of,
    confirm_button,
    confirmed_text,
    make_world,
    message_text,
    refusal,
    reply_text,
)

B = "Newcomers"


async def tables_of(world: World) -> list[TableSettings]:
    return await bot_of(world.env).store.tables(world.guild.id)


async def table_named(world: World, name: str) -> TableSettings:
    found = [tb for tb in await tables_of(world) if tb.name == name]
    assert len(found) == 1, f"tables: {await tables_of(world)}"
    return found[0]


def handle(world: World, channel_id: int | None) -> ChannelHandle:
    assert channel_id is not None
    return ChannelHandle(world.env, world.guild, world.env.backend.get_channel(channel_id))


def slot_of(world: World, table: TableSettings, slot: str) -> ChannelHandle:
    return handle(world, getattr(table, f"{slot}_channel_id"))


def parent_of(world: World, channel_id: int | None) -> int | None:
    assert channel_id is not None
    parent = world.env.backend.get_channel(channel_id).parent_id
    return None if parent is None else int(parent)


def exists(world: World, channel_id: int | None) -> bool:
    return channel_id is not None and channel_id in world.env.backend.channels


async def two_tables(world: World, **b_options: object) -> tuple[TableSettings, TableSettings]:
    """The server's first table (English, from #general) and table ``B`` (Russian)."""
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    text = reply_text(
        await world.admin.slash(world.lobby, "mafia setup", language="ru", table=B, **b_options)
    )
    assert text.startswith(t("en", "setup.table", table=B)), text  # the reply names it
    first = next(tb for tb in await tables_of(world) if tb.table_id == world.guild.id)
    return first, await table_named(world, B)


async def test_setup_with_a_new_name_builds_a_second_table_and_keeps_the_first(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    [before] = await tables_of(world)

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru", table=B))

    first, second = sorted(await tables_of(world), key=lambda tb: tb.name)
    assert first == before  # the first table is untouched
    assert (second.name, second.language, second.guild_id) == (B, "ru", world.guild.id)
    assert second.table_id == second.category_id != first.category_id  # keyed by its category
    assert world.env.backend.get_channel(second.category_id).name == B  # type: ignore[arg-type]
    for slot in SLOTS:
        mine, theirs = getattr(second, f"{slot}_channel_id"), getattr(first, f"{slot}_channel_id")
        assert mine != theirs and exists(world, mine) and exists(world, theirs)
        assert parent_of(world, mine) == second.category_id
        assert parent_of(world, theirs) == first.category_id
        assert slot_of(world, second, slot).name == t("ru", f"channel.{slot}")


async def test_setup_repairs_the_table_of_its_channel_or_of_its_name(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    first, second = await two_tables(world)

    # Used in table B's #host without a name: B is repaired (and set to English), not A.
    reply_text(
        await world.admin.slash(slot_of(world, second, "host"), "mafia setup", language="en")
    )
    assert await tables_of(world) == [first, await table_named(world, B)]
    assert (await table_named(world, B)).language == "en"
    assert (await table_named(world, B)).game_channel_id == second.game_channel_id

    # A name already taken (in another case) repairs that table: its lost channel comes back
    # in its own category; nothing of A changes and no third table appears.
    env.backend.delete_channel(second.discussion_channel_id)  # type: ignore[arg-type]
    await env.settle()
    text = reply_text(
        await world.admin.slash(world.lobby, "mafia setup", language="ru", table=B.upper())
    )
    assert "Created: <#" in text, text
    repaired = await table_named(world, B)
    assert [tb.table_id for tb in await tables_of(world)] == [first.table_id, second.table_id]
    assert repaired.discussion_channel_id != second.discussion_channel_id
    assert parent_of(world, repaired.discussion_channel_id) == second.category_id
    assert (await tables_of(world))[0] == first


async def test_each_table_opens_its_own_game_and_lists_them(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    first, second = await two_tables(world)
    store = bot_of(world.env).store

    # Outside both tables a host command cannot tell which table it is for.
    text = await refusal(world.env, world.admin.slash(world.lobby, "mafia new", schedule="fast"))
    names = table_list("en", await tables_of(world), world.env.bot.get_guild(world.guild.id))
    assert text == t("en", "error.which_table", tables=names)
    assert B in text and "Mafia" in text

    reply_text(await world.admin.slash(slot_of(world, first, "game"), "mafia new", schedule="fast"))
    reply_text(
        await world.admin.slash(slot_of(world, second, "game"), "mafia new", schedule="forum")
    )

    game_a, game_b = await store.open_game(first.table_id), await store.open_game(second.table_id)
    assert game_a is not None and game_b is not None and game_a.id != game_b.id
    assert (game_a.table_id, game_a.schedule_kind) == (first.table_id, "fast")
    assert (game_b.table_id, game_b.schedule_kind) == (second.table_id, "forum")
    # Each sign-up message is in its own table's #game, in its table's language.
    signup_b = slot_of(world, second, "game").history()
    assert [m.id for m in signup_b] == [game_b.signup_message_id]
    schedule = t("ru", "choice.schedule.forum")
    deadline = said_time("ru", time(21, 0), game_b.timezone)  # "21:00 по Москве"
    hours = t("ru", "hours.forum", deadline=deadline, hunt="12:00", days=1)
    expected = t("ru", "signup.message", count=0, schedule=schedule) + "\n" + hours  # R61
    assert message_text(signup_b[0]) == expected
    assert [m.id for m in slot_of(world, first, "game").history()] == [game_a.signup_message_id]

    # /mafia tables, from anywhere: both tables, their channels, languages and games.
    listed = reply_text(await world.admin.slash(world.lobby, "mafia tables"))
    assert listed.splitlines() == [
        t("en", "tables.title", count=2),
        t(
            "en",
            "tables.line",
            table="Mafia",
            channel=slot_of(world, first, "game").mention,
            language=t("en", "choice.language.en"),
            host_role=t("en", "setup.no_host_role"),
            game=t("en", "tables.game.signup", game=game_a.id, count=0),
        ),
        t(
            "en",
            "tables.line",
            table=B,
            channel=slot_of(world, second, "game").mention,
            language=t("en", "choice.language.ru"),
            host_role=t("en", "setup.no_host_role"),
            game=t("en", "tables.game.signup", game=game_b.id, count=0),
        ),
    ]


async def test_R56_a_tables_host_role_hosts_that_table_only(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    b_hosts = world.guild.create_role("Newcomers hosts")
    first, second = await two_tables(world, host_role=b_hosts)
    assert second.host_role_id == b_hosts.id and first.host_role_id is None
    host_b = world.guild.add_member(env.create_user("carol"), roles=[b_hosts])

    text = await refusal(
        env, host_b.slash(slot_of(world, first, "game"), "mafia new", schedule="fast")
    )
    assert text == t("en", "error.not_host_no_role")
    assert await bot_of(env).store.open_game(first.table_id) is None

    reply_text(await host_b.slash(slot_of(world, second, "game"), "mafia new", schedule="fast"))
    assert await bot_of(env).store.open_game(second.table_id) is not None
    # B's host sees the #host of B only.
    assert reply_text(await host_b.slash(slot_of(world, second, "host"), "mafia tables"))


async def test_droptable_waits_for_the_game_to_end_then_removes_the_channels(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    first, second = await two_tables(world)
    store = bot_of(env).store
    game_b = slot_of(world, second, "game")
    reply_text(await world.admin.slash(game_b, "mafia new", schedule="fast"))

    text = await refusal(env, world.admin.slash(world.lobby, "mafia droptable", table=B))
    assert text == t("en", "error.table_busy", table=B)
    text = await refusal(env, world.admin.slash(world.lobby, "mafia droptable", table="Nowhere"))
    assert text == t("en", "error.no_table", name="Nowhere")

    # /mafia end at table B (a sign-up: cancelled), confirmed.
    preview = await world.admin.slash(game_b, "mafia end")
    assert preview.response is not None
    assert confirm_button(preview).startswith(f"mafia:confirm:end:{second.table_id}:")
    clicked = await world.admin.click(preview.response, custom_id=confirm_button(preview))
    assert confirmed_text(clicked) == t("en", "host.signup_cancelled")
    [ended] = await store.list_games(table_id=second.table_id)
    assert ended.status == "finished"

    preview = await world.admin.slash(world.lobby, "mafia droptable", table=B.lower())
    assert preview.response is not None
    assert B in reply_text(preview) and game_b.mention in reply_text(preview)
    button = confirm_button(preview)
    assert button == f"mafia:confirm:droptable:{second.table_id}:0:"
    stale = await world.admin.slash(world.lobby, "mafia droptable", table=B)  # a second preview
    assert stale.response is not None
    assert all(exists(world, i) for i in (second.category_id, second.game_channel_id))
    clicked = await world.admin.click(preview.response, custom_id=button)
    assert confirmed_text(clicked) == t("en", "host.table_dropped", table=B)

    assert await tables_of(world) == [first]
    for channel_id in (second.category_id, *(getattr(second, f"{s}_channel_id") for s in SLOTS)):
        assert not exists(world, channel_id)
    for slot in SLOTS:  # table A keeps everything
        assert exists(world, getattr(first, f"{slot}_channel_id"))
    assert await store.list_games(table_id=second.table_id) == [ended]  # history stays
    # The other preview of the same table, confirmed now, finds nothing to remove.
    again = await world.admin.click(stale.response, custom_id=confirm_button(stale))
    assert confirmed_text(again) == t("en", "error.outdated_command")
    assert await tables_of(world) == [first]


async def test_R56_the_log_of_a_table_shows_its_own_commands(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    first, second = await two_tables(world)
    reply_text(await world.admin.slash(slot_of(world, first, "game"), "mafia new", schedule="fast"))
    reply_text(await world.admin.slash(slot_of(world, second, "host"), "mafia tables"))

    result = await world.admin.slash(slot_of(world, second, "host"), "mafia log")
    log_b = reply_text(result)
    assert "/mafia setup" in log_b and "/mafia tables" in log_b
    assert "/mafia new" not in log_b
    rows_b, total_b = await bot_of(world.env).store.audit_page(second.table_id, limit=10)
    assert [r.command for r in rows_b] == ["mafia log", "mafia tables", "mafia setup"]
    assert total_b == 3
    log_a = reply_text(await world.admin.slash(slot_of(world, first, "host"), "mafia log"))
    assert "/mafia new" in log_a and "/mafia tables" not in log_a


async def test_a_member_who_leaves_the_server_leaves_every_tables_signup(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    first, second = await two_tables(world)
    service, store = bot_of(env).service, bot_of(env).store
    for table in (first, second):
        reply_text(
            await world.admin.slash(slot_of(world, table, "game"), "mafia new", schedule="fast")
        )
    leaver: simcord.MemberActor = world.player
    for table in (first, second):
        assert await service.join(table.table_id, leaver.id) == 1

    world.guild.remove_member(leaver)
    await env.settle()

    for table in (first, second):
        game = await store.open_game(table.table_id)
        assert game is not None and await store.signups(game.id) == []
