"""The PostgreSQL store: every concern's mixin on one connection pool (:class:`PostgresBase`)."""

from __future__ import annotations

from db.postgres.audit import AuditMixin
from db.postgres.boards import BoardsMixin
from db.postgres.dmchannels import DMChannelsMixin
from db.postgres.downtime import DowntimeMixin
from db.postgres.games import GamesMixin
from db.postgres.loading import LoadingMixin
from db.postgres.outbox import OutboxMixin
from db.postgres.pictures import PicturesMixin
from db.postgres.players import PlayersMixin
from db.postgres.privacy import PrivacyMixin
from db.postgres.requests import RequestLogMixin
from db.postgres.reviews import ReviewsMixin
from db.postgres.settings import SettingsMixin


class PostgresStore(
    GamesMixin,
    PlayersMixin,
    RequestLogMixin,
    OutboxMixin,
    SettingsMixin,
    AuditMixin,
    DowntimeMixin,
    LoadingMixin,
    PrivacyMixin,
    BoardsMixin,
    ReviewsMixin,
    DMChannelsMixin,
    PicturesMixin,
):
    """:class:`db.interface.GameStore` on a PostgreSQL database. Create with
    ``await PostgresStore.open(url)``; see :mod:`db.postgres.base` for transactions, locking
    and what keeps two processes on one database exactly-once.
    """
