"""The end of a game as players read it (pure: builds text and embeds, sends nothing).

The payload comes from ``rules.announce.game_over_announcement``: the winner and why (R15),
the turns played, when the game started and ended, and every nickname with its original role,
its final role if a conversion (R22) or promotion (R19) changed it, its fate, and, only when
the host chose to reveal them (``/mafia new reveal``), the member behind it. A member is shown
as a mention, which delivery sends with allowed mentions none: nobody is pinged.

:func:`game_over_embeds` is the message of embeds; :func:`game_over_text` the same facts as
plain text (``bot.render.render`` uses it for the demo and text delivery).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import discord

from bot.embeds import LONER, MAFIA, NEUTRAL, NOTICE, TOWN, Post, add_list_field, clip, pack
from core.cast_text import cast_of_end, cast_values, present
from core.i18n import Lang, t
from rules.announce import roster_in_public_order
from rules.win import loner_winners

#: The winner's colour; the host ending the game (no winner) is a notice. A loner wins under
#: his role's name (R15): each loner of the registry has the loners' colour.
WINNER_COLOURS: Mapping[str | None, int] = {
    "town": TOWN,
    "mafia": MAFIA,
    **{name: LONER for name in loner_winners()},
    "draw": NEUTRAL,
    None: NOTICE,
}


def _timestamp(iso: str, style: str = "f") -> str:
    """A Discord timestamp: every reader sees it in his own time zone."""
    return f"<t:{int(datetime.fromisoformat(iso).timestamp())}:{style}>"


def winner_line(lang: Lang, payload: Mapping[str, Any]) -> str:
    winner = payload.get("winner")
    return t(lang, f"winner.{winner}") if winner else t(lang, "winner.none")


def summary_lines(lang: Lang, payload: Mapping[str, Any]) -> list[str]:
    """Why the game ended (R15, or the host), how long it lasted, and when (if known)."""
    winner = payload.get("winner")
    reason = payload.get("reason") or ("host_ended" if winner is None else "unknown")
    # The sides of this game only (R15, R43): its cast is the roles its end lists.
    lines = [t(lang, f"gameover.reason.{reason}", **cast_values(lang, cast_of_end(payload)))]
    turns = payload.get("turns")
    if isinstance(turns, int) and turns > 0:
        lines.append(t(lang, "gameover.length", turns=turns))
    started, ended = payload.get("started"), payload.get("ended")
    if started and ended:
        lines.append(
            t(lang, "gameover.dates", started=_timestamp(started), ended=_timestamp(ended))
        )
    lines += room_lines(lang, payload)
    return lines


def room_lines(lang: Lang, payload: Mapping[str, Any]) -> list[str]:
    """With the members revealed, the mafia's room opens for every player to read after the
    game: the end says so and links #mafia, where it is (``mafia_channel``, added when the
    end is delivered; shown by its name otherwise, as when the archive renders it). The
    thread itself is not linked: its name carries the game's number."""
    if payload.get("reveal") is not True:
        return []
    cast = cast_of_end(payload)
    if cast is not None and "mafia" not in present(cast):
        return []  # a game without mafia had no mafia's room (R43)
    channel = payload.get("mafia_channel")
    where = f"<#{int(channel)}>" if channel else "#" + t(lang, "channel.mafia")
    return [t(lang, "gameover.mafia_room", room=where)]


def fate_line(lang: Lang, entry: Mapping[str, Any]) -> str:
    """``Nick: Role (→ final role), alive | cause on turn N (— played by <@id>)``."""
    role = t(lang, f"role.{entry['role']}")
    final = entry.get("final_role")
    if final:  # R19, R22: the original role, then what it became
        role = t(lang, "gameover.changed", role=role, final=t(lang, f"role.{final}"))
    if entry.get("alive"):
        line = t(lang, "reveal.alive", nick=entry["nick"], role=role)
    else:
        line = t(
            lang,
            "reveal.dead",
            nick=entry["nick"],
            role=role,
            cause=t(lang, f"cause.{entry.get('cause')}"),
            turn=entry.get("turn") or "?",
        )
    member = entry.get("member")
    if member is not None:  # only when the host chose to reveal (/mafia new reveal)
        line += " — " + t(lang, "gameover.member", member=f"<@{int(member)}>")
    return line


def fate_lines(lang: Lang, payload: Mapping[str, Any]) -> list[str]:
    return [fate_line(lang, e) for e in roster_in_public_order(payload.get("roles") or ())]


def _hidden(payload: Mapping[str, Any]) -> bool:
    """The host chose not to name the members (an old payload without the flag says nothing)."""
    return payload.get("reveal") is False


def game_over_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    """The end of the game as plain text: the same facts as the embeds."""
    lines = [winner_line(lang, payload), *summary_lines(lang, payload)]
    lines += fate_lines(lang, payload)
    if _hidden(payload):
        lines.append(t(lang, "gameover.hidden"))
    return "\n".join(lines)


def game_over_embeds(lang: Lang, payload: Mapping[str, Any]) -> list[Post]:
    """The end of the game as embeds in the winner's colour: the winner (title), why and how
    long (description), every nickname's role and fate (a list field, continued into more
    embeds and messages when 99 players do not fit one)."""
    embed = discord.Embed(
        title=clip(winner_line(lang, payload), 256),
        description="\n".join(summary_lines(lang, payload)),
        colour=WINNER_COLOURS.get(payload.get("winner"), NEUTRAL),
    )
    embeds = add_list_field(embed, t(lang, "gameover.roles"), fate_lines(lang, payload))
    if _hidden(payload):
        embeds[-1].set_footer(text=t(lang, "gameover.hidden"))
    return pack(embeds)
