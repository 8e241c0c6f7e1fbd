"""A player's post (``GameService.queue_post``: ``/say``, ``/post``), the outbox kind
``post``: shown in #game through the bot's webhook, under his nickname (R6), once.

After a failed attempt #game is read first (a webhook takes no nonce) and a post found there is
not sent again. Once shown it counts (R52) and is archived, with its row marked sent, in one
write (``GameService.post_shown``). A bot that cannot post under nicknames there (no Manage
Webhooks, its webhook gone) drops it: the author is told, and the hosts, once.
"""

from __future__ import annotations

import logging

import discord

from bot.avatars import usable_avatar
from bot.delivery.outcomes import MARKED, POST_NO_WEBHOOK, POST_SHOWN, Done
from bot.delivery.router import ChannelMissing, slot_channel
from bot.embeds import Post
from bot.kinds import Sending
from bot.webhooks import split_message, webhook_username
from core.i18n import t
from core.quoting import quote_player_line
from db.models import PlayerRecord
from rules.announce import GHOSTS

log = logging.getLogger(__name__)


async def deliver_post(sending: Sending) -> bool | Done:
    """The post of the row, in #game's order (see the module's docstring)."""
    port, guild, settings, lang, row = (
        sending.port,
        sending.guild,
        sending.settings,
        sending.lang,
        sending.row,
    )
    payload = sending.payload
    channel = slot_channel(guild, settings, "game") if settings is not None else None
    if sending.audience == GHOSTS and settings is not None:  # R62: a ghost's, in his room
        channel = await port.ghost_room(sending)
        if channel is None:
            return True  # the game is over and its room is gone
    if channel is None:
        if settings is None:
            return False
        raise ChannelMissing("game")
    nick = str(payload.get("nick", ""))
    ghost = bool(payload.get("ghost"))
    seat = await _seat(sending, nick)
    # R6: a post never shows a real account, not even as a mention someone typed.
    body = discord.utils.escape_mentions(str(payload.get("text", "")))
    if seat is not None and seat.signature:
        body = f"{body}\n\n{quote_player_line(seat.signature)}"  # literal, never markup
    username = webhook_username(t(lang, "say.ghost_name", nick=nick) if ghost else nick)
    # R10: an avatar saved before the avatar checks and refused by them now is not worn.
    avatar = usable_avatar(seat.avatar_url if seat is not None else None)
    picture = await port.store.post_picture(row.id) if payload.get("picture") else None
    pieces = [Post(content=piece) for piece in split_message(body)]
    if picture is not None and not pieces:
        pieces = [Post()]  # a picture alone
    if not pieces:  # nothing left to show (its picture was dropped): done with
        log.warning("outbox row %s: a post with nothing to show", row.id)
        return True
    shown, refused = await port.post_as(
        channel, row.id, pieces, username=username, avatar_url=avatar, picture=picture
    )
    if refused is not None:
        if shown:  # a part is shown: the post stands as shown
            log.warning("outbox row %s: the rest of a post was refused: %s", row.id, refused)
        else:
            log.warning("outbox row %s: cannot post under a nickname: %s", row.id, refused)
            await _report_no_webhook(sending, channel)
            if picture is not None:  # dropped: the author posts it again after the repair
                await port.service.drop_post_pictures(row.id)
            port.post_outcome(row.id, POST_NO_WEBHOOK)
            return True
    await port.service.post_shown(
        row.id,
        row.game_id,
        row.turn,
        dict(payload),
        message_id=port.message_of(row.id),
    )
    if picture is not None:  # shown: its bytes are kept no longer (privacy, size)
        await port.service.drop_post_pictures(row.id)
    port.broken.discard((row.game_id, "webhook"))
    port.post_outcome(row.id, POST_SHOWN)
    return MARKED


async def _report_no_webhook(sending: Sending, channel: discord.TextChannel) -> None:
    port, row = sending.port, sending.row
    dest = (row.game_id, "webhook")
    if dest in port.broken:
        return
    port.broken.add(dest)
    text = t(sending.lang, "delivery.no_webhook", channel=channel.mention)
    await port.warn_hosts(sending.guild, sending.settings, sending.lang, row.game_id, text)


async def _seat(sending: Sending, nick: str) -> PlayerRecord | None:
    game_id = sending.row.game_id
    live = sending.port.service.live.get(game_id)
    if live is not None:
        seat = next((p for p in live.players if p.nick == nick), None)
        if seat is not None:
            return seat
    return await sending.port.store.player_by_nick(game_id, nick)
