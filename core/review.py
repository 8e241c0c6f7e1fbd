"""The host's review of a turn's results (``/mafia new review:N``), with no Discord in it.

When a game has a review time (``schedule_params["review"]``, minutes), the resolution decided
by the rules at the deadline commits as always, but what it announces to anyone but the hosts
(the dawn report, the night's public and private announcements, the final announcement) is not
queued: it goes, in the same transaction, inside one #host row of kind ``review_draft`` (the
draft), with when it goes out unreviewed. The next turn has no deadline meanwhile, so its
clock, reminders and notices wait, and player requests are refused (``error.review_pending``).

Publication (the host's Publish button, or the bot's review clock once the review time is
over) queues, in one transaction (``GameStore.publish_review``, exactly once): the host's story
(if he wrote one) as the host's announcement, the held results, and the next turn's opening
with its deadline counted from the publication; the game's deadline is set with them.

A turn with a pistol window (R18) is published once too, the story above the whole of it:
the window opens at the deadline as without review, but only its prompt goes out (the killed
commissar must learn he may shoot) with the hosts' rows; the rest of the night (the results,
the mafia's room, the private messages) is held with the window (:func:`hold_window`, kept with
the window's partial result under :data:`WINDOW_KEY`). Meanwhile the game reads as in review
(``LiveGame.review`` is the held window, :func:`is_window`: the players' replies read the game
as before the night, their posts and requests are refused, the shot excepted), though nothing
can be published yet. What closes the window (the shots, the win check, the next turn) joins
the held night in the one draft. The last turn of a game is reviewed too: the game is finished
in the store at the deadline (the rules decided), its final announcement waits for publication.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Final

import attrs

from db.models import GameRecord, OutboxItem, ReviewRecord
from rules.announce import HOST, PUBLIC, Announcement
from rules.model import Cause, GameState, Phase
from rules.snapshot import SnapshotError, state_from_dict, state_to_dict

#: The longest review time a host may ask for (a day).
MAX_REVIEW_MINUTES: Final[int] = 24 * 60
#: The longest story (Discord's limit for a modal's paragraph input).
MAX_STORY: Final[int] = 4000

DRAFT_KIND: Final[str] = "review_draft"
STORY_KIND: Final[str] = "story"
#: The key of what a held pistol window keeps, in its stored partial result.
WINDOW_KEY: Final[str] = "review"


def review_minutes(record: GameRecord) -> int:
    """The game's review time in minutes (0: results go out at the deadline)."""
    try:
        return max(0, int(str(record.schedule_params.get("review", 0))))
    except ValueError:
        return 0


def snapshot_before(state: GameState) -> dict[str, Any] | None:
    """The state as the players knew it before the results were decided, kept with the draft.
    In a pistol window (R18) the night is out already, the shots are not: a shot's victim is
    alive in the copy (the engine applies a shot when it is fired)."""
    players = {
        nick: attrs.evolve(p, alive=True, death_turn=None, death_cause=None)
        if state.phase is Phase.PISTOL
        and not p.alive
        and p.death_cause is Cause.PISTOL
        and p.death_turn == state.turn
        else p
        for nick, p in state.players.items()
    }
    try:
        return state_to_dict(attrs.evolve(state, current=None, players=players))
    except (SnapshotError, TypeError, ValueError):
        return None


def public_state(review: ReviewRecord | None) -> GameState | None:
    """While ``review`` waits, the state the players knew before its results (None: no review
    pending, or a draft without it: the caller reads the game as it is)."""
    if review is None or not review.draft.get("before"):
        return None
    try:
        return state_from_dict(review.draft["before"])
    except (SnapshotError, KeyError, TypeError, ValueError):
        return None


def hold(
    announcements: Sequence[Announcement],
    *,
    turn: int,
    now: datetime,
    minutes: int,
    before: dict[str, Any] | None = None,
) -> list[Announcement]:
    """The resolution's announcements with everything but the hosts' rows held in one draft
    for #host (its last row). The next turn's opening is left out: publication writes it,
    with the deadline counted from then. ``before``: the state as the players knew it
    (:func:`snapshot_before`), what their private replies read until publication."""
    kept = [a for a in announcements if a.audience == HOST]
    held = [a.to_dict() for a in announcements if a.audience != HOST and a.kind != "turn_open"]
    until = now + timedelta(minutes=minutes)
    payload: dict[str, Any] = {
        "turn": turn,
        "minutes": minutes,
        "until": until.isoformat(),
        "items": held,
    }
    if before is not None:
        payload["before"] = before
    return [*kept, Announcement(DRAFT_KIND, HOST, payload)]


def hold_window(
    announcements: Sequence[Announcement],
    *,
    turn: int,
    until: datetime,
    before: dict[str, Any] | None,
) -> tuple[list[Announcement], dict[str, Any]]:
    """R18 in a reviewed game: what goes out as the pistol window opens (the hosts' rows and
    each killed commissar's prompt), and what the window holds for the draft (the rest, with
    ``before``; ``until``: when the results go out unreviewed at the latest, should the window
    run its whole length)."""
    now = [a for a in announcements if a.audience == HOST or a.kind == "pistol"]
    held = [a.to_dict() for a in announcements if a.audience != HOST and a.kind != "pistol"]
    payload: dict[str, Any] = {
        "turn": turn,
        "window": True,
        "until": until.isoformat(),
        "items": held,
    }
    if before is not None:
        payload["before"] = before
    return now, payload


def is_window(review: ReviewRecord) -> bool:
    """Whether ``review`` is a held pistol window (nothing to publish yet), not a draft."""
    return bool(review.draft.get("window"))


def window_announcements(review: ReviewRecord) -> list[Announcement]:
    """What a held pistol window kept back, for the draft that closes it."""
    return [
        Announcement(str(i["kind"]), str(i["audience"]), dict(i.get("payload") or {}))
        for i in review.draft.get("items") or ()
    ]


def window_review(game: GameRecord, partial: dict[str, Any] | None) -> ReviewRecord | None:
    """The held pistol window of ``game`` from the window's stored partial result, if any."""
    payload = (partial or {}).get(WINDOW_KEY)
    if not isinstance(payload, dict):
        return None
    return ReviewRecord(game.id, game.guild_id, game.turn, dict(payload))


def until_of(review: ReviewRecord) -> datetime:
    """When the draft goes out unreviewed."""
    return datetime.fromisoformat(str(review.draft["until"]))


def held_items(review: ReviewRecord, story: str | None) -> list[OutboxItem]:
    """What publication queues ahead of the next turn's opening: the story (R47: the host's
    narrative, above the results), then the results as the rules decided them."""
    items: list[dict[str, Any]] = []
    if story and story.strip():
        items.append(
            Announcement(STORY_KIND, PUBLIC, {"text": story, "turn": review.turn}).to_dict()
        )
    items.extend(dict(i) for i in review.draft.get("items") or ())
    return [OutboxItem(kind=str(i["kind"]), payload=i) for i in items]
