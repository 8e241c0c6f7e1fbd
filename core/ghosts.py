"""The ghosts' room (R62) with no Discord in it: whether a game has one (and spectators), and
who is let into it when.

A game opened with ``/mafia new ghost_room:true`` keeps the option in its
``schedule_params`` (``ghost_room``, and ``spectators`` for members who do not play). A player
is let in when his death is published, and no earlier: a ``ghost_joined`` row (audience
:data:`rules.announce.GHOSTS`) follows each public announcement of a death (the dawn report,
an exclusion, a pistol shot), in the same list, so it is queued in the same transaction, held
with it by the host's review (``core/review.py`` holds every non-host row) and published with
it. The delivery lets him into the room just before it says so there (``bot/ghost_room.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from db.models import GameRecord
from rules.announce import GHOSTS, Announcement

#: The public announcements that publish deaths, and where their nicknames are.
DEATH_KINDS: Final[frozenset[str]] = frozenset({"results", "excluded", "shot"})
#: The room's rows: a player let in (a line in the room), a spectator's access changed.
JOINED_KIND: Final = "ghost_joined"
WATCH_KIND: Final = "ghost_watch"


def has_ghost_room(record: GameRecord) -> bool:
    return record.schedule_params.get("ghost_room") is True


def has_spectators(record: GameRecord) -> bool:
    return has_ghost_room(record) and record.schedule_params.get("spectators") is True


def ghost_params(ghost_room: bool, spectators: bool) -> dict[str, Any]:
    """What ``/mafia new`` keeps with the game's schedule (nothing when off)."""
    if not ghost_room:
        return {}
    return {"ghost_room": True, **({"spectators": True} if spectators else {})}


def published_dead(announcement: Announcement) -> list[str]:
    """The nicknames whose death ``announcement`` publishes (none for any other kind)."""
    if announcement.kind not in DEATH_KINDS:
        return []
    payload = announcement.payload
    if announcement.kind == "results":
        return [str(d["nick"]) for d in payload.get("deaths") or ()]
    return [str(payload["nick"])] if payload.get("nick") else []


def with_ghosts(record: GameRecord, announcements: Iterable[Announcement]) -> list[Announcement]:
    """``announcements`` with, in a game with a ghosts' room, a ``ghost_joined`` row after each
    announcement of a death (unchanged otherwise)."""
    out: list[Announcement] = []
    room = has_ghost_room(record)
    for a in announcements:
        out.append(a)
        if room:
            out += [Announcement(JOINED_KIND, GHOSTS, {"nick": n}) for n in published_dead(a)]
    return out


def watch_announcement(user_id: int, watching: bool) -> Announcement:
    """A spectator's access to the room changes (R62: he reads, he does not write)."""
    return Announcement(WATCH_KIND, GHOSTS, {"user": user_id, "watching": watching})


def spectate_refusal(
    record: GameRecord,
    user_id: int,
    *,
    players: Sequence[int],
    standing_by: Iterable[int] = (),
) -> str | None:
    """Why ``user_id`` may not watch the game's ghosts' room (a catalogue key), or None: the
    game has no room or no spectators, he plays in it (``players``: the seats' members), or
    he stands by as its substitute (``standing_by``, R60: a substitute cannot watch)."""
    if not has_ghost_room(record):
        return "error.no_ghost_room"
    if not has_spectators(record):
        return "error.no_spectators"
    if user_id in players:
        return "error.spectate_player"
    if user_id in set(standing_by):
        return "error.spectate_standby"
    return None
