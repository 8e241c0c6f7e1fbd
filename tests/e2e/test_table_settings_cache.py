"""the tables' settings are served from memory (db/tablecache.py), so every
host command that changes them must be seen by the very next command: ``/mafia setup`` (a
language changed, a second table built), ``/mafia droptable``; leaving a server is in
tests/e2e/test_privacy.py. The reader's client speaks Ukrainian, for which there is no
catalogue: the bot answers him in the language of the table where he typed."""

from __future__ import annotations

from simcord import ChannelHandle, Env

from bot.tables import table_list
from core.i18n import Lang, t
from tests.e2e.helpers import (
    World,
    bot_of,
    client_locale,
    confirm_now,
    make_world,
    refusal,
    reply_text,
    slot,
)

B = "Newcomers"


async def asked_in(world: World, where: ChannelHandle) -> str:
    """The player's ``/role`` where no game runs: refused in the table's language."""
    with client_locale(world.player, "uk"):
        return await refusal(world.env, world.player.slash(where, "role"))


def no_game(lang: Lang) -> str:
    return t(lang, "error.no_running_game")


async def test_a_language_changed_by_setup_is_read_by_the_next_command(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    assert await asked_in(world, slot(world, "game")) == no_game("en")

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))
    assert await asked_in(world, slot(world, "game")) == no_game("ru")

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    assert await asked_in(world, slot(world, "game")) == no_game("en")


async def test_a_second_table_is_found_at_once_and_forgotten_when_dropped(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    # One table: a player command typed outside its channels is sent to its #game.
    elsewhere = t("en", "error.wrong_channel", channel=slot(world, "game").mention)
    assert await asked_in(world, world.lobby) == elsewhere

    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru", table=B))
    store = bot_of(env).store
    [second] = [tb for tb in await store.tables(world.guild.id) if tb.name == B]
    assert second.game_channel_id is not None
    game_b = ChannelHandle(env, world.guild, env.backend.get_channel(second.game_channel_id))
    assert await asked_in(world, game_b) == no_game("ru")
    assert await asked_in(world, slot(world, "game")) == no_game("en")
    # Two tables: outside both, the command is refused with their list.
    guild = bot_of(env).get_guild(world.guild.id)
    tables = table_list("en", await store.tables(world.guild.id), guild)
    assert await asked_in(world, world.lobby) == t("en", "error.which_table", tables=tables)

    confirmed = await confirm_now(world, "mafia droptable", table=B)
    assert confirmed == t("en", "host.table_dropped", table=B)
    assert await asked_in(world, world.lobby) == elsewhere  # one table again
