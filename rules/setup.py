"""Setup (docs/REFERENCE.md section 10): role lists, presets, random assignment, nicknames (R44)."""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from rules.names import mixes_scripts, name_key
from rules.roles import ROLES, Boss, Commissar, Faction, Foundling, Sergeant
from rules.wishes import deal_with_wishes

T = TypeVar("T")

MIN_PLAYERS = 3
#: The most players (and so roles) a game seats. A role list is parsed against it before a
#: single role is materialised, so no count typed by a host can cost memory or time
#: (``villager=1000000000000000000``). 99 is also the largest preset the commands offer
#: (``/mafia new preset``, ``/mafia roles preset``: 4 to 99).
MAX_PLAYERS = 99
#: The longest role list accepted as text (the ``/mafia roles`` option allows as much).
MAX_ROLE_LIST_CHARS = 500
#: How much of a host's unparseable fragment a refusal quotes back.
_QUOTED = 40


class SetupError(ValueError):
    """An invalid setup; `code` is stable, the message names the problem (English, for the
    command line), `params` are its facts for a translated message."""

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def validate_setup(roles: Sequence[str]) -> None:
    """R24, R43 and the section 10 Decision."""
    unknown = [r for r in roles if r not in ROLES]
    if unknown:
        raise SetupError(
            "unknown_role", f"unknown role {unknown[0]!r}", role=unknown[0], known=_known()
        )
    n = len(roles)
    if n > MAX_PLAYERS:
        raise SetupError(
            "too_many_players",
            f"{n} players; at most {MAX_PLAYERS} can play",
            players=n,
            maximum=MAX_PLAYERS,
        )
    if n < MIN_PLAYERS:
        raise SetupError(
            "too_few_players",
            f"{n} players; at least {MIN_PLAYERS} are needed",
            players=n,
            minimum=MIN_PLAYERS,
        )
    counts = Counter(roles)
    for code, count in counts.items():
        if ROLES[code].unique and count > 1:
            raise SetupError(
                "duplicate_role",
                f"at most one {code} per game, got {count}",
                role=code,
                count=count,
            )
    mafia = sum(1 for r in roles if ROLES[r].faction is Faction.MAFIA)
    town = sum(1 for r in roles if ROLES[r].faction is Faction.TOWN)
    loners = sum(1 for r in roles if ROLES[r].faction is Faction.LONER)
    if mafia == 0 and loners > 0:
        _validate_without_mafia(n, town, loners)  # the section 10 Decision without mafia
    else:
        need = math.ceil(n / 4)
        if mafia < need:
            raise SetupError(
                "too_few_mafia",
                f"{mafia} mafia for {n} players; at least {need} needed (R24)",
                mafia=mafia,
                players=n,
                need=need,
            )
        if mafia >= town:
            raise SetupError(
                "too_many_mafia",
                f"{mafia} mafia against {town} town: the game would be over",
                mafia=mafia,
                town=town,
            )
    if counts[Foundling.code] and not counts[Boss.code]:
        raise SetupError("foundling_without_boss", "a foundling needs a boss")
    if counts[Sergeant.code] and not counts[Commissar.code]:
        raise SetupError("sergeant_without_commissar", "a sergeant needs a commissar")


#: The fewest players of a game without mafia (section 10: the original's "Комиссар, Жулик,
#: МЖ - 3" is five).
MIN_PLAYERS_WITHOUT_MAFIA = 4


def _validate_without_mafia(players: int, town: int, loners: int) -> None:
    """Section 10 (R43): a setup without any mafia (the original's own closing list) is valid
    with at least 4 players and at least one loner, the loners fewer than the town. It has no
    mafia kill and no Boss, Foundling or Troublemaker (a Foundling needs a Boss); R15 ends it:
    the town wins once no loner is alive."""
    if players < MIN_PLAYERS_WITHOUT_MAFIA:
        raise SetupError(
            "too_few_players",
            f"{players} players; a game without mafia needs at least {MIN_PLAYERS_WITHOUT_MAFIA}",
            players=players,
            minimum=MIN_PLAYERS_WITHOUT_MAFIA,
        )
    if loners >= town:
        raise SetupError(
            "too_many_loners",
            f"{loners} loners against {town} town: a game without mafia needs fewer loners "
            "than town",
            loners=loners,
            town=town,
        )


