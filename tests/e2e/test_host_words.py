"""Issue 31: the bot takes the host's own words, and speaks as a forum host.

The role list is written as a host writes it on his forum (``комиссар=1 жулик=1 мж=3``, the
original's own tally), and a refusal names the roles in the table's language (R43)."""

from __future__ import annotations

import pytest
from simcord import Env

from core.i18n import t
from tests.e2e.helpers import client_locale, make_world, refusal, reply_text


@pytest.mark.parametrize(
    ("lang", "roles", "shown"),
    [
        ("ru", "Комиссар - 1, Жулик - 1, МЖ - 3", ["Комиссар", "Жулик", "Мирный житель — 3"]),
        ("en", "cop=1 crook=1 townies=3", ["Cop", "Crook", "Villager ×3"]),
    ],
)
async def test_R43_the_host_writes_the_role_list_in_his_words(
    simcord_env: Env, lang: str, roles: str, shown: list[str]
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    with client_locale(world.admin, lang):
        text = reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=roles))
    for part in shown:
        assert part in text
    assert "villager" not in text and "commissar" not in text


@pytest.mark.parametrize(
    ("lang", "typed", "quoted", "names", "codes"),
    [
        ("ru", "мж=3 жрец=1", "«жрец»", ["мирный житель", "путана"], ["villager", "prostitute"]),
        ("en", "villager=3 wizard=1", "“wizard”", ["Villager", "Roleblocker"], ["prostitute"]),
    ],
)
async def test_R43_a_refused_role_list_names_the_roles_in_the_tables_language(
    simcord_env: Env, lang: str, typed: str, quoted: str, names: list[str], codes: list[str]
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    with client_locale(world.admin, lang):
        asked = world.admin.slash(world.lobby, "mafia roles", roles=typed)
        text = await refusal(simcord_env, asked)
    assert quoted in text
    for name in names:
        assert name in text
    for code in codes:
        assert code not in text
    assert text.startswith(t(lang, "error.setup.unknown_role", role="X", known="Y")[:5])


def test_R58_a_wish_may_name_the_role_as_a_role_list_does() -> None:
    from cogs.lobby import typed_wish

    assert typed_wish("мж") == "villager"
    assert typed_wish("Комиссар") == "commissar"
    assert typed_wish("cop") == "commissar"
    assert typed_wish("wizard") == "wizard"  # left for the service to refuse
