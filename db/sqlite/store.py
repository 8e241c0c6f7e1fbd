"""The SQLite store: every concern's mixin on one connection (:class:`SQLiteBase`)."""

from __future__ import annotations

from db.sqlite.audit import AuditMixin
from db.sqlite.boards import BoardsMixin
from db.sqlite.dmchannels import DMChannelsMixin
from db.sqlite.downtime import DowntimeMixin
from db.sqlite.games import GamesMixin
from db.sqlite.loading import LoadingMixin
from db.sqlite.outbox import OutboxMixin
from db.sqlite.pictures import PicturesMixin
from db.sqlite.players import PlayersMixin
from db.sqlite.privacy import PrivacyMixin
from db.sqlite.requests import RequestLogMixin
from db.sqlite.reviews import ReviewsMixin
from db.sqlite.settings import SettingsMixin


class SQLiteStore(
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
    """:class:`db.interface.GameStore` on one SQLite file. Create with
    ``await SQLiteStore.open(path)``; see :mod:`db.sqlite.base` for transactions and locking.
    """
