"""Role wishes through Discord (R58): ``/mafia new wishes``, ``/wish`` and the sign-up post's
menu (answered privately), the tally on the post (counts only, never who), ``/status`` and
``/mafia state``, ``/mafia roles from_wishes`` and the wishes granted at the start; and the
sign-up's cap. Nobody but the member himself and the hosts learns a wish (R44, R55)."""

from __future__ import annotations

from simcord import Env

from bot.signup import JOIN_ID, LEAVE_ID, WISH_ID
from core.i18n import t
from tests.e2e.helpers import (
    add_players,
    channel,
    identities,
    live_game,
    make_world,
    refusal,
    reply_text,
)

#: Stored on both engines: the wishes live in the store (migration 8).
BOTH_ENGINES = True


def has_menu(message: object) -> bool:
    return any(
        getattr(item, "custom_id", None) == WISH_ID
        for row in getattr(message, "components", ())
        for item in getattr(row, "children", ())
    )


async def test_R58_wishes_are_private_the_tally_counts_only_and_wishes_are_granted(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    opened = reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", wishes=True
        )
    )
    assert "wish" in opened
    game_ch = channel(world, "game")
    post = game_ch.last_message
    assert post is not None and has_menu(post)
    assert t("en", "signup.wishes_none") in post.content
    ann, ben, cat, dan = actors = add_players(world, ["ann", "ben", "cat", "dan"])
    for actor in actors:
        reply_text(await actor.click(post, custom_id=JOIN_ID))

    # /wish with a role's name (autocompleted in the reader's language), and the menu.
    choices = await ann.autocomplete(game_ch, "wish", "role", "comm")
    assert [c["value"] for c in choices] == ["commissar"]
    offered = {c["value"] for c in await ann.autocomplete(game_ch, "wish", "role", "")}
    assert "foundling" not in offered and {"commissar", "none"} <= offered
    told = reply_text(await ann.slash(game_ch, "wish", role="commissar"))
    assert t("en", "role.commissar") in told
    told = reply_text(await ben.select(post, ["mafioso"], custom_id=WISH_ID))
    assert t("en", "role.mafioso") in told
    reply_text(await cat.slash(game_ch, "wish", role="Mafioso"))  # a name, typed
    reply_text(await cat.slash(game_ch, "wish", role="none"))  # withdrawn
    post = game_ch.history()[0]
    commissar = t("en", "role.commissar")
    assert f"Mafioso — 1, {commissar} — 1; no wish — 2" in post.content
    for actor in actors:  # counts only: nobody is named
        assert not any(name in post.content for name in identities(actor))

    # Leaving drops the wish; coming back, none.
    reply_text(await ben.click(post, custom_id=LEAVE_ID))
    assert f"{commissar} — 1; no wish — 2" in game_ch.history()[0].content
    reply_text(await ben.click(post, custom_id=JOIN_ID))
    reply_text(await ben.slash(game_ch, "wish", role="mafioso"))

    # Each member reads his own wish only; the hosts read every one.
    mine = reply_text(await ann.slash(game_ch, "status"))
    assert t("en", "status.wish", role=t("en", "role.commissar")) in mine
    theirs = reply_text(await dan.slash(game_ch, "status"))
    assert t("en", "status.no_wish") in theirs and t("en", "role.commissar") not in theirs
    state = reply_text(await world.admin.slash(world.lobby, "mafia state"))
    assert f"<@{ann.id}>: " + t("en", "state.wish", role=t("en", "role.commissar")) in state
    assert f"<@{dan.id}>: " + t("en", "state.no_wish") in state

    # The tally as the setup: a Commissar, a Mafioso and two Villagers; granted at the start.
    roles = reply_text(await world.admin.slash(world.lobby, "mafia roles", from_wishes=True))
    assert t("en", "role.commissar") in roles
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    seats = {p.user_id: p for p in live_game(world).players}
    assert seats[ann.id].role == "commissar" and seats[ben.id].role == "mafioso"
    state = reply_text(await world.admin.slash(world.lobby, "mafia state"))
    assert t("en", "state.wish", role=t("en", "role.commissar")) in state
    # Sign-up closed: no more wishes.
    closed = await refusal(env, ann.slash(game_ch, "wish", role="doctor"))
    assert closed == t("en", "error.no_signup")


async def test_R58_wishes_refused_plainly(simcord_env: Env) -> None:
    """A game without wishes shows no menu and refuses /wish; a game with wishes refuses a
    member not signed up and a role nobody may wish for (R22: the Foundling), privately."""
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    game_ch = channel(world, "game")
    post = game_ch.last_message
    assert post is not None and not has_menu(post)
    assert t("en", "signup.wishes_none") not in post.content
    reply_text(await world.player.slash(game_ch, "join"))
    text = await refusal(env, world.player.slash(game_ch, "wish", role="commissar"))
    assert text == t("en", "error.no_wishes")
    text = await refusal(env, world.admin.slash(world.lobby, "mafia roles", from_wishes=True))
    assert text == t("en", "error.no_wishes")


async def test_R58_a_member_not_signed_up_cannot_wish_and_the_foundling_is_not_offered(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", wishes=True
        )
    )
    game_ch = channel(world, "game")
    post = game_ch.last_message
    assert post is not None
    text = await refusal(env, world.player.slash(game_ch, "wish", role="commissar"))
    assert text == t("en", "error.not_joined")
    menu = reply_text(await world.player.select(post, ["commissar"], custom_id=WISH_ID))
    assert menu == t("en", "error.not_joined")
    reply_text(await world.player.slash(game_ch, "join"))
    text = await refusal(env, world.player.slash(game_ch, "wish", role="foundling"))
    assert text == t("en", "error.unknown_wish", role="foundling")
    assert t("en", "signup.wishes_none") in game_ch.history()[0].content
