"""The SQLite store: every concern's operations (:mod:`db.ops`, written once for both engines)
on this engine's transactions (:class:`db.sqlite.base.SQLiteBase`)."""

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
from db.sqlite.base import SQLiteBase


class SQLiteStore(
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
    SQLiteBase,
):
    """:class:`db.interface.GameStore` on one SQLite file. Create with
    ``await SQLiteStore.open(path)``; see :mod:`db.sqlite.base` for transactions and locking."""
