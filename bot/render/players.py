"""What a player reads in private: his role card, a check's answer, a note, the pistol's prompt,
a reminder; and the replies about the game a player asks for (``/help``, ``/players``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.kinds import Sending
from bot.render.common import (
    command_name,
    forum_hours,
    role_about,
    role_class,
    role_name,
    timestamp,
)
from core.cast_text import cast_values, win_line
from core.i18n import Lang, t
from core.quoting import quote_player_text
from rules.knowledge import PublicRoster, RoleCard, role_card
from rules.roles import Faction
from rules.schedule import Schedule

#: Verbs every player has (R2, R37, R52) and the hunt (R28): not a role's own ability (R17).
_NOT_ABILITIES = frozenset({"vote", "note", "post", "hunt"})


def card_times(lang: Lang, schedule: Schedule | None) -> str:
    """The card's times (R1, R4): the game's own schedule, or both kinds when not known."""
    if schedule is None:
        return t(lang, "card.times")
    if schedule.kind == "fast":
        return t(lang, "card.times_fast", minutes=schedule.turn_minutes)
    return forum_hours(lang, schedule, "card.times_forum")


def render_role_card(
    lang: Lang, card: RoleCard, schedule: Schedule | None = None, activity: bool = True
) -> str:
    """The role card as a forum host's role PM, of this game's sides and roles only (its
    ``cast``): what the role does, how and until when (``core/cast_text.py``), how its side
    wins (R15), the hunt for those who hunt (R17, R28-R30), the game's times (R1, R4), the
    activity rules when the game has them off (R52, R53); what every card shares (posting,
    the vote, the note, the activity rules) is said once, in ``/rules``. Then the commands
    by the reader's names, and the clan with each member's role (R14) or the commissar
    known (R19)."""
    cls = role_class(card.role)
    values = cast_values(lang, card.cast)
    sections = [
        t(lang, "card.title", nick=card.nick, role=role_name(lang, card.role)),
        role_about(lang, card.role, card.cast),
    ]
    if "kill" in card.verbs:  # R23, R36: every mafia member's kill
        sections.append(t(lang, "card.kill", **values))
    side = card.faction
    if cls is not None and cls.shown_faction() is Faction.LONER:
        side = cls.wins_as()
    sections.append(win_line(lang, side, card.cast))
    if "hunt" in card.verbs:
        hunt = t(lang, "card.hunt", **values)
        if set(card.verbs) - _NOT_ABILITIES:
            hunt += " " + t(lang, "card.hunt_or_ability")
        sections.append(hunt)
    else:
        sections.append(t(lang, "card.no_hunt"))
    sections.append(card_times(lang, schedule))
    if not activity:
        sections.append(t(lang, "card.activity_off"))
    sections.append(t(lang, "card.rules", rules=command_name(lang, "rules")))
    lines = [
        t(
            lang,
            "card.verbs",
            verbs=", ".join(command_name(lang, v) for v in card.verbs if v != "post"),
        )
    ]
    if card.clan:
        members = ", ".join(
            t(lang, "card.clan_member", nick=nick, role=role_name(lang, role))
            for nick, role in card.clan
        )
        lines.append(t(lang, "card.team", team=members))
    elif card.team:
        lines.append(t(lang, "card.team", team=", ".join(card.team)))
    if card.commissar is not None:
        lines.append(t(lang, "card.commissar", commissar=card.commissar))
    if not card.alive:
        lines.append(t(lang, "card.dead"))
    return "\n\n".join([*sections, "\n".join(lines)])


def check_text(lang: Lang, payload: Mapping[str, Any]) -> str:
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


def note_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    # Player text: framed and attributed, never in the bot's voice (core/quoting.py).
    text = quote_player_text(str(payload["text"]))
    return t(lang, "announce.note", author=payload["from"], text=text)


def pistol_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R18: until when, if the prompt says (older rows do not)."""
    until = payload.get("pistol_until")
    if not until:
        return t(lang, "announce.pistol")
    moment = datetime.fromisoformat(str(until))
    return t(
        lang, "announce.pistol_until", time=timestamp(moment, "t"), relative=timestamp(moment, "R")
    )


def reminder_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R31, R52, R53."""
    lines = [t(lang, f"reminder.{what}", turn=payload["turn"]) for what in payload["missing"]]
    if "vote" in payload["missing"] and payload.get("missed_votes"):
        lines.append(t(lang, "reminder.last_chance"))
    return "\n".join(lines)


def deprived_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R54: no vote this turn."""
    return t(lang, "announce.deprived", turn=int(payload["turn"]))


def double_kill_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R36, in the mafia's room: two kills tonight (or the second one's turn)."""
    return t(lang, f"announce.double_kill_{payload['night']}")


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


def render_help(
    lang: Lang,
    commands: Sequence[str],
    later: Sequence[tuple[str, str]] = (),
    hunt_at: datetime | None = None,
) -> str:
    """``/help``: one line per command, its name and description as the reader's Discord client
    shows them; then the commands of the player's role that wait, and until when (R3: turn
    2; R4: the hunt's opening, a Discord timestamp in the reader's own time)."""
    lines = [t(lang, "help.header")]
    lines += [f"`{command_name(lang, c)}`: {t(lang, f'cmd.{c}.description')}" for c in commands]
    if "say" in commands:  # the message command: it has no slash and no description
        lines.append(t(lang, "help.quote", name=t(lang, "cmd.quote.name")))
    if later:
        lines.append(t(lang, "help.later"))
    for verb, why in later:
        if why == "hunt_opens" and hunt_at is not None:
            when = t(
                lang,
                "help.from_time",
                time=timestamp(hunt_at, "t"),
                relative=timestamp(hunt_at, "R"),
            )
        else:
            when = t(lang, "help.from_turn_2")
        lines.append(f"`{command_name(lang, verb)}`: {when}")
    return "\n".join(lines)


def role_card_private(sending: Sending) -> str | None:
    """The role card, from the live state (its row carries no payload); None once the game is
    over (the final reveal says it all)."""
    live = sending.port.service.live.get(sending.row.game_id)
    if live is None or sending.audience not in live.engine.state.players:
        return None
    card = role_card(live.engine.state, sending.audience)
    return render_role_card(sending.lang, card, live.schedule, live.record.activity_rules)
