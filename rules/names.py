"""What makes two names the same name (docs/REFERENCE.md R44, "Decision (exact rule)").

Two names are the same name when their keys (`name_key`) are equal. The key is:

1. NFKC (compatibility forms fold: fullwidth "Ｊ" is "J", "ﬁ" is "fi", a no-break space is a
   space);
2. every format character removed (Unicode category Cf: zero-width space U+200B, zero-width
   (non-)joiners, soft hyphen U+00AD, the bidi marks, ...);
3. case folding ("ЖУРАВЛЬ" is "журавль", "Straße" is "strasse");
4. NFKC again: removing a format character or folding a case can leave a sequence that
   normalises further ("e", U+200B, U+0301 becomes "é" only once the U+200B is gone);
5. runs of whitespace (any Unicode whitespace) collapsed to one space, and trimmed.

The pass is repeated until it changes nothing (in practice it never needs a second round),
so `name_key(name_key(x)) == name_key(x)` holds by construction, not by luck.

A name that mixes Latin and Cyrillic letters ("Аnna" with a Cyrillic "А") is refused wherever
a name is chosen (`mixes_scripts`); only letters count, so digits, spaces and punctuation
never make a name mixed. Typed names (a player's target, a host's command, a replay script)
are matched against a game's nicknames with the same key (`find_name`).

Confusable names (`confusable`) are a wider, fuzzy relation used to build the built-in
nickname pools (`rules.setup.NICKNAMES`): two different names that a player could still mix up
when reading fast or typing a few letters ("Хорёк" and "Хорь", "Ласка" and "Ласточка", "Stoat"
and "Stork"). It never decides whether two names are the same name; that stays the exact rule.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable

import attrs

from rules.model import HostAction, Request

_MAX_ROUNDS = 8  # the pass converges after one round; the bound only guards the loop


def _one_pass(name: str) -> str:
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())  # str.split() splits on every Unicode whitespace


def name_key(name: str) -> str:
    """R44: the key under which two names are the same name (see the module docstring)."""
    key = _one_pass(name)
    for _ in range(_MAX_ROUNDS):
        again = _one_pass(key)
        if again == key:
            break
        key = again
    return key


def same_name(a: str, b: str) -> bool:
    """R44: `a` and `b` are the same name."""
    return name_key(a) == name_key(b)


def scripts_of(name: str) -> frozenset[str]:
    """The scripts among {"latin", "cyrillic"} whose letters the name uses (after NFKC, so a
    fullwidth or mathematical Latin letter counts as Latin). Only letters count."""
    found: set[str] = set()
    for ch in unicodedata.normalize("NFKC", name):
        if not unicodedata.category(ch).startswith("L"):
            continue
        char_name = unicodedata.name(ch, "")
        if char_name.startswith("LATIN "):
            found.add("latin")
        elif char_name.startswith("CYRILLIC "):
            found.add("cyrillic")
    return frozenset(found)


def mixes_scripts(name: str) -> bool:
    """R44: the name mixes Latin and Cyrillic letters (a look-alike trap: refused)."""
    return len(scripts_of(name)) > 1


def find_name(names: Iterable[str], typed: str) -> str | None:
    """R44: the name among `names` that `typed` is the same name as, or None.

    `names` are a game's nicknames, pairwise different under the rule (`Game.new` refuses
    anything else), so at most one matches; an exact match is found without normalising."""
    pool = list(names)
    if typed in pool:
        return typed
    key = name_key(typed)
    if not key:
        return None
    for name in pool:
        if name_key(name) == key:
            return name
    return None


#: Runs of ASCII digits in a name: compared as numbers ("Ворон 2" before "Ворон 10").
_DIGITS = re.compile(r"([0-9]+)")

Collation = tuple[tuple[tuple[int, int | str], ...], str, str]


def collation_key(name: str) -> Collation:
    """The alphabetical order in which every public list shows nicknames, never the seats'
    (seats of games started before they were dealt from the seed follow the sign-up, which
    anyone could watch: a list in seat order would trace nicknames to members).

    Case-insensitive (the R44 key), "ё" sorting with "е" as Russian dictionaries do, runs of
    digits compared as numbers. One key serves both languages of the bot: a name never mixes
    Latin and Cyrillic letters (R44), so Latin names sort as English ones and Cyrillic names as
    Russian ones (Cyrillic after Latin). Two names the same but for "ё"/"е" or case keep a
    fixed order (the exact key, then the name), so the order never depends on the input's."""
    key = name_key(name)
    folded = key.replace("ё", "е")
    parts = tuple(
        (0, int(part)) if part.isascii() and part.isdigit() else (1, part)
        for part in _DIGITS.split(folded)
        if part
    )
    return parts, key, name


