"""R23: the mafia's kill (step 2c), sent by every mafia member: the Mafioso and the Boss here,
the Troublemaker and the converted Foundling in their own modules."""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rules.killboard import agreed_kill
from rules.model import Causes, Refusals
from rules.roles.base import Faction, Role, Shape, Step, Verb, attack_hits, on_steps

if TYPE_CHECKING:
    from rules.model import GameState, Request, TurnResult
    from rules.pipeline import Resolution


def mafia_kill(res: Resolution) -> None:
    """Step 2c (R23, R22, R42): every counted request must name the same players."""
    counted = [req for req in res.standing("kill") if res.acts(req)]
    named = agreed_kill(req.kill_set() for req in counted)  # the board's decision too
    if named is None:
        return  # no requests, or they differ: no kill (R23)
    by = tuple(req.by for req in counted)
    # A target who is by now a mafia member (a Foundling converted at step 0 or 1) is spared;
    # the dead, the immune and the protected are missed by `hits` (R22, R42).
    targets = [nick for nick in named if not res.state.players[nick].is_mafia]
    for victim in res.hits(targets, MafiaCause.MAFIA):
        res.kill(victim, MafiaCause.MAFIA, by)


class MafiaCause(Causes):
    """The death the mafia brings (R23), which delivers the victim's death note (R37) and
    lets a killed commissar shoot (R18)."""

    MAFIA = "mafia"


class MafiaRefusal(Refusals):
    """The mafia's own refusals of a kill request (R23, R36)."""

    DOUBLE_KILL_NOT_GRANTED = "double_kill_not_granted"  # two targets without the host's grant
    SAME_TARGETS = "same_targets"  # the double kill names one player twice


class MafiaMember(Role):
    """R23: every mafia member may send the kill request."""

    code = "mafioso"
    faction = Faction.MAFIA
    verbs = frozenset({"kill"})
    # R23, R36: one player, or two with the double kill; never a known member of the mafia.
    verb_specs = (Verb("kill", shape=Shape.TARGET_OR_PAIR, spares_team=True, on_board=True),)
    hooks = on_steps({Step.NIGHT_KILL: mafia_kill})
    attacks = MappingProxyType({"kill": MafiaCause.MAFIA})
    refusals = MafiaRefusal
    causes = MafiaCause
    pistol_causes = frozenset({MafiaCause.MAFIA})
    note_causes = frozenset({MafiaCause.MAFIA})

    @classmethod
    def refuse_request(cls, state: GameState, req: Request) -> MafiaRefusal | None:
        if req.do == "kill" and req.targets is not None:
            if not state.double_kill:
                return MafiaRefusal.DOUBLE_KILL_NOT_GRANTED  # R23, R36
            if req.targets[0] == req.targets[1]:
                return MafiaRefusal.SAME_TARGETS
        return None

    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        if req.do != "kill":
            return None

        def unexplained(target: str) -> str:
            if state.players[target].is_mafia:
                return "spared"  # a converted Foundling (R22)
            return "disagreed"  # R23: the requests differ

        return {"fate": "attack", "hits": attack_hits(result, req, MafiaCause.MAFIA, unexplained)}


class Mafioso(MafiaMember):
    code = "mafioso"
    spoken = ("mafioso", "mafiosi", "mafia", "goon", "мафиози", "мафиозо", "мафия", "мафиозник")
    unique = False


class Boss(MafiaMember):
    """R22: his death converts the Foundling (see `rules.roles.foundling`)."""

    code = "boss"
    spoken = ("boss", "godfather", "don", "босс", "дон", "крестный отец")
