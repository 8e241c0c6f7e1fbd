"""The resolution of one turn: docs/REFERENCE.md section 8, step by step, in `STEP_ORDER`.

`resolve_turn` runs steps 0-5; the pistol (step 6) comes from `fire_pistol` while the window is
open, and `close_turn` runs the win check (step 7). At each step the hooks the registered role
classes attach to it run first (`Role.hooks`, in registry order: the Prostitute's block, the
mafia's kill, the Commissar's check, ...), then the step's generic part if it has one (the
hunt, the lynch, inactivity). Nothing here knows a role by name: roles meet through the
generic questions of `Resolution` (`acts`, `hits`, `appears_mafia`) and the death hooks.

Deaths of one step (Decision): a step's victims all die first (`Resolution.kill`), then
`Resolution.settle` lists them in seat order and applies step 5 to them: role revealed
(R35), each dead player's `on_own_death` (R18's pistol), the death note (R37), then for every
death each player still alive gets `on_other_death` (R19's promotion, R22's conversion).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import attrs

from rules.model import (
    Cause,
    Causes,
    Death,
    GameState,
    LynchResult,
    Miss,
    NoteDelivery,
    Phase,
    Request,
    Save,
    TurnResult,
)
from rules.roles import (
    STEP_ORDER,
    Protection,
    Role,
    Step,
    note_causes,
    pistol_causes,
    role_classes,
    step_hooks,
)
from rules.roles.registry import overriding
from rules.win import decide_winner

T = TypeVar("T")


@attrs.define
class Night:
    """What the night's steps decide, shared between the hooks of one resolution."""

    electorate: list[str]
    # R21: players whose ability does not work tonight; every ability asks `Resolution.acts`.
    blocked: set[str] = attrs.Factory(set)
    # R25: players the commissar sees as mafia tonight whatever their role.
    appears_mafia: set[str] = attrs.Factory(set)
    # Protections of the night (R20), gathered from every role class when first asked.
    protections: list[Protection] | None = None
    # What a role's hooks of this resolution note for its later hooks (R57: a theft at 2b
    # counted at step 3), by role class: each role's own attrs value (`Resolution.tonight`).
    notes: dict[type[Role], Any] = attrs.Factory(dict)


