"""The server's own presets, end to end: ``/mafia preset save|list|delete``, offered wherever a
preset is (``/mafia new preset``, ``/mafia roles preset``, which take a saved preset's name or
a built-in preset's number of players; autocomplete offers both), checked as any setup when
saved and when used, refused privately with the reason, in the reader's language."""

from __future__ import annotations

import pytest
from simcord import Env

from bot.render import role_summary
from core.i18n import t
from core.preset_service import MAX_PRESET_NAME, MAX_PRESETS
from rules.setup import parse_role_list, preset
from tests.e2e.helpers import (
    bot_of,
    client_locale,
    make_world,
    refusal,
    reply_text,
    slot,
)

CLASSIC = "mafioso=1 doctor=1 villager=2"


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_saved_preset_is_listed_offered_used_and_deleted(
    simcord_env: Env, lang: str
) -> None:
    env = simcord_env
    world = make_world(env)
    host, lobby = world.admin, world.lobby
    reply_text(await host.slash(lobby, "mafia setup", language=lang))
    with client_locale(host, lang):
        said = reply_text(
            await host.slash(lobby, "mafia preset save", name="Evening", roles=CLASSIC)
        )
        summary = role_summary(lang, parse_role_list(CLASSIC))
        assert said == t(lang, "preset.saved", name="Evening", roles=summary)
        # the same name in another case replaces it
        said = reply_text(
            await host.slash(lobby, "mafia preset save", name="EVENING", roles=CLASSIC)
        )
        assert said == t(lang, "preset.replaced", name="EVENING", roles=summary)
        listed = reply_text(await host.slash(lobby, "mafia preset list"))
        assert t(lang, "preset.list_title", count=1, maximum=MAX_PRESETS) in listed
        assert "EVENING" in listed

        # offered next to the built-in presets
        offered = await host.autocomplete(lobby, "mafia new", "preset", "")
        values = [c["value"] for c in offered]
        assert values[0] == "EVENING" and "8" in values
        offered = await host.autocomplete(lobby, "mafia roles", "preset", "1")
        assert [c["value"] for c in offered][:3] == ["10", "11", "12"]

        # used by /mafia new and /mafia roles (by its name in any case)
        reply_text(
            await host.slash(lobby, "mafia new", schedule="fast", timezone="UTC", preset="evening")
        )
        game = await bot_of(env).store.open_game(world.guild.id)
        assert game is not None and sorted(game.roles or []) == sorted(parse_role_list(CLASSIC))
        said = reply_text(await host.slash(lobby, "mafia roles", preset="8"))
        assert said == t(lang, "roles.set", roles=role_summary(lang, preset(8)))
        reply_text(await host.slash(lobby, "mafia roles", preset="Evening"))
        game = await bot_of(env).store.open_game(world.guild.id)
        assert game is not None and len(game.roles or []) == 4

        said = reply_text(await host.slash(lobby, "mafia preset delete", name="evening"))
        assert said == t(lang, "preset.deleted", name="EVENING")
        said = await refusal(env, host.slash(lobby, "mafia roles", preset="Evening"))
        assert said == t(lang, "error.unknown_preset", name="Evening")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_preset_is_checked_as_any_setup_and_bounded(simcord_env: Env, lang: str) -> None:
    env = simcord_env
    world = make_world(env)
    host, lobby = world.admin, world.lobby
    reply_text(await host.slash(lobby, "mafia setup", language=lang))
    with client_locale(host, lang):
        # no mafia: refused with the setup's own reason, nothing saved
        said = await refusal(
            env, host.slash(lobby, "mafia preset save", name="Town", roles="villager=4")
        )
        assert said == t(lang, "error.setup.too_few_mafia", mafia=0, players=4, need=1)
        said = await refusal(env, host.slash(lobby, "mafia preset save", name="12", roles=CLASSIC))
        assert said == t(lang, "error.preset_name_number")
        long = "x" * (MAX_PRESET_NAME + 1)
        said = await refusal(env, host.slash(lobby, "mafia preset save", name=long, roles=CLASSIC))
        assert said == t(lang, "error.preset_name_too_long", maximum=MAX_PRESET_NAME)
        for i in range(MAX_PRESETS):
            reply_text(await host.slash(lobby, "mafia preset save", name=f"p{i}", roles=CLASSIC))
        said = await refusal(
            env, host.slash(lobby, "mafia preset save", name="more", roles=CLASSIC)
        )
        assert said == t(lang, "error.presets_full", maximum=MAX_PRESETS)
        assert len(await bot_of(env).store.presets(world.guild.id)) == MAX_PRESETS
        # checked again when used: a preset the rules no longer accept is refused with why
        store = bot_of(env).store
        await store.save_preset(
            world.guild.id, "old", "Old", ["sergeant", "mafioso", "villager", "villager"], limit=99
        )
        reply_text(await host.slash(lobby, "mafia new", schedule="fast", timezone="UTC"))
        said = await refusal(env, host.slash(lobby, "mafia roles", preset="Old"))
        assert said == t(lang, "error.setup.sergeant_without_commissar")
        said = await refusal(env, host.slash(slot(world, "game"), "mafia roles", preset="missing"))
        assert said == t(lang, "error.unknown_preset", name="missing")
