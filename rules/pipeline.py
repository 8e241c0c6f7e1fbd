"""The resolution of one turn: RULES.md section 8, step by step, in `STEP_ORDER`.

`resolve_turn` runs steps 0-5 (consequences are applied as each death happens); the pistol
(step 6) comes from `fire_pistol` while the window is open, and `close_turn` runs the win check
(step 7). Each step is a function registered in `STEP_HANDLERS`; roles name the steps their
requests are resolved in (`Role.hooks`).
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from rules.model import (
    NOTE_CAUSES,
    PISTOL_CAUSES,
    Cause,
    CheckResult,
    Death,
    GameState,
    LynchResult,
    NoteDelivery,
    Phase,
    Player,
    Request,
    RoleChange,
    TurnResult,
)
from rules.roles import (
    STEP_ORDER,
    Boss,
    Commissar,
    ConvertedFoundling,
    Doctor,
    Faction,
    Foundling,
    Maniac,
    PromotedSergeant,
    Prostitute,
    Sergeant,
    Step,
    Troublemaker,
)
from rules.win import decide_winner


@attrs.define
class Night:
    """What the night's steps decide, shared between steps of one resolution."""

    electorate: list[str]
    blocked: str | None = None
    slandered: str | None = None
    protected: str | None = None  # the doctor's heal target, if the heal happens (2f)
    check: CheckResult | None = None


@attrs.define
class Resolution:
    state: GameState
    result: TurnResult
    night: Night
    step: Step | None = None  # None: a host command outside the resolution

    # --- helpers -----------------------------------------------------------------------
    def acts(self, nick: str, role_codes: tuple[str, ...]) -> bool:
        """General rule: a request counts if its sender is alive and still holds the role."""
        p = self.state.players[nick]
        return p.alive and p.role in role_codes and self.night.blocked != nick

    def standing(self, slot: str) -> list[Request]:
        return [s.request for s in self.state.submissions(slot)]

    def kill(self, nick: str, cause: Cause, by: tuple[str, ...]) -> Death:
        """A death and its consequences, at once (step 5)."""
        state = self.state
        player = state.players[nick]
        assert player.alive, f"{nick} killed twice"
        player.alive = False
        player.death_turn = state.turn
        player.death_cause = cause
        death = Death(
            player=nick,
            role=player.role_cls.reveals_as(),  # R35
            cause=cause,
            by=by,
            step=self.step,
        )
        if self.step is Step.PISTOL:
            self.result.after_deaths.append(death)
        else:
            self.result.deaths.append(death)
        _consequences(self, player, cause)
        return death


def _consequences(res: Resolution, player: Player, cause: Cause) -> None:
    """Step 5 for one death: conversion, promotion, pistol, death note."""
    state = res.state
    if player.role == Boss.code:
        foundling = state.holder(Foundling.code)
        if foundling is not None and foundling.alive:  # R22
            foundling.role = ConvertedFoundling.code
            res.result.conversions.append(RoleChange(foundling.nick, "mafia", step=res.step))
    if player.role in (Commissar.code, PromotedSergeant.code):
        sergeant = state.holder(Sergeant.code)
        if sergeant is not None and sergeant.alive:  # R19
            sergeant.role = PromotedSergeant.code
            res.result.promotions.append(RoleChange(sergeant.nick, "commissar", step=res.step))
        if cause in PISTOL_CAUSES:  # R18
            state.pistols.add(player.nick)
            res.result.pistols.append(player.nick)
    if cause in NOTE_CAUSES and player.note is not None:  # R37
        res.result.notes.append(NoteDelivery(player.nick, player.note.to, player.note.text))


# --- step 0: poison deaths (R27) --------------------------------------------------------
def step_poison_deaths(res: Resolution) -> None:
    pending, res.state.pending_poison = res.state.pending_poison, []
    for victim, maniac in pending:
        if res.state.alive(victim):
            res.kill(victim, Cause.POISON, (maniac,))


# --- step 1: hunt (R28-R30) -------------------------------------------------------------
def step_hunt(res: Resolution) -> None:
    state = res.state
    for req in res.standing("hunt"):
        hunter = state.players[req.by]
        assert req.target is not None
        if not hunter.alive or hunter.faction is not Faction.TOWN:
            continue
        if not state.alive(req.target):
            continue
        if state.players[req.target].is_mafia:
            res.kill(req.target, Cause.HUNT, (req.by,))  # R29
        else:
            res.kill(req.by, Cause.HUNT_BACKFIRE, (req.by,))  # R30
        return  # only the first valid hunt is carried out (R28)


