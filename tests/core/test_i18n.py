"""The message catalogues (Fluent): same messages, same variables, and the rendering rules."""

from __future__ import annotations

import logging

import discord
import pytest
from discord import app_commands

from bot.command_i18n import CatalogueTranslator, ltext
from bot.layout import missing_bot_permissions
from core.i18n import (
    LANGUAGES,
    Matcher,
    catalogue,
    lang_for_locale,
    t,
    variables,
)


def test_catalogues_have_the_same_keys() -> None:
    en, ru = set(catalogue("en")), set(catalogue("ru"))
    assert sorted(en - ru) == [], "missing in ru.json"
    assert sorted(ru - en) == [], "missing in en.json"


@pytest.mark.parametrize("key", sorted(catalogue("en")))
def test_translations_use_the_same_variables(key: str) -> None:
    expected = variables("en", key)
    for lang in LANGUAGES:
        assert variables(lang, key) == expected, f"{lang}: {key}"


def sample_values(key: str, value: object) -> dict[str, object]:
    return dict.fromkeys(variables("en", key), value)


@pytest.mark.parametrize("key", sorted(catalogue("en")))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_renders_with_its_variables(lang: str, key: str) -> None:
    """Every message renders, with text or numbers in its variables, and no value is left out
    (a missing one raises) nor shown as a Fluent placeholder."""
    for value in ("Журавль", 1, 2, 5, 21):
        text = t(lang, key, **sample_values(key, value))  # type: ignore[arg-type]
        assert text and "{" not in text and "\u2068" not in text, f"{lang}: {key}"
    for name in variables("en", key):
        values = sample_values(key, "x")
        del values[name]
        with pytest.raises(KeyError):
            t(lang, key, **values)  # type: ignore[arg-type]


def test_no_empty_or_untrimmed_text() -> None:
    for lang in LANGUAGES:
        for key, text in catalogue(lang).items():
            assert text and text == text.strip(), f"{lang}: {key}"


def test_every_bot_permission_has_a_name() -> None:
    everything = missing_bot_permissions(discord.Permissions.none())
    assert everything
    for lang in LANGUAGES:
        for flag in everything:
            assert f"perm.{flag}" in catalogue(lang)


def test_t_fills_named_placeholders() -> None:
    assert t("en", "announce.done", channel="#game") == "Posted in #game."
    assert t("ru", "announce.done", channel="#игра") == "Опубликовано в #игра."


def test_t_without_a_placeholder_value_raises() -> None:
    with pytest.raises(KeyError):
        t("en", "announce.done")


def test_numbers_are_shown_without_grouping_or_isolation_marks() -> None:
    assert t("en", "error.bad_extend", maximum=1440) == (
        "The deadline can be moved by 1 to 1440 minutes at a time."
    )
    assert "\u2068" not in t("ru", "announce.done", channel="#игра")


def test_a_matcher_reads_the_values_back() -> None:
    text = t("ru", "card.title", nick="Журавль", role="Доктор")
    assert Matcher("ru", "card.title").match(text) == {"nick": "Журавль", "role": "Доктор"}
    assert Matcher("ru", "card.title").match("что-то другое") is None


def test_unknown_key_is_logged_and_shown_as_is(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="core.i18n"):
        assert t("ru", "no.such.key") == "no.such.key"
    assert "no.such.key" in caplog.text


@pytest.mark.parametrize(
    ("locale", "lang"),
    [(discord.Locale.russian, "ru"), ("ru", "ru"), (discord.Locale.ukrainian, "en"), (None, "en")],
)
def test_lang_for_locale(locale: discord.Locale | str | None, lang: str) -> None:
    assert lang_for_locale(locale) == lang


def test_ltext_is_the_english_text_carrying_its_key() -> None:
    text = ltext("cmd.mafia.description")
    assert text.message == catalogue("en")["cmd.mafia.description"]
    assert text.extras == {"key": "cmd.mafia.description"}


async def test_translator_serves_russian_only() -> None:
    translator = CatalogueTranslator()
    context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.choice_name,
        app_commands.Choice(name="Russian", value="ru"),
    )
    text = ltext("choice.language.ru")
    assert await translator.translate(text, discord.Locale.russian, context) == "Русский"
    assert await translator.translate(text, discord.Locale.german, context) is None
    assert await translator.translate(text, discord.Locale.american_english, context) is None
