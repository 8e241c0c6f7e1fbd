"""The game's text as Discord shows it (pure: no I/O): announcements, role cards, the host's
view of the state, a player's standing requests, the mafia's kill agreement. Times are Discord
timestamps, which every reader sees in his own time zone.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

import attrs
import discord

from bot.embeds import NOTICE, TOWN, Post, add_list_field, pack, post_text
from bot.endgame import game_over_embeds, game_over_text
from bot.kinds import Sending, register
from bot.webhooks import split_message
from core.cast_text import cast_values, role_description, win_line
from core.i18n import Lang, t
from core.live import LiveGame
from core.quoting import quote_player_line, quote_player_text
from core.zones import said_time
from rules.downtime import Downtime
from rules.knowledge import PublicRoster, RoleCard, role_card
from rules.model import Phase, Request
from rules.pipeline import inactivity
from rules.roles import INTERNAL_ROLES, ROLES, Faction, Role, verb_spec
from rules.schedule import WEEKDAYS, Schedule

log = logging.getLogger(__name__)


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in his own time zone."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def _role(code: str) -> type[Role] | None:
    return ROLES.get(code) or INTERNAL_ROLES.get(code)


def role_name(lang: Lang, role: str) -> str:
    """A role's name, from the catalogue key its class gives (`Role.name_key`)."""
    cls = _role(role)
    return t(lang, cls.name_key() if cls is not None else f"role.{role}")


def role_about(lang: Lang, role: str, cast: frozenset[str] | None = None) -> str:
    """What the role card says the role does (`Role.card_key`), in a game of ``cast``."""
    cls = _role(role)
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


#: Verbs every player has (R2, R37, R52) and the hunt (R28): not a role's own ability (R17).
_NOT_ABILITIES = frozenset({"vote", "note", "post", "hunt"})


def card_times(lang: Lang, schedule: Schedule | None) -> str:
    """The card's times (R1, R4): the game's own schedule, or both kinds when not known."""
    if schedule is None:
        return t(lang, "card.times")
    if schedule.kind == "fast":
        return t(lang, "card.times_fast", minutes=schedule.turn_minutes)
    text = t(
        lang,
        "card.times_forum",
        hunt=schedule.hunt_open.strftime("%H:%M"),
        # "21:00 по Москве": the deadline as players say it (core/zones.py)
        deadline=said_time(lang, schedule.deadline, schedule.tz),
        clock=schedule.deadline.strftime("%H:%M"),
        days=schedule.turn_days,
    )
    return _with_days_off(lang, schedule, text)


