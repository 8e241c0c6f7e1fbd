"""Role wishes (R58): what a member may wish for, the public tally, the setup the host may
adopt from it, and the dealing that grants the wishes it can.

Pure and deterministic: the game's stored seed decides every draw (R13), and nothing here
depends on the sign-up order or on which member wished first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TypeVar

from rules.roles import ROLES, Villager

T = TypeVar("T")

#: The ``/wish`` value that withdraws a wish.
NO_WISH = "none"


def wishable_roles() -> tuple[str, ...]:
    """The role codes a member may wish for, in the registry's order: every role a setup may
    name (R43), except one whose holder is told another role (R22: the Foundling reads
    Villager, so a granted wish would tell him what the rules hide from him)."""
    return tuple(code for code, cls in ROLES.items() if cls.shown_as() == code)


def is_wishable(code: str) -> bool:
    return code in wishable_roles()


def wish_tally(wishes: Mapping[T, str | None]) -> dict[str, int]:
    """The sign-up post's tally (R58): how many members wished for each role, counts only,
    in the registry's order (never who, never in what order they wished)."""
    counts = Counter(role for role in wishes.values() if role is not None)
    return {code: counts[code] for code in ROLES if counts[code]}


def roles_from_wishes(members: Sequence[T], wishes: Mapping[T, str | None]) -> list[str]:
    """``/mafia roles from_wishes``: the roles wished for by the members signed up, with a
    Villager for each who wished for nothing (R58); the caller checks it as any setup (R43)."""
    roles = [wish for m in members if (wish := wishes.get(m)) is not None]
    roles += [Villager.code] * (len(members) - len(roles))
    order = {code: i for i, code in enumerate(ROLES)}
    return sorted(roles, key=lambda code: order.get(code, len(order)))


def deal_with_wishes(
    seats: Sequence[T], roles: Sequence[str], seed: int, wishes: Mapping[T, str | None]
) -> list[str]:
    """The role of each seat (in ``seats``' order) when wishes are on (R58): each role of the
    setup goes first to the members who wished for it, drawn with the game's seed when more
    wished for it than it has places; the roles left are dealt at random to the rest. A wish
    that cannot be granted is not. ``roles`` has one role per seat."""
    rng = random.Random(f"wishes/{seed}")
    left = Counter(roles)
    granted: dict[int, str] = {}
    for code in sorted(left, key=_registry_index):
        wishers = [i for i, member in enumerate(seats) if wishes.get(member) == code]
        if len(wishers) > left[code]:
            wishers = sorted(rng.sample(wishers, left[code]))
        for i in wishers:
            granted[i] = code
        left[code] -= len(wishers)
    rest = [code for code in sorted(left, key=_registry_index) for _ in range(left[code])]
    rng.shuffle(rest)
    deal = iter(rest)
    return [granted[i] if i in granted else next(deal) for i in range(len(seats))]


def _registry_index(code: str) -> tuple[int, str]:
    order = list(ROLES)
    return (order.index(code), code) if code in ROLES else (len(order), code)
