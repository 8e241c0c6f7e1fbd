"""The DM channel of each user the bot wrote to in private, per server it wrote for
(migrations 14 and 20).

A user's DM channel is the same for every server; it is kept once per server, so that a
server's rows go with the server (``purge_guild``) and with the member's data on it
(``purge_member``) while the other servers keep theirs."""

from __future__ import annotations

from db.tx import Engine, Tx


class DMChannelsOps(Engine):
    """The DM channel of each user the bot wrote to, per bot account and per server (it goes
    with that server's data)."""

    async def dm_channel(self, bot_id: int, guild_id: int, user_id: int) -> int | None:
        """The channel's id, if kept (one kept for another server is kept for this one too)."""
        rows = await self._fetch(
            "SELECT guild_id, channel_id FROM dm_channels WHERE user_id = $1 AND bot_id = $2",
            user_id,
            bot_id,
        )
        if not rows:
            return None
        own = [int(r["channel_id"]) for r in rows if int(r["guild_id"]) == guild_id]
        if own:
            return own[0]
        channel_id = int(rows[0]["channel_id"])  # known for another server: kept for this one
        await self.save_dm_channel(bot_id, guild_id, user_id, channel_id)
        return channel_id

    async def save_dm_channel(
        self, bot_id: int, guild_id: int, user_id: int, channel_id: int
    ) -> None:
        """Keep the channel's id, for the server ``guild_id``."""

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO dm_channels (guild_id, user_id, bot_id, channel_id) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id, bot_id) "
                "DO UPDATE SET channel_id = excluded.channel_id",
                guild_id,
                user_id,
                bot_id,
                channel_id,
            )

        await self._run_write(body)
