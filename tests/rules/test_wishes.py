"""Role wishes (R58): what may be wished for, the tally, the setup adopted from it (R43), and
the dealing that grants the wishes it can (R13: from the game's seed)."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.roles import ROLES, Faction, Role, register, unregister
from rules.setup import SetupError, deal, preset, validate_setup
from rules.wishes import deal_with_wishes, roles_from_wishes, wish_tally, wishable_roles


def test_R58_tally_counts_by_role_only_in_the_registry_order() -> None:
    wishes = {7: "villager", 3: "commissar", 9: "villager", 1: "mafioso"}
    assert wish_tally(wishes) == {"villager": 2, "mafioso": 1, "commissar": 1}
    assert list(wish_tally(dict(reversed(list(wishes.items()))))) == list(wish_tally(wishes))
    assert wish_tally({}) == {}


def test_R58_R43_the_setup_from_wishes_fills_with_villagers_and_is_checked() -> None:
    """The original's closing list, counted: the roles wished for, Villagers for the rest."""
    members = [1, 2, 3, 4, 5, 6]
    wishes = {1: "mafioso", 2: "commissar", 5: "doctor"}
    roles = roles_from_wishes(members, wishes)
    assert Counter(roles) == Counter({"villager": 3, "mafioso": 1, "commissar": 1, "doctor": 1})
    with pytest.raises(SetupError) as refused:  # 6 players need 2 mafia (R24)
        validate_setup(roles)
    assert refused.value.code == "too_few_mafia"
    wishes[6] = "mafioso"
    validate_setup(roles_from_wishes(members, wishes))
    # A wish of a member who left is not counted (only the members signed up).
    assert len(roles_from_wishes([1, 2], wishes)) == 2


def test_R58_R22_the_foundling_is_not_offered() -> None:
    """R22: the Foundling is told he is a Villager; a granted wish would tell him otherwise."""
    assert "foundling" not in wishable_roles()
    assert {"villager", "mafioso", "commissar", "doctor"} <= set(wishable_roles())


def test_R58_wishable_roles_come_from_the_registry() -> None:
    """A role added to the registry is offered at once: the list is never written out."""

    class Juggler(Role):
        code: ClassVar[str] = "juggler_test"
        faction: ClassVar[Faction] = Faction.TOWN

    register(Juggler)
    try:
        assert "juggler_test" in wishable_roles()
        assert "juggler_test" in ROLES
    finally:
        unregister(Juggler)
    assert "juggler_test" not in wishable_roles()


def test_R58_wishes_are_granted_first_then_the_rest_at_random() -> None:
    seats = [10, 20, 30, 40, 50, 60]
    roles = ["mafioso", "mafioso", "commissar", "doctor", "villager", "villager"]
    wishes: dict[int, str | None] = {20: "commissar", 40: "mafioso", 60: "doctor"}
    dealt = dict(zip(seats, deal_with_wishes(seats, roles, 5, wishes), strict=True))
    assert dealt[20] == "commissar" and dealt[40] == "mafioso" and dealt[60] == "doctor"
    assert Counter(dealt.values()) == Counter(roles)


def test_R58_more_wishers_than_places_are_drawn_with_the_seed() -> None:
    """Three wish for the one Commissar: one gets it, drawn from the seed (the same seed the
    same winner), the others get what is left; a wish for a role not in the setup is not
    granted."""
    seats = list(range(1, 9))
    roles = preset(8)
    wishes: dict[int, str | None] = {2: "commissar", 5: "commissar", 7: "commissar", 8: "maniac"}
    winners = set()
    for seed in range(40):
        dealt = dict(zip(seats, deal_with_wishes(seats, roles, seed, wishes), strict=True))
        granted = [m for m in (2, 5, 7) if dealt[m] == "commissar"]
        assert len(granted) == 1
        assert dealt[8] != "maniac"
        assert deal_with_wishes(seats, roles, seed, wishes) == list(dealt.values())
        winners.add(granted[0])
    assert winners == {2, 5, 7}  # the draw, not the seat or the order of the wishes


def test_R58_R13_the_deal_with_wishes_ignores_the_sign_up_order() -> None:
    members = [31, 7, 99, 4]
    roles = ["mafioso", "commissar", "villager", "villager"]
    wishes: dict[int, str | None] = {99: "commissar", 4: "mafioso"}
    first = deal(members, roles, 3, wishes)
    assert deal(list(reversed(members)), roles, 3, wishes) == first
    assert dict(first)[99] == "commissar" and dict(first)[4] == "mafioso"


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=4, max_value=16),
    seed=st.integers(min_value=0, max_value=2**40),
    data=st.data(),
)
def test_R58_every_deal_is_the_setup_and_grants_all_it_can(
    n: int, seed: int, data: st.DataObject
) -> None:
    roles = preset(n)
    seats = list(range(100, 100 + n))
    choices = [None, *wishable_roles(), "maniac"]
    wishes = {m: data.draw(st.sampled_from(choices)) for m in seats}
    dealt = deal_with_wishes(seats, roles, seed, wishes)
    assert Counter(dealt) == Counter(roles)  # the setup, exactly
    places = Counter(roles)
    for code in places:
        wishers = [m for m in seats if wishes[m] == code]
        granted = [m for m, role in zip(seats, dealt, strict=True) if role == code == wishes[m]]
        assert len(granted) == min(len(wishers), places[code])
