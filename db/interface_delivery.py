"""The store's interface for delivering announcements (part of :class:`db.interface.GameStore`,
whose contract every method keeps): the outbox, the pictures of queued posts and the DM
channels the bot writes to."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

from db.models import OutboxItem, OutboxRecord, PostRecord

__all__ = ["DMChannels", "Outbox", "PostPictures"]


class Outbox(Protocol):
    """Announcements to deliver, queued in the transaction of what caused them.

    At least once: a row stays pending until :meth:`mark_sent`. Queue order is insertion order
    (ids increase with it). Deliverers (processes) share it through leases (:meth:`claim_outbox`);
    a dead one's rows are claimed again once their leases expire.
    """

    async def add_outbox(self, game_id: int, turn: int, items: Sequence[OutboxItem]) -> list[int]:
        """Queue announcements on their own (the host's narrative, R47), in one transaction;
        their ids, in the order given. ``NotFound`` if there is no such game."""
        ...

    async def pending_outbox(self, game_id: int | None = None) -> list[OutboxRecord]:
        """Announcements not yet marked sent, in queue order (of one game, or of all games)."""
        ...

    async def outbox(self, game_id: int) -> list[OutboxRecord]:
        """Every announcement of a game, sent or not, in queue order."""
        ...

    async def last_outbox(
        self, game_id: int, kind: str, turn: int | None = None
    ) -> OutboxRecord | None:
        """The game's latest announcement of ``kind`` (of ``turn`` if given), sent or not."""
        ...

    async def outbox_backlog(self) -> tuple[int, dt.datetime | None]:
        """How many announcements wait (every game's), and when the oldest was queued."""
        ...

    async def claim_outbox(
        self,
        owner: str,
        *,
        game_id: int | None = None,
        limit: int = 100,
        lease_seconds: float = 60.0,
        shard_count: int | None = None,
        shard_ids: Sequence[int] = (),
    ) -> list[OutboxRecord]:
        """Lease at most ``limit`` pending rows, oldest first, to ``owner`` for
        ``lease_seconds``, in ONE transaction (with ``shard_count``/``shard_ids``: only those
        of servers on these shards, ``core/shards.py``). A row with a live lease of another
        owner is not claimable, nor is any row of its game (one deliverer per game keeps its
        order); two claims never return the same row while its lease lives."""
        ...

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        """Extend every lease ``owner`` holds on a pending row; the ids of those rows (one
        missing was taken over, or sent)."""
        ...

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        """End every live lease of an owner whose id starts with ``slot``, except ``keep``'s:
        those of an earlier, killed run of this process. Its rows are claimable at once, as
        taken over (``retaken``); their ids."""
        ...

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        """Mark a row delivered (whoever holds its lease), with the last message it posted;
        True once. ``together``: the rows sent in the same messages, marked in the same write."""
        ...

    async def publish_post(
        self,
        outbox_id: int,
        game_id: int,
        turn: int,
        nick: str,
        text: str,
        *,
        ghost: bool = False,
        at: dt.datetime | None = None,
        message_id: int | None = None,
    ) -> PostRecord | None:
        """A queued post was shown in #game: archive it and mark its row sent, in ONE
        transaction; None, writing nothing, if the row was marked sent already."""
        ...


class DMChannels(Protocol):
    """The DM channel of each user the bot wrote to, per bot account and per server (it goes
    with that server's data)."""

    async def dm_channel(self, bot_id: int, guild_id: int, user_id: int) -> int | None:
        """The channel's id, if kept (one kept for another server is kept for this one too)."""
        ...

    async def save_dm_channel(
        self, bot_id: int, guild_id: int, user_id: int, channel_id: int
    ) -> None:
        """Keep the channel's id, for the server ``guild_id``."""
        ...


class PostPictures(Protocol):
    """The picture of a queued post (``/say``, ``core/images.py``), kept until it is shown."""

    async def queue_picture_post(
        self, game_id: int, turn: int, item: OutboxItem, filename: str, data: bytes
    ) -> int:
        """Queue ``item`` and keep its picture, in ONE transaction; the row's id."""
        ...

    async def post_picture(self, outbox_id: int) -> tuple[str, bytes] | None:
        """The picture of the post of outbox row ``outbox_id`` (file name, bytes), or None."""
        ...

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        """Delete ``outbox_id``'s picture and those of every row sent; how many."""
        ...
