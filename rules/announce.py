"""What a turn's outcome tells whom (R18-R22, R30, R34-R37, R54, R55).

The one place that decides what is public. The bot renders these payloads in the guild's
language and sends them; it never looks into a `TurnResult` itself. Payloads are plain JSON
(they are stored in the outbox), naming players by nickname only; the end of the game alone
may name the members behind them, when the host chose so (`game_over_announcement`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

import attrs

from rules.downtime import Downtime
from rules.model import Death, GameState, Phase, Request, TurnResult
from rules.names import collation_key, public_order
from rules.roles import STEP_ORDER, Step, role_classes
from rules.roles.base import attack_hits
from rules.roles.registry import overriding
from rules.win import win_reason

_Entry = TypeVar("_Entry", bound=Mapping[str, Any])

PUBLIC = "public"  # the game channel
MAFIA = "mafia"  # the mafia channel
GHOSTS = "ghosts"  # the ghosts' room (R62), in a game that has one


@attrs.frozen
class Announcement:
    kind: str
    audience: str  # PUBLIC, MAFIA, or a player's nickname (a private message)
    payload: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "audience": self.audience, "payload": self.payload}


def public_death(death: Death) -> dict[str, Any]:
    """A death as the public sees it: nickname, revealed role (R35) and cause. Never who
    killed (the mafia, the doctor, the maniac stay hidden), never a hunter's target (R30)."""
    out: dict[str, Any] = {"nick": death.player, "role": death.role, "cause": str(death.cause)}
    if death.cause == "pistol":
        out["by"] = list(death.by)  # the shooter is a revealed, dead commissar (R18)
    return out


def public_deaths(deaths: list[Death]) -> list[Death]:
    """The deaths of the resolution (host exclusions left out: announced when they happened)
    as the dawn report lists them: step by step, and within a step by nickname. The rules list
    a step's deaths in seat order (section 8); in public they never follow the seats, which in
    a game started before seats were dealt from the seed follow the sign-up."""
    steps: list[list[Death]] = []
    for death in deaths:
        if death.step is None:
            continue
        if steps and steps[-1][0].step is death.step:
            steps[-1].append(death)
        else:
            steps.append([death])
    return [d for step in steps for d in sorted(step, key=lambda d: collation_key(d.player))]


