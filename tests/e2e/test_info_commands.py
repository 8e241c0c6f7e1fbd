"""``/players``, ``/rules`` and ``/help`` in both languages: anyone in the game's
channels may ask, player or not, and each reply says only what is public (R6, R35, R55) or
what the asker may do himself.

Four players (mafioso=1 doctor=1 villager=2); the host excludes a Villager on turn 1, who is
then a ghost (R36) with his role revealed (R35, R56).
"""

from __future__ import annotations

import pytest
from simcord import Env, MemberActor

from bot.render import command_name, role_name
from bot.webhooks import MESSAGE_LIMIT
from cogs.info import rules_pages
from core.cast_text import guide_for
from core.i18n import Lang, t
from rules.names import public_order
from tests.e2e.helpers import (
    World,
    add_players,
    confirm_now,
    dm_texts,
    identities,
    live_game,
    make_world,
    refusal,
    reply_text,
    slot,
    start_game,
)

LANGS = pytest.mark.parametrize("lang", ["en", "ru"])


async def game_with_a_ghost(world: World, lang: Lang) -> tuple[list[MemberActor], str]:
    """A running game in ``lang`` whose first Villager the host excluded; his nickname."""
    actors = add_players(world, ["ann", "ben", "cid", "dan"])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors, lang=lang)
    ghost = next(p.nick for p in live_game(world).players if p.role == "villager")
    await confirm_now(world, "mafia exclude", player=ghost)
    return actors, ghost


