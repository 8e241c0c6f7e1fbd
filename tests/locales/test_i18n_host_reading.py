"""The texts as a native Russian forum host and an English-speaking mafia player read them:
the forum's words (предсмертная записка, клевета, мирные жители, пропал без вести), plurals
that agree with the count, no gender falling on a nickname in the hosts' account, role lists
as hosts write them, and English as English-speaking communities play (recorded votes, Town,
Cop)."""

from __future__ import annotations

import re

import pytest

from bot.render import role_summary
from core.cast_text import role_description
from core.i18n import Lang, catalogue, t


def ru_texts() -> dict[str, str]:
    return catalogue("ru")


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "не учтён 1 голос"), (2, "не учтены 2 голоса"), (5, "не учтено 5 голосов"),
     (21, "не учтён 21 голос")],
)  # fmt: skip
def test_R31_an_uncounted_vote_agrees_with_its_count(count: int, expected: str) -> None:
    for key in ("dawn.dropped", "dawn.dropped_totals"):
        assert expected in t("ru", key, nick="Сова", count=count, voters="Ёж")


@pytest.mark.parametrize(
    ("games", "expected"), [(1, "Сыграна 1 игра"), (3, "Сыграны 3 игры"), (5, "Сыграно 5 игр")]
)
def test_games_played_agree_with_the_count(games: int, expected: str) -> None:
    assert t("ru", "stats.games", games=games, wins=0, rate=0).startswith(expected)


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "Погибших пока нет"), (1, "Погиб 1 игрок"), (5, "Погибли 5 игроков")],
)
def test_the_dead_are_counted_as_players(count: int, expected: str) -> None:
    assert t("ru", "players.dead", count=count) == expected


def test_the_hosts_account_puts_no_gender_on_a_nickname() -> None:
    """ "Морж: блок → Беркут: исполнена" reads as if Беркут were feminine: a request's fate is
    impersonal (исполнено) or a noun, never a feminine or masculine past participle."""
    for key, text in ru_texts().items():
        if key.startswith("console.fate."):
            words = re.findall(r"\w+", text)
            assert not [w for w in words if re.fullmatch(r"\w+(?:ена|ана|ита|ан|ен|ит)", w)], (
                key,
                text,
            )
    line = t("ru", "console.request", by="Морж", verb="блок", targets="Беркут",
             fate=t("ru", "console.fate.done"))  # fmt: skip
    assert line.endswith("Беркут: исполнено")
    assert t("ru", "console.fate.blocked").startswith("не исполнено")


def test_R34_the_hosts_lynch_counts_those_who_vote() -> None:
    assert t("ru", "console.lynch", electorate=11) == "Суд Линча, 11 голосующих:"
    assert t("ru", "console.lynch", electorate=1) == "Суд Линча, 1 голосующий:"


def test_the_forums_words() -> None:
    """The seed's and the rules' words: предсмертная записка, клевета (/оклеветать), мирные
    жители for the town faction, пропал без вести for the silent."""
    texts = ru_texts()
    joined = "\n".join(texts.values())
    for wrong in ("осмертн", "одстав", "горожан", "избират", "Победил город"):
        assert wrong not in joined, wrong
    assert t("ru", "cmd.slander.name") == "оклеветать" and t("ru", "verb.slander") == "клевета"
    assert t("ru", "winner.town") == "Победили мирные жители!"
    assert "Предсмертная записка" in t("ru", "announce.note", author="Сова", text="…")
    assert t("ru", "death.inactive", nick="Сова", role="Доктор").startswith(
        "Пропал без вести игрок Сова"
    )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("ru", "Босс, Мафиози — 2, Мирный житель — 5"), ("en", "Boss, Mafioso ×2, Villager ×5")],
)
def test_R43_a_role_list_reads_as_hosts_write_it(lang: Lang, expected: str) -> None:
    roles = ["boss", "mafioso", "mafioso", *["villager"] * 5]
    assert role_summary(lang, roles) == expected
    assert "× 1" not in role_summary(lang, ["boss"])


def test_english_reads_as_english_mafia_communities_write() -> None:
    texts = "\n".join(catalogue("en").values())
    for wrong in ("peaceful", "as many as the living town", "the night, for the hosts"):
        assert wrong not in texts, wrong
    vote = t("en", "play.accepted.vote", target="Seal", turn=2)
    assert "recorded" in vote and "is counted" not in vote
    assert t("en", "role.commissar") == "Cop" and t("en", "role.prostitute") == "Roleblocker"
    assert t("en", "role.troublemaker") == "Framer" and t("en", "role.maniac") == "Poisoner"
    assert t("en", "winner.town") == "Town wins!"
    # Each English card names the forum's role once, where the names differ.
    for code, forum in (("commissar", "Commissar"), ("prostitute", "Prostitute"),
                        ("troublemaker", "Troublemaker"), ("maniac", "maniac")):  # fmt: skip
        about = role_description("en", f"card.about.{code}", None)
        assert about.count(f"the forum's {forum}") == 1
