"""The mafia's kill board (R23, R36): what the mafia's requests of this turn add up to.

The same decision the night's kill takes (`agreed_kill`, used by the mafia's kill at step 2c),
shown to the mafia while they plot: every counted request names the same players, or there is
no kill. It uses only what the mafia know: their own requests and members (R14). It cannot
know whether a member will be blocked tonight (R21) and never says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from rules.model import GameState, Request
from rules.names import public_order

AGREED = "agreed"  # every counted request names the same players: they are the kill
SPLIT = "split"  # the requests differ: no kill (R23)
NONE = "none"  # no request: no kill (R23)


def agreed_kill(kill_sets: Iterable[frozenset[str]]) -> frozenset[str] | None:
    """R23: the players every counted kill request names, when they all name the same ones
    (with the double kill, R36, the same two); None when there is no request or they differ.
    A member who sends none is ignored."""
    sets = list(kill_sets)
    if not sets or any(s != sets[0] for s in sets):
        return None
    return sets[0]


def counts_for_kill(state: GameState, req: Request) -> bool:
    """A kill request counts while its sender is alive and still holds a role that sends it
    (section 8, General); whether he is blocked tonight (R21) only the night tells."""
    sender = state.players[req.by]
    return sender.alive and req.do in sender.role_cls.verbs


@attrs.frozen
class KillBoard:
    """The board of one turn: each member's standing request (alphabetical by member), the
    living members without one, the double kill (R36), and what it adds up to."""

    turn: int
    requests: tuple[tuple[str, tuple[str, ...]], ...]
    waiting: tuple[str, ...]
    double: bool
    status: str  # AGREED, SPLIT or NONE
    targets: tuple[str, ...]  # the agreed players (alphabetical), when AGREED

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "requests": [[by, list(named)] for by, named in self.requests],
            "waiting": list(self.waiting),
            "double": self.double,
            "status": self.status,
            "targets": list(self.targets),
        }


def kill_board(state: GameState) -> KillBoard:
    """The mafia's board now: the requests that count (R23), the living members who have
    sent none, and the kill they add up to (`agreed_kill`), in an order nothing secret
    shapes (alphabetical)."""
    counted = [s.request for s in state.submissions("kill") if counts_for_kill(state, s.request)]
    by_member = {req.by: req for req in counted}
    requests = tuple(
        (by, tuple(public_order(by_member[by].named()))) for by in public_order(by_member)
    )
    killers = [p.nick for p in state.living() if "kill" in p.role_cls.verbs]
    waiting = tuple(public_order(n for n in killers if n not in by_member))
    agreed = agreed_kill(req.kill_set() for req in counted)
    if agreed is not None:
        status, targets = AGREED, tuple(public_order(agreed))
    else:
        status, targets = (SPLIT if counted else NONE), ()
    return KillBoard(
        turn=state.turn,
        requests=requests,
        waiting=waiting,
        double=state.double_kill,
        status=status,
        targets=targets,
    )