def actor_of(world: World, actors: list[MemberActor], nick: str) -> MemberActor:
    user_id = live_game(world).user_of(nick)
    return next(a for a in actors if a.id == user_id)


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_R35_players_lists_nicknames_and_only_the_dead_roles(
    simcord_env: Env, lang: Lang
) -> None:
    world = make_world(simcord_env)
    actors, ghost = await game_with_a_ghost(world, lang)
    game_ch = slot(world, "game")
    live = live_game(world)
    living = public_order(p.nick for p in live.players if p.nick != ghost)  # never by seat
    dead_line = t(
        lang,
        "reveal.dead",
        nick=ghost,
        role=role_name(lang, "villager"),
        cause=t(lang, "cause.excluded"),
        turn=1,
    )
    expected = "\n".join(
        [
            t(lang, "players.living", count=3),
            *(f"- {n}" for n in living),
            t(lang, "players.dead", count=1),
            f"- {dead_line}",
        ]
    )
    # A living player, the ghost, and a member who does not play: the same public list.
    for asker in (actor_of(world, actors, living[0]), actor_of(world, actors, ghost), world.player):
        text = reply_text(await asker.slash(game_ch, "players"))
        assert text == expected
        for role in ("mafioso", "doctor"):  # R55: no living player's role
            assert role_name(lang, role) not in text
        assert text.count(role_name(lang, "villager")) == 1  # the ghost's only (R35)
        for actor in (*actors, world.admin, world.player):  # R6: nicknames, never members
            for name in identities(actor):
                assert name not in text


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_players_is_refused_without_a_game_and_outside_the_game_channels(
    simcord_env: Env, lang: Lang
) -> None:
    env = simcord_env
    world = make_world(env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    game_ch = slot(world, "game")
    text = await refusal(env, world.player.slash(game_ch, "players"))
    assert text == t(lang, "error.no_running_game")
    text = await refusal(env, world.player.slash(world.lobby, "players"))
    assert text == t(lang, "error.wrong_channel", channel=game_ch.mention)


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_rules_pages_through_the_document_in_the_readers_language(
    simcord_env: Env, lang: Lang
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    game_ch = slot(world, "game")
    pages = rules_pages(lang)
    assert len(pages) > 1
    document = f"docs/rules.{lang}.md"
    with open(document, encoding="utf-8") as f:
        first_line = f.readline().strip()
    seen = []
    for number in range(1, len(pages) + 1):
        text = reply_text(await world.player.slash(game_ch, "rules", page=number))
        assert len(text) <= MESSAGE_LIMIT
        footer = t(lang, "rules.page", page=number, pages=len(pages))
        assert footer in text
        if number < len(pages):
            option = t(lang, "cmd.rules.opt.page.name")
            assert f"`{command_name(lang, 'rules')} {option}:{number + 1}`" in text
        seen.append(text)
    assert seen[0].startswith(first_line)
    # A page holds whole paragraphs (each fits a page), its hard-wrapped lines joined.
    with open(document, encoding="utf-8") as f:  # outside a game: every role, marks gone
        shown = guide_for(lang, f.read(), None)
    paragraphs = [" ".join(p.split()) for p in shown.split("\n\n") if p.strip()]
    flat = [" ".join(page.split()) for page in seen]
    for paragraph in paragraphs:
        assert any(paragraph in page for page in flat), paragraph[:60]
    assert all("\n" not in line.strip() for line in seen[0].split("\n"))
    # Without a page: the first; past the end: the last, with no next page.
    assert reply_text(await world.player.slash(game_ch, "rules")) == seen[0]
    assert reply_text(await world.player.slash(game_ch, "rules", page=99)) == seen[-1]
    assert t(lang, "rules.next", command="").strip() not in seen[-1]


def help_line(lang: Lang, command: str) -> str:
    return f"`{command_name(lang, command)}`: {t(lang, f'cmd.{command}.description')}"


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_help_lists_the_commands_of_my_role_now(simcord_env: Env, lang: Lang) -> None:
    world = make_world(simcord_env)
    actors, ghost = await game_with_a_ghost(world, lang)
    game_ch = slot(world, "game")
    by_role = {p.role: p.nick for p in live_game(world).players if p.nick != ghost}
    general = ("votes", "iso", "players", "history", "stats", "rules", "help")
    tools = ("role", "status", "say", "post", "profile")
    # The message command Quote, as the client names it, with where to find it.
    quote = t(lang, "help.quote", name=t(lang, "cmd.quote.name"))

    async def help_of(actor: MemberActor) -> list[str]:
        text = reply_text(await actor.slash(game_ch, "help"))
        header, *lines = text.split("\n")
        assert header == t(lang, "help.header")
        return lines

    # Turn 1 (R3): no lynch and no hunt yet; they are listed apart, with when they open.
    later = t(lang, "help.from_turn_2")
    living = (*tools, "replaceme")  # R60: a living player may ask to be replaced
    mafioso = await help_of(actor_of(world, actors, by_role["mafioso"]))
    assert mafioso == [
        *(help_line(lang, c) for c in ("kill", "note", *living, *general)),
        quote,
        t(lang, "help.later"),
        f"`{command_name(lang, 'vote')}`: {later}",
    ]
    villager = await help_of(actor_of(world, actors, by_role["villager"]))
    assert villager == [
        *(help_line(lang, c) for c in ("note", *living, *general)),
        quote,
        t(lang, "help.later"),
        f"`{command_name(lang, 'hunt')}`: {later}",
        f"`{command_name(lang, 'vote')}`: {later}",
    ]
    doctor = await help_of(actor_of(world, actors, by_role["doctor"]))
    assert help_line(lang, "heal") in doctor and help_line(lang, "inject") in doctor
    # A ghost has no requests left (R36); a member who does not play asks what anyone may,
    # and may stand by as a substitute (R60).
    assert await help_of(actor_of(world, actors, ghost)) == [
        *(help_line(lang, c) for c in (*tools, *general)),
        quote,
    ]
    assert await help_of(world.player) == [help_line(lang, c) for c in ("standby", *general)]


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_help_without_a_running_game_offers_the_sign_up(simcord_env: Env, lang: Lang) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    text = reply_text(await world.player.slash(slot(world, "game"), "help"))
    assert text.split("\n")[1:] == [
        help_line(lang, c)
        for c in ("join", "leave", "players", "history", "stats", "rules", "help")
    ]


#: Words that name the mafia, in either language (its side, its members, its room).
MAFIA_WORDS = {"ru": ("мафи", "клан"), "en": ("mafia", "mafioso", "family")}


@LANGS
@pytest.mark.usefixtures("clients_in")
async def test_R43_R15_the_originals_own_setup_is_told_without_a_mafia(
    simcord_env: Env, lang: Lang
) -> None:
    """The original's closing setup (a Commissar, a Crook, three Villagers): the role cards
    and /rules speak of this game's sides and roles only. Nobody reads that the town wins
    when "neither the mafia nor the maniac" is alive; the villager hunts for the Crook."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"orig{lang}{i}" for i in range(5)])
    await start_game(world, "commissar=1 crook=1 villager=3", actors, lang=lang)
    game_ch = slot(world, "game")
    cards = {a.id: "\n".join(dm_texts(a)) for a in actors}
    pages = []
    for number in range(1, 4):
        pages.append(reply_text(await actors[0].slash(game_ch, "rules", page=number)))
    shown = "\n".join([*cards.values(), *pages])
    # The game's own name ("Forum mafia", the guide's title, the hosts' /mafia commands) and
    # the commissar's answer in
    # quotes («не мафия»): nothing else names a mafia.
    title = pages[0].splitlines()[0]
    assert title.startswith("# ")
    shown = shown.replace(title, "").replace("/" + t(lang, "cmd.mafia.name"), "")  # commands
    unquoted = shown.replace("«не мафия»", "").replace('"not mafia"', "").replace('"mafia"', "")
    unquoted = unquoted.replace("«мафия»", "")
    for word in (*MAFIA_WORDS[lang], t(lang, "role.maniac").casefold()):
        assert word not in unquoted.casefold(), word
    assert t(lang, "card.win.town", foes="crook") in shown
    assert t(lang, "card.hunt", mafia="no") in shown  # the hunter always dies
    assert t(lang, "guide.step.steal") in shown
