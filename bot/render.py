"""The game's text as Discord shows it (pure: no I/O): announcements, role cards, the host's
view of the state, a player's standing requests, the mafia's kill agreement. Times are Discord
timestamps, which every reader sees in his own time zone.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from core.i18n import Lang, t
from core.service import LiveGame
from rules.knowledge import PublicRoster, RoleCard
from rules.model import Phase, Request

log = logging.getLogger(__name__)


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in his own time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def role_name(lang: Lang, role: str) -> str:
    return t(lang, f"role.{role}")


def verb_name(lang: Lang, verb: str) -> str:
    return t(lang, f"verb.{verb}")


def command_name(lang: Lang, verb: str) -> str:
    """``/hunt`` as the reader's Discord client shows it (``/охота`` in Russian)."""
    return "/" + t(lang, f"cmd.{verb}.name")


def with_dm_header(lang: Lang, server: str, game_id: int, text: str) -> str:
    """Every private message names its server and game: a member playing on two servers
    tells his role cards apart."""
    header = t(lang, "dm.header", server=discord.utils.escape_markdown(server), game=game_id)
    return f"**{header}**\n{text}"


def render_role_card(lang: Lang, card: RoleCard) -> str:
    lines = [
        t(lang, "card.title", nick=card.nick, role=role_name(lang, card.role)),
        t(lang, f"card.about.{card.role}"),
        t(
            lang,
            "card.verbs",
            verbs=", ".join(command_name(lang, v) for v in card.verbs if v != "post"),
        ),
    ]
    if card.team:
        lines.append(t(lang, "card.team", team=", ".join(card.team)))
    if card.commissar is not None:
        lines.append(t(lang, "card.commissar", commissar=card.commissar))
    if not card.alive:
        lines.append(t(lang, "card.dead"))
    return "\n".join(lines)


def render_death(lang: Lang, death: Mapping[str, Any]) -> str:
    cause = str(death.get("cause"))
    values = {"nick": death["nick"], "role": role_name(lang, str(death["role"]))}
    if cause == "pistol":
        return t(lang, "death.pistol", by=", ".join(death.get("by") or ()), **values)
    return t(lang, f"death.{cause}", **values)


def render_lynch(lang: Lang, lynch: Mapping[str, Any] | None) -> list[str]:
    if lynch is None:
        return []
    lines: list[str] = []
    if lynch.get("public") == "full":
        votes: Mapping[str, Sequence[str]] = lynch.get("votes") or {}
        for candidate, voters in votes.items():
            lines.append(
                t(lang, "lynch.votes", nick=candidate, count=len(voters), voters=", ".join(voters))
            )
    else:
        totals: Mapping[str, int] = lynch.get("totals") or {}
        for candidate, count in totals.items():
            lines.append(t(lang, "lynch.totals", nick=candidate, count=count))
    if not lines:
        lines.append(t(lang, "lynch.no_votes"))
    hanged = lynch.get("hanged")
    lines.append(t(lang, "lynch.hanged", nick=hanged) if hanged else t(lang, "lynch.nobody"))
    return lines


