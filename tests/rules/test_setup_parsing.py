"""Parsing what a host or player types (REFERENCE.md section 10, R43, R52): every input is either
understood or refused with a SetupError code that has a translated sentence, never a crash,
and the work is bounded by the length of the text (no count can cost memory or time)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.i18n import t
from core.service import setup_refusal
from rules.roles import ROLES
from rules.schedule import ScheduleError, make_schedule
from rules.setup import (
    MAX_PLAYERS,
    MAX_ROLE_LIST_CHARS,
    SetupError,
    parse_role_list,
    preset,
    validate_setup,
)
from rules.text import is_blank


def refused_code(text: str) -> str:
    with pytest.raises(SetupError) as err:
        parse_role_list(text)
    refusal = setup_refusal(err.value)
    for lang in ("en", "ru"):  # R43: the host is told why, in his language
        rendered = refusal.render(lang)
        assert rendered != refusal.key and "{" not in rendered
    return err.value.code


@pytest.mark.parametrize(
    "text",
    [
        "mafioso=²",  # str.isdigit() accepts it, int() does not
        "mafioso=٣ villager=3",  # Arabic-Indic digit three
        "villager=３",  # fullwidth digit
        "villager=-1",
        "villager=",
        "villager=1.5",
    ],
)
def test_R43_a_count_is_ascii_digits_only(text: str) -> None:
    assert refused_code(text) == "bad_count"


@pytest.mark.parametrize(
    "text",
    [
        "villager=1000000000000000000",  # was a MemoryError
        "villager=8000000",  # was 3 s of event loop
        f"villager={MAX_PLAYERS + 1}",
        "mafioso=50 villager=50",
        "villager=" + "9" * 490,
    ],
)
def test_R43_more_roles_than_a_game_seats_is_refused_at_once(text: str) -> None:
    began = time.perf_counter()
    assert refused_code(text) == "too_many_roles"
    assert time.perf_counter() - began < 0.05


def test_R43_the_largest_list_still_parses() -> None:
    roles = parse_role_list(f"mafioso=25 villager={MAX_PLAYERS - 25}")
    assert len(roles) == MAX_PLAYERS
    validate_setup(roles)
    assert len(preset(MAX_PLAYERS)) == MAX_PLAYERS


def test_R43_a_list_longer_than_the_option_allows_is_refused() -> None:
    assert refused_code("villager=1 " * (MAX_ROLE_LIST_CHARS // 10)) == "role_list_too_long"


def test_R43_more_players_than_a_game_seats_is_refused() -> None:
    for call in (
        lambda: preset(MAX_PLAYERS + 1),
        lambda: validate_setup(["mafioso"] * 30 + ["villager"] * MAX_PLAYERS),
    ):
        with pytest.raises(SetupError) as err:
            call()
        assert err.value.code == "too_many_players"
        assert "{" not in setup_refusal(err.value).render("ru")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    st.one_of(
        st.text(max_size=MAX_ROLE_LIST_CHARS),
        st.lists(
            st.tuples(
                st.sampled_from([*ROLES, "x", ""]),
                st.sampled_from(["=", ":", "", "=="]),
                st.one_of(st.integers(min_value=0).map(str), st.text(max_size=5)),
            ),
            max_size=12,
        ).map(lambda items: " ".join(f"{n}{s}{c}" for n, s, c in items)),
    )
)
def test_R43_any_text_parses_or_is_refused_with_a_known_code(text: str) -> None:
    try:
        roles = parse_role_list(text)
    except SetupError as exc:
        assert t("en", "error.setup." + exc.code, **exc.params) != "error.setup." + exc.code
        return
    assert len(roles) <= MAX_PLAYERS
    assert set(roles) <= set(ROLES)


@pytest.mark.parametrize(
    "zone", ["America", "Europe", "", "\x00", "/etc/passwd", "../x", "Europe/", "a" * 64]
)
def test_an_unknown_time_zone_is_a_schedule_error(zone: str) -> None:
    with pytest.raises(ScheduleError) as err:  # "America" (a directory) was an IsADirectoryError
        make_schedule("fast", zone)
    assert err.value.code == "bad_timezone"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "\n\t  \r\n",
        "\u00a0\u3000",  # no-break and ideographic spaces
        "\u200b",  # zero-width space (Cf)
        "\u200b\u200c\u200d\u2060\ufeff\u00ad",  # format characters only
        " \u200e\u200f ",  # bidi marks
        "\u3164\u115f\u1160\uffa0",  # Hangul fillers
        "\u2800",  # Braille blank
        "\ufe0f\u034f",  # a variation selector, the combining grapheme joiner
    ],
)
def test_R52_a_text_that_shows_nothing_is_blank(text: str) -> None:
    assert is_blank(text)


@pytest.mark.parametrize("text", [".", "a", " a ", "\u200bhi", "0", "👍", "\u0301", "ㅤa"])
def test_R52_a_text_that_shows_something_is_not_blank(text: str) -> None:
    assert not is_blank(text)


# --- issue 31: the role list as a host writes it ---------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("комиссар=1 жулик=1 мж=3", ["commissar", "crook", *["villager"] * 3]),
        ("Комиссар - 1\nЖулик - 1\nМЖ - 3", ["commissar", "crook", *["villager"] * 3]),
        ("Мирные жители: 3, мафиози 1; дон", [*["villager"] * 3, "mafioso", "boss"]),
        ("маньяк-отравитель=1 мирный житель=2", ["maniac", "villager", "villager"]),
        (
            "путана клеветник доктор сержант подкидыш",
            ["prostitute", "troublemaker", "doctor", "sergeant", "foundling"],
        ),
        ("cop=1 townies=2 serial killer", ["commissar", "villager", "villager", "maniac"]),
        ("boss=1 mafioso=2 commissar=1", ["boss", "mafioso", "mafioso", "commissar"]),
    ],
)
def test_R43_a_role_list_reads_the_tables_words(text: str, expected: list[str]) -> None:
    assert parse_role_list(text) == expected


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_R43_every_role_parses_under_the_name_its_card_gives(lang: str) -> None:
    for code in ROLES:
        name = t(lang, f"role.{code}")
        assert parse_role_list(f"{name}=2") == [code, code], name
        assert parse_role_list(name.upper()) == [code], name


def test_R43_an_unknown_name_is_quoted_as_typed_and_the_roles_are_listed_in_the_readers_words() -> (
    None
):
    with pytest.raises(SetupError) as err:
        parse_role_list("мж=3 жрец=1")
    refusal = setup_refusal(err.value)
    ru, en = refusal.render("ru"), refusal.render("en")
    assert "«жрец»" in ru and "мирный житель" in ru and "комиссар" in ru
    assert "villager" not in ru and "commissar" not in ru
    assert "“жрец”" in en and "Cop" in en and "commissar" not in en


def test_R43_a_bad_count_names_the_role_in_the_readers_words() -> None:
    with pytest.raises(SetupError) as err:
        parse_role_list("мж=три")
    refusal = setup_refusal(err.value)
    assert "«Мирный житель»" in refusal.render("ru") and "«три»" in refusal.render("ru")
    assert "for Villager" in refusal.render("en")
