"""What the hosts read (R47, R56, R58, R59, R60): the night's account, the audit log and
``/mafia log``, ``/mafia state``, the resolution's preview, the downtime and replacement notices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import discord

from bot.embeds import NOTICE, add_list_field, field_values
from bot.render.common import (
    bounded_list,
    describe_request,
    role_name,
    timestamp,
    verb_name,
    wish_words,
)
from core.i18n import Lang, t
from core.live import LiveGame
from core.quoting import quote_player_line
from rules.downtime import Downtime
from rules.model import Phase
from rules.pipeline import inactivity

#: The audit log's command names and the ``/mafia`` subcommand each one is.
AUDIT_SUBCOMMANDS: Mapping[str, str] = {
    "deprive_vote": "deprive",
    "double_kill": "doublekill",
}


#: The longest part of an announcement's text quoted in its audit line.
AUDIT_TEXT_LIMIT = 200


def _attack_line(lang: Lang, hit: Mapping[str, Any]) -> str:
    return t(lang, f"console.hit.{hit['fate']}", target=hit["target"], by=hit.get("protector"))


def _fate(lang: Lang, entry: Mapping[str, Any]) -> str:
    """What became of one request, as the hosts read it."""
    fate = str(entry["fate"])
    if fate == "attack":
        return "; ".join(_attack_line(lang, hit) for hit in entry.get("hits") or ())
    if fate == "saved":
        causes = ", ".join(
            t(lang, "method.mafia") if c == "mafia" else t(lang, f"cause.{c}")
            for c in entry.get("causes") or ()
        )
        return t(lang, "console.fate.saved", causes=causes)
    # A role's own fate: its other plain fields are the message's values (nicknames, counts).
    values = {k: v for k, v in entry.items() if isinstance(v, (str, int)) and k != "fate"}
    text = t(lang, f"console.fate.{fate}", **values)
    if entry.get("slandered"):  # R25
        text += " " + t(lang, "console.fate.slandered")
    return text


def render_host_account(lang: Lang, payload: Mapping[str, Any]) -> str:
    """The night for the hosts (``host_account``): every request and its fate, the deaths
    with causes and killers, the lynch with every vote, who may shoot."""
    lines = [t(lang, "console.account.title", turn=payload["turn"]), t(lang, "console.requests")]
    requests = payload.get("requests") or []
    for entry in requests:
        if entry["fate"] == "attack":  # each player it named, and what became of him
            lines.append(
                t(
                    lang,
                    "console.request_attack",
                    by=entry["by"],
                    verb=verb_name(lang, str(entry["do"])),
                    fate=_fate(lang, entry),
                )
            )
            continue
        lines.append(
            t(
                lang,
                "console.request",
                by=entry["by"],
                verb=verb_name(lang, str(entry["do"])),
                targets=", ".join(entry.get("targets") or ()) or "-",
                fate=_fate(lang, entry),
            )
        )
    if not requests:
        lines.append(t(lang, "console.no_requests"))
    lines.append(t(lang, "console.deaths"))
    deaths = payload.get("deaths") or []
    for d in deaths:
        killers = ", ".join(d.get("by") or ())
        lines.append(
            t(
                lang,
                "console.death_by" if killers else "console.death",
                nick=d["nick"],
                role=role_name(lang, str(d["role"])),
                cause=t(lang, f"cause.{d['cause']}"),
                killers=killers,
            )
        )
    if not deaths:
        lines.append(t(lang, "console.no_deaths"))
    lynch = payload.get("lynch")
    if lynch is not None:  # R31-R34, R54: the hosts see every vote
        lines.append(t(lang, "console.lynch", electorate=lynch["electorate"]))
        votes: Mapping[str, Sequence[str]] = lynch.get("votes") or {}
        for cand, voters in sorted(votes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(
                t(lang, "console.tally", nick=cand, count=len(voters), voters=", ".join(voters))
            )
        if not votes:
            lines.append(t(lang, "console.no_votes"))
        hanged = lynch.get("hanged")
        if lynch.get("chosen_dead"):  # section 6
            lines.append(t(lang, "console.chosen_dead", nick=lynch.get("chosen")))
        elif hanged:
            lines.append(t(lang, "console.hanged", nick=hanged))
        else:
            lines.append(t(lang, "console.not_hanged"))
        if lynch.get("deprived"):
            lines.append(t(lang, "console.deprived", players=", ".join(lynch["deprived"])))
    if payload.get("pistols"):  # R18
        lines.append(t(lang, "console.pistols", players=", ".join(payload["pistols"])))
    return "\n".join(lines)


def audit_command_name(lang: Lang, command: str) -> str:
    """``/mafia extend`` (``/мафия продлить``) for an audit row's command."""
    sub = command.removeprefix("mafia ").strip()
    sub = AUDIT_SUBCOMMANDS.get(sub, sub)
    group = t(lang, "cmd.mafia.name")
    return f"/{group} {t(lang, f'cmd.mafia.{sub}.name')}"


