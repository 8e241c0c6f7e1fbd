"""R15 and its Decision: who has won, if anyone.

The winner is named `town`, `mafia`, `draw`, or, for a loner who wins alone, by his role
(`Role.wins_as`: `maniac`, ...), so a new loner wins without this module knowing him.
"""

from __future__ import annotations

from rules.model import Faction, GameState
from rules.roles import role_classes


def decide_winner(state: GameState) -> str | None:
    living = state.living()
    if not living:
        return "draw"
    loners = [p.role_cls for p in living if p.faction is Faction.LONER]
    mafia = sum(1 for p in living if p.faction is Faction.MAFIA)
    town = sum(1 for p in living if p.faction is Faction.TOWN)
    if loners and len(living) <= 2:
        # A loner alive with at most one other; two loners: the lower rank (the maniac).
        return min(loners, key=lambda cls: cls.loner_rank).wins_as()
    if not loners and mafia == 0 and town > 0:
        return "town"
    if not loners and mafia > 0 and mafia >= town:
        return "mafia"
    return None


def loner_winners() -> tuple[str, ...]:
    """The names a loner wins under (R15), in the registry's order."""
    out: list[str] = []
    for cls in role_classes():
        if cls.faction is Faction.LONER and cls.wins_as() not in out:
            out.append(cls.wins_as())
    return tuple(out)


def win_reason(state: GameState, winner: str | None) -> str:
    """Why the game ended (R15 and its Decision), for the end-of-game announcement: the town
    when no mafia and no loner are left, the mafia at parity, a loner with at most one other
    alive (`<loner>_last`: `maniac_last`), a draw when nobody is; no winner when the host
    ended the game (/mafia end)."""
    if winner is None:
        return "host_ended"
    fixed = {"town": "mafia_dead", "mafia": "parity", "draw": "all_dead"}
    if winner in fixed:
        return fixed[winner]
    return f"{winner}_last" if winner in loner_winners() else "unknown"
