"""The DM channel of each user the bot wrote to in private (migration 14)."""

from __future__ import annotations

from db.tx import Engine, Tx


class DMChannelsOps(Engine):
    """:class:`db.interface.DMChannels`."""

    async def dm_channel(self, bot_id: int, user_id: int) -> int | None:
        row = await self._fetchrow(
            "SELECT channel_id FROM dm_channels WHERE bot_id = $1 AND user_id = $2",
            bot_id,
            user_id,
        )
        return None if row is None else int(row["channel_id"])

    async def save_dm_channel(self, bot_id: int, user_id: int, channel_id: int) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO dm_channels (bot_id, user_id, channel_id) VALUES ($1, $2, $3) "
                "ON CONFLICT (bot_id, user_id) DO UPDATE SET channel_id = excluded.channel_id",
                bot_id,
                user_id,
                channel_id,
            )

        await self._run_write(body)
