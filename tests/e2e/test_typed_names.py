"""R44 through the real bot: a nickname typed in another case, with spaces or an invisible
character finds the player, and every reply names him as the game spells him."""

from __future__ import annotations

from simcord import Env

from core.i18n import t
from tests.e2e.helpers import (
    add_players,
    live_game,
    mafia_room,
    make_world,
    reply_text,
    seats_by_role,
    slot,
    start_game,
)


def odd_spelling(nick: str) -> str:
    """The same name under R44: other case, a zero-width space inside, spaces around."""
    return f"  {nick[0]}\u200b{nick[1:].upper()} "


async def test_R44_player_reply_names_the_target_as_the_game_spells_it(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"tn{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors)
    seats = seats_by_role(world, actors)
    target, _ = seats["villager"]
    commissar_nick, commissar = seats["commissar"]
    assert target != commissar_nick
    text = reply_text(
        await commissar.slash(slot(world, "game"), "check", target=odd_spelling(target))
    )
    # The confirmation names the target as the game spells it (and says until when it may
    # be changed, on its next line).
    assert text.splitlines()[0] == t("en", "play.accepted.check", target=target, turn=1)
    standing = live_game(world).engine.standing_requests(commissar_nick)
    assert [r.target for r in standing] == [target]


async def test_R44_host_commands_name_the_player_as_the_game_spells_it(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"th{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors)
    seats = seats_by_role(world, actors)
    villager, _ = seats["villager"]
    text = reply_text(
        await world.admin.slash(world.lobby, "mafia deprive", player=odd_spelling(villager))
    )
    assert villager in text and "\u200b" not in text
    # A substitute for a mafioso typed oddly still joins the mafia's room (R14).
    mafioso, _ = seats["mafioso"]
    [substitute] = add_players(world, ["sub"])
    text = reply_text(
        await world.admin.slash(
            world.lobby, "mafia replace", player=odd_spelling(mafioso), member=substitute
        )
    )
    assert text == t("en", "host.replaced", nick=mafioso)
    mafia_room(world).history(viewer=substitute)  # he reads the room: no SetupError
