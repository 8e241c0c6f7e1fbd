"""What makes two names the same name (RULES.md R44, "Decision (exact rule)").

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
"""

from __future__ import annotations

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

    by = resolve_name(names, req.by)  # the sender first, then the names in SCENARIOS.md order
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
    "find_name",
    "mixes_scripts",
    "name_key",
    "resolve_host_action",
    "resolve_name",
    "resolve_request",
    "same_name",
    "scripts_of",
]
