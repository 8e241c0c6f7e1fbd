"""Validation of requests at submission (docs/REFERENCE.md sections 1, 4-9).

The rules of a role's own requests are the role class's (`Role.refuse_request`,
`Role.refuse_target`); the verbs' shapes and target rules come from the registry
(`rules.roles.verb_spec`). Every check uses only what the sender legitimately knows (R55):
deaths are public, a player knows his own role, and the mafia know their members. Nothing
here looks at another living player's role except a mafia member's knowledge of his team.
"""

from __future__ import annotations

from rules.model import GameState, HostAction, Phase, Refusal, RefusalCode, Refusals, Request
from rules.roles import COMMON_VERBS, Verb, verb_spec


def _refuse(code: Refusals) -> Refusal:
    return Refusal(code)


def validate_request(state: GameState, req: Request, *, hunts_open: bool = True) -> Refusal | None:
    """Decide whether a request is accepted now. `req.by` and the named players must exist."""
    phase = state.phase
    if phase is Phase.OVER or state.winner is not None:
        return _refuse(RefusalCode.GAME_OVER)
    verb = req.do
    if verb == "shoot":
        return validate_shot(state, req)
    if verb == "post":
        return None  # a post is no request: the living and ghosts (R36) may always post
    if phase is not Phase.OPEN:
        return _refuse(RefusalCode.REQUEST_CLOSED)
    sender = state.players[req.by]
    if not sender.alive:
        return _refuse(RefusalCode.DEAD_SENDER)  # ghosts send no requests (section 9)
    role = sender.role_cls
    if verb == "hunt":
        if not role.may_hunt():
            return _refuse(RefusalCode.NOT_TOWN)  # R26, R28
    elif verb not in COMMON_VERBS and verb not in role.verbs:
        return _refuse(RefusalCode.WRONG_ROLE)
    first_turn = state.turn == 1
    if first_turn and verb == "vote":
        return _refuse(RefusalCode.NO_LYNCH_ON_TURN_1)  # R3, R49
    if first_turn and verb == "hunt":
        return _refuse(RefusalCode.NO_HUNT_ON_TURN_1)  # R3, R49
    if verb == "hunt" and not hunts_open:
        return _refuse(RefusalCode.HUNT_NOT_OPEN)  # R4
    if verb == "vote" and req.by in state.deprived:
        return _refuse(RefusalCode.VOTE_DEPRIVED)  # R45, R54
    if verb == "note" and sender.note is not None:
        return _refuse(RefusalCode.NOTE_ALREADY_SENT)  # R37
    spec = verb_spec(verb)
    assert spec is not None
    if state.turn < spec.from_turn:
        return _refuse(spec.too_early)  # a verb of later turns (R57)
    code = role.refuse_request(state, req)  # the role's own rules (R20, R23, R36)
    if code is not None:
        return _refuse(code)
    # Deaths of one step (Decision): nothing depends on the order in which a request names
    # its targets, its refusal neither: the first rule (in `_check_target` order) any named
    # player breaks decides.
    first: tuple[int, Refusals] | None = None
    for name in req.named():
        found = _target_rule(state, req, name, spec)
        if found is not None and (first is None or found < first):
            first = found
    return None if first is None else _refuse(first[1])


def _target_rule(
    state: GameState, req: Request, name: str, spec: Verb
) -> tuple[int, Refusals] | None:
    """The first rule one named player breaks, with its rank (lower decides first)."""
    target = state.players[name]
    sender = state.players[req.by]
    if name == req.by and not spec.self_target:
        return (0, RefusalCode.SELF_TARGET)  # section 9 Decision
    if not target.alive:
        return (1, RefusalCode.DEAD_TARGET)
    if spec.spares_team and target.faction is sender.faction:
        # R23: the mafia know their members (a converted Foundling included); an unconverted
        # Foundling is not known, so a kill on him is accepted and fails silently (R22, R55).
        return (2, RefusalCode.OWN_MAFIA_TARGET)
    code = sender.role_cls.refuse_target(state, req, name)  # e.g. R20's heal chain
    return None if code is None else (3, code)


def validate_shot(state: GameState, req: Request) -> Refusal | None:
    """R18: only a commissar killed in this resolution, while his pistol window is open."""
    if state.phase is not Phase.PISTOL or req.by not in state.pistols:
        return _refuse(RefusalCode.NO_PISTOL)
    assert req.target is not None
    if req.target == req.by:
        return _refuse(RefusalCode.SELF_TARGET)
    if not state.players[req.target].alive:
        return _refuse(RefusalCode.DEAD_TARGET)
    return None


def validate_host_action(state: GameState, action: HostAction) -> Refusal | None:
    """R56: host commands; they too stop once the game has a winner."""
    if state.phase is Phase.OVER or state.winner is not None:
        return _refuse(RefusalCode.GAME_OVER)
    if action.do == "double_kill":
        already = state.double_kill if state.phase is Phase.OPEN else state.double_kill_next
        return _refuse(RefusalCode.ALREADY_GRANTED) if already else None
    assert action.player is not None
    if not state.players[action.player].alive:
        return _refuse(RefusalCode.ALREADY_DEAD)
    if action.do == "deprive_vote" and action.player in state.deprived:
        return _refuse(RefusalCode.ALREADY_DEPRIVED)
    return None
