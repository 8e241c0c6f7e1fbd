"""Counts with a noun take the noun's plural form from the catalogue (Fluent selectors on the
CLDR plural categories): Russian one/few/many (1 голос, 2 голоса, 5 голосов, 21 голос),
English one/other (1 vote, 2 votes)."""

from __future__ import annotations

import re

import pytest

from core.i18n import t, variables

#: Russian plural category of each sample count (CLDR): 11 is many, 21 one, 22 few.
RU_CATEGORY = {1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many"}
EN_CATEGORY = {1: "one", 2: "other"}

PLAYERS = (("игрок", "игрока", "игроков"), ("player", "players"))

#: key, the count's variable, the Russian forms (one, few, many), the English (one, other).
PLURALS: list[tuple[str, str, tuple[str, str, str], tuple[str, str]]] = [
    ("lynch.votes", "count", ("голос", "голоса", "голосов"), ("vote", "votes")),
    ("lynch.totals", "count", ("голос", "голоса", "голосов"), ("vote", "votes")),
    ("signup.message", "count", *PLAYERS),
    ("signup.joined", "count", *PLAYERS),
    ("signup.left", "count", *PLAYERS),
    ("status.posts", "count", ("пост", "поста", "постов"), ("post", "posts")),
    ("start.done", "players", *PLAYERS),
    (
        "host.resolve_preview",
        "alive",
        ("игрок", "игрока", "игроков"),
        ("living player", "living players"),
    ),
    (
        "host.resolve_preview_turn_1",
        "alive",
        ("игрок", "игрока", "игроков"),
        ("living player", "living players"),
    ),
    ("dawn.threshold", "needed", ("голос", "голоса", "голосов"), ("vote", "votes")),
    (
        "host.cancel_signup_preview",
        "count",
        ("игрок", "игрока", "игроков"),
        ("player", "players"),
    ),
    ("delivery.stuck", "minutes", ("минуту", "минуты", "минут"), ("minute", "minutes")),
    ("error.cooldown", "seconds", ("секунду", "секунды", "секунд"), ("second", "seconds")),
    ("error.bad_extend", "maximum", ("минуту", "минуты", "минут"), ("minute", "minutes")),
    (
        "error.setup.role_list_too_long",
        "length",
        ("знак", "знака", "знаков"),
        ("character", "characters"),
    ),
    # after "больше"/"на"/"против" the noun is genitive: одной роли, двух ролей, пяти ролей
    ("error.setup.too_many_roles", "maximum", ("роли", "ролей", "ролей"), ("role", "roles")),
    (
        "error.setup.too_few_mafia",
        "players",
        ("игрока", "игроков", "игроков"),
        ("player", "players"),
    ),
    ("error.setup.too_many_mafia", "town", ("мирного", "мирных", "мирных"), ("town", "town")),
    ("error.setup.count_mismatch", "players", *PLAYERS),
    ("error.setup.count_mismatch", "roles", ("роль", "роли", "ролей"), ("role", "roles")),
    ("state.alive", "posts", ("пост", "поста", "постов"), ("post", "posts")),
]


def render(lang: str, key: str, name: str, n: int) -> str:
    values: dict[str, object] = dict.fromkeys(variables("en", key), "x")
    values[name] = n
    return t(lang, key, **values)  # type: ignore[arg-type]


def has_form(text: str, n: int, form: str) -> bool:
    return re.search(rf"(?<!\d){n} {re.escape(form)}(?!\w)", text) is not None


@pytest.mark.parametrize(("key", "name", "ru", "en"), PLURALS, ids=lambda v: str(v))
def test_counts_take_the_plural_form(
    key: str, name: str, ru: tuple[str, str, str], en: tuple[str, str]
) -> None:
    ru_forms = dict(zip(("one", "few", "many"), ru, strict=True))
    for n, category in RU_CATEGORY.items():
        text = render("ru", key, name, n)
        assert has_form(text, n, ru_forms[category]), f"ru {n}: {text}"
    en_forms = dict(zip(("one", "other"), en, strict=True))
    for n, category in EN_CATEGORY.items():
        text = render("en", key, name, n)
        assert has_form(text, n, en_forms[category]), f"en {n}: {text}"


def test_russian_verb_agrees_with_the_count() -> None:
    """The verb before a count agrees with it: записался 1, записались 2, записалось 5."""
    assert render("ru", "error.setup.count_mismatch", "players", 21).startswith("Записался 21")
    assert render("ru", "error.setup.count_mismatch", "players", 3).startswith("Записались 3")
    assert render("ru", "error.setup.count_mismatch", "players", 12).startswith("Записалось 12")


def test_threshold_line_agrees_with_each_count() -> None:
    """R31: "Порог: 2 голоса (¼ от 8 голосующих), подано 4": the electorate after "от" is
    genitive (одного голосующего, 21 голосующего), and "подан" agrees with one vote."""
    assert (
        t("ru", "dawn.threshold", needed=2, electorate=8, cast=4)
        == "Порог: 2 голоса (¼ от 8 голосующих), подано 4."
    )
    assert (
        t("ru", "dawn.threshold", needed=6, electorate=21, cast=1)
        == "Порог: 6 голосов (¼ от 21 голосующего), подан 1."
    )
    assert (
        t("en", "dawn.threshold", needed=1, electorate=1, cast=0)
        == "Threshold: 1 vote (¼ of 1 voter), 0 cast."
    )
