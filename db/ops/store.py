"""The store's interface: :class:`GameStore`, every concern's operations in one class, each
written once with its signature, its docstring (its contract) and its body. Each engine adds
its transactions to it (``class SQLiteStore(GameStore, SQLiteBase)``,
``class PostgresStore(GameStore, PostgresBase)``), so both stores have the same operations;
the service depends on this class (``db.interface.GameStore`` names it), not on an engine.

The contract every operation keeps, unless its docstring says otherwise:

- **Committed on return.** Every operation is a coroutine. A write is one transaction: when
  its coroutine returns, everything it wrote is durable (it survives a crash of the bot, and
  with the default settings a power cut); when it raises, nothing of it was written. A write
  whose caller is cancelled still finishes as a whole (committed or rolled back), never half.
- **One order.** Writes are applied one at a time, in the order the calls reach the store; a
  read sees every write that returned before it was called.
- **Errors.** A backend failure is raised as :class:`db.errors.StoreError` (or its subclasses
  :class:`~db.errors.NotFound`, :class:`~db.errors.OpenGameExists`,
  :class:`~db.errors.DatabaseUnusable`, :class:`~db.errors.StaleGame`) with a one-line
  message, never as a driver exception. An invalid argument (a naive datetime, a payload that
  is not JSON, a seed outside the signed 64-bit range, an unknown section or outcome) raises
  ``ValueError`` before anything is written. After ``close()``, every operation raises
  ``StoreError``.
- **Values.** Records are the attrs classes of :mod:`db.models`. Datetimes passed in must be
  timezone-aware; datetimes returned are in UTC. Payloads, results and arguments are JSON
  objects (``dict``); ids (Discord snowflakes, seeds) fit in a signed 64-bit integer.
- **Announcements.** An operation that takes ``outbox_items`` commits them in the same
  transaction as the change that produced them, attached to that change's turn, in the order
  given (:class:`db.ops.outbox.OutboxOps`).
"""

from __future__ import annotations

from db.ops.audit import AuditOps
from db.ops.boards import BoardsOps
from db.ops.dmchannels import DMChannelsOps
from db.ops.downtime import DowntimeOps
from db.ops.games import GamesOps
from db.ops.loading import LoadingOps
from db.ops.outbox import OutboxOps
from db.ops.pictures import PicturesOps
from db.ops.players import PlayersOps
from db.ops.presets import PresetsOps
from db.ops.privacy import PrivacyOps
from db.ops.requests import RequestLogOps
from db.ops.reviews import ReviewsOps
from db.ops.settings import SettingsOps
from db.ops.substitutes import SubstitutesOps


class GameStore(
    GamesOps,
    PlayersOps,
    RequestLogOps,
    OutboxOps,
    SettingsOps,
    AuditOps,
    DowntimeOps,
    LoadingOps,
    PrivacyOps,
    BoardsOps,
    ReviewsOps,
    DMChannelsOps,
    PicturesOps,
    PresetsOps,
    SubstitutesOps,
):
    """Everything the service needs of its store, on whichever engine the store is (a new
    concern's mixin is added here, once). Opening is the engine's: ``await
    SQLiteStore.open(path)``, ``await PostgresStore.open(url)``."""
