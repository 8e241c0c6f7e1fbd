"""What a turn's outcome tells whom (R18-R22, R30, R34-R37, R54, R55).

The one place that decides what is public. The bot renders these payloads in the guild's
language and sends them; it never looks into a `TurnResult` itself. Payloads are plain JSON
(they are stored in the outbox), naming players by nickname only; the end of the game alone
may name the members behind them, when the host chose so (`game_over_announcement`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from rules.model import Death, GameState, Phase, TurnResult
from rules.roles import Step
from rules.win import win_reason

PUBLIC = "public"  # the game channel
MAFIA = "mafia"  # the mafia channel


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


def _lynch_view(result: TurnResult) -> dict[str, Any] | None:
    lynch = result.lynch
    if lynch is None:
        return None
    view: dict[str, Any] = {"hanged": lynch.hanged, "public": lynch.public}
    if lynch.public == "full":  # R34: who voted for whom
        view["votes"] = {cand: list(voters) for cand, voters in lynch.votes.items()}
    else:  # R54: totals only
        view["totals"] = {cand: len(voters) for cand, voters in lynch.votes.items()}
    return view


def night_announcements(state: GameState, result: TurnResult) -> list[Announcement]:
    """After steps 0-5: the public results and every private message they cause."""
    out: list[Announcement] = [
        Announcement(
            "results",
            PUBLIC,
            {
                "turn": result.turn,
                # Host exclusions were announced when they happened.
                "deaths": [public_death(d) for d in result.deaths if d.step is not None],
                "lynch": _lynch_view(result),
                "pistols": list(result.pistols),
            },
        )
    ]
    for check in result.checks:
        if check.result is None:
            continue  # no answer (R21, R39)
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
    for nick in result.pistols:
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
    for p in state.players.values():
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


def double_kill_announcement(state: GameState) -> Announcement:
    """``/mafia doublekill`` (R36, R56): only the mafia's room learns it may kill two, this
    night while requests are open, else the next one."""
    night = "this" if state.phase is Phase.OPEN else "next"
    return Announcement("double_kill", MAFIA, {"night": night})
