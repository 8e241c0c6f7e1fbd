"""Every invalid setup (REFERENCE.md section 10) reaches the host as a translated sentence with its
facts, in both languages (never an English fragment inside a Russian reply)."""

from __future__ import annotations

import pytest

from core.i18n import t
from core.service import setup_refusal
from rules.engine import Game
from rules.setup import SetupError, assign_roles, parse_role_list, preset, validate_setup

CASES = {
    "unknown_role": lambda: parse_role_list("wizard=1 villager=3"),
    "bad_count": lambda: parse_role_list("mafioso=x villager=3"),
    "too_few_players": lambda: preset(2),
    "duplicate_role": lambda: validate_setup(["boss", "boss", *["villager"] * 6]),
    "too_few_mafia": lambda: validate_setup(["mafioso", *["villager"] * 5]),
    "too_many_mafia": lambda: validate_setup(["mafioso", "mafioso", "villager", "villager"]),
    "too_many_loners": lambda: validate_setup(["crook", "maniac", "villager", "villager"]),
    "foundling_without_boss": lambda: validate_setup(["mafioso", "foundling", "villager"]),
    "sergeant_without_commissar": lambda: validate_setup(["mafioso", "sergeant", "villager"]),
    "count_mismatch": lambda: assign_roles([1, 2, 3], ["mafioso", *["villager"] * 3], 1),
    "duplicate_nick": lambda: Game.new(
        [("Ann", "mafioso"), ("ANN", "villager"), ("B", "villager")]
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_R43_invalid_setup_is_explained_in_both_languages(code: str) -> None:
    with pytest.raises(SetupError) as err:
        CASES[code]()
    assert err.value.code == code
    refusal = setup_refusal(err.value)
    for lang in ("en", "ru"):
        text = refusal.render(lang)
        assert text != refusal.key  # the catalogue has it
        assert "{" not in text
        assert t(lang, refusal.key, **refusal.values) != refusal.key
    english_message = str(err.value)
    assert english_message not in refusal.render("ru")
