"""What #game reads: the dawn report (the lynch, the deaths, the pistols), the turn's opening,
the shots, an exclusion, the clock's notices; and ``/votes`` and ``/iso``, which read them again."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

import discord

from bot.embeds import NOTICE, TOWN, Post, pack
from bot.render.common import (
    TextRenderer,
    add_field,
    name_lines,
    role_lines,
    role_name,
    timestamp,
)
from core.i18n import Lang, t
from core.quoting import quote_player_text


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
    return name_lines(entries)


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
        add_field(embeds, t(lang, "dawn.lynch"), _verdict_lines(lang, lynch, deaths, threshold))
        add_field(embeds, t(lang, "dawn.votes"), _tally_lines(lang, lynch))
        nonvoters = payload.get("nonvoters") or ()
        add_field(embeds, t(lang, "dawn.nonvoters"), nonvoter_lines(lang, nonvoters))
        add_field(embeds, t(lang, "dawn.uncounted"), _uncounted_lines(lang, lynch))
        if not payload.get("final"):  # R8, R51: everyone explains his vote, the next day
            head.set_footer(text=t(lang, "announce.explain_votes"))
    add_field(embeds, t(lang, "dawn.deaths"), [render_death(lang, d) for d in others])
    pistols = payload.get("pistols") or ()
    lines = [pistol_window_line(lang, nick, payload.get("pistol_until")) for nick in pistols]
    add_field(embeds, t(lang, "dawn.pistols"), lines)
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
        add_field(embeds, t(lang, "dawn.living", count=len(living)), name_lines(living))
    if payload["turn"] == 1:  # the setup, once at the start; /status and /rules keep it
        add_field(embeds, t(lang, "dawn.roles"), role_lines(lang, payload.get("roles") or {}))
    return pack(embeds)


def excluded_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R56: at once, with the revealed role (R35)."""
    return "\n".join(
        [t(lang, "announce.excluded", nick=payload["nick"]), render_death(lang, payload)]
    )


#: Public notices that name a deadline: the host's clock changes (R56), hunts open (R4), the
#: last hour.
DEADLINE_NOTICES: Final = ("clock_extended", "clock_resumed", "hunts_open", "last_hour")


def deadline_notice(kind: str) -> TextRenderer:
    def text(lang: Lang, payload: Mapping[str, Any]) -> str:
        deadline = datetime.fromisoformat(str(payload["deadline"]))
        return t(
            lang,
            f"announce.{kind}",
            deadline=timestamp(deadline, "f"),
            relative=timestamp(deadline, "R"),
        )

    return text


def clock_paused_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """R56: the host paused the clock, with the time that was left."""
    return t(lang, "announce.clock_paused", minutes=int(payload["minutes"]))
