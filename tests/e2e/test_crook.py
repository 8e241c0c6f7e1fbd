"""R57: the Crook in a real game against SimCord: his role card (both languages), /steal
(``/украсть`` in Russian) refused on turn 1 and accepted from turn 2, /help listing it, the
stolen vote in the public tally under the robbed player's nickname, and the theft's fate in
the #host account."""

from __future__ import annotations

import pytest
from simcord import Env

from bot.render import command_name
from core.cast_text import role_description
from core.i18n import Lang, t
from tests.e2e.helpers import (
    add_players,
    dm_texts,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    slot,
    start_game,
    until_deadline,
)

LANGS = pytest.mark.parametrize("lang", ["en", "ru"])


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_R57_the_crook_steals_a_vote_in_a_real_game(simcord_env: Env, lang: Lang) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"crook{lang}{i}" for i in range(8)])
    await start_game(world, "crook=1 mafioso=2 commissar=1 villager=4", actors, lang=lang)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    [crook] = [p for p in seats if p.role == "crook"]
    robbed, candidate, other = [p for p in seats if p.role == "villager"][:3]
    me = by_user[crook.user_id]
    game_ch = slot(world, "game")

    # The role card: the forum-style PM of the Crook, with /steal in the reader's language.
    card = "\n".join(dm_texts(me))
    cast = frozenset(p.role for p in seats)
    assert role_description(lang, "card.about.crook", cast) in card
    # The game has no maniac, no prostitute: the card names neither (R43).
    assert t(lang, "role.maniac").casefold() not in card.casefold()
    assert t(lang, "card.about.crook.with.prostitute") not in card
    assert command_name(lang, "steal") in card
    if lang == "ru":
        assert "/украсть" in card and "Жулик" in card
    help_text = reply_text(await me.slash(game_ch, "help"))
    assert f"`{command_name(lang, 'steal')}`: {t(lang, 'cmd.steal.description')}" in help_text
    # Turn 1: no lynch, nothing to steal.
    refused = await refusal(world.env, me.slash(game_ch, "steal", target=robbed.nick))
    assert t(lang, "refusal.no_lynch_on_turn_1") in refused

    for actor in actors:
        reply_text(await actor.slash(game_ch, "say", text="Here."))
    await until_deadline(world)
    assert live_game(world).engine.turn == 2
    accepted = reply_text(await me.slash(game_ch, "steal", target=robbed.nick))
    assert t(lang, "play.accepted.steal", target=robbed.nick, turn=2) in accepted
    reply_text(await by_user[robbed.user_id].slash(game_ch, "vote", target=other.nick))
    reply_text(await me.slash(game_ch, "vote", target=candidate.nick))
    await until_deadline(world)

    results = "\n".join(message_text(m) for m in game_ch.history())
    # R34: the robbed vote is shown under the robbed player's nickname, for the candidate.
    tally = t(
        lang, "lynch.votes", nick=candidate.nick, count=2, voters=f"{robbed.nick}, {crook.nick}"
    )
    assert tally in results
    host = "\n".join(message_text(m) for m in slot(world, "host").history())
    assert t(lang, "console.fate.stolen", robbed=robbed.nick, candidate=candidate.nick) in host
    assert t(lang, "console.fate.vote_stolen", crook=crook.nick, candidate=candidate.nick) in host


async def test_R43_R15_a_game_without_mafia_starts_plays_and_ends(simcord_env: Env) -> None:
    """Section 10: the original's list, a Commissar, a Crook and three Villagers: the game
    starts (no mafia room is needed), /kill is refused as no role's, and the town wins once
    the Crook is lynched (R15)."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"nomafia{i}" for i in range(5)])
    await start_game(world, "commissar=1 crook=1 villager=3", actors)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    [crook] = [p for p in seats if p.role == "crook"]
    villager = next(p for p in seats if p.role == "villager")
    game_ch = slot(world, "game")
    refused = await refusal(
        world.env, by_user[villager.user_id].slash(game_ch, "kill", target=crook.nick)
    )
    assert t("en", "refusal.wrong_role") in refused
    for actor in actors:
        reply_text(await actor.slash(game_ch, "say", text="Here."))
    await until_deadline(world)
    for actor in actors:
        reply_text(await actor.slash(game_ch, "say", text="Still here."))
    for p in seats:
        if p is not crook:
            reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=crook.nick))
    await until_deadline(world)
    texts = "\n".join(message_text(m) for m in game_ch.history())
    assert t("en", "winner.town") in texts
    assert t("en", "gameover.reason.mafia_dead", foes="crook") in texts
