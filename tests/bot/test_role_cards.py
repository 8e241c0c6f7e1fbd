"""Role cards as a forum host's role PM (R12-R27, R28-R30, R52, R53): every role's card, in both
languages, says what the role does, how and until when, how its side wins in this game, fits
one Discord message even with a long server, table and nickname, names the commands as the
reader's client does, and tells the hunt and the times; what every card shares (posting, the
vote, the note, the activity rules) is said once, in /rules, which the card points to. The
card the Foundling reads is the Villager's (R22). tests/bot/test_setup_texts.py checks every
card of every setup names only the sides and roles of its game."""

from __future__ import annotations

import re
from datetime import time

import pytest

from bot.render import command_name, render_role_card, with_dm_header
from bot.webhooks import MESSAGE_LIMIT
from core.cast_text import role_description, win_line
from core.i18n import Lang, catalogue, t
from core.zones import said_time
from rules.knowledge import RoleCard, role_card
from rules.replay import parse_script
from rules.roles.registry import INTERNAL_ROLES, ROLES
from rules.schedule import make_schedule
from tests.rules.dsl import game

#: Discord's limits: a message's content; an embed's description; an embed in all.
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TOTAL_LIMIT = 6000

LONG = "Ж" * 32  # a nickname, server or table name longer than any the bot deals
SETUP = (
    "Bo:boss Ma:mafioso Tr:troublemaker Co:commissar Se:sergeant Do:doctor Pr:prostitute "
    "Fo:foundling Mn:maniac Cr:crook Ma2:mafioso Ma3:mafioso V1 V2 V3"
)


def every_card() -> list[RoleCard]:
    """The card of every role of the registry as role_card builds it from a live game: the
    roles a setup may name, then the states the rules turn them into (R19, R22)."""
    engine, _ = parse_script(game(SETUP))
    state = engine.state
    by_role = {p.role_cls.code: p.nick for p in state.players.values()}
    cards = [role_card(state, by_role[code]) for code in ROLES if code in by_role]
    for code, cls in INTERNAL_ROLES.items():
        nick = by_role[{"converted_foundling": "foundling"}.get(code, "sergeant")]
        original = state.players[nick].role_cls
        state.players[nick].role_cls = cls
        try:
            cards.append(role_card(state, nick))
        finally:
            state.players[nick].role_cls = original
    return cards


def test_every_role_of_the_registry_has_a_card() -> None:
    """A role a setup may name, or one the rules turn a role into, is dealt with its card."""
    shown = {card.role for card in every_card()}
    assert shown == {cls.shown_as() for cls in [*ROLES.values(), *INTERNAL_ROLES.values()]}
    assert "converted_foundling" in shown  # R22: told he has joined the mafia
    assert "foundling" not in shown  # R22: he reads the Villager's card


def command_names(lang: Lang) -> set[str]:
    """Every top-level slash command of the reader's language (``/голос`` in Russian)."""
    keys = catalogue(lang)
    return {"/" + keys[k] for k in keys if re.fullmatch(r"cmd\.[a-z_]+\.name", k)}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R12_every_card_fits_one_message_with_the_longest_header(lang: Lang) -> None:
    """Each card, with a DM header naming a long server and table and a long nickname and
    a mafia team of long nicknames, is one Discord message (2,000 characters) and would fit
    an embed too."""
    for card in every_card():
        long_card = RoleCard(
            nick=LONG,
            role=card.role,
            faction=card.faction,
            verbs=card.verbs,
            team=(LONG,) * 6 if card.team else (),
            commissar=LONG if card.commissar else None,
            alive=card.alive,
            clan=tuple((LONG, role) for _, role in card.clan) + ((LONG, "mafioso"),) * 3,
            cast=card.cast,
        )
        text = with_dm_header(lang, LONG * 3, 99, render_role_card(lang, long_card), table=LONG)
        assert len(text) <= MESSAGE_LIMIT, (card.role, len(text))
        assert len(text) <= EMBED_DESCRIPTION_LIMIT <= EMBED_TOTAL_LIMIT


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R28_R52_every_card_is_a_full_description(lang: Lang) -> None:
    """The role's own text for this game, the mafia's kill for its members (R23), how its
    side wins (R15), the hunt (or that he may not hunt), the times (R1, R4), the pointer to
    /rules for what every card shares, and his own commands by the reader's names."""
    names = command_names(lang)
    for card in every_card():
        text = render_role_card(lang, card)
        about = role_description(lang, f"card.about.{card.role}", card.cast)
        assert about in text and len(about) > 100, card.role
        assert ("/" + t(lang, "cmd.kill.name") in text) is ("kill" in card.verbs)
        side = {"villager": "town", "mafioso": "mafia", "boss": "mafia"}.get(card.role)
        if side is not None:
            assert win_line(lang, side, card.cast) in text, card.role
        assert t(lang, "card.rules", rules=command_name(lang, "rules")) in text
        assert t(lang, "card.activity_off") not in text
        if "hunt" in card.verbs:  # R17, R28: town hunts, at the risk of his own life
            assert t(lang, "card.no_hunt") not in text
            assert t(lang, "card.hunt", mafia="yes") in text
        else:  # R23, R27: the mafia and the loner do not hunt
            assert t(lang, "card.no_hunt") in text
        for verb in card.verbs:
            if verb != "post":
                assert command_name(lang, verb) in text, (card.role, verb)
        # Every command the card names is one the reader's client shows.
        for found in re.findall(r"/[\w]+", text):
            assert found in names, (card.role, found)
        assert "21:00" in text and "12:00" in text


