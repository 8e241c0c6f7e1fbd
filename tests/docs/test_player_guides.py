"""The players' and hosts' guides that ``/rules`` shows (docs/rules.ru.md, docs/rules.en.md):
at most three Discord pages per language, the commands as the reader's client names them
(``/голос`` in Russian), the day's times (R1, R4), every role; no developer's material (rule
numbers, cause or refusal codes, a path in the repository), which stays in docs/REFERENCE.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs.info import rules_pages
from core.i18n import Lang, catalogue, has_key, t
from rules.roles.registry import ROLES, cause_codes, refusal_codes

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Commands another change brings (the Crook's theft R57, the role wishes R58), named in the
#: guides before their catalogue entries exist; once an entry exists, the guide must use it.
PENDING = {
    "ru": {"steal": "/украсть", "wish": "/пожелание"},
    "en": {"steal": "/steal", "wish": "/wish"},
}


def guide(lang: Lang) -> str:
    return (DOCS / f"rules.{lang}.md").read_text(encoding="utf-8")


def top_commands(lang: Lang) -> set[str]:
    keys = catalogue(lang)
    return {"/" + keys[k] for k in keys if re.fullmatch(r"cmd\.[a-z_]+\.name", k)}


def host_commands(lang: Lang) -> set[str]:
    keys = catalogue(lang)
    return {keys[k] for k in keys if re.fullmatch(r"cmd\.mafia\.[a-z_]+\.name", k)}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_guide_is_at_most_three_pages(lang: Lang) -> None:
    """Three pages at most, for every role and side (it holds what every role card shares)."""
    assert 1 <= len(rules_pages(lang)) <= 3


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_guide_names_the_commands_as_the_readers_client_does(lang: Lang) -> None:
    text = guide(lang)
    allowed = set(top_commands(lang))
    for verb, placeholder in PENDING[lang].items():
        if has_key(f"cmd.{verb}.name"):
            assert "/" + t(lang, f"cmd.{verb}.name") in text, verb
        else:
            allowed.add(placeholder)
    mafia = "/" + t(lang, "cmd.mafia.name")
    for found in re.findall(r"/[^\W\d]\w*", text):
        assert found in allowed, found
    # The hosts' subcommands: "/мафия настройка", or listed after "(`/мафия` …)".
    subs = host_commands(lang)
    for found in re.findall(rf"`{re.escape(mafia)} (\w+)`", text):
        assert found in subs, found
    listed = re.search(rf"\(`{re.escape(mafia)}` …\): (.*)", text)
    assert listed is not None
    for found in re.findall(r"`(\w+)`", listed[1]):
        assert found in subs, found
    # The player's own commands are all there.
    for verb in (
        "vote", "hunt", "note", "say", "post", "role", "status", "players", "help", "votes", "iso",
    ):  # fmt: skip
        assert "/" + t(lang, f"cmd.{verb}.name") in text, verb


#: Where the client puts a message command: right-click a message, then this menu.
APPS_MENU = {"ru": "Приложения", "en": "Apps"}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_guide_says_where_the_quote_command_is(lang: Lang) -> None:
    """The message command has no slash: the guide names it as the client does, with the
    way to it (a post in #game, the Apps menu)."""
    text = guide(lang)
    game = "#" + t(lang, "channel.game")
    path = f"{APPS_MENU[lang]} → {t(lang, 'cmd.quote.name')}"
    line = next(line for line in text.splitlines() if path in line)
    assert f"`{game}`" in line


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R1_R4_the_guide_gives_the_times_and_every_role(lang: Lang) -> None:
    text = guide(lang)
    assert "12:00" in text and "21:00" in text  # the forum schedule (R1, R4)
    assert t(lang, "choice.schedule.fast").split()[0].casefold() in text.casefold()
    for code in ROLES:
        name = t(lang, f"role.{code}").split(" (")[0]
        assert name.casefold() in text.casefold(), code


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_guide_holds_no_developers_material(lang: Lang) -> None:
    """Rule numbers, cause codes and refusal codes are the reference's (docs/REFERENCE.md)."""
    text = guide(lang)
    assert not re.search(r"\bR\d+\b", text)
    for code in [*cause_codes(), *refusal_codes()]:
        assert f"`{code}`" not in text, code
        if "_" in code:  # hunt_backfire, same_heal_target: never a word of a guide
            assert code not in text, code
    # Nothing a player cannot open: no path inside the repository.
    shown = "\n".join(rules_pages(lang))
    assert not re.search(r"\w+\.md\b", shown) and "docs/" not in shown


#: The original's "(Пишем под своими основными аккаунтами)" is for questions; in an anonymous
#: game, talking about the game under one's own name gives one's nickname away.
OWN_NAME = {"ru": "под своим именем", "en": "under your own name"}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R7_the_guide_keeps_the_game_in_game_and_questions_in_discussion(lang: Lang) -> None:
    text = "\n".join(rules_pages(lang))
    assert OWN_NAME[lang] not in text.casefold()
    line = next(x for x in text.splitlines() if "#" + t(lang, "channel.discussion") in x)
    assert "#" + t(lang, "channel.game") in line


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R32_the_guide_says_the_votes_of_the_dead_count_and_the_order_of_results(
    lang: Lang,
) -> None:
    """Where players look: the votes of players who die in the turn still count (R32), and the
    steps of the results in their order (section 8), for the game's own roles."""
    text = "\n".join(rules_pages(lang))
    r32 = {"ru": "Голоса погибших в этот же ход", "en": "Votes of players who die that turn"}
    assert r32[lang] in text
    steps = [t(lang, f"guide.step.{name}") for name in ("hunt", "kill", "check", "lynch")]
    positions = [text.index(step) for step in steps]
    assert positions == sorted(positions)
    original = "\n".join(rules_pages(lang, frozenset({"commissar", "crook", "villager"})))
    assert t(lang, "guide.step.kill") not in original
    assert t(lang, "guide.step.steal") in original