def _known() -> str:
    """The roles a setup may name, for a refusal (the registry's codes, in its order; a
    refusal renders them as the table's names, `core.service_base.setup_refusal`)."""
    return ", ".join(ROLES)


def _quoted(fragment: str) -> str:
    return fragment if len(fragment) <= _QUOTED else fragment[: _QUOTED - 1] + "…"


def _spoken_key(name: str) -> str:
    """How a typed role name is compared: R44's name key, "ё" read as "е"."""
    return name_key(name).replace("ё", "е")


def role_names() -> dict[str, str]:
    """Every name a role list may give a role: its code and the words hosts use for it in the
    languages the tables speak (``Role.spoken``), keyed as typed names are compared."""
    names: dict[str, str] = {}
    for code, cls in ROLES.items():
        for name in (code, *cls.spoken):
            names.setdefault(_spoken_key(name), code)
    return names


def role_code(typed: str) -> str | None:
    """The role a typed name stands for (a code, or a name in any table's language), or
    None."""
    return role_names().get(_spoken_key(typed))


#: A word of a role's name: letters, with inner hyphens ("маньяк-отравитель").
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
#: Between a name and its count: "=", ":" or a dash, as forum hosts write ("МЖ - 3").
_COUNT_SEP = "=:-\u2013\u2014"
_ITEM_GAP = re.compile(r"[\s,;]*")
_SPACES = re.compile(r"[ \t]*")
_CHUNK = re.compile(r"[^\s,;]*")


def _chunk(text: str, pos: int) -> str:
    """The text from ``pos`` to the end of its item (a space, comma, semicolon or the end)."""
    return _CHUNK.match(text, pos).group()  # type: ignore[union-attr]


def parse_role_list(text: str, limit: int = MAX_PLAYERS) -> list[str]:
    """A role list as a host writes it: ``boss=1 mafioso=2 commissar=1 villager=5``, or in the
    table's language, ``комиссар=1 жулик=1 мж=3``, ``Комиссар - 1, Жулик - 1, МЖ - 3``,
    ``мирные жители: 5`` (items apart by spaces, commas, semicolons or lines; "=", ":" or a
    dash before a count, or none; no count is one). A name is a role's code or any of its
    ``Role.spoken`` names, in any case, "ё" as "е".

    A count is ASCII digits only (`str.isdigit` also accepts "²", which `int` refuses), and
    the running total is checked against `limit` (at most MAX_PLAYERS) before the list is
    built, so the work done is bounded by the length of the text, itself bounded."""
    if len(text) > MAX_ROLE_LIST_CHARS:
        raise SetupError(
            "role_list_too_long",
            f"the role list has {len(text)} characters; at most {MAX_ROLE_LIST_CHARS}",
            length=len(text),
            maximum=MAX_ROLE_LIST_CHARS,
        )
    limit = min(limit, MAX_PLAYERS)
    names = role_names()
    longest = max((len(name.split()) for name in names), default=1)
    counts: list[tuple[str, int]] = []
    total = 0
    pos = _ITEM_GAP.match(text, 0).end()  # type: ignore[union-attr]
    while pos < len(text):
        code, pos = _role_name(text, pos, names, longest)
        pos = _SPACES.match(text, pos).end()  # type: ignore[union-attr]
        count = "1"
        if pos < len(text) and text[pos] in _COUNT_SEP:  # "мж=3", "МЖ - 3"
            pos = _SPACES.match(text, pos + 1).end()  # type: ignore[union-attr]
            count = _chunk(text, pos)
            pos += len(count)
        elif pos < len(text) and not _WORD.match(text, pos) and _chunk(text, pos):  # "мж 3"
            count = _chunk(text, pos)
            pos += len(count)
        if not (count.isascii() and count.isdigit()):
            raise SetupError(
                "bad_count",
                f"bad count {count!r} for {code}",
                role=code,
                count=_quoted(count),
            )
        number = int(count)  # at most MAX_ROLE_LIST_CHARS ASCII digits: cheap
        total += number
        if total > limit:
            raise SetupError(
                "too_many_roles",
                f"the role list has more than {limit} roles",
                maximum=limit,
            )
        counts.append((code, number))
        pos = _ITEM_GAP.match(text, pos).end()  # type: ignore[union-attr]
    return [code for code, number in counts for _ in range(number)]