def _with_days_off(lang: Lang, schedule: Schedule, text: str) -> str:
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
    text = t(
        lang,
        "hours.forum",
        hunt=schedule.hunt_open.strftime("%H:%M"),
        # "21:00 по Москве": the deadline as players say it (core/zones.py)
        deadline=said_time(lang, schedule.deadline, schedule.tz),
        clock=schedule.deadline.strftime("%H:%M"),
        days=schedule.turn_days,
    )
    return _with_days_off(lang, schedule, text)


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
    cls = _role(card.role)
    key = cls.card_key() if cls is not None else f"card.about.{card.role}"
    values = cast_values(lang, card.cast)
    sections = [
        t(lang, "card.title", nick=card.nick, role=role_name(lang, card.role)),
        role_description(lang, key, card.cast),
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


def render_death(lang: Lang, death: Mapping[str, Any]) -> str:
    cause = str(death.get("cause"))
    values = {"nick": death["nick"], "role": role_name(lang, str(death["role"]))}
    if cause == "pistol":
        return t(lang, "death.pistol", by=", ".join(death.get("by") or ()), **values)
    return t(lang, f"death.{cause}", **values)


def _tally_lines(lang: Lang, lynch: Mapping[str, Any]) -> list[str]:
    """The counted votes, most first (the payload keeps the order): with the voters under
    R34, totals only under R54."""
    if lynch.get("public") == "full":
        votes: Mapping[str, Sequence[str]] = lynch.get("votes") or {}
        return [
            t(lang, "lynch.votes", nick=candidate, count=len(voters), voters=", ".join(voters))
            for candidate, voters in votes.items()
        ]
    totals: Mapping[str, int] = lynch.get("totals") or {}
    return [
        t(lang, "lynch.totals", nick=candidate, count=count) for candidate, count in totals.items()
    ]


def _uncounted_lines(lang: Lang, lynch: Mapping[str, Any]) -> list[str]:
    """The votes not counted and why: the voter held no vote (R31, R54); in a result
    published before the lynch counted votes for dead candidates (section 6 then dropped
    them), those too. Under totals only, counts only."""
    full = lynch.get("public") == "full"
    lines: list[str] = []
    dropped: Mapping[str, Any] = lynch.get("dropped") or {}
    for candidate, voters in dropped.items():
        if full:
            lines.append(
                t(lang, "dawn.dropped", nick=candidate, count=len(voters), voters=", ".join(voters))
            )
        else:
            lines.append(t(lang, "dawn.dropped_totals", nick=candidate, count=int(voters)))
    uncounted = lynch.get("uncounted")
    if full and uncounted:
        lines.append(t(lang, "dawn.not_electorate", voters=", ".join(uncounted)))
    elif not full and uncounted:
        lines.append(t(lang, "dawn.not_electorate_totals", count=int(uncounted)))
    return lines


def threshold_line(
    lang: Lang, lynch: Mapping[str, Any], threshold: Mapping[str, Any] | None
) -> str:
    """R31: "Threshold: 2 votes (¼ of 8 voters), 4 cast". A report stored before the
    results carried ``threshold`` (no count of the votes cast) keeps its old line."""
    if threshold is None:
        return t(
            lang,
            "dawn.needed",
            needed=lynch["threshold"],
            electorate=lynch.get("electorate", 0),
        )
    return t(
        lang,
        "dawn.threshold",
        needed=int(threshold["needed"]),
        electorate=int(threshold["electorate"]),
        cast=int(threshold["cast"]),
    )


def nonvoter_lines(lang: Lang, nonvoters: Sequence[Mapping[str, Any]]) -> list[str]:
    """R31, R53: "Owl (1st missed vote), Hedgehog (2nd missed vote: out)", in the payload's
    (alphabetical) order, on lines of about 80 characters."""
    entries = []
    for entry in nonvoters:
        missed = entry.get("missed")
        if missed is None:
            entries.append(t(lang, "dawn.nonvoter", nick=entry["nick"]))
        else:
            key = "dawn.nonvoter_out" if entry.get("out") else "dawn.nonvoter_missed"
            entries.append(t(lang, key, nick=entry["nick"], missed=int(missed)))
    return _name_lines(entries)


def _verdict_lines(
    lang: Lang,
    lynch: Mapping[str, Any],
    deaths: Sequence[Mapping[str, Any]],
    threshold: Mapping[str, Any] | None = None,
) -> list[str]:
    """Who was hanged (once, with the revealed role, R35), or why nobody was; the threshold
    (R31) and how a tie was broken (R33)."""
    lines: list[str] = []
    hanged = lynch.get("hanged")
    chosen = lynch.get("chosen") or hanged
    counted = bool(lynch.get("votes") or lynch.get("totals"))
    if lynch.get("chosen_dead"):  # section 6: the lynch chose a player already dead
        lines.append(t(lang, "lynch.chosen_dead", nick=chosen))
    elif hanged:
        death = next(
            (d for d in deaths if d.get("cause") == "lynch" and d.get("nick") == hanged), None
        )
        lines.append(render_death(lang, death) if death else t(lang, "lynch.hanged", nick=hanged))
    else:
        lines.append(t(lang, "lynch.nobody"))
        if counted:
            lines.append(t(lang, "dawn.below", needed=lynch.get("threshold", 0)))
        elif lynch.get("dropped") or lynch.get("uncounted"):
            lines.append(t(lang, "dawn.none_counted"))
        else:
            lines.append(t(lang, "lynch.no_votes"))
    if "threshold" in lynch:
        lines.append(threshold_line(lang, lynch, threshold))
    dead_voters = lynch.get("dead_voters")
    if dead_voters and isinstance(dead_voters, list):  # R32, with the voters (R34)
        lines.append(t(lang, "dawn.dead_voters", voters=", ".join(dead_voters)))
    elif dead_voters:  # R32, counts only (R54)
        lines.append(t(lang, "dawn.dead_voters_totals", count=int(dead_voters)))
    tie = lynch.get("tie")
    if tie and chosen:
        tied = ", ".join(tie.get("tied") or ())
        top = len((lynch.get("votes") or {}).get(chosen, ())) or (lynch.get("totals") or {}).get(
            chosen, 0
        )
        if lynch.get("public") == "full":
            lines.append(t(lang, "dawn.tie", count=top, tied=tied, by=tie.get("by"), hanged=chosen))
        else:
            lines.append(t(lang, "dawn.tie_totals", count=top, tied=tied, hanged=chosen))
    return lines


def _name_lines(nicks: Sequence[str], width: int = 80) -> list[str]:
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


def _role_lines(lang: Lang, roles: Mapping[str, int]) -> list[str]:
    """``Boss, Mafioso ×2, Villager ×5``: the game's roles on as few lines as read well."""
    return _name_lines([role_count(lang, role, count) for role, count in roles.items()])


def results_posts(lang: Lang, payload: Mapping[str, Any]) -> list[Post]:
    """The dawn report: the lynch (R31-R34, R54), then the night's deaths with revealed roles
    and causes (R35), the pistols (R18); one message where Discord's limits allow, continued in
    more embeds and messages where not (no line lost). The next turn's opening follows it
    with the deadline, the living and the roles (``turn_open_posts``)."""
    deaths: Sequence[Mapping[str, Any]] = payload.get("deaths") or []
    lynch: Mapping[str, Any] | None = payload.get("lynch")
    head = discord.Embed(title=t(lang, "announce.results", turn=payload["turn"]), colour=NOTICE)
    embeds = [head]
    others = [d for d in deaths if d.get("cause") != "lynch"]  # the lynch: once, in its part
    if not deaths:
        head.description = t(lang, "announce.nobody_died")
    # As forum players read a turn: the day's lynch first, then the night and the rest.
    if lynch is not None:
        threshold = payload.get("threshold")
        _field(embeds, t(lang, "dawn.lynch"), _verdict_lines(lang, lynch, deaths, threshold))
        _field(embeds, t(lang, "dawn.votes"), _tally_lines(lang, lynch))
        nonvoters = payload.get("nonvoters") or ()
        _field(embeds, t(lang, "dawn.nonvoters"), nonvoter_lines(lang, nonvoters))
        _field(embeds, t(lang, "dawn.uncounted"), _uncounted_lines(lang, lynch))
        if not payload.get("final"):  # R8, R51: everyone explains his vote, the next day
            head.set_footer(text=t(lang, "announce.explain_votes"))
    _field(embeds, t(lang, "dawn.deaths"), [render_death(lang, d) for d in others])
    pistols = payload.get("pistols") or ()
    lines = [pistol_window_line(lang, nick, payload.get("pistol_until")) for nick in pistols]
    _field(embeds, t(lang, "dawn.pistols"), lines)
    return pack(embeds)


def pistol_window_line(lang: Lang, nick: str, until: object) -> str:
    """R18: who may still shoot, and until when (a Discord timestamp: each reader's own
    time); a report stored before it carried the time keeps its old line."""
    if not until:
        return t(lang, "announce.pistol_window", nick=nick)
    moment = datetime.fromisoformat(str(until))
    return t(
        lang,
        "announce.pistol_window_until",
        nick=nick,
        time=timestamp(moment, "t"),
        relative=timestamp(moment, "R"),
    )


# --- /votes and /iso: what was published, read again ---------------------------------------


def votes_lines(lang: Lang, payload: Mapping[str, Any]) -> list[str]:
    """``/votes``: one turn's lynch as its results published it (a ``results`` payload): the
    verdict and threshold (R31, R33), the tally (R34; totals only under R54), the votes not
    counted, and who did not vote (R53)."""
    lynch: Mapping[str, Any] | None = payload.get("lynch")
    if lynch is None:
        return []
    deaths: Sequence[Mapping[str, Any]] = payload.get("deaths") or []
    lines = _verdict_lines(lang, lynch, deaths, payload.get("threshold"))
    tally = _tally_lines(lang, lynch)
    if tally:
        lines += ["", f"**{t(lang, 'dawn.votes')}**", *tally]
    uncounted = _uncounted_lines(lang, lynch)
    if uncounted:
        lines += ["", f"**{t(lang, 'dawn.uncounted')}**", *uncounted]
    nonvoters = nonvoter_lines(lang, payload.get("nonvoters") or ())
    if nonvoters:
        lines += ["", f"**{t(lang, 'dawn.nonvoters')}**", *nonvoters]
    return lines


def iso_quote(lang: Lang, nick: str, text: str) -> str:
    """A player's post in ``/iso``: attributed to his nickname, then his words framed as his
    (``core/quoting.py``: shown literally, never in the bot's voice)."""
    said = t(lang, "iso.said", nick=discord.utils.escape_markdown(nick))
    return f"{said}\n{quote_player_text(text)}"


def turn_open_posts(lang: Lang, payload: Mapping[str, Any]) -> list[Post]:
    """A turn begins: its deadline as a Discord timestamp (each reader's own time zone) and
    the living players; turn 1 also shows the game's roles (once: not reprinted every turn)
    and asks everyone to introduce himself (R2).
    After a resolution it is the second half of the dawn report."""
    deadline = datetime.fromisoformat(str(payload["deadline"]))
    lines = [
        t(
            lang,
            "announce.turn_open",
            turn=payload["turn"],
            deadline=timestamp(deadline, "f"),
            relative=timestamp(deadline, "R"),
        )
    ]
    if payload["turn"] == 1:  # R2: everyone introduces himself on turn 1
        lines.append(t(lang, "announce.introduce"))
    embeds = [discord.Embed(description="\n".join(lines), colour=TOWN)]
    if "living" in payload:  # the dead are ghosts: not in it (R36)
        living: Sequence[str] = payload["living"]
        _field(embeds, t(lang, "dawn.living", count=len(living)), _name_lines(living))
    if payload["turn"] == 1:  # the setup, once at the start; /status and /rules keep it
        _field(embeds, t(lang, "dawn.roles"), _role_lines(lang, payload.get("roles") or {}))
    return pack(embeds)


def _field(embeds: list[discord.Embed], name: str, lines: Sequence[str]) -> None:
    """A list field added to the last embed, continued into new ones (nothing when empty)."""
    if lines:
        embeds.extend(add_list_field(embeds[-1], name, lines)[1:])


#: The kinds sent as embeds: kind -> builder of its messages. ``render_posts`` consults it
#: first; a stream adds its kind here (e.g. ``game_over``).
EMBED_KINDS: dict[str, Callable[[Lang, Mapping[str, Any]], list[Post]]] = {
    "results": results_posts,
    "turn_open": turn_open_posts,
    "game_over": game_over_embeds,  # R15: the winner and why, every role and fate
}


def render_posts(lang: Lang, kind: str, payload: Mapping[str, Any]) -> list[Post]:
    """The messages of one announcement: embeds for the kinds of :data:`EMBED_KINDS`, else
    its text cut into messages."""
    build = EMBED_KINDS.get(kind)
    if build is not None:
        return build(lang, payload)
    return [Post(content=piece) for piece in split_message(render(lang, kind, payload))]


def _check_text(lang: Lang, payload: Mapping[str, Any]) -> str:
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


def _note_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    # Player text: framed and attributed, never in the bot's voice (core/quoting.py).
    text = quote_player_text(str(payload["text"]))
    return t(lang, "announce.note", author=payload["from"], text=text)


def _pistol_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R18: until when, if the prompt says (older rows do not)."""
    until = payload.get("pistol_until")
    if not until:
        return t(lang, "announce.pistol")
    moment = datetime.fromisoformat(str(until))
    return t(
        lang, "announce.pistol_until", time=timestamp(moment, "t"), relative=timestamp(moment, "R")
    )


def _reminder_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R31, R52, R53."""
    lines = [t(lang, f"reminder.{what}", turn=payload["turn"]) for what in payload["missing"]]
    if "vote" in payload["missing"] and payload.get("missed_votes"):
        lines.append(t(lang, "reminder.last_chance"))
    return "\n".join(lines)


def _excluded_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R56: at once, with the revealed role (R35)."""
    return "\n".join(
        [t(lang, "announce.excluded", nick=payload["nick"]), render_death(lang, payload)]
    )


def _keyed(key: str, *names: str) -> Callable[[Lang, Mapping[str, Any]], str]:
    """A text that is one catalogue entry, given the payload's ``names``."""

    def text(lang: Lang, payload: Mapping[str, Any]) -> str:
        return t(lang, key, **{name: payload[name] for name in names})

    return text


TextRenderer = Callable[[Lang, Mapping[str, Any]], str]

#: The kinds sent as text: kind -> its text. :func:`render` consults it first, then
#: :data:`EMBED_KINDS` (the text of their embeds); a module adds its own kinds here.
TEXT_KINDS: dict[str, TextRenderer] = {
    "game_over": game_over_text,  # the same facts as its embeds, as lines (bot/endgame.py)
    "check": _check_text,
    # R21, R39: one text whatever the cause (a block, a dead candidate), never which.
    "check_none": _keyed("check.none", "turn", "target"),
    "note": _note_text,
    "pistol": _pistol_text,
    "deprived": lambda lang, p: t(lang, "announce.deprived", turn=int(p["turn"])),  # R54
    "converted": _keyed("announce.converted"),
    "promoted": _keyed("announce.promoted"),
    "mafia_joined": _keyed("announce.mafia_joined", "nick"),
    "mafia_seat": _keyed("announce.mafia_seat", "nick"),  # R60: nobody named
    "mafia_left": _keyed("announce.mafia_left", "nick"),
    "shot": render_death,
    "reminder": _reminder_text,
    "excluded": _excluded_text,
    "no_shot": _keyed("announce.no_shot", "nick"),
}


def render_private(
    lang: Lang,
    server: str,
    game_id: int,
    kind: str,
    payload: Mapping[str, Any],
    *,
    table: str | None = None,
    text: str | None = None,
) -> list[Post]:
    """A private message's posts, the server (and ``table``) and game named first: a kind of
    :data:`EMBED_KINDS` keeps its embeds, the header above them; a text (``text``, else the
    kind's) is cut into pieces after the header is added, so no piece is too long."""
    if text is None and kind in EMBED_KINDS:
        posts = render_posts(lang, kind, payload)
        first = posts[0].content if posts else ""
        head = with_dm_header(lang, server, game_id, first, table=table)
        return [
            Post(content=head.rstrip(), embeds=posts[0].embeds if posts else ()),
            *posts[1:],
        ]
    body = render(lang, kind, payload) if text is None else text
    body = with_dm_header(lang, server, game_id, body, table=table)
    return [Post(content=piece) for piece in split_message(body)]


def render(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str:
    """The text of one announcement (role cards are rendered from the live state instead)."""
    text = TEXT_KINDS.get(kind) or HOST_NOTICES.get(kind)
    if text is not None:
        return text(lang, payload)
    build = EMBED_KINDS.get(kind)
    if build is not None:  # the text of its embeds
        return "\n".join(post_text(post) for post in build(lang, payload))
    log.warning("no rendering for announcement kind %r", kind)
    return t(lang, "announce.unknown", kind=kind)


def role_summary(lang: Lang, roles: list[str]) -> str:
    """``Boss, Mafioso ×2, Villager ×5``: the role list as the hosts write it (``Мирный житель
    — 5`` in Russian); a role of one seat is its name alone."""
    counts: dict[str, int] = {}
    for role in roles:
        counts[role] = counts.get(role, 0) + 1
    return ", ".join(role_count(lang, role, n) for role, n in counts.items())


def describe_request(lang: Lang, req: Request) -> str:
    named = ", ".join(req.named())
    if req.do == "note":
        return t(lang, "status.request_note", to=named)
    return t(lang, "status.request", verb=verb_name(lang, req.do), targets=named or "-")


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


def wish_words(lang: Lang, wish: str | None) -> str:
    """A member's role wish as the hosts read it (R58)."""
    if wish is None:
        return t(lang, "state.no_wish")
    return t(lang, "state.wish", role=role_name(lang, wish))


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


#: Public notices that name a deadline: the host's clock changes (R56), hunts open (R4), the
#: last hour.
DEADLINE_NOTICES: Final = ("clock_extended", "clock_resumed", "hunts_open", "last_hour")


def _deadline_notice(kind: str) -> TextRenderer:
    def text(lang: Lang, payload: Mapping[str, Any]) -> str:
        deadline = datetime.fromisoformat(str(payload["deadline"]))
        return t(
            lang,
            f"announce.{kind}",
            deadline=timestamp(deadline, "f"),
            relative=timestamp(deadline, "R"),
        )

    return text


def _downtime_host_text(lang: Lang, payload: Mapping[str, Any]) -> str:
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


#: The notices of the host's commands and of the clock: deadline changes, a pause, hunts
#: open, the last hour, a replacement (public) and the double kill (the mafia's room), R4,
#: R36, R56, R59.
def _replace_asked_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R60, for #host: ``/replaceme``, with the player's reason quoted as his own words."""
    reason = payload.get("reason")
    if not reason:
        return t(lang, "host.replace_asked", nick=payload["nick"])
    quoted = quote_player_line(str(reason))
    return t(lang, "host.replace_asked_reason", nick=payload["nick"], reason=quoted)


HOST_NOTICES: dict[str, TextRenderer] = {
    **{kind: _deadline_notice(kind) for kind in DEADLINE_NOTICES},
    "clock_paused": lambda lang, p: t(lang, "announce.clock_paused", minutes=int(p["minutes"])),
    "double_kill": lambda lang, p: t(lang, f"announce.double_kill_{p['night']}"),  # R36
    # the nickname only: never a member, never the role
    "replaced": _keyed("announce.replaced", "nick"),
    "replace_asked": _replace_asked_text,  # R60: a player asks to be replaced
    # R59, with the results of the turn it excused
    "downtime": _keyed("announce.downtime", "turn", "minutes"),
    "downtime_host": _downtime_host_text,
}


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


# --- the hosts' console in #host (R47, R56) -----------------------------------------------

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


def _audit_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    return render_audit_line(
        lang, str(payload["command"]), int(payload["actor"]), payload.get("args") or {}
    )


def render_console(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str:
    """A row for #host (audience ``host``): the night's account, an audit line, a notice of
    what changed on the server (:data:`CONSOLE_KINDS`), else its announcement's text."""
    text = CONSOLE_KINDS.get(kind) or SERVER_NOTICES.get(kind)
    return text(lang, payload) if text is not None else render(lang, kind, payload)


# --- what the bot saw happen on the server mid-game (bot/serverlife.py), for #host -------------


def _role_text(item: Mapping[str, Any]) -> str:
    """A role by the name it had (a deleted role's mention shows nothing useful)."""
    name = str(item.get("name") or "")
    if not name:
        return f"<@&{item.get('role')}>"
    return "@" + discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def _channel_text(channel_id: object, where: str) -> str:
    return f"<#{channel_id}>" if channel_id else f"#{where}"


def _via_text(lang: Lang, item: Mapping[str, Any]) -> str:
    kind = str(item.get("kind"))
    channel = _channel_text(item.get("channel"), "")
    if kind == "owner":
        return t(lang, "server.via.owner")
    if kind in ("role", "host_role"):
        return t(lang, f"server.via.{kind}", role=_role_text(item))
    if kind == "role_overwrite":
        return t(lang, "server.via.role_overwrite", role=_role_text(item), channel=channel)
    return t(lang, "server.via.member_overwrite", channel=channel)


def _exposure_text(lang: Lang, item: Mapping[str, Any], *, via: bool) -> str:
    where = str(item.get("where", ""))
    text = t(
        lang,
        f"secrecy.reason.{item['reason']}",
        channel=_channel_text(item.get("channel"), where),
    )
    if not via:
        return text
    sources = [_via_text(lang, source) for source in item.get("via") or []]
    through = ", ".join(sources) if sources else t(lang, "server.via.unknown")
    return t(lang, "server.exposure", reason=text, via=through)


def _member_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    user = f"<@{payload['user']}>"
    nick = payload.get("nick")
    return t(lang, "server.player", nick=nick, user=user) if nick else user


def _secret_reader_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    lines = []
    gained = payload.get("gained") or []
    lost = payload.get("lost") or []
    user = f"<@{payload['user']}>"
    if gained:
        reasons = "; ".join(_exposure_text(lang, item, via=True) for item in gained)
        lines.append(
            t(lang, "server.reader_gained", nick=payload["nick"], user=user, reasons=reasons)
        )
    if lost:
        reasons = "; ".join(_exposure_text(lang, item, via=False) for item in lost)
        lines.append(
            t(lang, "server.reader_lost", nick=payload["nick"], user=user, reasons=reasons)
        )
    return "\n".join(lines)


def _room_intruder_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    done = "removed" if payload.get("removed") else "kept"
    return t(lang, f"server.room_intruder_{done}", member=_member_text(lang, payload))


def _room_reopened_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    members = ", ".join(str(nick) for nick in payload.get("members") or []) or "-"
    return t(lang, "server.room_reopened", members=members)


def _room_broken_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    channel = _channel_text(payload.get("channel"), "mafia")
    return t(lang, f"server.room_broken_{payload.get('why')}", channel=channel)


def _player_returned_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    lines = [t(lang, "server.player_returned", member=_member_text(lang, payload))]
    room = payload.get("room")
    if room:
        lines.append(t(lang, f"server.player_returned_room_{room}"))
    return " ".join(lines)


#: The #host notices of what changed on the server mid-game: a player who can now read a
#: secret room (and through what), the mafia's room repaired or an intruder removed from it,
#: a player back on the server, the host role deleted.
SERVER_NOTICES: dict[str, TextRenderer] = {
    "secret_reader": _secret_reader_text,
    "room_intruder": _room_intruder_text,
    "room_restored": lambda lang, p: t(lang, "server.room_restored", member=_member_text(lang, p)),
    "room_reopened": _room_reopened_text,
    "room_broken": _room_broken_text,
    "player_returned": _player_returned_text,
    "host_role_deleted": lambda lang, p: t(lang, "server.host_role_deleted", role=_role_text(p)),
}

#: The #host rows of their own: the night's account (R47), an audit line.
CONSOLE_KINDS: dict[str, TextRenderer] = {
    "host_account": lambda lang, p: render_host_account(lang, p),
    "audit": _audit_text,
}


def render_server_notice(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str | None:
    """A notice of :data:`SERVER_NOTICES`; None for any other kind."""
    text = SERVER_NOTICES.get(kind)
    return text(lang, payload) if text is not None else None


def render_log_page(lang: Lang, lines: Sequence[str], page: int, pages: int) -> discord.Embed:
    """One page of ``/mafia log`` (newest first)."""
    from bot.embeds import NOTICE, field_values

    embed = discord.Embed(title=t(lang, "console.log.title", page=page, pages=pages), colour=NOTICE)
    text = "\n".join(lines) if lines else t(lang, "console.log.empty")
    embed.description = field_values([text], 4096)[0]
    return embed


def render_state_embeds(
    lang: Lang, game: LiveGame, wishes: Mapping[int, str] | None = None
) -> list[discord.Embed]:
    """``/mafia state`` as embeds: the turn and phase, the clock, one line per player
    (nickname, role, member, alive or dead, posts, requests, the wish in a game with wishes,
    R58); a long table continues."""
    phase = t(lang, f"phase.{game.engine.phase.value}")
    embed = discord.Embed(
        title=t(lang, "state.header", turn=game.engine.turn, phase=phase),
        description=_state_clock(lang, game),
        colour=NOTICE,
    )
    lines = _state_lines(lang, game, wishes)
    name = t(lang, "console.state.players", count=len(lines))
    return add_list_field(embed, name, lines)


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


def _role_card_private(sending: Sending) -> str | None:
    """The role card, from the live state (its row carries no payload); None once the game is
    over (the final reveal says it all)."""
    live = sending.delivery.service.live.get(sending.row.game_id)
    if live is None or sending.audience not in live.engine.state.players:
        return None
    card = role_card(live.engine.state, sending.audience)
    return render_role_card(sending.lang, card, live.schedule, live.record.activity_rules)


register("role_card", private=_role_card_private)
# The dawn report and the next turn's opening, committed together, share a message in #game
# where Discord's limits allow (bot/delivery/sender.py, coalesce).
register("results", joins=True)
register("turn_open", joins=True)