# --- step 2a: block (R21) ---------------------------------------------------------------
def step_block(res: Resolution) -> None:
    for req in res.standing("block"):
        if res.acts(req.by, (Prostitute.code,)) and req.target is not None:
            res.night.blocked = req.target
            res.result.blocked.append(req.target)


# --- step 2b: slander (R25) -------------------------------------------------------------
def step_slander(res: Resolution) -> None:
    for req in res.standing("slander"):
        if res.acts(req.by, (Troublemaker.code,)):
            res.night.slandered = req.target


def _doctor_request(res: Resolution) -> Request | None:
    """The doctor's standing request, if he can act at all (alive, not blocked)."""
    for req in res.standing("doctor"):
        if res.acts(req.by, (Doctor.code,)):
            return req
    return None


# --- step 2c: mafia kill (R23, R22, R42) ------------------------------------------------
def step_mafia_kill(res: Resolution) -> None:
    state = res.state
    counted = [
        req
        for req in res.standing("kill")
        if state.players[req.by].alive
        and state.players[req.by].is_mafia
        and res.night.blocked != req.by
    ]
    # The heal protects for the whole night if the doctor gets to act (2f): he does unless
    # this very kill takes him, which a self-heal prevents (R40).
    doctor_req = _doctor_request(res)
    heal = doctor_req.target if doctor_req is not None and doctor_req.do == "heal" else None
    if not counted:
        res.night.protected = heal
        return
    targets = counted[0].named()
    if any(req.kill_set() != frozenset(targets) for req in counted):
        res.night.protected = heal  # the requests differ: no kill (R23)
        return
    by = tuple(req.by for req in counted)

    def kill_happens(nick: str, protected: str | None) -> bool:
        victim = state.players[nick]
        return (
            victim.alive
            and victim.role != Foundling.code  # R22
            and not victim.is_mafia
            and nick != protected
        )

    if doctor_req is not None and heal is not None:
        doctor = doctor_req.by
        if doctor in targets and kill_happens(doctor, heal):
            heal = None  # the doctor dies before his move: no heal
    res.night.protected = heal
    for nick in targets:
        if kill_happens(nick, heal):
            res.kill(nick, Cause.MAFIA, by)


# --- step 2d: commissar's check (R18, R19, R25, R39) ------------------------------------
def step_check(res: Resolution) -> None:
    state = res.state
    for req in res.standing("check"):
        assert req.target is not None
        check = CheckResult(by=req.by, target=req.target, result=None)
        res.result.checks.append(check)
        if not _alive_at_dusk(res, req.by) or res.night.blocked == req.by:
            continue  # dead before the night, or blocked (R21): no answer
        if not _alive_at_dusk(res, req.target):
            continue  # R39: the candidate was dead when the night began
        target = state.players[req.target]
        is_mafia = target.role_cls.checked_as_mafia() or res.night.slandered == req.target
        check.result = "mafia" if is_mafia else "not_mafia"  # R18, R25
        recipients = [req.by]
        for p in state.players.values():  # R19, also when promoted by this night's kill
            if p.original_role == Sergeant.code and p.alive and p.nick != req.by:
                recipients.append(p.nick)
        check.recipients = tuple(recipients)
        res.night.check = check


def _alive_at_dusk(res: Resolution, nick: str) -> bool:
    """Alive when the night began: alive now, or killed by the mafia in this night (2c)."""
    if res.state.alive(nick):
        return True
    return any(d.player == nick and d.step is Step.MAFIA_KILL for d in res.result.deaths)


# --- step 2e: maniac's poison (R27, R41) ------------------------------------------------
def step_poison(res: Resolution) -> None:
    state = res.state
    for req in res.standing("poison"):
        assert req.target is not None
        if not res.acts(req.by, (Maniac.code,)):
            continue
        if not state.alive(req.target) or req.target == res.night.protected:
            continue
        state.pending_poison.append((req.target, req.by))
        res.result.poisoned.append(req.target)


# --- step 2f: doctor (R20, R40) ---------------------------------------------------------
def step_doctor(res: Resolution) -> None:
    state = res.state
    req = _doctor_request(res)
    if req is None or req.do != "inject":
        return
    assert req.target is not None
    if state.alive(req.target):
        res.kill(req.target, Cause.EUTHANASIA, (req.by,))
        state.injection_used = True  # used up only when it kills


def _fill_check_killer(res: Resolution) -> None:
    """R18: if the candidate died this night, the answer adds who killed him and how."""
    check = res.night.check
    if check is None:
        return
    for d in res.result.deaths:
        if d.player == check.target and d.step in (Step.MAFIA_KILL, Step.DOCTOR):
            check.killed_by = d.by
            check.method = str(d.cause)