def render(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str:
    """The text of one announcement (role cards are rendered from the live state instead)."""
    if kind == "turn_open":
        deadline = datetime.fromisoformat(str(payload["deadline"]))
        text = t(
            lang,
            "announce.turn_open",
            turn=payload["turn"],
            deadline=timestamp(deadline, "f"),
            relative=timestamp(deadline, "R"),
        )
        if payload["turn"] == 1:  # R2: everyone introduces himself on turn 1
            text += "\n" + t(lang, "announce.introduce")
        return text
    if kind == "results":
        lines = [t(lang, "announce.results", turn=payload["turn"])]
        deaths = payload.get("deaths") or []
        lines += [render_death(lang, d) for d in deaths]
        if not deaths:
            lines.append(t(lang, "announce.nobody_died"))
        lines += render_lynch(lang, payload.get("lynch"))
        if payload.get("lynch") is not None:  # R8, R51: everyone explains his vote
            lines.append(t(lang, "announce.explain_votes"))
        for nick in payload.get("pistols") or ():
            lines.append(t(lang, "announce.pistol_window", nick=nick))
        return "\n".join(lines)
    if kind == "check":
        key = "check.mafia" if payload.get("result") == "mafia" else "check.not_mafia"
        lines = [t(lang, key, target=payload["target"], commissar=payload.get("commissar", ""))]
        killed_by = payload.get("killed_by")
        if killed_by:
            lines.append(
                t(
                    lang,
                    "check.killed_by",
                    target=payload["target"],
                    killers=", ".join(killed_by),
                    method=t(lang, f"method.{payload.get('method')}"),
                )
            )
        return "\n".join(lines)
    if kind == "note":
        return t(lang, "announce.note", author=payload["from"], text=payload["text"])
    if kind == "pistol":
        return t(lang, "announce.pistol")
    if kind == "converted":
        return t(lang, "announce.converted")
    if kind == "promoted":
        return t(lang, "announce.promoted")
    if kind == "mafia_joined":
        return t(lang, "announce.mafia_joined", nick=payload["nick"])
    if kind == "mafia_left":
        return t(lang, "announce.mafia_left", nick=payload["nick"])
    if kind == "shot":
        return render_death(lang, payload)
    if kind == "reminder":  # R31, R52, R53
        lines = [t(lang, f"reminder.{what}", turn=payload["turn"]) for what in payload["missing"]]
        if "vote" in payload["missing"] and payload.get("missed_votes"):
            lines.append(t(lang, "reminder.last_chance"))
        return "\n".join(lines)
    if kind == "excluded":  # R56: at once, with the revealed role (R35)
        header = t(lang, "announce.excluded", nick=payload["nick"])
        return "\n".join([header, render_death(lang, payload)])
    if kind == "no_shot":
        return t(lang, "announce.no_shot", nick=payload["nick"])
    if kind == "game_over":  # R15: the winner and why, every role and fate (bot/endgame.py)
        from bot.endgame import game_over_text

        return game_over_text(lang, payload)
    host_notice = render_host_notice(lang, kind, payload)
    if host_notice is not None:
        return host_notice
    log.warning("no rendering for announcement kind %r", kind)
    return t(lang, "announce.unknown", kind=kind)


def role_summary(lang: Lang, roles: list[str]) -> str:
    """``Villager × 5, Doctor × 1``: the role list as the hosts read it."""
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    return ", ".join(f"{t(lang, f'role.{role}')} × {n}" for role, n in counts.items())


def describe_request(lang: Lang, req: Request) -> str:
    named = ", ".join(req.named())
    if req.do == "note":
        return t(lang, "status.request_note", to=named)
    return t(lang, "status.request", verb=verb_name(lang, req.do), targets=named or "-")


def kill_agreement_text(lang: Lang, update: Mapping[str, Sequence[str]]) -> str:
    lines = [t(lang, "mafia.agreement")]
    for by, targets in update.items():
        lines.append(t(lang, "mafia.agreement_line", nick=by, targets=", ".join(targets)))
    if not update:
        lines.append(t(lang, "mafia.agreement_none"))
    return "\n".join(lines)


def render_state(lang: Lang, game: LiveGame) -> str:
    """``/mafia state``: who is who, alive or dead, and this turn's requests (the hosts only)."""
    engine = game.engine
    record = game.record
    if record.paused:
        clock = t(lang, "status.paused")
    elif record.deadline is not None:
        clock = t(
            lang,
            "status.deadline",
            deadline=timestamp(record.deadline, "f"),
            relative=timestamp(record.deadline, "R"),
        )
    else:
        clock = "-"
    phase = t(lang, f"phase.{engine.phase.value}")
    lines = [t(lang, "state.header", turn=engine.turn, phase=phase), clock]
    for seat in game.players:
        p = engine.state.players[seat.nick]
        requests = "; ".join(
            describe_request(lang, r) for r in engine.standing_requests(seat.nick) if r.do != "post"
        )
        lines.append(
            t(
                lang,
                "state.alive" if p.alive else "state.dead",
                nick=seat.nick,
                role=t(lang, f"role.{p.role}"),
                user=f"<@{seat.user_id}>",
                posts=engine.state.posts.get(seat.nick, 0),
                requests=requests or "-",
                cause=t(lang, f"cause.{p.death_cause}"),
            )
        )
    return "\n".join(lines)


def resolve_preview(lang: Lang, game: LiveGame) -> str:
    """What the host confirms: the turn, and how far the players are (counts only)."""
    engine = game.engine
    state = engine.state
    turn = engine.turn
    if engine.phase is Phase.PISTOL:
        return t(lang, "host.resolve_preview_pistol", turn=turn, pistols=len(state.pistols))
    living = [p.nick for p in state.living()]
    requests = sum(1 for (_nick, slot) in state.requests if slot != "post")
    voted = {nick for (nick, slot) in state.requests if slot == "vote"}
    return t(
        lang,
        "host.resolve_preview",
        turn=turn,
        requests=requests,
        alive=len(living),
        not_voted=sum(1 for nick in living if nick not in voted),
        not_posted=sum(1 for nick in living if not state.posts.get(nick, 0)),
    )


def render_roster(lang: Lang, roster: PublicRoster) -> str:
    """``/players``: the living by nickname, then the ghosts with their revealed role, cause
    and turn, as announced (R35, R36)."""
    lines = [t(lang, "players.living", count=len(roster.living))]
    lines += [f"- {nick}" for nick in roster.living]
    lines.append(t(lang, "players.dead", count=len(roster.dead)))
    lines += [
        "- "
        + t(
            lang,
            "reveal.dead",
            nick=d.nick,
            role=role_name(lang, d.role),
            cause=t(lang, f"cause.{d.cause}"),
            turn=d.turn or "?",
        )
        for d in roster.dead
    ]
    return "\n".join(lines)


def render_help(lang: Lang, commands: Sequence[str]) -> str:
    """``/help``: one line per command, its name and description as the reader's Discord client
    shows them."""
    lines = [t(lang, "help.header")]
    lines += [
        f"`{command_name(lang, c)}`: {t(lang, f'cmd.{c}.description')}" for c in commands
    ]
    return "\n".join(lines)


def render_host_notice(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str | None:
    """The host's clock changes (public) and the double kill (the mafia's room), R56;
    None for any other kind."""
    if kind in ("clock_extended", "clock_resumed"):
        deadline = datetime.fromisoformat(str(payload["deadline"]))
        return t(
            lang,
            f"announce.{kind}",
            deadline=timestamp(deadline, "f"),
            relative=timestamp(deadline, "R"),
        )
    if kind == "clock_paused":
        return t(lang, "announce.clock_paused", minutes=int(payload["minutes"]))
    if kind == "double_kill":  # R36
        return t(lang, f"announce.double_kill_{payload['night']}")
    return None
