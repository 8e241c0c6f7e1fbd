"""The players' commands. Every reply is private (ephemeral).

Requests go through ``GameService.submit`` (validated by the rules and committed before the
player is told). Nickname options are autocompleted with the living nicknames of the caller's
own game only, and never with user names; autocomplete runs no checks, so it looks at the caller
itself.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_i18n import ltext
from bot.delivery import (
    render,
    render_role_card,
    role_name,
    send_chunks,
    slot_channel,
    timestamp,
    verb_name,
)
from bot.errors import UserError
from bot.replies import guild_language, send_private
from bot.signup import signup_action
from core.i18n import Lang, t
from core.refusal import Refusal
from core.service import Accepted, ServiceError
from db.models import OutboxRecord
from rules.knowledge import valid_targets
from rules.model import Request

if TYPE_CHECKING:
    from bot.client import MafiaBot

log = logging.getLogger(__name__)

Nick = app_commands.Range[str, 1, 100]


def _guild(interaction: discord.Interaction[Any]) -> discord.Guild:
    if interaction.guild is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild


def describe_request(lang: Lang, req: Request) -> str:
    named = ", ".join(req.named())
    if req.do == "note":
        return t(lang, "status.request_note", to=named)
    return t(lang, "status.request", verb=verb_name(lang, req.do), targets=named or "-")


def kill_agreement_text(lang: Lang, update: Mapping[str, Sequence[str]]) -> str:
    lines = [t(lang, "mafia.agreement")]
    for by, targets in update.items():
        lines.append(t(lang, "mafia.agreement_line", nick=by, targets=", ".join(targets)))
    if not update:
        lines.append(t(lang, "mafia.agreement_none"))
    return "\n".join(lines)


def _nick_autocomplete(verb: str) -> Any:
    async def complete(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        bot = cast("MafiaBot", interaction.client)
        guild = interaction.guild
        if guild is None:
            return []
        game = bot.service.game_in(guild.id)
        nick = game.nick_of(interaction.user.id) if game is not None else None
        if game is None or nick is None:
            return []  # only a player of this game sees its nicknames
        needle = current.casefold()
        return [
            app_commands.Choice(name=n, value=n)
            for n in valid_targets(game.engine.state, nick, verb)
            if needle in n.casefold()
        ][:25]

    return complete


async def post_as_player(bot: MafiaBot, interaction: discord.Interaction[Any], text: str) -> None:
    """Post ``text`` in #game under the caller's nickname; a living player's post counts
    (R52), a ghost's is marked as a ghost's."""
    guild = _guild(interaction)
    game, nick = bot.service.player_nick(guild.id, interaction.user.id)
    channel = slot_channel(guild, await bot.store.get_guild_settings(guild.id), "game")
    if channel is None:
        raise UserError("error.not_set_up")
    lang = await guild_language(bot, guild)
    alive = game.engine.state.alive(nick)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if alive:
        try:
            await bot.service.submit(guild.id, interaction.user.id, {"do": "post"})
        except ServiceError as refusal:
            if refusal.key != "refusal.request_closed":
                raise
            # between turns (the pistol window): talk is free, it just does not count
    seat = next((p for p in game.players if p.nick == nick), None)
    # R6: a post never shows a real account, not even as a mention someone typed.
    body = discord.utils.escape_mentions(text)
    if seat is not None and seat.signature:
        body = f"{body}\n\n{seat.signature}"
    username = nick if alive else t(lang, "say.ghost_name", nick=nick)
    await bot.game_webhooks.post(
        channel, body, username=username, avatar_url=seat.avatar_url if seat else None
    )
    await send_private(interaction, t(lang, "say.done", channel=channel.mention))


async def private_news(bot: MafiaBot, game_id: int, nick: str) -> list[OutboxRecord]:
    """The private messages of the latest turn that sent the player any (role cards aside)."""
    mine = [
        row
        for row in await bot.store.outbox(game_id)
        if row.payload.get("audience") == nick and row.kind != "role_card"
    ]
    if not mine:
        return []
    latest = max(row.turn for row in mine)
    return [row for row in mine if row.turn == latest]


class PostModal(discord.ui.Modal):
    """``/post``: a long text, posted like ``/say``."""

    def __init__(self, bot: MafiaBot, lang: Lang) -> None:
        super().__init__(title=t(lang, "post.title"))
        self.bot = bot
        self.body: discord.ui.TextInput[PostModal] = discord.ui.TextInput(
            label=t(lang, "post.label"),
            style=discord.TextStyle.paragraph,
            custom_id="body",
            min_length=1,
            max_length=4000,
        )
        self.add_item(self.body)

    async def on_submit(self, interaction: discord.Interaction[Any], /) -> None:
        try:
            await post_as_player(self.bot, interaction, self.body.value)
        except Refusal as refusal:  # a modal has no command tree to render it
            lang = await guild_language(self.bot, _guild(interaction))
            await send_private(interaction, refusal.render(lang))


@app_commands.guild_only()
class PlayCog(commands.Cog, name="Play"):
    def __init__(self, bot: MafiaBot) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Player commands belong in the game's channels (the game category and its threads),
        not anywhere on the server."""
        guild = interaction.guild
        where = interaction.channel
        if guild is None or where is None:
            return True
        settings = await self.bot.store.get_guild_settings(guild.id)
        if settings is None or settings.category_id is None:
            return True  # not set up: the command itself says so
        channel = where.parent if isinstance(where, discord.Thread) else where
        if getattr(channel, "category_id", None) == settings.category_id:
            return True
        game = slot_channel(guild, settings, "game")
        raise UserError("error.wrong_channel", channel=game.mention if game else "#game")

    # --- sign-up ----------------------------------------------------------------------
    @app_commands.command(name="join", description=ltext("cmd.join.description"))
    async def join_command(self, interaction: discord.Interaction[Any]) -> None:
        _guild(interaction)
        await signup_action(interaction, joining=True)

    @app_commands.command(name="leave", description=ltext("cmd.leave.description"))
    async def leave_command(self, interaction: discord.Interaction[Any]) -> None:
        _guild(interaction)
        await signup_action(interaction, joining=False)

    # --- what I know ------------------------------------------------------------------
    @app_commands.command(name="role", description=ltext("cmd.role.description"))
    async def role_command(self, interaction: discord.Interaction[Any]) -> None:
        guild = _guild(interaction)
        card = self.bot.service.card(guild.id, interaction.user.id)
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, render_role_card(lang, card))

    @app_commands.command(name="status", description=ltext("cmd.status.description"))
    async def status_command(self, interaction: discord.Interaction[Any]) -> None:
        guild = _guild(interaction)
        game, nick = self.bot.service.player_nick(guild.id, interaction.user.id)
        card = self.bot.service.card(guild.id, interaction.user.id)
        lang = await guild_language(self.bot, guild)
        state = game.engine.state
        lines = [
            t(
                lang,
                "status.header",
                nick=nick,
                role=role_name(lang, card.role),
                turn=game.engine.turn,
            )
        ]
        if not card.alive:
            lines.append(t(lang, "card.dead"))
        requests = game.engine.standing_requests(nick)
        shown = [r for r in requests if r.do != "post"]
        if shown:
            lines.append(t(lang, "status.requests"))
            lines += [f"- {describe_request(lang, r)}" for r in shown]
        else:
            lines.append(t(lang, "status.no_requests"))
        if card.alive:
            lines.append(t(lang, "status.posts", count=state.posts.get(nick, 0)))
        news = await private_news(self.bot, game.id, nick)
        if news:  # the fallback when a private message could not be delivered
            lines.append(t(lang, "status.news"))
            lines += [render(lang, row.kind, row.payload.get("payload") or {}) for row in news]
        record = game.record
        if record.paused:
            lines.append(t(lang, "status.paused"))
        elif record.deadline is not None:
            lines.append(
                t(
                    lang,
                    "status.deadline",
                    deadline=timestamp(record.deadline, "f"),
                    relative=timestamp(record.deadline, "R"),
                )
            )
        await send_private(interaction, "\n".join(lines))

    # --- talking ----------------------------------------------------------------------
    @app_commands.command(name="say", description=ltext("cmd.say.description"))
    @app_commands.describe(text=ltext("cmd.say.opt.text.description"))
    async def say_command(
        self, interaction: discord.Interaction[Any], text: app_commands.Range[str, 1, 4000]
    ) -> None:
        """Post in #game under my nickname (R6); a living player's post counts (R52)."""
        await post_as_player(self.bot, interaction, text)

    @app_commands.command(name="post", description=ltext("cmd.post.description"))
    async def post_command(self, interaction: discord.Interaction[Any]) -> None:
        """A long post, written in a modal."""
        guild = _guild(interaction)
        self.bot.service.player_nick(guild.id, interaction.user.id)  # refuse non-players now
        lang = await guild_language(self.bot, guild)
        await interaction.response.send_modal(PostModal(self.bot, lang))

    @app_commands.command(name="profile", description=ltext("cmd.profile.description"))
    @app_commands.describe(
        avatar=ltext("cmd.profile.opt.avatar.description"),
        image=ltext("cmd.profile.opt.image.description"),
        signature=ltext("cmd.profile.opt.signature.description"),
    )
    async def profile_command(
        self,
        interaction: discord.Interaction[Any],
        avatar: app_commands.Range[str, 1, 500] | None = None,
        image: discord.Attachment | None = None,
        signature: app_commands.Range[str, 1, 200] | None = None,
    ) -> None:
        """R10: my anonymous avatar and signature for my posts."""
        guild = _guild(interaction)
        url = image.url if image is not None else avatar
        if url is not None and not url.startswith(("https://", "http://")):
            raise UserError("error.bad_avatar")
        if url is None and signature is None:
            raise UserError("error.profile_empty")
        await self.bot.service.set_profile(
            guild.id,
            interaction.user.id,
            avatar_url=url,
            signature=discord.utils.escape_mentions(signature) if signature else None,
        )
        lang = await guild_language(self.bot, guild)
        await send_private(interaction, t(lang, "profile.done"))

    # --- requests ---------------------------------------------------------------------
    async def _request(
        self, interaction: discord.Interaction[Any], raw: dict[str, Any], **shown: str
    ) -> Accepted:
        guild = _guild(interaction)
        accepted = await self.bot.service.submit(guild.id, interaction.user.id, raw)
        lang = await guild_language(self.bot, guild)
        verb = str(raw["do"])
        lines = [t(lang, f"play.accepted.{verb}", **shown)]
        if accepted.withdrawn:  # R17
            names = ", ".join(verb_name(lang, v) for v in accepted.withdrawn)
            lines.append(t(lang, "play.withdrawn", verbs=names))
        await send_private(interaction, "\n".join(lines))
        game = self.bot.service.game_in(guild.id)
        if accepted.mafia_update is not None and game is not None:
            room = await self.bot.delivery.mafia_room(guild, game.id)  # R14, R23
            if room is not None:
                await send_chunks(room, kill_agreement_text(lang, accepted.mafia_update))
        if verb == "shoot":  # the last shot may have closed the window
            await self.bot.deliver()
            self.bot.clock.rearm()
        return accepted

    @app_commands.command(name="vote", description=ltext("cmd.vote.description"))
    @app_commands.describe(target=ltext("cmd.vote.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("vote"))
    async def vote_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "vote", "target": target}, target=target)

    @app_commands.command(name="hunt", description=ltext("cmd.hunt.description"))
    @app_commands.describe(target=ltext("cmd.hunt.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("hunt"))
    async def hunt_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "hunt", "target": target}, target=target)

    @app_commands.command(name="note", description=ltext("cmd.note.description"))
    @app_commands.describe(
        to=ltext("cmd.note.opt.to.description"), text=ltext("cmd.note.opt.text.description")
    )
    @app_commands.autocomplete(to=_nick_autocomplete("note"))
    async def note_command(
        self,
        interaction: discord.Interaction[Any],
        to: Nick,
        text: app_commands.Range[str, 1, 1500],
    ) -> None:
        await self._request(interaction, {"do": "note", "to": to, "text": text}, to=to)

    @app_commands.command(name="kill", description=ltext("cmd.kill.description"))
    @app_commands.describe(
        target=ltext("cmd.kill.opt.target.description"),
        second=ltext("cmd.kill.opt.second.description"),
    )
    @app_commands.autocomplete(target=_nick_autocomplete("kill"), second=_nick_autocomplete("kill"))
    async def kill_command(
        self, interaction: discord.Interaction[Any], target: Nick, second: Nick | None = None
    ) -> None:
        raw: dict[str, Any] = {"do": "kill"}
        if second is None:
            raw["target"] = target
        else:
            raw["targets"] = [target, second]
        shown = target if second is None else f"{target}, {second}"
        await self._request(interaction, raw, target=shown)

    @app_commands.command(name="check", description=ltext("cmd.check.description"))
    @app_commands.describe(target=ltext("cmd.check.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("check"))
    async def check_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "check", "target": target}, target=target)

    @app_commands.command(name="heal", description=ltext("cmd.heal.description"))
    @app_commands.describe(target=ltext("cmd.heal.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("heal"))
    async def heal_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "heal", "target": target}, target=target)

    @app_commands.command(name="inject", description=ltext("cmd.inject.description"))
    @app_commands.describe(target=ltext("cmd.inject.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("inject"))
    async def inject_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "inject", "target": target}, target=target)

    @app_commands.command(name="block", description=ltext("cmd.block.description"))
    @app_commands.describe(target=ltext("cmd.block.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("block"))
    async def block_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "block", "target": target}, target=target)

    @app_commands.command(name="slander", description=ltext("cmd.slander.description"))
    @app_commands.describe(target=ltext("cmd.slander.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("slander"))
    async def slander_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "slander", "target": target}, target=target)

    @app_commands.command(name="poison", description=ltext("cmd.poison.description"))
    @app_commands.describe(target=ltext("cmd.poison.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("poison"))
    async def poison_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "poison", "target": target}, target=target)

    @app_commands.command(name="shoot", description=ltext("cmd.shoot.description"))
    @app_commands.describe(target=ltext("cmd.shoot.opt.target.description"))
    @app_commands.autocomplete(target=_nick_autocomplete("shoot"))
    async def shoot_command(self, interaction: discord.Interaction[Any], target: Nick) -> None:
        await self._request(interaction, {"do": "shoot", "target": target}, target=target)


async def setup(bot: commands.Bot) -> None:
    from bot.client import MafiaBot

    assert isinstance(bot, MafiaBot)
    await bot.add_cog(PlayCog(bot))
