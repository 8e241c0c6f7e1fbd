"""Issue 31: the bot takes the host's own words, and speaks as a forum host.

The role list is written as a host writes it on his forum (``комиссар=1 жулик=1 мж=3``, the
original's own tally), and a refusal names the roles in the table's language (R43)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from simcord import Env

from core.i18n import t
from core.zones import said_time
from tests.e2e.helpers import (
    add_players,
    client_locale,
    live_game,
    make_world,
    refusal,
    reply_text,
    seats_by_role,
    slot,
)


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


@pytest.mark.parametrize(
    ("lang", "zone", "said"),
    [
        ("ru", "Europe/Moscow", "Изменить можно до 21:00 по Москве."),
        ("en", "Europe/Moscow", "You can change it until 21:00 Moscow time."),
        ("en", "UTC", "You can change it until 21:00 UTC."),
    ],
)
async def test_R5_a_confirmation_says_until_when_the_request_may_be_changed(
    simcord_env: Env, lang: str, zone: str, said: str
) -> None:
    """The forum schedule's deadline (21:00) in the game's zone, as players say it; the
    pistol's one shot is not said to be changeable."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(4)])
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    new = world.admin.slash(world.lobby, "mafia new", schedule="forum", timezone=zone)
    reply_text(await new)
    for actor in actors:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    roles = "мафиози=1 комиссар=1 мж=2" if lang == "ru" else "mafioso=1 cop=1 townie=2"
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=roles))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    seats = seats_by_role(world, actors)
    target = seats["villager"][0]
    with client_locale(None, lang):
        text = reply_text(
            await seats["mafioso"][1].slash(slot(world, "game"), "kill", target=target)
        )
    assert text.splitlines()[-1] == said
    assert "Europe/Moscow" not in text
    deadline = live_game(world).record.deadline
    assert deadline is not None and said_time(lang, deadline, zone) in said


def test_a_time_is_said_with_the_zones_city_or_its_offset() -> None:
    summer = datetime(2026, 7, 1, 18, 0, tzinfo=UTC)
    assert said_time("ru", summer, "Europe/Moscow") == "21:00 по Москве"
    assert said_time("en", summer, "Europe/Moscow") == "21:00 Moscow time"
    assert said_time("ru", summer, "Europe/Kyiv") == "21:00 по Киеву"
    assert said_time("en", summer, "America/New_York") == "14:00 New York time"
    assert said_time("en", summer, "UTC") == "18:00 UTC"
    assert said_time("ru", summer, "Asia/Kolkata") == "23:30 (UTC+5:30)"
    assert said_time("en", summer, "America/Sao_Paulo") == "15:00 (UTC-3)"


@pytest.mark.parametrize(
    ("lang", "stiff"),
    [
        ("ru", ["окно выстрела", "на моей стороне", "Кто стрелял", "Против кого", "Адресат:"]),
        ("ru", ["Убийство мафии", "Автор:"]),
        ("en", ["on my side", "this night", "Manage Server host)", "pistol window"]),
        ("en", ["Mafia kill, turn"]),
    ],
)
def test_no_rules_engine_words_where_a_host_would_write_his_own(
    lang: str, stiff: list[str]
) -> None:
    """Issue 31: the labelled fields and the engine's words a forum host never writes."""
    from core.i18n import catalogue

    texts = "\n".join(catalogue(lang).values())
    for phrase in stiff:
        assert phrase not in texts, phrase
    board = t(lang, "mafia.board.title", turn=2)
    assert board in ("Выбор мафии, ход 2", "The mafia's choice, turn 2")


@pytest.mark.parametrize(
    ("lang", "typed", "offered"),
    [
        ("ru", "комиссар=1 жу", ["комиссар=1 жулик=1"]),
        (
            "ru",
            "мафиози=2 м",
            ["мафиози=2 мирный житель=1", "мафиози=2 мафиози=1", "мафиози=2 маньяк=1"],
        ),
        ("en", "cop=1 ro", ["cop=1 Roleblocker=1"]),
    ],
)
async def test_R43_the_role_list_is_completed_in_the_tables_words(
    simcord_env: Env, lang: str, typed: str, offered: list[str]
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    choices = await world.admin.autocomplete(world.lobby, "mafia roles", "roles", typed)
    values = [c["value"] for c in choices]
    assert sorted(values) == sorted(offered)
    from rules.setup import parse_role_list

    for value in values:
        parse_role_list(value)  # every choice is a list the command takes


async def test_the_setup_is_printed_once_and_status_keeps_it(simcord_env: Env) -> None:
    """The role list is in turn 1's opening, not in every turn's; /status shows it, in the
    setup's published order (never the seats')."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(4)])
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for actor in actors:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles="мж=2 комиссар мафиози"))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    with client_locale(None, "ru"):
        status = reply_text(await actors[0].slash(slot(world, "game"), "status"))
    assert "Роли в этой игре: Мирный житель — 2, Мафиози, Комиссар." in status
