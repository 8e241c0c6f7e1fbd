"""The game service: rules + store + clock, with no Discord in it.

Cogs call it with user ids and plain values; it loads the game, asks `rules/` to decide,
commits to the store, and only then returns (R: every accepted request is committed before
the player is told). What must be announced goes to the store's outbox in the same
transaction as the change that causes it; the bot delivers the outbox and marks it sent.

Errors a user can cause are `ServiceError(key, **values)`: a catalogue key and placeholders.

:class:`GameService` is the one object the bot and the tests hold. It is composed of one
class per use case, each in its own module over one shared base (``core/service_base.py``:
the store, the clock, the running games and their locks, loading and reloading them, the
retry of a write refused as stale):

- ``core/lobby_service.py``: a new game, sign-up, wishes, the role list, the start;
- ``core/preset_service.py``: the server's own presets; ``core/ghost_service.py``: the
  ghosts' room's spectators (R62);
- ``core/play_service.py``: a player's requests, posts, profile and role card;
- ``core/turn_service.py``: resolution, the pistol window, downtime, reminders, notices;
- ``core/host_service.py``: the hosts' overrides, the clock commands, the audit;
- ``core/substitute_service.py``: substitutes, replacements and bars (R60, R63);
- ``core/review_service.py``: the host's review of a turn's results;
- ``core/table_service.py``: tables, purges, confirmations;
- ``core/outbox_service.py``: what the delivery writes (claims, leases, sent marks).

The running game itself (:class:`LiveGame`) and the values returned about it are in
``core/live.py``; the names below are re-exported so that ``core.service`` stays the one
import of the callers.
"""

from __future__ import annotations

from core.ghost_service import GhostService
from core.host_service import MAX_EXTEND_MINUTES, HostService
from core.live import Accepted, LiveGame, QueuedPost, schedule_of
from core.lobby_service import LobbyService, table_seed
from core.outbox_service import OutboxService
from core.play_service import COUNTED_POSTS_KEPT, POST_KIND, PlayService
from core.preset_service import PresetService
from core.review_service import ReviewService
from core.service_base import (
    STALE_ATTEMPTS,
    Clock,
    LateRefusal,
    ServiceError,
    setup_refusal,
    utc_now,
)
from core.substitute_service import SubstituteService
from core.table_service import TableService
from core.turn_service import (
    DOWNTIME_GAP,
    HEARTBEAT_SECONDS,
    MAX_BEAT_SECONDS,
    beat_period,
    downtime_gap,
)

__all__ = [
    "COUNTED_POSTS_KEPT",
    "DOWNTIME_GAP",
    "HEARTBEAT_SECONDS",
    "MAX_BEAT_SECONDS",
    "MAX_EXTEND_MINUTES",
    "POST_KIND",
    "STALE_ATTEMPTS",
    "Accepted",
    "Clock",
    "GameService",
    "LateRefusal",
    "LiveGame",
    "QueuedPost",
    "ServiceError",
    "beat_period",
    "downtime_gap",
    "schedule_of",
    "setup_refusal",
    "table_seed",
    "utc_now",
]


class GameService(
    PresetService,  # over LobbyService: a preset is checked as any setup
    GhostService,
    LobbyService,
    PlayService,  # over TurnService: the last pistol shot closes its window
    HostService,
    SubstituteService,
    ReviewService,
    TableService,
    OutboxService,
):
    """Every use case of the game service, on one shared state (``ServiceBase``)."""
