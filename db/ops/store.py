"""Every concern's operations in one mixin: what each engine's store adds its transactions to
(``class SQLiteStore(StoreOps, SQLiteBase)``, ``class PostgresStore(StoreOps, PostgresBase)``),
so that both stores are sure to have the same operations."""

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


class StoreOps(
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
    """:class:`db.interface.GameStore`'s operations, on whichever engine the store is."""