def render_audit_line(lang: Lang, command: str, actor_id: int, args: Mapping[str, Any]) -> str:
    """One audit row as the hosts read it: who, which command, and its options that matter."""
    details = ""
    if args.get("minutes") is not None:
        details += t(lang, "console.audit.minutes", minutes=int(args["minutes"]))
    player = args.get("player") or args.get("nick")
    if player:
        details += t(lang, "console.audit.player", player=player)
    if args.get("user_id"):
        details += t(lang, "console.audit.member", member=f"<@{int(args['user_id'])}>")
    if args.get("turn") is not None:
        details += t(lang, "console.audit.turn", turn=int(args["turn"]))
    if args.get("stage") == "pistol":
        details += t(lang, "console.audit.pistol")
    if args.get("signup"):
        details += t(lang, "console.audit.signup")
    if args.get("reason"):  # a host's words: shown literally (core/quoting.py)
        details += t(lang, "console.audit.reason", reason=quote_player_line(str(args["reason"])))
    if isinstance(args.get("text"), str):
        text = " ".join(str(args["text"]).split())
        if len(text) > AUDIT_TEXT_LIMIT:
            text = text[: AUDIT_TEXT_LIMIT - 1] + "…"
        details += t(lang, "console.audit.text", text=quote_player_line(text))
    return t(
        lang,
        "console.audit",
        user=f"<@{actor_id}>",
        command=audit_command_name(lang, command),
        details=details,
    )


def audit_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    return render_audit_line(
        lang, str(payload["command"]), int(payload["actor"]), payload.get("args") or {}
    )


def render_log_page(lang: Lang, lines: Sequence[str], page: int, pages: int) -> discord.Embed:
    """One page of ``/mafia log`` (newest first)."""
    embed = discord.Embed(title=t(lang, "console.log.title", page=page, pages=pages), colour=NOTICE)
    text = "\n".join(lines) if lines else t(lang, "console.log.empty")
    embed.description = field_values([text], 4096)[0]
    return embed


def render_state_embeds(
    lang: Lang,
    game: LiveGame,
    wishes: Mapping[int, str] | None = None,
    spectators: Sequence[int] = (),
) -> list[discord.Embed]:
    """``/mafia state`` as embeds: the turn and phase, the clock, one line per player
    (nickname, role, member, alive or dead, posts, requests, the wish in a game with wishes,
    R58), then who watches the ghosts' room (R62, by member id, not in the order they came);
    a long table continues."""
    phase = t(lang, f"phase.{game.engine.phase.value}")
    embed = discord.Embed(
        title=t(lang, "state.header", turn=game.engine.turn, phase=phase),
        description=_state_clock(lang, game),
        colour=NOTICE,
    )
    lines = _state_lines(lang, game, wishes)
    name = t(lang, "console.state.players", count=len(lines))
    embeds = add_list_field(embed, name, lines)
    if spectators:
        watching = [f"<@{user}>" for user in sorted(spectators)]
        name = t(lang, "console.state.spectators", count=len(watching))
        embeds[-1:] = add_list_field(embeds[-1], name, watching)
    return embeds


def render_signup_state(
    lang: Lang, game_id: int, members: Sequence[int], wishes: Mapping[int, str] | None
) -> str:
    """``/mafia state`` during sign-up: who signed up (by id, not in sign-up order) and, in a
    game with wishes, what each wished for (R58: the hosts only)."""
    lines = [t(lang, "state.signup", game=game_id, count=len(members))]
    for user in sorted(members):
        wish = "-" if wishes is None else wish_words(lang, wishes.get(user))
        lines.append("- " + t(lang, "state.signup_line", user=f"<@{user}>", wish=wish))
    return "\n".join(lines)


