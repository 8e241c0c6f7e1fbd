"""Every text a player reads about the rules speaks of the sides and roles of his game only
(R15, R43): every role card (the states the rules turn a role into included), the guide
``/rules`` shows during the game, the reminders and the end's reason, built for every valid
setup of up to 12 players. The setups are every combination of the role kinds (each named
role in or out, Mafiosi and Villagers in or out) that ``rules.setup.validate_setup`` accepts
with at most 12 players, each with the fewest players that make it valid."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from functools import cache

import pytest

from bot.endgame import summary_lines
from bot.render import render, render_role_card
from cogs.info import rules_pages
from core.cast_text import present
from core.i18n import LANGUAGES, Lang, t
from rules.engine import Game
from rules.knowledge import role_card
from rules.roles import INTERNAL_ROLES, ROLES, Faction
from rules.setup import SetupError, validate_setup
from rules.win import win_reason

MAX = 12
UNIQUE = tuple(code for code, cls in ROLES.items() if cls.unique)

#: Words that name an atom (a role or a side), by language: a text of a game without the
#: atom must hold none of them (matched case-insensitively, as regular expressions).
WORDS: dict[Lang, dict[str, tuple[str, ...]]] = {
    "ru": {
        "mafia": (r"мафи", r"клан"),
        "maniac": (r"маньяк", r"отрав", r"\bяд\b"),
        "crook": (r"жулик", r"краж", r"украсть"),
        "commissar": (r"комиссар",),
        "sergeant": (r"сержант",),
        "doctor": (r"доктор", r"\bукол"),
        "prostitute": (r"путан",),
        "foundling": (r"подкидыш",),
        "boss": (r"босс",),
        "troublemaker": (r"баламут", r"клевет"),
    },
    "en": {
        "mafia": (r"mafia", r"mafioso", r"family"),
        "maniac": (r"poison", r"maniac"),
        "crook": (r"crook", r"\bsteal", r"theft"),
        "commissar": (r"\bcop\b", r"commissar"),
        "sergeant": (r"sergeant",),
        "doctor": (r"doctor", r"\binject"),
        "prostitute": (r"roleblocker", r"prostitute"),
        "foundling": (r"foundling",),
        "boss": (r"\bboss",),
        "troublemaker": (r"framer", r"troublemaker", r"\bframe\b"),
    },
}

#: What may name the mafia in any game: the commissar's answer, quoted as the host gives it
#: (R18: "mafia" or "not mafia"), the game's own name (the guide's title) and the hosts'
#: ``/mafia`` commands.
QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"")


def cleaned(lang: Lang, text: str) -> str:
    text = QUOTED.sub("", text)
    text = text.replace("/" + t(lang, "cmd.mafia.name"), "")
    return "\n".join(line for line in text.splitlines() if not line.startswith("# "))


def smallest_valid(kinds: frozenset[str]) -> list[str] | None:
    """The setup of exactly these role kinds with the fewest players, if one of at most 12
    is valid: the named roles once, Mafiosi and Villagers as few as make it valid."""
    named = [code for code in UNIQUE if code in kinds]
    mafiosi = range(1, MAX + 1) if "mafioso" in kinds else range(1)
    villagers = range(1, MAX + 1) if "villager" in kinds else range(1)
    for total in range(len(named), MAX + 1):
        for m in mafiosi:
            v = total - len(named) - m
            if v in villagers:
                roles = named + ["mafioso"] * m + ["villager"] * v
                try:
                    validate_setup(roles)
                except SetupError:
                    continue
                return roles
    return None


@cache
def setups() -> tuple[tuple[str, ...], ...]:
    found: list[tuple[str, ...]] = []
    kinds = (*UNIQUE, "mafioso", "villager")
    for size in range(1, len(kinds) + 1):
        for chosen in itertools.combinations(kinds, size):
            roles = smallest_valid(frozenset(chosen))
            if roles is not None:
                found.append(tuple(roles))
    return tuple(found)


def test_the_setups_cover_every_kind_and_the_originals_own() -> None:
    """Hundreds of setups: every role kind in some and out of others, the original's closing
    list (a Commissar, a Crook, Villagers: no mafia) among them."""
    all_setups = setups()
    assert len(all_setups) > 300
    for code in ROLES:
        assert any(code in s for s in all_setups) and any(code not in s for s in all_setups)
    assert ("commissar", "crook", "villager") in {tuple(sorted(set(s))) for s in all_setups}


def cards_of(roles: tuple[str, ...]) -> Iterator[tuple[str, object]]:
    """Every card of the setup's game: each seat's, and the states its roles turn into."""
    game = Game.new([(f"P{i}", role) for i, role in enumerate(roles)])
    state = game.state
    for nick in state.players:
        yield nick, role_card(state, nick)
    for code, cls in INTERNAL_ROLES.items():
        origin = {"converted_foundling": "foundling", "promoted_sergeant": "sergeant"}[code]
        nick = next((n for n, p in state.players.items() if p.role == origin), None)
        if nick is not None:
            player = state.players[nick]
            original = player.role_cls
            player.role_cls = cls
            try:
                yield nick, role_card(state, nick)
            finally:
                player.role_cls = original


def game_texts(lang: Lang, roles: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """(what, text) of everything a player of this game reads about the rules."""
    for nick, card in cards_of(roles):
        yield f"card of {nick}", render_role_card(lang, card)  # type: ignore[arg-type]
    cast = frozenset(roles)
    yield "/rules", "\n".join(rules_pages(lang, cast))
    reminder = {"turn": 2, "missing": ["vote", "post"], "missed_votes": 1}
    yield "reminder", render(lang, "reminder", reminder)
    here = present(cast)
    winners = [s for s in ("town", "mafia") if s in here] + [
        ROLES[c].wins_as() for c in roles if ROLES[c].faction is Faction.LONER
    ]
    entries = [{"nick": f"P{i}", "role": r} for i, r in enumerate(roles)]
    for winner in winners:
        payload = {"winner": winner, "roles": entries, "reveal": True}
        payload["reason"] = {"town": "mafia_dead", "mafia": "parity"}.get(winner, f"{winner}_last")
        yield f"the end ({winner})", "\n".join(summary_lines(lang, payload))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R15_R43_every_text_names_only_the_sides_and_roles_of_its_game(lang: Lang) -> None:
    words = WORDS[lang]
    for roles in setups():
        absent = [atom for atom in words if atom not in present(roles)]
        if not absent:
            continue
        for what, text in game_texts(lang, roles):
            plain = cleaned(lang, text).casefold()
            for atom in absent:
                for word in words[atom]:
                    assert not re.search(word, plain), (roles, what, atom, word, text)


def test_the_win_reasons_are_the_rules_own() -> None:
    """The end's reasons come from rules/win.py: the keys the test renders are its own."""
    game = Game.new([("A", "commissar"), ("B", "crook"), ("C", "villager"), ("D", "villager")])
    assert win_reason(game.state, "town") == "mafia_dead"
    assert win_reason(game.state, "crook") == "crook_last"
