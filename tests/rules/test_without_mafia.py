"""Section 10 (R43, changed) and R15: a game without mafia, the original's own closing list
"Комиссар, Жулик, МЖ - 3". Valid with at least 4 players and at least one loner, the loners
fewer than the town, the other conditions of R43 holding; it has no mafia kill and no Boss,
Foundling or Troublemaker; the town wins once no loner is alive (R15)."""

from __future__ import annotations

import pytest

from rules.setup import SetupError, validate_setup
from tests.rules.dsl import deaths, play, rejected, turn

ORIGINAL = "Com:commissar Cr:crook V1 V2 V3"


def test_R43_the_originals_list_a_commissar_a_crook_and_three_villagers_is_valid():
    validate_setup(["commissar", "crook", "villager", "villager", "villager"])
    validate_setup(["maniac", "villager", "villager", "villager"])


@pytest.mark.parametrize(
    ("roles", "code"),
    [
        (["crook", "villager", "villager"], "too_few_players"),  # at least 4
        (["crook", "maniac", "villager", "villager"], "too_many_loners"),  # fewer than town
        (["villager", "villager", "villager", "commissar"], "too_few_mafia"),  # a loner needed
        (["crook", "crook", "villager", "villager", "villager"], "duplicate_role"),
        (["crook", "sergeant", "villager", "villager", "villager"], "sergeant_without_commissar"),
        (["crook", "foundling", "villager", "villager", "villager"], "foundling_without_boss"),
    ],
)
def test_R43_a_setup_without_mafia_is_refused_with_the_reason(roles: list[str], code: str):
    with pytest.raises(SetupError) as raised:
        validate_setup(roles)
    assert raised.value.code == code


def test_R43_R23_without_mafia_there_is_no_kill():
    out = play(ORIGINAL, turn("V1 kill V2", "Cr kill V2", "Com check Cr"))
    assert rejected(out, 1) == [(0, "wrong_role"), (1, "wrong_role")]
    assert deaths(out, 1) == []
    assert out["turns"][0]["checks"][0]["result"] == "not_mafia"  # R57: the Crook


def test_R15_without_mafia_the_town_wins_once_no_loner_is_alive():
    out = play(ORIGINAL, turn(), turn("V1 vote Cr", "V2 vote Cr", "Cr vote V1"))
    assert deaths(out, 2) == [("Cr", "lynch")]
    assert out["winner"] == "town"


def test_R15_without_mafia_the_game_goes_on_while_the_crook_lives():
    out = play(ORIGINAL, turn(), turn("V1 vote V2", "V3 vote V2", "Cr vote V2"))
    assert deaths(out, 2) == [("V2", "lynch")]
    assert out["turns"][1]["winner"] is None


def test_R15_without_mafia_the_crook_wins_alone():
    out = play(
        ORIGINAL,
        turn(),
        turn("Cr steal V1", "V1 vote Com", "Cr vote V2", "V3 vote V2"),  # V2 hanged (R57)
        turn("Cr vote V3", "V1 vote V3", "Com vote Cr"),
        turn(host=["exclude V1"]),
    )
    assert [d[0] for d in deaths(out, 2)] == ["V2"]
    assert out["winner"] == "crook"