def test_R30_the_hunt_card_says_what_the_results_announce() -> None:
    """Whom he hunted never becomes known; a failed hunter's death is public (R30), as the
    results announce it ("died on his own hunt")."""
    ru, en = t("ru", "card.hunt", mafia="yes"), t("en", "card.hunt", mafia="yes")
    assert "погибает у всех на глазах" in ru and "на кого он охотился, не узнает никто" in ru
    assert "death is announced to everyone" in en and "never whom he hunted" in en
    assert "никто не узнает, кто охотился" not in ru


def test_R14_the_clan_is_told_as_a_host_tells_it() -> None:
    """Each member of the mafia with his role: who is the Boss, who the Troublemaker."""
    boss = next(c for c in every_card() if c.role == "boss")
    ru = render_role_card("ru", boss)
    assert "(Босс)" in ru and "(Баламут)" in ru and "(Мафиози)" in ru
    assert "(Boss)" in render_role_card("en", boss) and "(Framer)" in render_role_card("en", boss)


def test_R18_R20_R27_the_cards_say_what_the_forum_role_pms_say() -> None:
    """The commissar's pistol and "who killed him and how"; the doctor's "not the same player
    two turns running" and the injection; the poisoner's victim dies a day later."""
    codes = ("commissar", "doctor", "maniac", "foundling", "villager")
    ru = {c: role_description("ru", f"card.about.{c}", None) for c in codes}
    en = {c: role_description("en", f"card.about.{c}", None) for c in codes}
    assert "пистолет" in ru["commissar"] and "кто его убил, и как" in ru["commissar"]
    assert "pistol" in en["commissar"] and "who killed him and how" in en["commissar"]
    assert "два хода подряд" in ru["doctor"] and "/укол" in ru["doctor"]
    assert "two turns running" in en["doctor"] and "/inject" in en["doctor"]
    assert "проживёт ещё день" in ru["maniac"] and "one more day" in en["maniac"]
    # R22: the Foundling reads the Villager's card, in both languages.
    assert ru["foundling"] == ru["villager"] and en["foundling"] == en["villager"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R1_R4_R52_the_card_gives_the_games_own_times_and_activity(lang: Lang) -> None:
    """A forum game's card gives its own hunt and deadline times, the deadline as players say
    it ("22:15 (UTC-3)", "21:00 по Москве"); a fast game's
    its turn length; a game without the activity rules says they are off."""
    forum = make_schedule("forum", "America/Argentina/ComodRivadavia", hunt_open=time(11, 30),
                          deadline=time(22, 15))  # fmt: skip
    fast = make_schedule("fast", "UTC", turn_minutes=7)
    for card in every_card():
        text = render_role_card(lang, card, forum, activity=True)
        # The deadline as players say it: a zone with no city named here by its offset.
        said = said_time(lang, time(22, 15), "America/Argentina/ComodRivadavia")
        assert "11:30" in text and said in text and "(UTC-3)" in said
        assert "12:00" not in text and t(lang, "card.activity_off") not in text
        assert len(with_dm_header(lang, LONG * 3, 99, text, table=LONG)) <= MESSAGE_LIMIT
        text = render_role_card(lang, card, fast, activity=False)
        assert t(lang, "card.times_fast", minutes=7) in text and "21:00" not in text
        assert t(lang, "card.activity_off") in text
