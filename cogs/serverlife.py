"""Discord's events about the server changing under a running game, handed to
``bot/serverlife.py`` (who can read the secret rooms, the mafia's room, members who leave and
come back, the host role). Thin: each listener filters what cannot matter and makes one call.

Every event here needs only the intents the bot has (guilds, members: ``bot/client.py``);
thread member events come with the members intent.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.context import GameContext, game_context
from bot.serverlife import ServerWatch


class ServerLifeCog(commands.Cog, name="ServerLife"):
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx

    @property
    def watch(self) -> ServerWatch:
        return self.ctx.watch

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.watch.start()  # the guilds are known: look at every running game

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if before.roles != after.roles:  # a role given or taken
            self.watch.touch(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions:
            self.watch.touch(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_delete(self, role: discord.Role) -> None:
        await self.watch.role_deleted(role)

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        if before.overwrites != after.overwrites:
            self.watch.touch(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.watch.touch(channel.guild.id, rooms=True)  # #mafia, and the room with it

    @commands.Cog.listener()
    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.watch.touch(channel.guild.id, rooms=True)  # #mafia rebuilt: the room reopens

    @commands.Cog.listener()
    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if before.owner_id != after.owner_id:
            self.watch.touch(after.id)

    @commands.Cog.listener()
    async def on_thread_member_join(self, member: discord.ThreadMember) -> None:
        if self.watch.watches(member.thread.guild.id):
            await self.watch.thread_member_joined(member)

    @commands.Cog.listener()
    async def on_raw_thread_member_remove(self, payload: discord.RawThreadMembersUpdate) -> None:
        self.watch.thread_members_removed(payload)  # not for the bot's own removals

    @commands.Cog.listener()
    async def on_thread_remove(self, thread: discord.Thread) -> None:
        self.watch.touch(thread.guild.id, rooms=True)  # the bot itself taken out of a thread

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.watch.touch(payload.guild_id, rooms=True)

    @commands.Cog.listener()
    async def on_member_join(self, member: discord.Member) -> None:
        if self.watch.watches(member.guild.id):
            await self.watch.member_returned(member)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ServerLifeCog(game_context(bot)))
