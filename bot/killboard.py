"""The mafia's kill board (R23, R36): one message per turn in the mafia's room, edited in
place as the kill requests change, with the line that says what they add up to ("Agreed:
Wren" / "The requests differ: no kill"). The decision is the rules' (`rules.killboard`); this
module only shows it.

Posted once per game and turn: its message id is kept in the store (``GameStore.kill_board``),
and before the first post a mark that it is being posted (`POSTING`). A board posted just
before a crash, whose id was not kept yet, is then found again in the room's latest messages
(the bot's own message with the turn's title) instead of being posted twice; a board someone
deleted is posted again. Refreshes coalesce: while one is waiting for the
game's board, another request does not queue a second edit (the waiting one shows the newest
state). A failure to show the board never fails the request: it is committed already, and
the next request's refresh shows the board again.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.delivery import NO_MENTIONS, Delivery
from bot.webhooks import MESSAGE_LIMIT
from core.i18n import Lang, t
from core.live import LiveGame
from db.interface import GameStore
from rules.killboard import AGREED, SPLIT, KillBoard, kill_board
from rules.model import Phase

log = logging.getLogger(__name__)

#: How many of the room's latest messages are read for a board whose id was not kept.
RECOVERY_LOOKBACK = 50
#: The id kept while a board is being posted (no message has id 0): found so after a crash,
#: the board is looked for in the room before it is posted again.
POSTING = 0


def board_title(lang: Lang, turn: int) -> str:
    return f"**{t(lang, 'mafia.board.title', turn=turn)}**"


def render_kill_board(lang: Lang, board: KillBoard) -> str:
    """The board's text: its title with the turn, each member's request, who has not sent
    one, the double kill (R36), and the status line (R23)."""
    lines = [board_title(lang, board.turn)]
    for by, named in board.requests:
        lines.append(t(lang, "mafia.agreement_line", nick=by, targets=", ".join(named)))
    if board.waiting:
        lines.append(t(lang, "mafia.board.waiting", players=", ".join(board.waiting)))
    if board.double:
        lines.append(t(lang, "mafia.board.double"))
    if board.status == AGREED:
        lines.append(t(lang, "mafia.board.agreed", targets=", ".join(board.targets)))
    elif board.status == SPLIT:
        lines.append(t(lang, "mafia.board.split"))
    else:
        lines.append(t(lang, "mafia.board.none"))
    text = "\n".join(lines)
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


class KillBoards:
    """Every game's board, shown in its mafia room."""

    def __init__(self, store: GameStore, delivery: Delivery) -> None:
        self.store = store
        self.delivery = delivery
        self._locks: dict[int, asyncio.Lock] = {}
        self._waiting: dict[int, bool] = {}
        #: (game, turn) -> the board's message id, as kept in the store (read once).
        self._ids: dict[tuple[int, int], int] = {}

    async def refresh(self, guild: discord.Guild, game: LiveGame, lang: Lang) -> None:
        """Show the game's board as it stands now (never raises for Discord's failures)."""
        if self._waiting.get(game.id):
            return  # a refresh is waiting already: it shows this request too
        self._waiting[game.id] = True
        lock = self._locks.setdefault(game.id, asyncio.Lock())
        try:
            await lock.acquire()
        finally:  # from here on, a new request queues a refresh of its own again
            self._waiting[game.id] = False
        try:
            await self._show(guild, game, lang)
        except discord.HTTPException as exc:
            log.warning("game %s: the kill board could not be shown (%s)", game.id, exc)
        finally:
            lock.release()

    async def _show(self, guild: discord.Guild, game: LiveGame, lang: Lang) -> None:
        state = game.engine.state
        if state.phase is not Phase.OPEN:
            return  # resolved meanwhile: the board of the turn stays as it was
        board = kill_board(state)
        text = render_kill_board(lang, board)
        room = await self.delivery.mafia_room(guild, game.id)
        if room is None:
            return
        key = (game.id, board.turn)
        message_id = self._ids.get(key)
        if message_id is None:
            message_id = await self.store.kill_board(game.id, board.turn)
        if message_id == POSTING:  # a post began and its id was never kept: look first
            found = await self._posted_before(room, board_title(lang, board.turn))
            if found is not None:
                await self.delivery.service.set_kill_board(game.id, board.turn, found.id)
                self._ids[key] = found.id
            message_id = found.id if found is not None else None
        elif message_id is None:  # the turn's first board: say so before posting it
            await self.delivery.service.set_kill_board(game.id, board.turn, POSTING)
        if message_id is not None:
            try:
                await room.get_partial_message(message_id).edit(
                    content=text, allowed_mentions=NO_MENTIONS
                )
                self._ids[key] = message_id
                return
            except discord.NotFound:
                pass  # deleted: posted again below
        message = await room.send(
            text, allowed_mentions=NO_MENTIONS, nonce=f"board-{game.id}-{board.turn}"
        )
        await self.delivery.service.set_kill_board(game.id, board.turn, message.id)
        self._ids[key] = message.id

    async def _posted_before(self, room: discord.Thread, title: str) -> discord.Message | None:
        """The turn's board among the room's latest messages (posted before a crash that
        kept no id), if it is there."""
        me = room.guild.me
        async for message in room.history(limit=RECOVERY_LOOKBACK):
            if (
                me is not None
                and message.author.id == me.id
                and message.content.startswith(title + "\n")
            ):
                return message
        return None
