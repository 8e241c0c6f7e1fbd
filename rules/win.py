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
