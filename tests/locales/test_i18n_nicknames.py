"""A nickname in a Russian message stays in the nominative by the sentence's construction.

Nicknames are nouns (Журавль, Сова, Кроншнеп) that the bot does not inflect, so a sentence
never puts one where Russian needs another case (not "голос против Журавль", "вылечите
Кроншнеп", "записка от Снегирь"), and never makes a verb agree with it: a nickname's gender is
neither the player's nor known ("Сова погиб"). The rule, checked on every Russian message
rendered with a marker in each nickname-like variable; a nickname is allowed

- after a head noun it names, in the nominative: "игрок Сова", "ник Сова", "участник Сова",
  "комиссар Сова" (any verb then agrees with that noun: "Погиб игрок Сова", "Умирая,
  комиссар Сова успел выстрелить"), or
- in quotes: «Сова», or
- as a label's value or a list item: at the start of a line or after ": ", "— ", "→ ", "(",
  "- ", and followed by the end, punctuation, " (" or " →" (no word, so no verb agrees with it).
"""

from __future__ import annotations

import re

import pytest

from core.i18n import catalogue, t, variables

#: Variables that hold a nickname, a list of nicknames or a member's name.
NICK_VARIABLES = frozenset(
    {
        "nick",
        "target",
        "targets",
        "to",
        "author",
        "by",
        "player",
        "hanged",
        "victim",
        "commissar",
        "team",
        "killers",
        "voters",
        "member",
    }
)
#: Reviewed exceptions, each with its reason: (key, variable) -> why the text is right.
ALLOWED: dict[tuple[str, str], str] = {}

HEAD_NOUN = re.compile(r"(?:^|\s)(?:[Ии]грок|[Нн]ик|[Уу]частник|[Кк]омиссар) $")
LABEL_BEFORE = re.compile(r"(?:^|\n|: |— |→ |\(|- )$")
LABEL_AFTER = re.compile(r"^(?:$|\n|[.,:;)!?]| \(| →| —)")
MARK = "\u27e6{}\u27e7"


def nickname_slots(key: str) -> list[tuple[str, str, str]]:
    """(variable, text before, text after) of every nickname in the rendered message."""
    names = variables("ru", key)
    values: dict[str, object] = {name: MARK.format(name) for name in names}
    text = t("ru", key, **values).replace("**", "")  # type: ignore[arg-type]
    slots = []
    for name in sorted(names & NICK_VARIABLES):
        for found in re.finditer(re.escape(MARK.format(name)), text):
            slots.append((name, text[: found.start()], text[found.end() :]))
    return slots


def nominative_by_construction(before: str, after: str) -> bool:
    if HEAD_NOUN.search(before):
        return True
    if before.endswith("«") and after.startswith("»"):
        return True
    return bool(LABEL_BEFORE.search(before)) and bool(LABEL_AFTER.search(after))


RU_KEYS = sorted(k for k in catalogue("ru") if variables("ru", k) & NICK_VARIABLES)


def test_the_rule_sees_the_messages_with_nicknames() -> None:
    assert len(RU_KEYS) >= 40
    assert "play.accepted.vote" in RU_KEYS and "death.mafia" in RU_KEYS


@pytest.mark.parametrize("key", RU_KEYS)
def test_a_russian_nickname_stays_in_the_nominative(key: str) -> None:
    for name, before, after in nickname_slots(key):
        if (key, name) in ALLOWED:
            continue
        assert nominative_by_construction(before, after), (
            f"{key}: ${name} in {before!r} … {after!r}"
        )


@pytest.mark.parametrize(
    ("before", "after", "ok"),
    [
        ("Ваш голос против ", " учтён.", False),  # the examples
        ("Вы вылечите ", ".", False),
        ("Город казнил ", ".", False),
        ("Посмертная записка от ", ":", False),
        ("", " погиб.", False),  # a verb agreeing with the nickname guesses a gender
        ("Голос учтён: ", ".", True),
        ("Погиб игрок ", " (Доктор).", True),
        ("Нет игрока с ником «", "».", True),
        ("", ": 2 голоса", True),
    ],
)
def test_the_rule_itself(before: str, after: str, ok: bool) -> None:
    assert nominative_by_construction(before, after) is ok
