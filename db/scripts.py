"""Building a docs/REPLAY.md script from a game's accepted log entries. Pure: every store
backend builds its scripts (``load_script``) with this function."""

from __future__ import annotations

from collections.abc import Iterable

from db.models import SECTIONS, JSONDict


def build_script(
    seed: int,
    activity_rules: bool,
    players: Iterable[tuple[str, str]],
    entries: Iterable[tuple[int, str, JSONDict]],
    last_turn: int = 0,
) -> JSONDict:
    """A docs/REPLAY.md script from accepted ``(turn, section, payload)`` entries in seq order.

    The script has one element per turn from 1 to the last turn that has an entry (or to
    ``last_turn`` if later, e.g. a resolved turn in which nothing was sent).
    """
    by_turn: dict[int, dict[str, list[JSONDict]]] = {}
    for turn, section, payload in entries:
        sections = by_turn.get(turn)
        if sections is None:
            sections = by_turn[turn] = {s: [] for s in SECTIONS}
        sections[section].append(payload)
    count = max([last_turn, *by_turn])
    turns: list[JSONDict] = []
    for number in range(1, count + 1):
        sections = by_turn.get(number, {s: [] for s in SECTIONS})
        turns.append({s: sections[s] for s in SECTIONS})
    return {
        "seed": seed,
        "activity_rules": activity_rules,
        "players": [{"nick": nick, "role": role} for nick, role in players],
        "turns": turns,
    }