@attrs.define
class Resolution:
    state: GameState
    result: TurnResult
    night: Night
    step: Step | None = None  # None: a host command outside the resolution
    batch: list[Death] = attrs.Factory(list)  # the deaths of the current step, not settled
    # The standing requests by slot, in arrival order, read once: no request arrives while
    # a resolution runs (shots come after it, each with a resolution of its own).
    by_slot: dict[str, list[Request]] | None = None

    # --- questions roles ask each other ---------------------------------------------------
    def acts(self, req: Request) -> bool:
        """General rule of section 8: a role request counts if its sender is alive, still
        holds a role that sends it, and is not blocked (R21)."""
        p = self.state.players[req.by]
        why = (
            "dead"
            if not p.alive
            else "role"
            if req.do not in p.role_cls.verbs
            else "blocked"
            if req.by in self.night.blocked
            else None
        )
        if why is not None:  # for the hosts' account: the first reason seen
            self.result.idle.setdefault((req.by, req.do), why)
        return why is None

    def standing(self, slot: str) -> list[Request]:
        """The requests standing in one slot, in arrival order (`GameState.submissions`)."""
        if self.by_slot is None:
            self.by_slot = {}
            ordered = sorted(self.state.requests.items(), key=lambda item: item[1].seq)
            for (_, name), sub in ordered:
                self.by_slot.setdefault(name, []).append(sub.request)
        return list(self.by_slot.get(slot, ()))

    def tonight(self, cls: type[Role], make: Callable[[], T]) -> T:
        """The role's own note of this resolution, made by ``make`` when first asked."""
        found = self.night.notes.get(cls)
        if found is None:
            found = self.night.notes[cls] = make()
        return cast(T, found)

    def appears_mafia(self, nick: str) -> bool:
        """What the commissar sees (R18): the role's own look, or a slander (R25)."""
        player = self.state.players[nick]
        return player.role_cls.checked_as_mafia() or nick in self.night.appears_mafia

    def protections(self) -> list[Protection]:
        """The night's protections, gathered from every role class the first time a kill or
        poison asks (never before step 2c, so after the block and the deaths of 0 and 1)."""
        if self.night.protections is None:
            self.night.protections = [p for cls in role_classes() for p in cls.protections(self)]
        return self.night.protections

    @staticmethod
    def arms_pistol(cause: Causes) -> bool:
        """R18: a commissar killed by this cause may shoot (the engine's causes and those the
        registered roles declare, `rules.roles.pistol_causes`)."""
        return cause in pistol_causes()

    def hits(self, targets: Iterable[str], cause: Causes) -> list[str]:
        """Who an attack (`mafia` kill, `poison`) on `targets` actually hits, in seat order.

        A target is missed if he is dead, immune to the cause (R22), or protected against it
        (R20, R42); a stand-in protector is hit in his place. A protection holds only while
        its protector lives, and not against an attack that hits the protector himself: a
        doctor killed by this kill heals nobody, unless he healed himself (R40)."""
        state = self.state
        wanted = list(targets)
        valid = [p for p in self.protections() if cause in p.against and state.alive(p.by)]

        def vulnerable(nick: str) -> bool:
            return state.alive(nick) and not state.players[nick].role_cls.immune_to(cause)

        while True:
            hit: set[str] = set()
            direct: set[str] = set()  # hit as themselves, not as stand-ins
            misses: list[Miss] = []  # for the hosts' account
            saves: list[Save] = []
            for t in wanted:
                if not vulnerable(t):
                    why = "dead" if not state.alive(t) else "immune"
                    misses.append(Miss(t, cause, why))
                    continue
                cover = [p for p in valid if p.target == t]
                shield = next((p for p in cover if not p.stand_in), None)
                if shield is not None:
                    misses.append(Miss(t, cause, "protected", shield.by))
                    saves.append(Save(t, shield.by, cause))
                    continue
                stand_in = next((p.by for p in cover if p.stand_in), None)
                if stand_in is None:
                    hit.add(t)
                    direct.add(t)
                elif vulnerable(stand_in) and not any(
                    p.target == stand_in and not p.stand_in for p in valid
                ):
                    hit.add(stand_in)
                    misses.append(Miss(t, cause, "stand_in", stand_in))
            void = [p for p in valid if p.by in direct]
            if not void:
                self.result.misses.extend(misses)
                self.result.saves.extend(saves)
                return self.in_seat_order(hit)
            valid = [p for p in valid if p not in void]

    def in_seat_order(self, nicks: Iterable[str]) -> list[str]:
        wanted = set(nicks)
        return [n for n in self.state.players if n in wanted]

    # --- deaths ---------------------------------------------------------------------------
    def kill(self, nick: str, cause: Causes, by: tuple[str, ...]) -> Death:
        """The player dies now; step 5 waits until the step's deaths have all happened."""
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
        self.batch.append(death)
        return death

    def settle(self) -> None:
        """The end of a step (Deaths of one step): its deaths are listed in seat order, then
        step 5 applies to them; a conversion or promotion goes only to a player still alive."""
        if not self.batch:
            return
        state = self.state
        seat = {nick: i for i, nick in enumerate(state.players)}
        batch = sorted(self.batch, key=lambda d: seat[d.player])
        self.batch = []
        if self.step is Step.PISTOL:
            self.result.after_deaths.extend(batch)
        else:
            self.result.deaths.extend(batch)
        for death in batch:
            player = state.players[death.player]
            player.role_cls.on_own_death(self, player, death.cause)
            if death.cause in note_causes() and player.note is not None:  # R37
                self.result.notes.append(
                    NoteDelivery(player.nick, player.note.to, player.note.text)
                )
        for death in batch:
            dead = state.players[death.player]
            for me in state.living():
                me.role_cls.on_other_death(self, me, dead, death.cause)


