"""REFERENCE.md R44, "Decision (exact rule)": when two names are the same name, mixed-script names,
the built-in nickname pools, and how a typed name finds a game's nickname (`rules.names`).
which names players could confuse (`confusable`), and pools that never deal two."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.service import setup_refusal
from rules.engine import Game
from rules.model import HostAction, Request
from rules.names import (
    UnknownName,
    confusable,
    confusable_key,
    find_name,
    mixes_scripts,
    name_key,
    resolve_host_action,
    resolve_request,
    same_name,
    scripts_of,
)
from rules.setup import (
    MIN_POOL,
    NICKNAMES,
    SetupError,
    assign_nicknames,
    nick_key,
    validate_nicknames,
)

ZWSP, ZWJ, ZWNJ, SOFT_HYPHEN, WORD_JOINER, BOM = (
    "\u200b",
    "\u200d",
    "\u200c",
    "\u00ad",
    "\u2060",
    "\ufeff",
)
FORMAT_CHARS = [ZWSP, ZWJ, ZWNJ, SOFT_HYPHEN, WORD_JOINER, BOM, "\u200e", "\u202e"]
WHITESPACE = [" ", "\t", "\n", "\u00a0", "\u2003", "\u3000", "\u2009", "\u205f", "\x1f"]

LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéÉüÜßçÇ"
CYRILLIC = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
NEUTRAL = "0123456789-_.'!?() "

SETTINGS = settings(max_examples=300, deadline=None)

# --- the rule ----------------------------------------------------------------------------------

SAME = [
    ("Журавль", "журавль"),  # case folding
    ("Журавль", "ЖУРАВЛЬ"),
    ("Журавль", "  журавль "),  # trimming
    ("Журавль", f"Жура{ZWSP}вль"),  # a zero-width space (Cf) is removed
    ("Журавль", f"Жу{SOFT_HYPHEN}ра{ZWJ}вль{WORD_JOINER}"),  # soft hyphen, ZWJ, word joiner
    ("Anna", "\uff21nna"),  # NFKC: fullwidth A
    ("Anna", "𝐀nna"),  # NFKC: mathematical bold A
    ("Straße", "STRASSE"),  # full case folding
    ("Old Wolf", "old   wolf"),  # runs of spaces collapse to one
    ("Old Wolf", "Old\u00a0Wolf"),  # a no-break space is a space
    ("Old Wolf", "Old\t\u3000 Wolf"),  # any Unicode whitespace
    ("Old Wolf", f"Old {ZWSP} Wolf"),  # the Cf goes first, then the spaces collapse
    ("é", "e\u0301"),  # composed and decomposed
    ("é", f"e{ZWSP}\u0301"),  # composes once the zero-width space is gone
    ("ﬁnch", "Finch"),  # the fi ligature
]
DIFFERENT = [
    ("Ёж", "Еж"),  # Ё is its own letter: NFKC does not strip the diaeresis
    ("Хорёк", "Хорь"),
    ("Wolf", "Wolf 2"),
    ("Old Wolf", "OldWolf"),  # a space is not removed, only collapsed
    ("Anna", "Аnna"),  # a Cyrillic А is another letter (and the name is refused anyway)
    ("e", "é"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_R44_same_name_under_the_exact_rule(a: str, b: str) -> None:
    assert same_name(a, b)
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_R44_different_names_stay_different(a: str, b: str) -> None:
    assert not same_name(a, b)


def test_R44_nick_key_is_the_exact_rule() -> None:
    """`rules.setup.nick_key` (older imports) delegates to the one rule."""
    for a, b in SAME + DIFFERENT:
        assert nick_key(a) == name_key(a) and nick_key(b) == name_key(b)


@pytest.mark.parametrize("blank", ["", "   ", ZWSP, f" {ZWSP}\t{SOFT_HYPHEN} ", "\u3000"])
def test_R44_a_name_of_spaces_and_format_characters_is_empty(blank: str) -> None:
    assert name_key(blank) == ""


@SETTINGS
@given(st.text(max_size=30))
def test_R44_key_is_idempotent_on_any_text(text: str) -> None:
    key = name_key(text)
    assert name_key(key) == key
    assert key == key.strip() and "  " not in key


@SETTINGS
@given(st.text(alphabet=LATIN + CYRILLIC + NEUTRAL + "\u0301\u0308", max_size=20))
def test_R44_key_is_idempotent_on_names(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)


NAME_WORDS = st.lists(
    st.text(alphabet=LATIN + CYRILLIC + "0123456789-'", min_size=1, max_size=8),
    min_size=1,
    max_size=4,
)


@SETTINGS
@given(NAME_WORDS, st.data())
def test_R44_format_characters_anywhere_do_not_change_a_name(
    words: list[str], data: st.DataObject
) -> None:
    name = " ".join(words)
    position = data.draw(st.integers(min_value=0, max_value=len(name)))
    inserted = data.draw(st.text(alphabet=FORMAT_CHARS, min_size=1, max_size=3))
    assert same_name(name, name[:position] + inserted + name[position:])


@SETTINGS
@given(NAME_WORDS, st.data())
def test_R44_whitespace_runs_and_ends_do_not_change_a_name(
    words: list[str], data: st.DataObject
) -> None:
    runs = st.text(alphabet=WHITESPACE, min_size=1, max_size=3)
    spaced = data.draw(runs).join([data.draw(runs) + w if i else w for i, w in enumerate(words)])
    assert same_name(" ".join(words), data.draw(runs) + spaced + data.draw(runs))


@SETTINGS
@given(NAME_WORDS)
def test_R44_case_does_not_change_a_name(words: list[str]) -> None:
    name = " ".join(words)
    assert same_name(name, name.upper())
    assert same_name(name, name.lower())
    assert same_name(name, name.swapcase())


# --- mixed scripts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Аnna", "Bоb", "Журавль J", "Wolf-Волк", "\uff21нна"],  # the last: fullwidth Latin A
)
def test_R44_latin_and_cyrillic_letters_mixed_are_detected(name: str) -> None:
    assert mixes_scripts(name)
    assert scripts_of(name) == {"latin", "cyrillic"}


@pytest.mark.parametrize(
    "name", ["Anna", "Анна", "Wolf 2", "Журавль 3", "Ёж-42!", "Ω Omega", "Δέλτα", "123", "Дрозд_07"]
)
def test_R44_only_letters_count_and_only_latin_with_cyrillic_is_mixed(name: str) -> None:
    assert not mixes_scripts(name)


@SETTINGS
@given(
    st.text(alphabet=LATIN + NEUTRAL, max_size=12),
    st.text(alphabet=CYRILLIC + NEUTRAL, max_size=12),
)
def test_R44_one_alphabet_with_digits_and_punctuation_is_not_mixed(
    latin: str, cyrillic: str
) -> None:
    assert not mixes_scripts(latin)
    assert not mixes_scripts(cyrillic)


@SETTINGS
@given(
    st.text(alphabet=LATIN, min_size=1, max_size=8),
    st.text(alphabet=CYRILLIC, min_size=1, max_size=8),
    st.text(alphabet=NEUTRAL, max_size=4),
)
def test_R44_one_letter_of_each_alphabet_makes_a_name_mixed(
    latin: str, cyrillic: str, between: str
) -> None:
    assert mixes_scripts(latin + between + cyrillic)
    assert mixes_scripts(cyrillic + between + latin)


# --- confusable names ----------------------------------------------------------------

CONFUSABLE = [
    ("Хорёк", "Хорь"),  # the first three letters (a game dealt both)
    ("Ласка", "Ласточка"),
    ("Stoat", "Stork"),
    ("Лис", "Лиса"),  # one starts with the other
    ("Owl", "Owlet"),
    ("Ёж", "Еж"),  # "ё" read as "е"
    ("Сова", "Соня"),  # two letters apart in a short name
    ("Moose", "Mole"),
    ("Бобр", "Зубр"),
    ("Sparrow", "Sparow"),  # one letter apart in a longer name
    ("Plover", "Polver"),  # two neighbouring letters swapped
    ("Журавль", "Жyравль"),  # one letter apart, even from another alphabet
    ("ХОРЁК", f"хо{ZWSP}рь"),  # compared under the R44 key
]
NOT_CONFUSABLE = [
    ("Лис", "Рысь"),
    ("Raven", "Robin"),
    ("Сова", "Сокол"),
    ("Heron", "Hedgehog"),
    ("Starling", "Sparrow"),
    ("Скворец", "Снегирь"),
    ("Kestrel", "Kingfisher"),
]


@pytest.mark.parametrize(("a", "b"), CONFUSABLE)
def test_names_players_could_mix_up_are_confusable(a: str, b: str) -> None:
    assert confusable(a, b) and confusable(b, a)
    assert not same_name(a, b)  # R44 still tells them apart: the relation is wider


@pytest.mark.parametrize(("a", "b"), NOT_CONFUSABLE)
def test_names_far_enough_apart_are_not_confusable(a: str, b: str) -> None:
    assert not confusable(a, b) and not confusable(b, a)


def test_confusable_key_is_the_name_key_with_yo_read_as_ye() -> None:
    assert confusable_key(" ХОРЁК ") == "хорек"
    assert confusable_key(f"Ё{ZWSP}ж") == "еж"


@SETTINGS
@given(st.text(alphabet=LATIN + CYRILLIC + NEUTRAL, max_size=12), st.text(max_size=12))
def test_confusable_is_symmetric_and_wider_than_the_same_name(a: str, b: str) -> None:
    assert confusable(a, b) == confusable(b, a)
    assert confusable(a, a)
    if same_name(a, b):  # R44: the same name is always confusable
        assert confusable(a, b)


# --- the built-in pools --------------------------------------------------------------------------


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
def test_R44_every_pool_name_is_single_script_and_pairwise_distinct(theme: str) -> None:
    pool = NICKNAMES[theme]
    for name in pool:
        assert len(scripts_of(name)) == 1, name
        assert name_key(name) and name == name.strip()
    assert len({name_key(n) for n in pool}) == len(pool)


POOL_SCRIPT = {"en": {"latin"}, "ru": {"cyrillic"}}


def test_there_is_a_pool_per_language() -> None:
    assert set(NICKNAMES) == set(POOL_SCRIPT)


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
def test_every_pool_deals_a_30_player_game_and_more(theme: str) -> None:
    """the demo and a forum game seat up to 30 players, all from the pool."""
    assert MIN_POOL >= 40
    assert len(NICKNAMES[theme]) >= MIN_POOL


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
def test_no_two_names_in_a_pool_are_confusable(theme: str) -> None:
    """one game had both "Хорёк" and "Хорь"."""
    pool = NICKNAMES[theme]
    clashes = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1 :] if confusable(a, b)]
    assert clashes == []


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
def test_every_pool_name_is_one_capitalised_word_of_its_own_alphabet(theme: str) -> None:
    """R44: Russian names have no Latin letter, English names no Cyrillic one; a nickname is one
    word (the transcript shows it as "Nick (Role)")."""
    for name in NICKNAMES[theme]:
        assert scripts_of(name) == POOL_SCRIPT[theme], name
        assert name.isalpha() and name[0].isupper() and name[1:].islower(), name
    validate_nicknames(NICKNAMES[theme])  # what Game.new checks


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 7, 42, 1234])
def test_a_30_player_game_deals_distinct_names_no_one_can_confuse(theme: str, seed: int) -> None:
    nicks = assign_nicknames(30, seed=seed, theme=theme)
    assert len(nicks) == 30 and set(nicks) <= set(NICKNAMES[theme])  # no numbered round
    assert not [(a, b) for i, a in enumerate(nicks) for b in nicks[i + 1 :] if confusable(a, b)]
    validate_nicknames(nicks)


@pytest.mark.parametrize("theme", sorted(NICKNAMES))
def test_R44_assigned_nicknames_are_distinct_beyond_the_pool(theme: str) -> None:
    count = 3 * len(NICKNAMES[theme]) + 5  # numbered rounds: "Wolf 2", "Wolf 3", ...
    nicks = assign_nicknames(count, seed=5, theme=theme)
    assert len({name_key(n) for n in nicks}) == count
    assert not any(mixes_scripts(n) for n in nicks)
    validate_nicknames(nicks)  # what Game.new checks


# --- a setup (Game.new) --------------------------------------------------------------------------

THREE = ["mafioso", "villager", "villager"]


def _new(*nicks: str) -> Game:
    return Game.new(list(zip(nicks, THREE, strict=True)))


def test_R44_setup_refuses_a_mixed_script_nickname() -> None:
    with pytest.raises(SetupError) as err:
        _new("Anna", "Воb", "Cid")  # "Воb": Cyrillic В and о, Latin b
    assert err.value.code == "mixed_script_nick"
    assert err.value.params == {"nick": "Воb"}


@pytest.mark.parametrize(
    "twin", ["ANNA", " anna ", f"An{ZWSP}na", "\uff21nna", f"An{SOFT_HYPHEN}na"]
)
def test_R44_setup_refuses_two_players_with_the_same_name(twin: str) -> None:
    with pytest.raises(SetupError) as err:
        _new("Anna", "Bob", twin)
    assert err.value.code == "duplicate_nick"


def test_R44_setup_refuses_a_name_of_invisible_characters() -> None:
    with pytest.raises(SetupError) as err:
        _new("Anna", "Bob", f"{ZWSP} ")
    assert err.value.code == "empty_nick"


def test_R44_mixed_script_refusal_is_explained_in_both_languages() -> None:
    with pytest.raises(SetupError) as err:
        _new("Anna", "Bob", "Сid")
    refusal = setup_refusal(err.value)
    assert refusal.key == "error.setup.mixed_script_nick"
    for lang in ("en", "ru"):
        text = refusal.render(lang)
        assert text != refusal.key and "Сid" in text
    assert str(err.value) not in refusal.render("ru")


# --- typed names find the game's nickname --------------------------------------------------------

GAME_NAMES = ["Журавль", "Old Wolf", "Anna"]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("Журавль", "Журавль"),
        ("  журавль ", "Журавль"),
        ("ЖУРАВЛЬ", "Журавль"),
        (f"Жура{ZWSP}вль", "Журавль"),
        ("old\u00a0 WOLF", "Old Wolf"),
        ("\uff21NNA", "Anna"),
    ],
)
def test_R44_a_typed_name_finds_the_games_nickname(typed: str, found: str) -> None:
    assert find_name(GAME_NAMES, typed) == found


@pytest.mark.parametrize("typed", ["Журав", "Аnna", "OldWolf", "", "  ", ZWSP, "Wolf"])
def test_R44_an_unmatched_name_finds_nothing(typed: str) -> None:
    assert find_name(GAME_NAMES, typed) is None
    with pytest.raises(UnknownName) as err:
        resolve_request(Request(by="Anna", do="vote", target=typed), GAME_NAMES)
    assert err.value.typed == typed


def test_R44_a_request_is_respelt_as_the_game_spells_its_names() -> None:
    kill = Request(by="anna", do="kill", targets=(f"жу{ZWSP}равль", " old wolf"))
    assert resolve_request(kill, GAME_NAMES) == Request(
        by="Anna", do="kill", targets=("Журавль", "Old Wolf")
    )
    note = Request(by="Anna", do="note", to="ЖУРАВЛЬ", text="  keep   this  ")
    assert resolve_request(note, GAME_NAMES) == Request(
        by="Anna", do="note", to="Журавль", text="  keep   this  "
    )  # the note's text is not a name: untouched
    assert resolve_request(Request(by="Anna", do="post"), GAME_NAMES) == Request("Anna", "post")


def test_R44_a_host_command_is_respelt_as_the_game_spells_its_names() -> None:
    action = HostAction(do="exclude", player=" журавль")
    assert resolve_host_action(action, GAME_NAMES) == HostAction("exclude", "Журавль")
    assert resolve_host_action(HostAction("double_kill"), GAME_NAMES) == HostAction("double_kill")
    with pytest.raises(UnknownName):
        resolve_host_action(HostAction("deprive_vote", "Zed"), GAME_NAMES)
