"""R18: the Commissar checks one player per night (step 2d) and has the pistol (step 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.model import Causes, CheckResult
from rules.roles.base import Faction, Role, Step, on_steps

if TYPE_CHECKING:
    from rules.model import GameState, Player, Request, TurnResult
    from rules.pipeline import Resolution


def _alive_at_dusk(res: Resolution, nick: str) -> bool:
    """Alive when the night began: alive now, or killed by the mafia in this night (2c)."""
    if res.state.alive(nick):
        return True
    return any(d.player == nick and d.step is Step.NIGHT_KILL for d in res.result.deaths)


def check(res: Resolution) -> None:
    """Step 2d (R18, R25, R39): answered even if the commissar was killed in 2c."""
    for req in res.standing("check"):
        assert req.target is not None
        answer = CheckResult(by=req.by, target=req.target, result=None)
        res.result.checks.append(answer)
        if not _alive_at_dusk(res, req.by):
            continue  # dead before the night: no answer, and nobody to tell
        if req.by in res.night.blocked or not _alive_at_dusk(res, req.target):
            # R21 (blocked) or R39 (the candidate was dead when the night began): no answer,
            # and the commissar is told so at dawn, never why (R21's changed Decision).
            answer.recipients = (req.by,)
            continue
        answer.result = "mafia" if res.appears_mafia(req.target) else "not_mafia"  # R18, R25
        answer.recipients = (req.by,)
        res.result.fates[(req.by, req.do)] = {
            "fate": answer.result,
            "slandered": req.target in res.night.appears_mafia,  # R25, for the hosts
        }


def name_the_killers(res: Resolution) -> None:
    """When step 3 begins the night is over: if a checked candidate died in it (2c or 2f),
    the answer adds who killed him and how (R18)."""
    for answer in res.result.checks:
        if answer.result is None:
            continue
        for d in res.result.deaths:
            if d.player == answer.target and d.step in (Step.NIGHT_KILL, Step.LAST_NIGHT_ACTS):
                answer.killed_by = d.by
                answer.method = str(d.cause)


class Commissar(Role):
    """R18: checks one player per turn; has the pistol."""

    code = "commissar"
    spoken = ("commissar", "cop", "detective", "sheriff", "комиссар", "ком", "шериф")
    faction = Faction.TOWN
    verbs = frozenset({"check"})
    hooks = on_steps({Step.CHECKS: check, Step.LYNCH: name_the_killers})

    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        """A check not answered (an answer is recorded by `check`): R21, R39."""
        if not any(c.by == req.by for c in result.checks):
            return {"fate": "none"}
        return {"fate": "blocked" if req.by in result.blocked else "dead_before"}

    @classmethod
    def on_own_death(cls, res: Resolution, player: Player, cause: Causes) -> None:
        if res.arms_pistol(cause):  # R18: he may shoot (step 6, `rules.pipeline.fire_pistol`)
            res.state.pistols.add(player.nick)
            res.result.pistols.append(player.nick)
