"""R15 and its Decision: who has won, if anyone."""

from __future__ import annotations

from rules.model import GameState
from rules.roles import Faction


def decide_winner(state: GameState) -> str | None:
    living = state.living()
    if not living:
        return "draw"
    maniac_alive = any(p.faction is Faction.LONER for p in living)
    mafia = sum(1 for p in living if p.faction is Faction.MAFIA)
    town = sum(1 for p in living if p.faction is Faction.TOWN)
    if maniac_alive and len(living) <= 2:
        return "maniac"
    if not maniac_alive and mafia == 0 and town > 0:
        return "town"
    if not maniac_alive and mafia > 0 and mafia >= town:
        return "mafia"
    return None


def win_reason(state: GameState, winner: str | None) -> str:
    """Why the game ended (R15 and its Decision), for the end-of-game announcement: the town
    when no mafia and no maniac are left, the mafia at parity, the maniac with at most one
    other alive, a draw when nobody is; no winner when the host ended the game (/mafia end)."""
    if winner is None:
        return "host_ended"
    return {
        "town": "mafia_dead",
        "mafia": "parity",
        "maniac": "maniac_last",
        "draw": "all_dead",
    }.get(winner, "unknown")