def _state_clock(lang: Lang, game: LiveGame) -> str:
    """The clock line of ``/mafia state``: paused, the deadline, or "-"."""
    record = game.record
    if record.paused:
        return t(lang, "status.paused")
    if record.deadline is not None:
        return t(
            lang,
            "status.deadline",
            deadline=timestamp(record.deadline, "f"),
            relative=timestamp(record.deadline, "R"),
        )
    return "-"


def _state_lines(lang: Lang, game: LiveGame, wishes: Mapping[int, str] | None = None) -> list[str]:
    """One line per seat for ``/mafia state``: nickname, role, member, alive or dead, posts,
    this turn's requests; in a game with wishes (``wishes``) what the member wished for."""
    engine = game.engine
    lines = []
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
            + ("" if wishes is None else f"; {wish_words(lang, wishes.get(seat.user_id))}")
        )
    return lines


def render_state(lang: Lang, game: LiveGame) -> str:
    """``/mafia state``: who is who, alive or dead, and this turn's requests (the hosts only)."""
    phase = t(lang, f"phase.{game.engine.phase.value}")
    header = t(lang, "state.header", turn=game.engine.turn, phase=phase)
    return "\n".join([header, _state_clock(lang, game), *_state_lines(lang, game)])


def resolve_preview(lang: Lang, game: LiveGame, downtime: Downtime | None = None) -> str:
    """What the host confirms: the turn, and how far the players are (counts only).
    ``downtime``: what the bot lost of the turn so far (R59), as the resolution would note."""
    engine = game.engine
    state = engine.state
    turn = engine.turn
    if engine.phase is Phase.PISTOL:
        return t(lang, "host.resolve_preview_pistol", turn=turn, pistols=len(state.pistols))
    living = [p.nick for p in state.living()]
    requests = sum(1 for (_nick, slot) in state.requests if slot != "post")
    voted = {nick for (nick, slot) in state.requests if slot == "vote"}
    not_posted = sum(1 for nick in living if not state.posts.get(nick, 0))
    if turn == 1:  # R3: no vote on turn 1, so nobody is "not yet voted"
        head = t(
            lang,
            "host.resolve_preview_turn_1",
            turn=turn,
            requests=requests,
            alive=len(living),
            not_posted=not_posted,
        )
    else:  # who holds a vote and has not used it (R54: the deprived hold none)
        head = t(
            lang,
            "host.resolve_preview",
            turn=turn,
            requests=requests,
            alive=len(living),
            not_voted=sum(1 for nick in living if nick not in voted and nick not in state.deprived),
            not_posted=not_posted,
        )
    lines = [head]
    # R52, R53: who step 4 would remove now, by the pipeline's own decision (the hosts see
    # every name), with the downtime the resolution would note (R59).
    if downtime is not None:
        lines.append(
            t(
                lang,
                "console.downtime",
                turn=turn,
                minutes=-(-downtime.lost // 60),
                percent=downtime.lost * 100 // max(1, downtime.length),
            )
        )
    decided = inactivity(attrs.evolve(state, downtime=downtime) if downtime else state)
    removed = [t(lang, f"host.removal_{cause}", nick=nick) for nick, cause in decided.removed]
    if removed:
        lines.append(t(lang, "host.resolve_preview_removed", players=bounded_list(lang, removed)))
    else:
        lines.append(t(lang, "host.resolve_preview_nobody_removed"))
    if turn >= 2:  # R3: no vote on turn 1
        missing = [n for n in living if n not in voted and n not in state.deprived]
        if missing:
            lines.append(
                t(lang, "host.resolve_preview_not_voted", players=bounded_list(lang, missing))
            )
    return "\n".join(lines)


def downtime_host_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R59, for the hosts: how much of the turn was lost."""
    verdict = "console.downtime_excused" if payload["excused"] else "console.downtime_counted"
    line = t(
        lang,
        "console.downtime",
        turn=payload["turn"],
        minutes=payload["minutes"],
        percent=payload["percent"],
    )
    return f"{line} {t(lang, verdict)}"


def replace_asked_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R60, for #host: ``/replaceme``, with the player's reason quoted as his own words."""
    reason = payload.get("reason")
    if not reason:
        return t(lang, "host.replace_asked", nick=payload["nick"])
    quoted = quote_player_line(str(reason))
    return t(lang, "host.replace_asked_reason", nick=payload["nick"], reason=quoted)
