"""R57: the Crook (Жулик), a loner who steals the day's vote: from turn 2 on he names one
other living player each turn (``steal``); at the lynch that player's vote counts for the
Crook's own candidate, at the robbed vote's place in the arrival order (R33), listed under the
robbed player's nickname (R34).

The theft is a night ability taken at step 2b (`Step.DECEPTIONS`, after the Troublemaker's
slander): a Prostitute's block stops it (R21, through `Resolution.acts`), a Crook dead at step
0 or 1 steals nothing, one killed later in the night has already stolen. The lynch (step 3)
asks every role to reshape the votes it counts (`Role.count_votes`): the Crook's answer
applies the thefts taken at 2b. Nothing outside this module knows the Crook.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from rules.model import RefusalCode, Request
from rules.roles.base import Faction, Role, Step, Verb, on_steps

if TYPE_CHECKING:
    from rules.model import GameState, TurnResult
    from rules.pipeline import Resolution


@attrs.define
class Thefts:
    """The thefts taken tonight (step 2b), in arrival order: (crook, robbed player)."""

    taken: list[tuple[str, str]] = attrs.Factory(list)


def steal(res: Resolution) -> None:
    """Step 2b: a Crook alive, not blocked (R21) and still the Crook takes his theft."""
    for req in res.standing("steal"):
        if res.acts(req) and req.target is not None:
            res.tonight(Crook, Thefts).taken.append((req.by, req.target))


def _vote_of(votes: list[Request], nick: str) -> Request | None:
    return next((v for v in votes if v.by == nick), None)


class Crook(Role):
    """R57: a loner; steals one player's lynch vote a turn (from turn 2), wins alone."""

    code = "crook"
    spoken = ("crook", "thief", "жулик")
    faction = Faction.LONER
    verbs = frozenset({"steal"})
    # R57: from turn 2 on; on turn 1 there is no lynch, so no vote to steal.
    verb_specs = (Verb("steal", from_turn=2, too_early=RefusalCode.NO_LYNCH_ON_TURN_1),)
    hooks = on_steps({Step.DECEPTIONS: steal})

    @classmethod
    def count_votes(cls, res: Resolution, votes: list[Request]) -> list[Request]:
        """Step 3: each robbed vote counts for the Crook's own candidate, in its own place (its
        arrival time, R33), under the robbed player's nickname (R34); without a vote of the
        Crook's own (none sent, or deprived, R54) it is not counted. A robbed player without
        a vote (none sent, or deprived) has nothing to steal."""
        thefts = res.night.notes.get(cls)
        if not isinstance(thefts, Thefts) or not thefts.taken:
            return votes
        fates = res.result.fates
        out = list(votes)
        for crook, robbed in thefts.taken:
            own = _vote_of(votes, crook)
            victim = _vote_of(out, robbed)
            if victim is None:
                fates[(crook, "steal")] = {"fate": "nothing_to_steal", "robbed": robbed}
                continue
            index = out.index(victim)
            if own is None or own.target is None:
                del out[index]
                fates[(crook, "steal")] = {"fate": "no_own_vote", "robbed": robbed}
                fates[(robbed, "vote")] = {"fate": "vote_lost", "crook": crook}
                continue
            out[index] = attrs.evolve(victim, target=own.target)
            to = own.target
            fates[(crook, "steal")] = {"fate": "stolen", "robbed": robbed, "candidate": to}
            fates[(robbed, "vote")] = {"fate": "vote_stolen", "crook": crook, "candidate": to}
        return out

    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        """A theft taken at 2b but never counted: there was no lynch to count it in."""
        if req.do == "steal":
            return {"fate": "done"}
        return None