def public_order(names: Iterable[str]) -> list[str]:
    """``names`` in the public alphabetical order (`collation_key`)."""
    return sorted(names, key=collation_key)


#: Names this long or shorter (in letters of the folded form) are "short" for `confusable`.
SHORT_NAME = 5
#: Two names sharing this many first letters are confusable (what a player types or skims).
SHARED_PREFIX = 3


def confusable_key(name: str) -> str:
    """The form `confusable` compares: the R44 key with "ё" read as "е" (Russian print and
    most players write "е" for "ё", so "Ёж" and "Еж" read as one word)."""
    return name_key(name).replace("ё", "е")


def _edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    two neighbouring letters each cost 1 (a swap is the commonest misreading)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(
                previous[j] + 1,
                row[j - 1] + 1,
                previous[j - 1] + (ca != cb),
            )
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return previous[-1]


def confusable(a: str, b: str) -> bool:
    """Two names a player could mix up (the nickname pools never deal two of them).

    Compared as `confusable_key` (the R44 key, "ё" as "е"), they are confusable when

    1. they are equal (the same name under R44, or apart only by "ё"/"е");
    2. one starts with the other ("Лис" and "Лиса", "Owl" and "Owlet"), or they share their
       first `SHARED_PREFIX` letters ("Хорёк"/"Хорь", "Ласка"/"Ласточка", "Stoat"/"Stork"):
       a player who types or skims the first letters cannot tell them apart;
    3. their edit distance (`_edit_distance`) is at most 2 when the shorter has at most
       `SHORT_NAME` letters ("Сова"/"Соня", "Moose"/"Mole"), at most 1 otherwise ("Sparrow"/
       "Sparow"): in a short word two letters are much of the word.

    "Лис"/"Рысь" and "Raven"/"Robin" (distance 3, at most the first letter shared) are not."""
    x, y = confusable_key(a), confusable_key(b)
    if x == y or x.startswith(y) or y.startswith(x):
        return True
    if len(x) >= SHARED_PREFIX and x[:SHARED_PREFIX] == y[:SHARED_PREFIX]:
        return True
    limit = 2 if min(len(x), len(y)) <= SHORT_NAME else 1
    return _edit_distance(x, y) <= limit


class UnknownName(LookupError):
    """A typed name that is none of the game's names (`typed` is what was typed)."""

    def __init__(self, typed: str) -> None:
        super().__init__(typed)
        self.typed = typed


def resolve_name(names: Iterable[str], typed: str) -> str:
    """`find_name`, raising UnknownName when nothing matches."""
    found = find_name(names, typed)
    if found is None:
        raise UnknownName(typed)
    return found


def resolve_request(req: Request, names: Collection[str]) -> Request:
    """R44: the request with every name it holds (sender, target, targets, note recipient)
    spelt as the game spells it. Raises UnknownName for the first name that matches none."""

    def one(typed: str | None) -> str | None:
        return None if typed is None else resolve_name(names, typed)

    by = resolve_name(names, req.by)  # the sender first, then the names in docs/REPLAY.md order
    target = one(req.target)
    targets = None if req.targets is None else tuple(resolve_name(names, n) for n in req.targets)
    return attrs.evolve(req, by=by, target=target, targets=targets, to=one(req.to))


def resolve_host_action(action: HostAction, names: Collection[str]) -> HostAction:
    """R44: the host command with its player spelt as the game spells it (UnknownName)."""
    if action.player is None:
        return action
    return attrs.evolve(action, player=resolve_name(names, action.player))


__all__ = [
    "UnknownName",
    "confusable",
    "confusable_key",
    "find_name",
    "mixes_scripts",
    "name_key",
    "resolve_host_action",
    "resolve_name",
    "resolve_request",
    "same_name",
    "scripts_of",
]
