"""What every audience's text shares: role, verb and command names as the reader's client
shows them, Discord timestamps, the private messages' header, lists of names cut into lines or
bounded, the role list as hosts write it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import discord

from bot.embeds import add_list_field
from core.cast_text import role_description
from core.i18n import Lang, t
from core.zones import said_time
from rules.model import Request
from rules.roles import INTERNAL_ROLES, ROLES, Role, verb_spec
from rules.schedule import WEEKDAYS, Schedule


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in his own time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def role_class(code: str) -> type[Role] | None:
    return ROLES.get(code) or INTERNAL_ROLES.get(code)


def role_name(lang: Lang, role: str) -> str:
    """A role's name, from the catalogue key its class gives (`Role.name_key`)."""
    cls = role_class(role)
    return t(lang, cls.name_key() if cls is not None else f"role.{role}")


def role_about(lang: Lang, role: str, cast: frozenset[str] | None = None) -> str:
    """What the role card says the role does (`Role.card_key`), in a game of ``cast``."""
    cls = role_class(role)
    return role_description(lang, cls.card_key() if cls is not None else f"card.about.{role}", cast)


def verb_name(lang: Lang, verb: str) -> str:
    spec = verb_spec(verb)
    return t(lang, spec.name_key if spec is not None else f"verb.{verb}")


def command_name(lang: Lang, verb: str) -> str:
    """``/hunt`` as the reader's Discord client shows it (``/охота`` in Russian)."""
    spec = verb_spec(verb)
    return "/" + t(lang, f"{spec.command_key if spec is not None else f'cmd.{verb}'}.name")


def with_dm_header(
    lang: Lang, server: str, game_id: int, text: str, *, table: str | None = None
) -> str:
    """Every private message names its server and game: a member playing on two servers
    tells his role cards apart. ``table`` (a server with several tables, or a named table)
    names the table too: "Server · Table · game #N"."""
    escape = discord.utils.escape_markdown
    if table:
        header = t(
            lang, "dm.header_table", server=escape(server), table=escape(table), game=game_id
        )
    else:
        header = t(lang, "dm.header", server=escape(server), game=game_id)
    return f"**{header}**\n{text}"


def reply_header(lang: Lang, table: str, game_id: int) -> str:
    """The first line of a private reply about a game, for a member seated at several tables
    of the server: which table and game it is about."""
    header = t(lang, "reply.header", table=discord.utils.escape_markdown(table), game=game_id)
    return f"**{header}**"


def name_lines(nicks: Sequence[str], width: int = 80) -> list[str]:
    """Nicknames joined by commas into lines of about ``width`` characters (a list field cuts
    between lines, so a nickname is never cut)."""
    lines: list[str] = []
    current = ""
    for nick in nicks:
        joined = f"{current}, {nick}" if current else nick
        if current and len(joined) > width:
            lines.append(current + ",")
            current = nick
        else:
            current = joined
    if current:
        lines.append(current)
    return lines


def role_count(lang: Lang, role: str, count: int) -> str:
    """One role of a role list as hosts write it: ``Villager ×5`` (``Мирный житель — 5``),
    a role of one seat by its name alone."""
    name = role_name(lang, role)
    return name if count == 1 else t(lang, "roles.count", role=name, count=count)


def role_lines(lang: Lang, roles: Mapping[str, int]) -> list[str]:
    """``Boss, Mafioso ×2, Villager ×5``: the game's roles on as few lines as read well."""
    return name_lines([role_count(lang, role, count) for role, count in roles.items()])


def role_summary(lang: Lang, roles: list[str]) -> str:
    """``Boss, Mafioso ×2, Villager ×5``: the role list as the hosts write it (``Мирный житель
    — 5`` in Russian); a role of one seat is its name alone."""
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    return ", ".join(role_count(lang, role, n) for role, n in counts.items())


def add_field(embeds: list[discord.Embed], name: str, lines: Sequence[str]) -> None:
    """A list field added to the last embed, continued into new ones (nothing when empty)."""
    if lines:
        embeds.extend(add_list_field(embeds[-1], name, lines)[1:])


def keyed(key: str, *names: str) -> Callable[[Lang, Mapping[str, Any]], str]:
    """A text that is one catalogue entry, given the payload's ``names``."""

    def text(lang: Lang, payload: Mapping[str, Any]) -> str:
        return t(lang, key, **{name: payload[name] for name in names})

    return text


TextRenderer = Callable[[Lang, Mapping[str, Any]], str]


#: A list of names in a private preview stays under this many characters (99 players' long
#: nicknames would pass Discord's 2000-character message limit).
LIST_BUDGET = 700


def bounded_list(lang: Lang, items: Sequence[str], budget: int = LIST_BUDGET) -> str:
    """``A, B, C``; past ``budget`` characters, the rest as "and N more"."""
    shown: list[str] = []
    used = 0
    for item in items:
        if used + len(item) + 2 > budget:
            break
        shown.append(item)
        used += len(item) + 2
    text = ", ".join(shown)
    left = len(items) - len(shown)
    if left:
        text = f"{text} {t(lang, 'host.and_more', count=left)}".strip()
    return text


def with_days_off(lang: Lang, schedule: Schedule, text: str) -> str:
    """R61: the text, and the game's days off if it has any."""
    if not schedule.days_off:
        return text
    days = ", ".join(t(lang, f"weekday.{WEEKDAYS[d]}") for d in sorted(schedule.days_off))
    return f"{text} {t(lang, 'hours.days_off', days=days)}"


def schedule_hours(lang: Lang, schedule: Schedule) -> str | None:
    """R61: the forum game's own hours in a line (the sign-up post, ``/status``, the host's
    reply to ``/mafia new``): the deadline, the hunts' opening, the turn's days, the days off.
    None on the fast schedule, which has no hours (the sign-up post names it)."""
    if schedule.kind == "fast":
        return None
    return forum_hours(lang, schedule, "hours.forum")


def forum_hours(lang: Lang, schedule: Schedule, key: str) -> str:
    """R61: a forum game's hours in the catalogue's ``key`` (the sign-up's line, the role
    card's): the hunts' opening, the deadline, the turn's days, then the days off."""
    text = t(
        lang,
        key,
        hunt=schedule.hunt_open.strftime("%H:%M"),
        # "21:00 по Москве": the deadline as players say it (core/zones.py)
        deadline=said_time(lang, schedule.deadline, schedule.tz),
        clock=schedule.deadline.strftime("%H:%M"),
        days=schedule.turn_days,
    )
    return with_days_off(lang, schedule, text)


def describe_request(lang: Lang, req: Request) -> str:
    named = ", ".join(req.named())
    if req.do == "note":
        return t(lang, "status.request_note", to=named)
    return t(lang, "status.request", verb=verb_name(lang, req.do), targets=named or "-")


def wish_words(lang: Lang, wish: str | None) -> str:
    """A member's role wish as the hosts read it (R58)."""
    if wish is None:
        return t(lang, "state.no_wish")
    return t(lang, "state.wish", role=role_name(lang, wish))
