"""The outbox rows this process sends, under leases (several processes may deliver one outbox).

Each deliverer claims the rows it sends (``GameStore.claim_outbox``) under a lease named by its
own owner id (:func:`process_owner`), so two deliverers never send the same row at once and a
game's rows go out through one of them at a time. A live deliverer renews its leases as it goes
(:data:`RENEW_FRACTION`); a crashed one's rows are claimed by another once their lease
(:data:`LEASE_SECONDS`) expires, and the nonces and the history check (``bot/delivery/sender.py``)
keep a row it sent but did not mark from going out twice. A deliverer that stalled past its
lease (its process paused, a long wait) while another took its rows over learns it before its
next message goes out: the lease is checked (renewed, once a third of it has passed) just before
each message (:meth:`Leases.hold`), and a row taken over is sent no further here (a player's
post carries no nonce: it would show twice). Leases coordinate processes, so they are on a clock
the processes share, never a game's: the machine's (SQLite) or the database server's
(PostgreSQL); renewals are paced by the machine's monotonic clock (a third of the lease is the
slack for the server's).
"""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from typing import Final

from bot.delivery.router import destination
from bot.delivery.sender import LeaseLost, Sender
from core.service import GameService
from core.shards import Shards
from db.interface import GameStore
from db.models import OutboxRecord

log = logging.getLogger(__name__)

#: How long a claimed outbox row stays this process's: longer than a table's
#: worker waits on Discord for one message (its channel's bucket, discord.py's retries),
#: renewed after a third of it (:data:`RENEW_FRACTION`) while rows go out, so a slow but
#: live deliverer keeps its rows and a dead one's are taken over within a minute.
LEASE_SECONDS: Final[float] = 60.0
RENEW_FRACTION: Final[float] = 1 / 3
#: The most rows one read of the outbox claims (a deadline of a thousand games queues a
#: few thousand rows); what is left is claimed by the next delivery.
CLAIM_LIMIT: Final[int] = 10_000


def lease_slot(shards: Shards | None = None) -> str:
    """What this process is, for its outbox leases: its host and the shards it runs (one
    process at a time runs a given set of shards on a host), ending with ``#``."""
    what = "all" if shards is None else f"shards-{','.join(map(str, shards.ids))}of{shards.count}"
    return f"{socket.gethostname()}/{what}#"


def process_owner(shards: Shards | None = None) -> str:
    """An owner id for this process's outbox leases: its :func:`lease_slot`, then what is
    unique to this run (restarts included)."""
    return f"{lease_slot(shards)}{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Leases:
    """This deliverer's claims: what it may send (:meth:`claim`), kept while it sends
    (:meth:`keep`), and the rows another deliverer took over (:attr:`lost`). ``queued``: the
    rows in this deliverer's workers' queues (the worker's own set)."""

    def __init__(
        self,
        service: GameService,
        store: GameStore,
        sender: Sender,
        queued: set[int],
        *,
        shards: Shards | None,
        owner: str | None,
        lease_seconds: float,
    ) -> None:
        self.service = service
        self.store = store
        self.sender = sender
        self.shards = shards
        #: Whose leases this deliverer's claims are (one per process).
        self.owner = owner or process_owner(shards)
        #: The leases of an earlier run of this same process (killed) are ended at the first
        #: claim (``expire_leases``), so a restart sends what it left at once, not a minute
        #: later; None when the owner was given (tests), or once done.
        self._slot: str | None = None if owner else lease_slot(shards)
        self.lease_seconds = lease_seconds
        self._queued = queued
        self.lost: set[int] = set()  # rows queued here whose lease another deliverer took
        #: When this deliverer's leases were last renewed (process coordination: the
        #: machine's monotonic clock, as the leases are the machine's or the server's).
        self._renewed = time.monotonic()

    async def claim(self, game_id: int | None = None) -> list[OutboxRecord]:
        """The pending rows (of one game, or of all) this deliverer may send: claimed for it,
        or renewed if it held them already; not those another live deliverer holds, nor
        (with ``shards``) those of another shard's games, left for their own process."""
        if self._slot is not None:
            slot, self._slot = self._slot, None
            taken = await self.service.expire_leases(slot, self.owner)
            if taken:
                log.info("taking over %d announcements of this process's last run", len(taken))
        shards = self.shards
        rows = await self.service.claim_outbox(
            self.owner,
            game_id=game_id,
            limit=CLAIM_LIMIT,
            lease_seconds=self.lease_seconds,
            shard_count=None if shards is None else shards.count,
            shard_ids=() if shards is None else shards.ids,
        )
        attempted = self.sender.attempted
        retaken = [row for row in rows if row.retaken and row.id not in attempted]
        for row in retaken:  # its deliverer died, maybe after sending it: look first
            attempted[row.id] = row.created_at
        for game in sorted({row.game_id for row in retaken}):
            await self._recall_marks(game, [row for row in retaken if row.game_id == game])
        return rows

    async def _recall_marks(self, game_id: int, rows: list[OutboxRecord]) -> None:
        """Where to read on from in each retaken row's destination: the last message recorded
        there by the game's rows sent before it (a destination's rows go out in order, so
        what the dead deliverer may have posted for the row comes after it), kept in the
        store (``message_id``) so a restart knows it too."""
        last: dict[str, int] = {}
        pending = {row.id for row in rows}
        for row in await self.store.outbox(game_id):
            dest = destination(row)
            if row.id in pending:
                if dest in last:
                    self.sender.stored_marks[row.id] = last[dest]
            elif row.sent and row.message_id is not None:
                last[dest] = max(last.get(dest, 0), row.message_id)

    async def keep(self) -> None:
        """Renew this deliverer's leases when a third of their time has passed; a queued row
        no longer among them was taken over (this process was thought dead): not sent here."""
        now = time.monotonic()
        if now - self._renewed < self.lease_seconds * RENEW_FRACTION:
            return
        self._renewed = now
        queued = set(self._queued)  # claimed before the renewal (a claim meanwhile is not)
        held = set(await self.service.renew_outbox(self.owner, lease_seconds=self.lease_seconds))
        self.lost = (self.lost | (queued - held)) & self._queued

    async def hold(self, row_id: int) -> None:
        """Just before a message of the row goes out (``Sender.guard``): the leases renewed
        if they are due, and :class:`LeaseLost` if the row was taken over meanwhile (this
        deliverer stalled past its lease): the other deliverer sends it, this one nothing."""
        await self.keep()
        if row_id in self.lost:
            raise LeaseLost(row_id)
