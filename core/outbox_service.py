"""What the delivery (``bot/delivery/``, ``bot/killboard.py``) writes of the outbox it
sends: its claims and leases, the rows marked sent, and the id of the mafia's kill board
message (R23). The rows themselves are queued by the use cases, in the transaction of their
cause. Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.service_base import ServiceBase
from db.models import OutboxRecord


class OutboxService(ServiceBase):
    """The delivery's writes (see :class:`db.ops.outbox.OutboxOps` for what each one does)."""

    async def pending_outbox(self) -> list[OutboxRecord]:
        return await self.store.pending_outbox()

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
        """Pending rows (of one game, or of all) leased to ``owner`` for ``lease_seconds``."""
        return await self.store.claim_outbox(
            owner,
            game_id=game_id,
            limit=limit,
            lease_seconds=lease_seconds,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )

    async def renew_outbox(self, owner: str, *, lease_seconds: float = 60.0) -> list[int]:
        """Extend ``owner``'s leases; the ids of the rows it still holds."""
        return await self.store.renew_outbox(owner, lease_seconds=lease_seconds)

    async def expire_leases(self, slot: str, keep: str) -> list[int]:
        """End the leases of an earlier run of this process (killed); the ids of its rows."""
        return await self.store.expire_leases(slot, keep)

    async def mark_sent(
        self,
        outbox_id: int,
        owner: str | None = None,
        *,
        message_id: int | None = None,
        together: Sequence[int] = (),
    ) -> bool:
        """A row was delivered (``message_id``: the last message it posted), with the rows
        ``together`` with it in its messages (marked in the same write). True once."""
        return await self.store.mark_sent(
            outbox_id, owner, message_id=message_id, together=together
        )

    async def dm_channel(self, bot_id: int, guild_id: int, user_id: int) -> int | None:
        """The id of a DM channel the bot opened before, if it was kept (for any server)."""
        return await self.store.dm_channel(bot_id, guild_id, user_id)

    async def save_dm_channel(
        self, bot_id: int, guild_id: int, user_id: int, channel_id: int
    ) -> None:
        """Keep the id of a DM channel the bot opened to write for the server ``guild_id`` (a
        restart does not open it again; it goes with the server's data)."""
        await self.store.save_dm_channel(bot_id, guild_id, user_id, channel_id)

    async def set_kill_board(self, game_id: int, turn: int, message_id: int) -> None:
        """Keep the message id of the mafia's kill board of ``turn`` (0: a post begun)."""
        await self.store.set_kill_board(game_id, turn, message_id)

    async def drop_post_pictures(self, outbox_id: int | None = None) -> int:
        """Forget the picture of a post shown (or dropped), and those of every row sent."""
        return await self.store.drop_post_pictures(outbox_id)
