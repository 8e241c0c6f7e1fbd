"""Texts that speak of the sides and roles of this game only (its published role list, R43):
the role cards' descriptions and win conditions, and the guide ``/rules`` shows during a game.

A game's *cast* is the set of its setup's role codes. From it come the *atoms* a text may
depend on: every role code present, and the sides present (``mafia``, ``loner``). A role's
description is its catalogue message ``card.about.<code>`` followed by each message
``card.about.<code>.with.<atom>`` whose atom is present and ``card.about.<code>.without.<atom>``
whose atom is absent (the Boss's "the Foundling joins the mafia when you die" only where there
is a Foundling); the win lines work the same way (``card.win.<side>``). Every message also gets
the values of :func:`cast_values` for its selectors (whom the town must be rid of, which
attacks a heal stops, ...). A cast of None is a card read outside a game: every role counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from core.i18n import Lang, has_key, t
from rules.model import Cause
from rules.roles import ROLES, Faction, pistol_causes, verb_spec

#: The sides a text may depend on, besides the role codes.
SIDES = ("town", "mafia", "loner")


def present(cast: Iterable[str] | None) -> frozenset[str]:
    """The atoms of a cast: its role codes and its sides (every role and side for None)."""
    codes = frozenset(ROLES if cast is None else cast)
    sides = {str(ROLES[c].faction) for c in codes if c in ROLES}
    return codes | sides


def atoms() -> tuple[str, ...]:
    """Every atom a text may name, in a fixed order (the registry's, then the sides)."""
    return (*ROLES, *SIDES)


def cast_of_end(payload: Mapping[str, Any]) -> frozenset[str] | None:
    """The roles a finished game was dealt, from its end's list of every nickname (the
    ``game_over`` payload's ``roles``); None for an end without one."""
    entries = payload.get("roles") or ()
    cast = frozenset(str(e.get("role")) for e in entries if e.get("role"))
    return cast or None


def _code(parts: Iterable[str]) -> str:
    return "_".join(parts) or "none"


def cast_values(lang: Lang, cast: Iterable[str] | None) -> dict[str, str]:
    """The values every card and guide message may select on:

    - ``foes``: whom the town must be rid of to win (R15): ``mafia``, ``mafia_maniac``, ...,
      ``maniac_crook`` (the sides and loners present, in that order);
    - ``loners``: the loners present (``maniac``, ``crook``, ``maniac_crook``, ``none``);
    - ``threat``: what a heal stops in this game (R20): ``mafia_maniac``, ``mafia``,
      ``maniac``, ``none``;
    - ``mafia``, ``commissar``, ``prostitute``, ... : ``yes`` or ``no`` for every atom;
    - ``causes``: the deaths that give the commissar his pistol in this game (R18), a list;
    - ``blocks``: the night actions the Prostitute can stop in this game (R21), a list.
    """
    here = present(cast)
    loners = [c for c in ROLES if c in here and ROLES[c].faction is Faction.LONER]
    foes = (["mafia"] if "mafia" in here else []) + loners
    attacks = {cause for c in ROLES if c in here for cause in ROLES[c].attacks.values()}
    # The attacks a heal stops (R20), named as the texts' selector names them.
    threat = [name for name, cause in (("mafia", "mafia"), ("maniac", "poison"))
              if cause in attacks]  # fmt: skip
    # R18: the lynch and a failed hunt can kill him in any game; a role's cause only where a
    # role of the cast attacks with it (the mafia's, the poison, the injection: in that order).
    order = ("mafia", "poison", "euthanasia")
    armed = sorted(
        (c for c in pistol_causes() if c in attacks),
        key=lambda c: (order.index(c) if c in order else len(order), c.value),
    )
    causes = [Cause.LYNCH, *armed, Cause.HUNT_BACKFIRE]
    blocks: list[str] = []
    for code in ROLES:
        if code in here:
            for verb in sorted(ROLES[code].verbs - {"block"}):
                spec = verb_spec(verb)
                name = t(lang, spec.name_key if spec is not None else f"verb.{verb}")
                if name not in blocks:
                    blocks.append(name)
    values = {atom: "yes" if atom in here else "no" for atom in atoms()}
    values.update(
        foes=_code(foes),
        loners=_code(loners),
        threat=_code(threat),
        causes=", ".join(t(lang, f"card.pistol.{cause}") for cause in causes),
        blocks=", ".join(blocks),
    )
    return values


def with_extras(
    lang: Lang, key: str, here: frozenset[str], values: Mapping[str, str], sep: str = " "
) -> str:
    """``key``'s message, then each ``<key>.with.<atom>`` of a present atom and each
    ``<key>.without.<atom>`` of an absent one (in `atoms` order)."""
    parts = [t(lang, key, **values)]
    for atom in atoms():
        extra = f"{key}.with.{atom}" if atom in here else f"{key}.without.{atom}"
        if has_key(extra):
            parts.append(t(lang, extra, **values))
    return sep.join(parts)


def role_description(lang: Lang, key: str, cast: Iterable[str] | None) -> str:
    """A role card's description (``card.about.<code>``) for this game."""
    return with_extras(lang, key, present(cast), cast_values(lang, cast), sep="\n")


def win_line(lang: Lang, side: str, cast: Iterable[str] | None) -> str:
    """How ``side`` wins in this game (R15): ``town``, ``mafia``, or a loner's name."""
    return with_extras(lang, f"card.win.{side}", present(cast), cast_values(lang, cast))


#: A guide line shown only where its atoms hold: ``<!-- if: mafia !maniac -->`` at its end.
_CONDITION = re.compile(r"\s*<!--\s*if:\s*([^>]*?)\s*-->\s*$")
#: A guide line replaced by the game's own text: ``<!-- game: win -->``.
_GAME_LINE = re.compile(r"^(.*?)<!--\s*game:\s*(\w+)\s*-->\s*$")


def guide_for(lang: Lang, text: str, cast: Iterable[str] | None) -> str:
    """The players' guide (docs/rules.<lang>.md) for a game of this cast: a line marked
    ``<!-- if: a !b -->`` stays only if every atom ``a`` is present and every ``!b`` absent
    (outside a game, a line needing an atom absent goes, every other stays); a line
    ``<!-- game: win -->`` becomes the win lines of the sides present; the marks go."""
    here = present(cast)
    out: list[str] = []
    for line in text.splitlines():
        condition = _CONDITION.search(line)
        if condition is not None:
            line = line[: condition.start()]
            words = condition.group(1).split()
            if cast is None and any(w.startswith("!") for w in words):
                continue
            if not all((w[1:] not in here) if w.startswith("!") else (w in here) for w in words):
                continue
        game_line = _GAME_LINE.match(line)
        if game_line is not None:
            line = game_line.group(1) + guide_game_line(lang, game_line.group(2), cast)
        out.append(line.rstrip())
    return "\n".join(out)


#: The resolution's order (docs/REFERENCE.md section 8) as the guide tells it: each step's
#: catalogue message ``guide.step.<name>``, told where its atom is present (None: always).
ORDER: tuple[tuple[str, str | None], ...] = (
    ("delayed", "maniac"),  # 0: last night's poison
    ("hunt", None),  # 1
    ("block", "prostitute"),  # 2a
    ("slander", "troublemaker"),  # 2b
    ("steal", "crook"),  # 2b
    ("kill", "mafia"),  # 2c
    ("check", "commissar"),  # 2d
    ("poison", "maniac"),  # 2e
    ("heal", "doctor"),  # 2f
    ("lynch", None),  # 3
    ("inactivity", None),  # 4
)


def guide_game_line(lang: Lang, what: str, cast: Iterable[str] | None) -> str:
    """The guide's lines built from the game: ``win``, how each side present wins (R15);
    ``order``, the steps of the resolution this game has (section 8)."""
    here = present(cast)
    if what == "order":
        steps = [
            t(lang, f"guide.step.{name}") for name, atom in ORDER if atom is None or atom in here
        ]
        return t(lang, "guide.order", steps=", ".join(steps))
    if what != "win":
        raise ValueError(f"unknown game line {what!r}")
    sides: list[str] = [s for s in ("town", "mafia") if s in here]
    sides += [ROLES[c].wins_as() for c in ROLES if c in here and ROLES[c].faction is Faction.LONER]
    return " ".join(win_line(lang, side, cast) for side in sides)
