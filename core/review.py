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

A turn with a pistol window (R18): the window opens at the deadline as without review (the
killed commissar must learn he may shoot); what closes it (the shots, the win check, the next
turn) is the reviewed draft. The last turn of a game is reviewed too: the game is finished in
the store at the deadline (the rules decided), its final announcement waits for publication.
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