# --- step 1: hunt (R28-R30) -------------------------------------------------------------
def step_hunt(res: Resolution) -> None:
    state = res.state
    for req in res.standing("hunt"):
        hunter = state.players[req.by]
        assert req.target is not None
        if not hunter.alive or not hunter.role_cls.may_hunt():
            continue
        if not state.alive(req.target):
            continue
        if state.players[req.target].is_mafia:
            res.kill(req.target, Cause.HUNT, (req.by,))  # R29
        else:
            res.kill(req.by, Cause.HUNT_BACKFIRE, (req.by,))  # R30
        return  # only the first valid hunt is carried out (R28)


# --- step 3: lynch (R31-R34, R54) -------------------------------------------------------
def step_lynch(res: Resolution) -> None:
    """The lynch is decided on every vote as cast (section 6, Decision), candidates who died
    earlier in this resolution included: the player it chooses is hanged, unless he is
    already dead (then nobody is)."""
    state = res.state
    if state.turn == 1:
        return  # R3
    electorate = set(res.night.electorate)
    standing = res.standing("vote")
    votes = [r for r in standing if r.by in electorate]  # R32
    uncounted = [r.by for r in standing if r.by not in electorate]  # R31, R54
    for cls in overriding("count_votes"):  # a role reshaping the counted votes (R57)
        votes = cls.count_votes(res, votes)
    tally: dict[str, list[str]] = {}
    for r in votes:
        assert r.target is not None
        tally.setdefault(r.target, []).append(r.by)
    threshold = -(-len(electorate) // 4)  # R31: 4 * votes >= electorate
    chosen: str | None = None
    tied: list[str] = []
    tie_voter: str | None = None
    if tally:
        top = max(len(v) for v in tally.values())
        if 4 * top >= len(electorate):  # R31
            tied = [c for c, v in tally.items() if len(v) == top]
            if len(tied) == 1:
                chosen = tied[0]
                tied = []
            else:  # R33: the candidate of the second vote cast for the tied ones
                tied_votes = [r for r in votes if r.target in tied]
                chosen = tied_votes[1].target
                tie_voter = tied_votes[1].by
    hanged = chosen if chosen is not None and state.alive(chosen) else None  # Decision
    public = "totals" if state.deprived else "full"  # R34, R54
    res.result.lynch = LynchResult(
        hanged=hanged,
        votes=tally,
        public=public,
        electorate=len(electorate),
        chosen=chosen,
        threshold=threshold,
        uncounted=uncounted,
        tied=tied,
        tie_voter=tie_voter,
    )
    if hanged is not None:
        res.kill(hanged, Cause.LYNCH, tuple(tally[hanged]))


# --- step 4: inactivity (R52, R53) ------------------------------------------------------
@attrs.frozen
class Inactivity:
    """What step 4 decides (R52, R53): who misses this turn's vote (it counts towards R53),
    and who leaves the game, with the cause, in seat order."""

    missed_vote: tuple[str, ...] = ()
    removed: tuple[tuple[str, Cause], ...] = ()


def inactivity(state: GameState) -> Inactivity:
    """Step 4's decision on the state as it stands, pure: the resolution applies it, and the
    host's ``/mafia resolve`` preview shows it (who would be removed if the turn were
    resolved now). Nobody, in a turn R59 excuses (``state.downtime``)."""
    if not state.activity_rules:
        return Inactivity()
    if state.downtime is not None and state.downtime.excuses:
        return Inactivity()  # R59: the bot lost a tenth of the turn or more
    voted = {s.request.by for s in state.submissions("vote")}
    missed: list[str] = []
    removed: list[tuple[str, Cause]] = []
    for player in state.players.values():
        if not player.alive:
            continue
        if state.posts.get(player.nick, 0) == 0:
            removed.append((player.nick, Cause.INACTIVE))  # R52
            continue
        if state.turn >= 2 and player.nick not in state.deprived and player.nick not in voted:
            missed.append(player.nick)
            if player.missed_votes + 1 >= 2:
                removed.append((player.nick, Cause.MISSED_VOTES))  # R53
    return Inactivity(tuple(missed), tuple(removed))


def nonvoters(state: GameState) -> list[str]:
    """R31: the living players holding a vote (R54) who sent no lynch vote, in seat order;
    none on turn 1, which has no lynch (R3)."""
    if state.turn < 2:
        return []
    voted = {s.request.by for s in state.submissions("vote")}
    return [p.nick for p in state.living() if p.nick not in state.deprived and p.nick not in voted]


def step_inactivity(res: Resolution) -> None:
    """The removals of this step happen together (Deaths of one step), whatever the seats
    or which of the two causes removes whom."""
    decided = inactivity(res.state)
    res.result.nonvoters = nonvoters(res.state)
    for nick in decided.missed_vote:
        res.state.players[nick].missed_votes += 1
        res.result.missed[nick] = res.state.players[nick].missed_votes
    for nick, cause in decided.removed:
        res.kill(nick, cause, ())


StepHandler = Callable[[Resolution], None]

# The generic part of a step, run after the role hooks of that step. The other steps are
# entirely the roles' (0, 2a-2f); 5 is `Resolution.settle` at the end of every step, and 6
# and 7 are not run by `resolve_turn`.
GENERIC_STEPS: dict[Step, StepHandler] = {
    Step.HUNT: step_hunt,
    Step.LYNCH: step_lynch,
    Step.INACTIVITY: step_inactivity,
}
RESOLVE_STEPS: tuple[Step, ...] = STEP_ORDER[: STEP_ORDER.index(Step.CONSEQUENCES) + 1]


def run_step(res: Resolution, step: Step) -> None:
    """One step: the role hooks attached to it, its generic part, then its deaths settle."""
    res.step = step
    for hook in step_hooks(step):
        hook(res)
    generic = GENERIC_STEPS.get(step)
    if generic is not None:
        generic(res)
    res.settle()


def resolve_turn(state: GameState) -> TurnResult:
    """Steps 0-5 at the deadline. The state moves to the pistol phase."""
    assert state.phase is Phase.OPEN
    result = state.current or TurnResult(turn=state.turn)
    electorate = [p.nick for p in state.living() if p.nick not in state.deprived]
    res = Resolution(state=state, result=result, night=Night(electorate=electorate))
    for step in RESOLVE_STEPS:
        run_step(res, step)
    state.current = result
    state.phase = Phase.PISTOL
    return result


def fire_pistol(state: GameState, req: Request) -> Death:
    """Step 6: a killed commissar's shot (validated by `validate_shot`)."""
    assert state.current is not None and req.target is not None
    state.pistols.discard(req.by)
    res = Resolution(state=state, result=state.current, night=Night(electorate=[]))
    res.step = Step.PISTOL
    death = res.kill(req.target, Cause.PISTOL, (req.by,))
    res.settle()
    return death


def kill_outside_resolution(state: GameState, nick: str, cause: Causes) -> Death:
    """A death by host command (R56's exclusion), with its consequences at once."""
    if state.current is None:
        state.current = TurnResult(turn=state.turn)
    res = Resolution(state=state, result=state.current, night=Night(electorate=[]))
    death = res.kill(nick, cause, ())
    res.settle()
    return death


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
    state.downtime = None  # R59: measured anew each turn
    state.deprived = state.deprived_next
    state.deprived_next = set()
    state.double_kill = state.double_kill_next
    state.double_kill_next = False
    return result