def _by_votes(votes: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    """Most votes first; equal counts in the order of their first vote (the tally's order)."""
    return sorted(votes.items(), key=lambda item: -len(item[1]))


def _lynch_view(result: TurnResult) -> dict[str, Any] | None:
    """The lynch as the public sees it: the tally sorted, the threshold (R31), the player it
    chose and whether he was already dead (section 6: then nobody is hanged), the votes not
    counted and why (R31, R54), how a tie was broken (R33). Under totals only (R54) no voter
    is ever named: counts only."""
    lynch = result.lynch
    if lynch is None:
        return None
    view: dict[str, Any] = {
        "chosen": lynch.chosen,
        "hanged": lynch.hanged,
        "chosen_dead": lynch.chosen_dead,
        "public": lynch.public,
        "electorate": lynch.electorate,
        "threshold": lynch.threshold,
    }
    # R32: the votes of players who died earlier in this resolution (poisoned, hunted, killed
    # in the night) still count; the results say so, lest a tie they broke read as a bug.
    lynch_step = STEP_ORDER.index(Step.LYNCH)
    died_before = {
        d.player
        for d in result.deaths
        if d.step is not None and STEP_ORDER.index(d.step) < lynch_step
    }
    dead_voters = public_order(
        v for voters in lynch.votes.values() for v in voters if v in died_before
    )
    if lynch.public == "full":  # R34: who voted for whom
        view["dead_voters"] = dead_voters
        view["votes"] = {cand: list(voters) for cand, voters in _by_votes(lynch.votes)}
        view["uncounted"] = list(lynch.uncounted)
        view["tie"] = {"tied": list(lynch.tied), "by": lynch.tie_voter} if lynch.tied else None
    else:  # R54: totals only
        view["dead_voters"] = len(dead_voters)
        view["totals"] = {cand: len(voters) for cand, voters in _by_votes(lynch.votes)}
        view["uncounted"] = len(lynch.uncounted)
        view["tie"] = {"tied": list(lynch.tied)} if lynch.tied else None
    return view


# --- the non-voters and the threshold of the dawn report (R31, R53, R54) ----------------


def nonvoters_view(state: GameState, result: TurnResult) -> list[dict[str, Any]] | None:
    """R31, R53: who of the living electorate sent no lynch vote, in alphabetical order, each
    with the missed votes R53 counts (``missed``, None when the activity rules are off or he
    left for not posting) and whether this one removes him (``out``), so the second miss is
    seen coming. None on turn 1 (no lynch, R3) and when a vote was taken away this turn: R54
    publishes totals only, and the list of who did not vote would tell who did. A deprived
    player is not a non-voter."""
    if result.lynch is None or result.lynch.public != "full":
        return None
    removed = {d.player for d in result.deaths if d.cause == "missed_votes"}
    return [
        {"nick": nick, "missed": result.missed.get(nick), "out": nick in removed}
        for nick in public_order(result.nonvoters)
    ]


def threshold_view(result: TurnResult) -> dict[str, int] | None:
    """R31: the fewest votes that hang (``needed``, a quarter of the ``electorate`` rounded
    up) and how many votes the electorate cast (``cast``: every counted vote, those for a
    candidate who died earlier in the resolution included), so "2 of 8" is never read as 8
    votes cast."""
    lynch = result.lynch
    if lynch is None:
        return None
    cast = sum(len(v) for v in lynch.votes.values())
    return {"needed": lynch.threshold, "electorate": lynch.electorate, "cast": cast}


def role_list(state: GameState) -> dict[str, int]:
    """The game's roles as its setup published them: the original roles, counted (a converted
    Foundling or promoted Sergeant still counts as what he was dealt)."""
    counts: dict[str, int] = {}
    for player in state.players.values():
        counts[player.original_role] = counts.get(player.original_role, 0) + 1
    # In the registry's order, never the seats' (the first seat's role would show first).
    order = {cls.code: index for index, cls in enumerate(role_classes())}
    return dict(sorted(counts.items(), key=lambda item: (order.get(item[0], len(order)), item[0])))


def turn_open_announcement(state: GameState, turn: int, deadline_iso: str | None) -> Announcement:
    """A turn begins: its deadline, who is alive (after the night and the pistol shots: the
    dead are ghosts, not in it) and the game's roles as the setup published them. It follows
    the results, so together they are the dawn report."""
    payload: dict[str, Any] = {
        "turn": turn,
        "deadline": deadline_iso,
        "living": public_order(p.nick for p in state.living()),  # never the seats' order
        "roles": role_list(state),
    }
    return Announcement("turn_open", PUBLIC, payload)


def night_announcements(state: GameState, result: TurnResult) -> list[Announcement]:
    """After steps 0-5: the public results and every private message they cause."""
    out: list[Announcement] = [
        Announcement(
            "results",
            PUBLIC,
            {
                "turn": result.turn,
                # Host exclusions were announced when they happened.
                "deaths": [public_death(d) for d in public_deaths(result.deaths)],
                "lynch": _lynch_view(result),
                "pistols": public_order(result.pistols),
                "nonvoters": nonvoters_view(state, result),
                "threshold": threshold_view(result),
            },
        )
    ]
    for check in result.checks:
        if check.result is None:
            # R21, R39: no answer; a commissar alive at dusk is told so, never why (one
            # text for a block and a dead candidate), and the sergeant gets no copy.
            for nick in check.recipients:
                out.append(
                    Announcement("check_none", nick, {"turn": result.turn, "target": check.target})
                )
            continue
        payload = {
            "turn": result.turn,
            "target": check.target,
            "result": check.result,
            "killed_by": list(check.killed_by) if check.killed_by is not None else None,
            "method": check.method,
            "commissar": check.by,
        }
        for nick in check.recipients:  # R18, R19
            out.append(Announcement("check", nick, payload))
    out += _role_changes(result, stage=NIGHT)
    out += _ghosts_of_the_mafia(state, [d for d in result.deaths if d.step is not None])
    for note in result.notes:  # R37
        out.append(Announcement("note", note.to, {"from": note.author, "text": note.text}))
    for nick in result.pistols:  # R18
        out.append(Announcement("pistol", nick, {"turn": result.turn}))
    return out


def ending_results(announcements: list[Announcement]) -> list[Announcement]:
    """The results of the turn that ends the game say so (``final``): the report that closes
    the game asks nobody to explain his vote (R8, R51: there is no next day to do it)."""
    return [
        Announcement(a.kind, a.audience, {**a.payload, "final": True}) if a.kind == "results" else a
        for a in announcements
    ]


def with_pistol_window(announcements: list[Announcement], until_iso: str) -> list[Announcement]:
    """R18: the results and each killed commissar's prompt say when his pistol window
    closes (``pistol_until``, ISO-8601 UTC): the window is the caller's clock, not a rule."""
    out: list[Announcement] = []
    for a in announcements:
        if a.kind in ("results", "pistol"):
            a = Announcement(a.kind, a.audience, {**a.payload, "pistol_until": until_iso})
        out.append(a)
    return out


NIGHT = "night"  # every step of the resolution but the pistol


def _stage(step: Step | None) -> Step | str | None:
    return step if step in (None, Step.PISTOL) else NIGHT


def _role_changes(result: TurnResult, *, stage: Step | str | None) -> list[Announcement]:
    """Conversions and promotions caused at one stage: the resolution, the pistol, or a
    host exclusion (stage None)."""
    out: list[Announcement] = []
    for conv in result.conversions:  # R22
        if _stage(conv.step) == stage:
            out.append(Announcement("converted", conv.player, {"turn": result.turn}))
            out.append(Announcement("mafia_joined", MAFIA, {"nick": conv.player}))
    for promo in result.promotions:  # R19
        if _stage(promo.step) == stage:
            out.append(Announcement("promoted", promo.player, {"turn": result.turn}))
    return out


def _ghosts_of_the_mafia(state: GameState, deaths: list[Death]) -> list[Announcement]:
    """R14, R36: a dead mafia member leaves the mafia's private room (he is a ghost: he may
    still post in the game channel, but no longer plots with the mafia)."""
    return [
        Announcement("mafia_left", MAFIA, {"nick": d.player})
        for d in deaths
        if state.players[d.player].is_mafia
    ]


def exclusion_announcements(
    state: GameState,
    result: TurnResult,
    nick: str,
    conversions_before: int,
    promotions_before: int,
) -> list[Announcement]:
    """R56: a host exclusion is public at once (role revealed, R35), with what it caused
    (the role changes recorded after the counts given)."""
    death = next(d for d in result.deaths if d.player == nick and d.step is None)
    caused = TurnResult(
        turn=result.turn,
        conversions=result.conversions[conversions_before:],
        promotions=result.promotions[promotions_before:],
    )
    public = Announcement("excluded", PUBLIC, public_death(death))
    return [public, *_role_changes(caused, stage=None), *_ghosts_of_the_mafia(state, [death])]


@attrs.frozen
class Ending:
    """What only the service knows about a game that ends: the members behind the nicknames
    (``members``: nickname -> user id, given only when the host chose to reveal them at
    ``/mafia new``) and when the game started and ended (ISO-8601 UTC, if known)."""

    members: Mapping[str, int] | None = None
    started: str | None = None
    ended: str | None = None


def final_announcements(
    state: GameState, result: TurnResult, ending: Ending | None = None
) -> list[Announcement]:
    """When the pistol window closes (step 6, then 7): each shot or its absence, published
    together (R18), what the shots caused, and the winner with every role revealed."""
    out: list[Announcement] = []
    for nick in public_order(result.pistols):  # published together: never in seat order
        shots = [d for d in result.after_deaths if d.by == (nick,)]
        if shots:
            out.append(Announcement("shot", PUBLIC, public_death(shots[0])))
        else:
            out.append(Announcement("no_shot", PUBLIC, {"nick": nick}))
    out += _role_changes(result, stage=Step.PISTOL)
    out += _ghosts_of_the_mafia(state, result.after_deaths)
    if result.winner is not None:
        out.append(game_over_announcement(state, result.winner, ending))
    return out


def game_over_announcement(
    state: GameState, winner: str | None, ending: Ending | None = None
) -> Announcement:
    """The end (R15, R35): the winner (None: the host ended the game) and why, the number of
    turns played, and every nickname with its original role, its final role if a conversion
    (R22) or promotion (R19) changed it, and its fate (alive, or the turn and cause of
    death). The only payload that may name a member (as a user id): at the end, and only
    when the host chose so (``ending.members``)."""
    ending = ending or Ending()
    members = ending.members
    roles: list[dict[str, Any]] = []
    # By nickname, never by seat (the archive and the picture show them in this order).
    for p in sorted(state.players.values(), key=lambda p: collation_key(p.nick)):
        entry: dict[str, Any] = {
            "nick": p.nick,
            "role": p.original_role,
            "final_role": p.role if p.role != p.original_role else None,
            "alive": p.alive,
            "cause": str(p.death_cause) if p.death_cause else None,
            "turn": p.death_turn,
        }
        if members is not None and p.nick in members:
            entry["member"] = members[p.nick]
        roles.append(entry)
    payload: dict[str, Any] = {
        "winner": winner,
        "reason": win_reason(state, winner),
        "turns": state.turn,
        "started": ending.started,
        "ended": ending.ended,
        "reveal": members is not None,
        "roles": roles,
    }
    return Announcement("game_over", PUBLIC, payload)


def roster_in_public_order(entries: Iterable[_Entry]) -> list[_Entry]:
    """The end's list of every nickname (``game_over`` payload ``roles``) by nickname: a game
    that ended before the end listed them so was stored in seat order, which may follow the
    sign-up (the archive and the picture read stored ends)."""
    return sorted(entries, key=lambda entry: collation_key(str(entry.get("nick", ""))))


def reminder_announcements(state: GameState) -> list[Announcement]:
    """Private reminders before the deadline: every living player must vote (R31; a second
    missed vote removes him, R53) and, under the activity rules, post (R52)."""
    if state.phase is not Phase.OPEN:
        return []
    voted = {s.request.by for s in state.submissions("vote")}
    out: list[Announcement] = []
    for p in state.living():
        missing: list[str] = []
        if state.turn >= 2 and p.nick not in state.deprived and p.nick not in voted:
            missing.append("vote")
        if state.activity_rules and state.posts.get(p.nick, 0) == 0:
            missing.append("post")
        if missing:
            payload = {"turn": state.turn, "missing": missing, "missed_votes": p.missed_votes}
            out.append(Announcement("reminder", p.nick, payload))
    return out


# --- the host's clock and double kill (R56) --------------------------------------------


def clock_extended_announcement(deadline_iso: str) -> Announcement:
    """``/mafia extend``: everyone works to the new deadline, so everyone is told (R56)."""
    return Announcement("clock_extended", PUBLIC, {"deadline": deadline_iso})


def clock_paused_announcement(remaining_seconds: float) -> Announcement:
    """``/mafia pause``: the clock stops; the time left, in whole minutes (rounded up)."""
    minutes = max(0, -(-int(remaining_seconds) // 60))
    return Announcement("clock_paused", PUBLIC, {"minutes": minutes})


def clock_resumed_announcement(deadline_iso: str) -> Announcement:
    """``/mafia resume``: the clock runs again, to this deadline."""
    return Announcement("clock_resumed", PUBLIC, {"deadline": deadline_iso})


def deprived_announcement(nick: str, turn: int) -> Announcement:
    """``/mafia deprive`` (R54, R56): the player learns at once, privately, that he has no
    lynch vote on this turn (or the next one, when requests are already closed), and that a
    vote he sent is gone; nobody else is told."""
    return Announcement("deprived", nick, {"turn": turn})


def double_kill_announcement(state: GameState) -> Announcement:
    """``/mafia doublekill`` (R36, R56): only the mafia's room learns it may kill two, this
    night while requests are open, else the next one."""
    night = "this" if state.phase is Phase.OPEN else "next"
    return Announcement("double_kill", MAFIA, {"night": night})


# --- the hosts' console in #host (R47, R56) ---------------------------------------------

HOST = "host"  # the hosts' channel: nothing here may ever reach a player (bot/secrecy.py)


def _request_fate(state: GameState, result: TurnResult, req: Request) -> dict[str, Any]:
    """What became of one standing request, for the hosts: ``fate`` and its details. A role
    decides the fate of its own requests (`Role.request_fate`, or a fate it recorded during
    the resolution); the vote and the hunt, which belong to no role, are decided here."""
    idle = result.idle.get((req.by, req.do))
    if idle is not None:  # the sender was dead, blocked (R21) or no longer held the role
        return {"fate": idle}
    recorded = result.fates.get((req.by, req.do))
    if recorded is not None:
        return dict(recorded)
    if req.do == "vote":
        return {"fate": _vote_fate(state, result, req)}
    if req.do == "hunt":
        return _hunt_fates(state, result, req)
    role = state.players[req.by].role_cls
    decided = role.request_fate(state, result, req)
    if decided is not None:
        return decided
    cause = role.attacks.get(req.do)
    if cause is not None:
        return {"fate": "attack", "hits": attack_hits(result, req, cause)}
    return {"fate": "done"}


def _hunt_fates(state: GameState, result: TurnResult, req: Request) -> dict[str, Any]:
    """R28-R30: the hunted player killed, the hunter killed instead, or why the hunt was not
    carried out: the hunter was dead before it (step 0) or no longer town (a Foundling
    converted at step 0), the target was already dead, or another hunt came first."""
    before_hunt = {d.player for d in result.deaths if d.step is Step.DELAYED_DEATHS}
    if req.by in before_hunt:
        return {"fate": "dead"}
    carried = any(d.cause in ("hunt", "hunt_backfire") and d.by == (req.by,) for d in result.deaths)
    if not carried and any(
        c.player == req.by and c.step is Step.DELAYED_DEATHS for c in result.conversions
    ):
        return {"fate": "role"}  # R22: a Foundling converted at step 0 no longer hunts
    out: list[dict[str, Any]] = []
    for target in req.named():
        died = any(
            d.player == target and d.cause == "hunt" and req.by in d.by and d.step
            for d in result.deaths
        )  # of the hunt itself: the hunter may have voted for a player the lynch hanged
        backfire = any(d.player == req.by and d.cause == "hunt_backfire" for d in result.deaths)
        was_dead = target in before_hunt or (
            not state.alive(target) and not any(d.player == target for d in result.deaths)
        )
        if died:
            out.append({"target": target, "fate": "killed"})  # R29
        elif backfire:
            out.append({"target": target, "fate": "backfire"})  # R30
        elif was_dead:
            out.append({"target": target, "fate": "dead"})  # dead before the hunt
        else:
            out.append({"target": target, "fate": "not_carried"})  # R28
    return {"fate": "attack", "hits": out}


def _vote_fate(state: GameState, result: TurnResult, req: Request) -> str:
    lynch = result.lynch
    if lynch is None:
        return "no_lynch_today"  # R3: no lynch on turn 1
    if req.by in state.deprived:
        return "deprived"  # R54
    if req.target is not None and req.by in lynch.votes.get(req.target, []):
        return "counted"  # for a candidate dead by now too (section 6)
    return "not_counted"


def host_account(state: GameState, result: TurnResult) -> Announcement:
    """After steps 0-5, the whole night for the hosts, who write the story (R47): every
    standing request of the turn and its fate, the heals that saved, the checks and their
    answers, every death with its cause and killers, and the lynch with every vote."""
    requests: list[dict[str, Any]] = []
    for sub in sorted(state.requests.values(), key=lambda s: s.seq):
        req = sub.request
        if req.do == "post":
            continue
        entry: dict[str, Any] = {"by": req.by, "do": req.do, "targets": list(req.named())}
        entry.update(_request_fate(state, result, req))
        requests.append(entry)
    lynch = result.lynch
    facts: dict[str, Any] = {}
    for cls in overriding("host_facts"):
        facts.update(cls.host_facts(state, result))  # e.g. R25's slandered, R27's poisoned
    return Announcement(
        "host_account",
        HOST,
        {
            "turn": result.turn,
            "requests": requests,
            "blocked": list(result.blocked),  # R21
            **facts,
            "saves": [
                {"target": s.target, "by": s.by, "cause": str(s.cause)} for s in result.saves
            ],  # R20
            "deaths": [
                {
                    "nick": d.player,
                    "role": d.role,
                    "cause": str(d.cause),
                    "by": list(d.by),
                    "excluded": d.step is None,
                }
                for d in result.deaths
            ],
            "lynch": None
            if lynch is None
            else {
                "chosen": lynch.chosen,
                "chosen_dead": lynch.chosen_dead,
                "hanged": lynch.hanged,
                "votes": {cand: list(voters) for cand, voters in lynch.votes.items()},
                "electorate": lynch.electorate,
                "deprived": sorted(state.deprived),  # R54
            },
            "pistols": list(result.pistols),  # R18
        },
    )


def host_audit_announcement(command: str, actor_id: int, args: dict[str, Any]) -> Announcement:
    """The audit line of a host command, for #host (R56): who ran what, with its options."""
    return Announcement("audit", HOST, {"command": command, "actor": actor_id, "args": args})


# --- the clock's own notices and replacements (R4, R56) --------------------------------


def hunts_open_announcement(deadline_iso: str) -> Announcement:
    """R4: hunt requests are accepted from now until the deadline (from turn 2, R3)."""
    return Announcement("hunts_open", PUBLIC, {"deadline": deadline_iso})


def last_hour_announcement(deadline_iso: str) -> Announcement:
    """The last hour before the deadline: votes and requests still missing must come now."""
    return Announcement("last_hour", PUBLIC, {"deadline": deadline_iso})


def replaced_announcement(nick: str) -> Announcement:
    """``/mafia replace`` (R56): the nickname is now played by a substitute. Neither member
    is named (R6) and nothing about the role is said."""
    return Announcement("replaced", PUBLIC, {"nick": nick})


def replacement_announcements(state: GameState, nick: str) -> list[Announcement]:
    """R60: a substitute takes over the living ``nick``. #game is told, naming no member; if
    the nickname sits in the mafia's room (R14), the room is told too, and its membership
    follows the seat when that notice is delivered (the replaced member out, the substitute
    in). His role card goes to the nickname, so to its new player."""
    out = [replaced_announcement(nick)]
    player = state.players[nick]
    if player.alive and player.is_mafia:
        out.append(Announcement("mafia_seat", MAFIA, {"nick": nick}))
    out.append(Announcement("role_card", nick, {"turn": state.turn}))
    return out


# --- downtime (R59) ----------------------------------------------------------------------


def downtime_announcements(turn: int, downtime: Downtime) -> list[Announcement]:
    """R59 at the deadline of ``turn``: the hosts get the time lost (whole minutes, rounded
    up) and whether it excused the turn; the players are told, with the results, only when
    it did (nobody left for inactivity or missed votes)."""
    if downtime.lost <= 0:
        return []
    minutes = -(-downtime.lost // 60)
    percent = downtime.lost * 100 // max(1, downtime.length)
    payload = {"turn": turn, "minutes": minutes, "percent": percent}
    out = [Announcement("downtime_host", HOST, {**payload, "excused": downtime.excuses})]
    if downtime.excuses:
        out.insert(0, Announcement("downtime", PUBLIC, {"turn": turn, "minutes": minutes}))
    return out