def _role_name(text: str, pos: int, names: Mapping[str, str], longest: int) -> tuple[str, int]:
    """The role named at ``pos`` (the longest known name of up to ``longest`` words) and
    where its name ends; an unknown name is refused, quoted as typed."""
    ends: list[int] = []
    at = pos
    for _ in range(longest):
        word = _WORD.match(text, at)
        if word is None:
            break
        ends.append(word.end())
        at = _SPACES.match(text, word.end()).end()  # type: ignore[union-attr]
    for end in reversed(ends):
        code = names.get(_spoken_key(text[pos:end]))
        if code is not None:
            return code, end
    typed = _chunk(text, pos)
    cut = min((i for i, ch in enumerate(typed) if ch in _COUNT_SEP), default=len(typed))
    typed = typed[:cut] or typed
    raise SetupError("unknown_role", f"unknown role {typed!r}", role=_quoted(typed), known=_known())


def format_role_list(roles: Iterable[str]) -> str:
    counts = Counter(roles)
    return " ".join(f"{code}={counts[code]}" for code in ROLES if counts[code])


def preset(players: int) -> list[str]:
    """A balanced role list for 4 to 40+ players (R24: mafia = ceil(n/4))."""
    if players < MIN_PLAYERS:
        raise SetupError(
            "too_few_players",
            f"{players} players; at least {MIN_PLAYERS} needed",
            players=players,
            minimum=MIN_PLAYERS,
        )
    if players > MAX_PLAYERS:
        raise SetupError(
            "too_many_players",
            f"{players} players; at most {MAX_PLAYERS} can play",
            players=players,
            maximum=MAX_PLAYERS,
        )
    mafia_n = math.ceil(players / 4)
    roles: list[str] = []
    mafia: list[str] = []
    if players >= 8:
        mafia.append(Boss.code)
    if players >= 10:
        mafia.append("troublemaker")
    mafia += ["mafioso"] * (mafia_n - len(mafia))
    roles += mafia
    town: list[str] = []
    if players >= 4:
        town.append(Commissar.code)
    if players >= 6:
        town.append("doctor")
    if players >= 9:
        town.append("prostitute")
    if players >= 11:
        town.append(Sergeant.code)
    if players >= 8:
        town.append(Foundling.code)
    loners: list[str] = ["maniac"] if players >= 13 else []
    rest = players - len(roles) - len(town) - len(loners)
    roles += town + loners + ["villager"] * rest
    validate_setup(roles)
    return roles


def shuffled(items: Sequence[T], seed: int) -> list[T]:
    """R13: random but reproducible: the game's stored seed decides."""
    out = list(items)
    random.Random(seed).shuffle(out)
    return out


def seat_order(members: Sequence[int], seed: int) -> list[int]:
    """R13, R44: the seats, dealt from the game's stored seed once sign-up closes. The members
    are first put in the order of their ids, so the seats depend only on who signed up and
    on the seed, never on the order in which they signed up (which anyone could watch: the
    sign-up post counts each member who joins)."""
    return shuffled(sorted(members), _seat_seed(seed))


def _seat_seed(seed: int) -> int:
    # Apart from the roles' (seed) and the nicknames' (seed + 1) draws.
    return (seed * 1_000_003 + 7) % 2**63


def deal(
    members: Sequence[int],
    roles: Sequence[str],
    seed: int,
    wishes: Mapping[int, str | None] | None = None,
) -> list[tuple[int, str]]:
    """R13 (R58 with ``wishes``): the seats with their roles, at the start. The seats are
    `seat_order`; the roles are dealt at random, or with the wishes granted first."""
    seats = seat_order(members, seed)
    if wishes is None:
        return assign_roles(seats, roles, seed)
    if len(seats) != len(roles):
        assign_roles(seats, roles, seed)  # raises the count mismatch
    validate_setup(roles)
    return list(zip(seats, deal_with_wishes(seats, roles, seed, wishes), strict=True))


def assign_roles(members: Sequence[T], roles: Sequence[str], seed: int) -> list[tuple[T, str]]:
    if len(members) != len(roles):
        raise SetupError(
            "count_mismatch",
            f"{len(members)} players signed up but {len(roles)} roles set",
            players=len(members),
            roles=len(roles),
        )
    validate_setup(roles)
    return list(zip(members, shuffled(roles, seed), strict=True))


