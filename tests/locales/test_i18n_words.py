"""Players read their own language: no rule IDs, no English in Russian, and every command a
text names is the name the reader's Discord client shows (``/охота``, not ``/hunt``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.render import render_role_card
from core.i18n import LANGUAGES, Lang, catalogue, t, variables
from rules.knowledge import RoleCard
from rules.roles.registry import INTERNAL_ROLES, ROLES

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Sample values a Russian reader would see: Russian nicknames, numbers, Discord markup.
RU_SAMPLES: dict[str, object] = {
    "user": "<@123>",
    "member": "Журавль",
    "deadline": "<t:1700000000:f>",
    "relative": "<t:1700000000:R>",
    "channel": "#игра",
    "category": "Мафия",
    "game": 7,
    "turn": 2,
    "role": "Доктор",
    "permissions": "Управлять каналами",
}
#: Latin words a Russian text may hold: product and key names, URL schemes, time zone names,
#: the role codes a host types in ``/мафия роли`` (``mafioso=2 villager=5``), and the names of
#: picture formats (a player's picture in ``/сказать``).
ALLOWED_LATIN = frozenset(
    {
        "Discord",
        "Ctrl",
        "http",
        "https",
        "Europe",
        "Moscow",
        "UTC",
        "everyone",
        "JPEG",
        "PNG",
        "GIF",
        "WebP",
        *ROLES,
        *INTERNAL_ROLES,
    }
)


def render_ru(key: str) -> str:
    values = {
        name: RU_SAMPLES.get(name, 3 if name in {"count", "players"} else "Журавль")
        for name in variables("ru", key)
    }
    return t("ru", key, **values)  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_cites_a_rule_id(lang: Lang) -> None:
    """Players do not know rule IDs (R24): a refusal says the rule in words."""
    cited = {k: v for k, v in catalogue(lang).items() if re.search(r"\bR\d{1,2}\b", v)}
    assert cited == {}


@pytest.mark.parametrize("key", sorted(catalogue("ru")))
def test_russian_has_no_english_words(key: str) -> None:
    words = set(re.findall(r"[A-Za-z]{3,}", render_ru(key)))
    assert words <= ALLOWED_LATIN, f"{key}: {sorted(words - ALLOWED_LATIN)}"


def command_names(lang: Lang) -> tuple[set[str], set[str]]:
    """The top-level command names and the ``/mafia`` subcommand names of ``lang``."""
    names = catalogue(lang)
    top = {v for k, v in names.items() if re.fullmatch(r"cmd\.\w+\.name", k)}
    sub = {v for k, v in names.items() if re.fullmatch(r"cmd\.mafia\.\w+\.name", k)}
    return top, sub


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_a_text_names_is_the_readers_command(lang: Lang) -> None:
    top, sub = command_names(lang)
    group = t(lang, "cmd.mafia.name")
    for key, text in catalogue(lang).items():
        if key.startswith("cmd."):
            continue
        for found in re.finditer(r"(?<![\w:/])/(\w+)(?: (\w+))?", text):
            name, following = found.groups()
            assert name in top, f"{lang}: {key}: /{name}"
            if name == group:
                assert following in sub, f"{lang}: {key}: /{name} {following}"


def test_a_role_card_names_the_commands_in_the_readers_language() -> None:
    card = RoleCard(
        nick="Журавль",
        role="commissar",
        faction="town",
        verbs=("vote", "hunt", "note", "check", "post"),
        team=(),
        commissar=None,
        alive=True,
    )
    text = render_role_card("ru", card)
    assert "Ваши команды: /голос, /охота, /записка, /проверить" in text
    assert not set(re.findall(r"[A-Za-z]{3,}", text))
    assert "/hunt" in render_role_card("en", card)


#: What players read (role cards, checks, notices, results, reminders, the guide's lines, the
#: channels' topics, the archive): one host speaks, and he is never "the bot". Messages to the
#: hosts about setting the bot up, and the refusal of a bot account's sign-up, are not here.
PLAYERS_READ = re.compile(
    r"(card|check|announce|reminder|dawn|lynch|guide|play|death|cause|winner|gameover|status"
    r"|archive|refusal)\.|topic\.(game|discussion)$"
)
BOT_WORD = {"ru": r"\bбот(а|у|ом|е)?\b", "en": r"\bbot('s)?\b"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_host_speaks_to_the_players(lang: Lang) -> None:
    """The bot signs as the host: nothing a player reads says "the bot" answers, while the
    cards speak of a host (issue: one host)."""
    said = {
        key: text
        for key, text in catalogue(lang).items()
        if PLAYERS_READ.match(key) and re.search(BOT_WORD[lang], text, re.IGNORECASE)
    }
    assert said == {}
    guide = (DOCS / f"rules.{lang}.md").read_text(encoding="utf-8")
    assert not re.search(BOT_WORD[lang], guide, re.IGNORECASE)
