"""The PostgreSQL store: every concern's operations (:mod:`db.ops`, written once for both engines)
on this engine's transactions (:class:`db.postgres.base.PostgresBase`)."""

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
from db.ops.privacy import PrivacyOps
from db.ops.requests import RequestLogOps
from db.ops.reviews import ReviewsOps
from db.ops.settings import SettingsOps
from db.postgres.base import PostgresBase


class PostgresStore(
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
    PostgresBase,
):
    """:class:`db.interface.GameStore` on a PostgreSQL database. Create with
    ``await PostgresStore.open(url)``; see :mod:`db.postgres.base` for transactions, locking
    and what keeps two processes on one database exactly-once."""
