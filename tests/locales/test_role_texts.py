"""A role is one place (docs/ADDING_A_ROLE.md): every registered role has, in both languages,
every catalogue key it implies (`Role.text_keys`: its name and card, a loner's win, its
refusals, the causes of death it brings, its verbs' commands and answers), so no player ever
reads a raw key; and a built-in role's texts live in its own files,
``locales/<lang>/roles/<code>.ftl``."""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

import pytest

from core import i18n
from core.i18n import LANGUAGES, Lang, catalogue, fluent_id, t
from rules.model import Causes, Refusals
from rules.roles import (
    BUILTIN_INTERNAL_ROLES,
    BUILTIN_ROLES,
    Doctor,
    Faction,
    Mafioso,
    Poisoner,
    Role,
    Verb,
    register,
    role_classes,
    unregister,
)


def missing_texts() -> list[tuple[str, Lang, str]]:
    """(role code, language, key) for each key a registered role implies that the language's
    catalogue lacks (the English fallback does not count: a Russian player would read
    English). The registry is read when called: a role registered at run time counts."""
    return [
        (cls.code, lang, key)
        for cls in role_classes()
        for lang in LANGUAGES
        for key in cls.text_keys()
        if key not in catalogue(lang)
    ]


def test_every_registered_role_has_every_key_it_implies() -> None:
    assert missing_texts() == []


def test_the_keys_a_role_implies() -> None:
    """What `text_keys` asks of the Doctor: name, card, both refusals, the injection's cause
    and pistol line (R18, R20), each verb's command, option, name and answer."""
    keys = set(Doctor.text_keys())
    assert {"role.doctor", "card.about.doctor"} <= keys
    assert {"refusal.injection_used", "refusal.same_heal_target"} <= keys
    assert {"cause.euthanasia", "death.euthanasia", "card.pistol.euthanasia"} <= keys
    for verb in ("heal", "inject"):
        assert {f"cmd.{verb}.name", f"cmd.{verb}.description"} <= keys
        assert {f"cmd.{verb}.opt.target.name", f"verb.{verb}", f"play.accepted.{verb}"} <= keys
    assert "winner.doctor" not in keys  # a town role wins with the town
    assert {"winner.maniac", "card.win.maniac", "stats.side.maniac"} <= set(Poisoner.text_keys())
    assert "cmd.kill.opt.second.name" in Mafioso.text_keys()  # R36's pair of targets


def _owners(key: str) -> set[str]:
    return {cls.code for cls in role_classes() if key in cls.text_keys()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_builtin_roles_texts_are_in_its_own_file(lang: Lang) -> None:
    """Each key a built-in role implies is in ``roles/<code>.ftl`` of a role that needs it
    (the mafia's kill once, in the Mafioso's), and each role file holds only role texts."""
    sources = i18n._sources(lang)
    folder = i18n.LOCALES_DIR / lang / "roles"
    for cls in (*BUILTIN_ROLES, *BUILTIN_INTERNAL_ROLES):
        for key in cls.text_keys():
            path, _ = sources.texts[fluent_id(key)]
            assert path.parent == folder and path.stem in _owners(key), (key, path)
        assert (folder / f"{cls.code}.ftl").is_file(), cls.code
    codes = {cls.code for cls in role_classes()}
    assert {p.stem for p in folder.glob("*.ftl")} == codes


def test_each_role_file_exists_in_both_languages_with_the_same_keys() -> None:
    def keys(lang: Lang, code: str) -> set[str]:
        path = i18n.LOCALES_DIR / lang / "roles" / f"{code}.ftl"
        return {e for e, (p, _) in i18n._sources(lang).texts.items() if p == path}

    for cls in role_classes():
        assert keys("ru", cls.code) == keys("en", cls.code) != set(), cls.code


class GarrotteRefusal(Refusals):
    NO_WIRE = "no_wire"


class GarrotteCause(Causes):
    GARROTTED = "garrotted"


class Garrotter(Role):
    """A loner registered at run time, with a verb, a refusal and a cause, and no texts."""

    code = "garrotter"
    faction = Faction.LONER
    verbs = frozenset({"garrotte"})
    verb_specs = (Verb("garrotte"),)
    refusals = GarrotteRefusal
    causes = GarrotteCause
    pistol_causes = frozenset({GarrotteCause.GARROTTED})
    attacks = MappingProxyType({"garrotte": GarrotteCause.GARROTTED})


@pytest.fixture
def garrotter() -> Iterator[type[Role]]:
    register(Garrotter)
    try:
        yield Garrotter
    finally:
        unregister(Garrotter)


def test_a_role_registered_without_its_texts_is_caught(garrotter: type[Role]) -> None:
    """The check sees a run-time role among the registered ones and names each key it lacks,
    in each language (else a player would read ``role.garrotter`` raw)."""
    missing = missing_texts()
    assert {code for code, _, _ in missing} == {"garrotter"}
    for lang in LANGUAGES:
        assert t(lang, "role.garrotter") == "role.garrotter"  # what a player would read
    for key in (
        "role.garrotter",
        "card.about.garrotter",
        "winner.garrotter",
        "refusal.no_wire",
        "cause.garrotted",
        "death.garrotted",
        "card.pistol.garrotted",
        "cmd.garrotte.name",
        "cmd.garrotte.opt.target.description",
        "verb.garrotte",
        "play.accepted.garrotte",
    ):
        assert ("garrotter", "ru", key) in missing and ("garrotter", "en", key) in missing, key