def nick_key(nick: str) -> str:
    """R44: two nicknames clash when their keys are equal (the exact rule: `rules.names`)."""
    return name_key(nick)


def validate_nicknames(nicks: Sequence[str]) -> None:
    """R44: every nickname non-empty, none mixing Latin and Cyrillic letters, no two the same
    name under the exact rule (`rules.names`). Raises SetupError."""
    seen: dict[str, str] = {}
    for nick in nicks:
        key = nick_key(nick)
        if not key:
            raise SetupError("empty_nick", "a nickname is empty")
        if mixes_scripts(nick):  # look-alike letters from two alphabets
            raise SetupError(
                "mixed_script_nick",
                f"nickname {nick!r} mixes Latin and Cyrillic letters",
                nick=nick,
            )
        if key in seen:
            raise SetupError(
                "duplicate_nick", f"nicknames {seen[key]!r} and {nick!r} clash", nick=nick
            )
        seen[key] = nick


#: The most players a game can deal distinct pool nicknames to; every pool holds at least so many
#: (the demo seats up to 30; beyond a pool's size `assign_nicknames` numbers a second round).
MIN_POOL = 40

#: R44: the themed nickname pools, one per language. Animals and birds, dictionary
#: nouns in the nominative singular (a Russian one has an animate reading to inflect), none
#: offensive, none a person's name, none a word of the game ("Mole", "Rat"); each in one
#: alphabet only. No two names in a pool are `rules.names.confusable` ("Хорёк"/"Хорь",
#: "Ласка"/"Ласточка", "Stoat"/"Stork" are never dealt together). A replaced name kept its
#: place, so the seeded games that did not deal it deal the same names as before.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "en": (
        "Raven",
        "Badger",
        "Heron",
        "Lynx",
        "Otter",
        "Falcon",
        "Marten",
        "Nuthatch",
        "Stork",
        "Nightingale",
        "Hedgehog",
        "Puffin",
        "Crane",
        "Ferret",
        "Hare",
        "Magpie",
        "Wolf",
        "Fox",
        "Swallow",
        "Sparrow",
        "Pike",
        "Sturgeon",
        "Elk",
        "Bison",
        "Squirrel",
        "Partridge",
        "Seal",
        "Walrus",
        "Jackdaw",
        "Rook",
        "Finch",
        "Hoopoe",
        "Starling",
        "Kestrel",
        "Osprey",
        "Plover",
        "Grouse",
        "Bittern",
        "Curlew",
        "Dormouse",
        "Pheasant",
        "Kingfisher",
        "Polecat",
        "Sable",
        "Wren",
        "Oriole",
    ),
    "ru": (
        "Ворон",
        "Барсук",
        "Цапля",
        "Рысь",
        "Выдра",
        "Сокол",
        "Куница",
        "Беркут",
        "Аист",
        "Бобр",
        "Ёж",
        "Сова",
        "Журавль",
        "Хорёк",
        "Заяц",
        "Сорока",
        "Волк",
        "Бурундук",
        "Ласточка",
        "Медведь",
        "Щука",
        "Осётр",
        "Кабан",
        "Чайка",
        "Белка",
        "Крот",
        "Тюлень",
        "Морж",
        "Лебедь",
        "Грач",
        "Зяблик",
        "Снегирь",
        "Скворец",
        "Щегол",
        "Синица",
        "Чибис",
        "Глухарь",
        "Филин",
        "Кукушка",
        "Соловей",
        "Полёвка",
        "Горностай",
        "Тетерев",
        "Ястреб",
        "Крапивник",
        "Дрозд",
    ),
}


def assign_nicknames(count: int, seed: int, theme: str = "en") -> list[str]:
    """R44: unique nicknames from a themed pool; numbered beyond the pool's size ("Ворон 2").

    Up to the pool's size (at least MIN_POOL) no two are `rules.names.confusable`."""
    pool = list(NICKNAMES.get(theme, NICKNAMES["en"]))
    chosen = shuffled(pool, seed + 1)
    out: list[str] = []
    i = 0
    while len(out) < count:
        base = chosen[i % len(chosen)]
        round_ = i // len(chosen)
        out.append(base if round_ == 0 else f"{base} {round_ + 1}")
        i += 1
    return out