# --- step 3: lynch (R31-R34, R54) -------------------------------------------------------
def step_lynch(res: Resolution) -> None:
    _fill_check_killer(res)
    state = res.state
    if state.turn == 1:
        return  # R3
    electorate = set(res.night.electorate)
    votes = [r for r in res.standing("vote") if r.by in electorate]  # R32
    tally: dict[str, list[str]] = {}
    for r in votes:
        assert r.target is not None
        if state.alive(r.target):  # candidates dead by now are dropped (Decision)
            tally.setdefault(r.target, []).append(r.by)
    hanged: str | None = None
    if tally:
        top = max(len(v) for v in tally.values())
        if 4 * top >= len(electorate):  # R31
            tied = [c for c, v in tally.items() if len(v) == top]
            if len(tied) == 1:
                hanged = tied[0]
            else:  # R33: the candidate of the second vote cast for the tied ones
                tied_votes = [r.target for r in votes if r.target in tied]
                hanged = tied_votes[1]
    public = "totals" if state.deprived else "full"  # R34, R54
    res.result.lynch = LynchResult(
        hanged=hanged, votes=tally, public=public, electorate=len(electorate)
    )
    if hanged is not None:
        res.kill(hanged, Cause.LYNCH, tuple(tally[hanged]))


# --- step 4: inactivity (R52, R53) ------------------------------------------------------
def step_inactivity(res: Resolution) -> None:
    state = res.state
    if not state.activity_rules:
        return
    voted = {r.by for r in res.standing("vote")}
    for player in list(state.players.values()):
        if not player.alive:
            continue
        if state.posts.get(player.nick, 0) == 0:
            res.kill(player.nick, Cause.INACTIVE, ())  # R52
            continue
        if state.turn >= 2 and player.nick not in state.deprived and player.nick not in voted:
            player.missed_votes += 1
            if player.missed_votes >= 2:
                res.kill(player.nick, Cause.MISSED_VOTES, ())  # R53


def _noop(res: Resolution) -> None:
    """Consequences (5), the pistol (6) and the win (7) are not run by `resolve_turn`."""


StepHandler = Callable[[Resolution], None]

STEP_HANDLERS: dict[Step, StepHandler] = {
    Step.POISON_DEATHS: step_poison_deaths,
    Step.HUNT: step_hunt,
    Step.BLOCK: step_block,
    Step.SLANDER: step_slander,
    Step.MAFIA_KILL: step_mafia_kill,
    Step.CHECK: step_check,
    Step.POISON: step_poison,
    Step.DOCTOR: step_doctor,
    Step.LYNCH: step_lynch,
    Step.INACTIVITY: step_inactivity,
    Step.CONSEQUENCES: _noop,
    Step.PISTOL: _noop,
    Step.WIN: _noop,
}
RESOLVE_STEPS: tuple[Step, ...] = STEP_ORDER[: STEP_ORDER.index(Step.CONSEQUENCES) + 1]


def resolve_turn(state: GameState) -> TurnResult:
    """Steps 0-5 at the deadline. The state moves to the pistol phase."""
    assert state.phase is Phase.OPEN
    result = state.current or TurnResult(turn=state.turn)
    electorate = [p.nick for p in state.living() if p.nick not in state.deprived]
    res = Resolution(state=state, result=result, night=Night(electorate=electorate))
    heal = next((r for r in res.standing("doctor") if r.do == "heal"), None)
    for step in RESOLVE_STEPS:
        res.step = step
        STEP_HANDLERS[step](res)
    # R20: the chain is judged on the heal request standing at this deadline.
    state.last_heal = heal.target if heal is not None else None
    state.current = result
    state.phase = Phase.PISTOL
    return result


def fire_pistol(state: GameState, req: Request) -> Death:
    """Step 6: a killed commissar's shot (validated by `validate_shot`)."""
    assert state.current is not None and req.target is not None
    state.pistols.discard(req.by)
    res = Resolution(state=state, result=state.current, night=Night(electorate=[]))
    res.step = Step.PISTOL
    return res.kill(req.target, Cause.PISTOL, (req.by,))


def close_turn(state: GameState) -> TurnResult:
    """Steps 6 (window closed) and 7: the win check, then the next turn opens."""
    assert state.phase is Phase.PISTOL and state.current is not None
    result = state.current
    state.pistols.clear()
    result.winner = decide_winner(state)
    state.current = None
    if result.winner is not None:
        state.winner = result.winner
        state.phase = Phase.OVER
        return result
    state.turn += 1
    state.phase = Phase.OPEN
    state.requests.clear()
    state.posts.clear()
    state.deprived = state.deprived_next
    state.deprived_next = set()
    state.double_kill = state.double_kill_next
    state.double_kill_next = False
    return result
