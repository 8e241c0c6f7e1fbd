"""Sending a row's messages once: nonces, the duplicate check, the bot's messages and the
webhook's, and rows committed together sharing messages.

A send whose answer was lost may have gone through. Every bot message carries a nonce derived
from its outbox row and piece (:func:`nonce_of`), which Discord enforces (discord.py sends
``enforce_nonce`` with it) for a few minutes; and before sending a row again after a failed
attempt, the bot reads the target's history after its last message known there (this process's,
or for a dead deliverer's row the last one the store recorded in that destination), through as
many pages as the players' posts since then fill (up to :data:`HISTORY_LIMIT` messages), and
skips the pieces it finds, so a retry long after the nonce window sends nothing twice either. A
webhook takes no nonce: a post is found the same way, by its nickname and text.

Rows of one destination committed in one transaction (the turn's results and the next turn's
opening) share messages where Discord's limits allow (:func:`coalesce`): the worker sends such a
group as one row (the first row's id names its nonces and its duplicate check) and marks every
row of it sent in one write, so a crash leaves the whole group pending or none of it, and the
group formed again after it is the same one.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import discord
from aiolimiter import AsyncLimiter

from bot.embeds import EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, Post, embed_size, post_text
from bot.pictures import with_files
from bot.webhooks import MESSAGE_LIMIT, GameWebhooks

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()

#: Discord's global limit: 50 requests per second per bot, over all routes but the
#: interactions' (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit).
GLOBAL_RATE: Final[float] = 49.0  # 50, less a margin for clocks
#: The most messages read after the last one known to be ours in a target, to find a piece
#: an attempt whose answer was lost did post (100 a page; read only after a failed attempt,
#: and only until every piece is found): a busy #game's posts of a long outage fit.
HISTORY_LIMIT: Final[int] = 2000
#: Clocks disagree a little: a message a bit older than the failed attempt still counts.
CLOCK_SLACK: Final[timedelta] = timedelta(seconds=30)

#: Failures that pass: Discord's 5xx and 429 (discord.py has retried already), timeouts and
#: lost connections. ``discord.Forbidden`` (a lost permission) is handled apart.
TRANSIENT: Final = (discord.HTTPException, discord.RateLimited, OSError, aiohttp.ClientError)

#: A target as the sender knows it: a user (his DM channel may not be open yet) or a channel.
TargetKey = tuple[str, int]


def target_key(target: discord.abc.Messageable) -> TargetKey:
    """A user (his DM channel may not be open yet) or a channel."""
    if isinstance(target, discord.abc.User):
        return ("user", target.id)
    return ("channel", getattr(target, "id", 0))


def nonce_of(row_id: int, piece: int) -> str:
    """The nonce of a piece of an outbox row: the same on every attempt (at most 25 chars)."""
    return f"mafia-{row_id}-{piece}"


def signature(post: Post) -> str:
    """What tells a sent message apart: its text and each embed's title, description and
    fields (Discord gives them back as sent)."""
    return post_text(post)


def seen_signature(message: discord.Message, files: bool) -> str:
    """A message read back from a channel's history, as :func:`signature` (with ``files``,
    with the names of its files as well: a picture post's)."""
    sig = signature(Post(content=message.content, embeds=tuple(message.embeds)))
    return with_files(sig, [a.filename for a in message.attachments]) if files else sig


def global_rate_trace(
    rate: float = GLOBAL_RATE,
    on_response: Callable[[int, Mapping[str, str]], None] | None = None,
) -> aiohttp.TraceConfig:
    """Keeps the bot's requests under Discord's global limit: give it to the client
    (``http_trace``) and every request made with the bot's token waits its turn in one
    :class:`aiolimiter.AsyncLimiter` (a leaky bucket, ``rate`` per second, no burst: Discord
    counts them over a second) just before it leaves, after discord.py's own wait on the
    route's bucket (it reads the ``X-RateLimit-*`` headers and waits on a 429). discord.py
    only learns the global limit from a 429 and then stops every request for a while; it
    never paces them. Interactions' answers and webhooks (no token) are not bound by it.
    ``on_response`` is told the status and headers of every answer (``bot/metrics.py``)."""
    limiter = AsyncLimiter(1, 1 / rate)

    async def pace(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if params.headers.get("Authorization", "").startswith("Bot "):
            await limiter.acquire()

    async def answered(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        if on_response is not None:  # the metrics (a 429 counted apart)
            on_response(params.response.status, params.response.headers)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(pace)
    trace.on_request_end.append(answered)
    return trace


def fits(post: Post) -> bool:
    """Whether one message can carry ``post``: 2,000 characters of text, ten embeds, 6,000
    characters of embeds (sandbox/contract/ checks the same)."""
    return (
        len(post.content) <= MESSAGE_LIMIT
        and len(post.embeds) <= EMBEDS_PER_MESSAGE
        and sum(embed_size(e) for e in post.embeds) <= EMBED_TOTAL_LIMIT
    )


def join(first: Post, second: Post) -> Post | None:
    """The two messages as one, in their order, or None when they do not fit in one (or
    cannot keep their order: a message shows its text above its embeds)."""
    if first.embeds and second.content:
        return None
    content = "\n".join(text for text in (first.content, second.content) if text)
    joined = Post(content=content, embeds=(*first.embeds, *second.embeds))
    return joined if fits(joined) else None


def coalesce(rows: Sequence[Sequence[Post]]) -> list[Post]:
    """The messages of consecutive rows for one destination, each row's last message joined
    with the next row's first where one message can carry both (:func:`join`); a row's own
    messages stay as its renderer laid them out. The same rows always give the same messages
    (the duplicate check of a retry finds them)."""
    out: list[Post] = []
    for posts in rows:
        rest = list(posts)
        if out and rest:
            joined = join(out[-1], rest[0])
            if joined is not None:
                out[-1] = joined
                rest = rest[1:]
        out.extend(rest)
    return out


class LeaseLost(Exception):
    """The row's lease was taken over by another deliverer (this one was thought dead): it
    sends nothing more of it, the other one does."""

    def __init__(self, row_id: int) -> None:
        super().__init__(f"outbox row {row_id}: its lease was taken over elsewhere")
        self.row_id = row_id


class Sender:
    """Sends rows' messages to their targets, each message once (nonces, the duplicate check).

    A row is known by its id (for a coalesced group, its first row's): :attr:`attempted` holds
    the rows whose last attempt failed (their target is read before sending again),
    :attr:`stored_marks` the last message the store recorded in a retaken row's destination
    before it, :attr:`row_messages` the last message each row posted."""

    def __init__(self, client: discord.Client, webhooks: GameWebhooks | None = None) -> None:
        self.client = client
        #: The anonymous posts' webhooks (the players' posts go out through the outbox too).
        self.webhooks = webhooks or GameWebhooks()
        #: Rows whose last attempt failed, with the time of their first failed attempt: they
        #: may have gone through, so their target's history is read before sending again.
        self.attempted: dict[int, datetime] = {}
        #: Per row being sent, the last message known to be ours in each of its targets.
        self._marks: dict[int, dict[TargetKey, int | None]] = {}
        self._last_sent: dict[TargetKey, int] = {}  # target -> our last message there
        #: Retaken rows (a dead deliverer's): the last message of their destination recorded
        #: in the store before them.
        self.stored_marks: dict[int, int] = {}
        #: Per row being sent, the last message it posted: recorded when it is marked sent.
        self.row_messages: dict[int, int] = {}
        #: Asked just before each message of a row goes out (the delivery's lease check):
        #: raises :class:`LeaseLost` if the row is no longer this deliverer's to send.
        self.guard: Callable[[int], Awaitable[None]] | None = None

    async def _guard(self, row_id: int) -> None:
        if self.guard is not None:
            await self.guard(row_id)

    def done(self, row_id: int) -> int | None:
        """Forget a row that is done with; the last message it posted."""
        self.attempted.pop(row_id, None)
        self._marks.pop(row_id, None)
        self.stored_marks.pop(row_id, None)
        return self.row_messages.pop(row_id, None)

    def _mark(self, row_id: int, key: TargetKey) -> int | None:
        """The target's last message known to be ours before this row: what a lost answer
        posted can only come after it (fixed at the row's first attempt)."""
        marks = self._marks.setdefault(row_id, {})
        if key not in marks:
            # This process's own last one there, or the one the store recorded before a
            # retaken row (the later).
            known = [m for m in (self._last_sent.get(key), self.stored_marks.get(row_id)) if m]
            marks[key] = max(known) if known else None
        return marks[key]

    def _posted(self, key: TargetKey, row_id: int, message_id: int) -> None:
        self._last_sent[key] = self.row_messages[row_id] = message_id

    async def send(
        self,
        target: discord.abc.Messageable,
        row_id: int,
        posts: Sequence[Post],
        *,
        view: discord.ui.View | None = None,
        files: Callable[[], Awaitable[list[discord.File]]] | None = None,
    ) -> None:
        """Send a row's messages (a view goes with a row of one message), each with its
        nonce, skipping the messages a failed attempt already posted. ``files`` builds the
        files of the first message, only when that message is sent (a retry that finds it
        posted already sends them no more)."""
        if view is not None and len(posts) > 1:  # the view's prompt is one message
            posts = [Post(content="\n".join(post_text(p) for p in posts))]
        key = target_key(target)
        mark = self._mark(row_id, key)
        first = 0
        attempted = self.attempted.get(row_id)
        if attempted is not None:
            first, found = await self.already_sent(target, posts, mark, attempted)
            if found is not None:
                self._posted(key, row_id, found)
        for index in range(first, len(posts)):
            post = posts[index]
            extra: dict[str, Any] = {"view": view} if view is not None else {}
            if post.embeds:
                extra["embeds"] = list(post.embeds)
            attached = await files() if index == 0 and files is not None else []
            if attached:
                extra["files"] = attached
            await self._guard(row_id)
            message = await target.send(
                post.content or None,
                nonce=nonce_of(row_id, index),
                allowed_mentions=NO_MENTIONS,
                **extra,
            )
            self._posted(key, row_id, message.id)

    async def post_as(
        self,
        channel: discord.TextChannel,
        row_id: int,
        pieces: Sequence[Post],
        *,
        username: str,
        avatar_url: str | None,
        picture: tuple[str, bytes] | None = None,
    ) -> tuple[int, discord.Forbidden | None]:
        """A player's post through the game's webhook, under ``username``, once: after a
        failed attempt the channel is read first (a webhook takes no nonce) and the pieces
        found there are not sent again. ``picture`` (a file name and its bytes) goes with the
        last piece (the duplicate check knows it by its name). Returns how many pieces are
        shown, with Discord's refusal if it refused one (the bot cannot post under nicknames
        there); raises any other failure."""
        names: list[list[str]] = [[] for _ in pieces]
        if picture is not None and names:
            names[-1] = [picture[0]]
        key = target_key(channel)
        mark = self._mark(row_id, key)
        shown = 0
        attempted = self.attempted.get(row_id)
        if attempted is not None:

            def ours(message: discord.Message) -> bool:
                return message.webhook_id is not None and message.author.name == username

            shown, found = await self.already_sent(channel, pieces, mark, attempted, ours, names)
            if found is not None:
                self._posted(key, row_id, found)
        try:
            for index in range(shown, len(pieces)):
                await self._guard(row_id)  # a webhook takes no nonce: a post sent twice shows
                [message] = await self.webhooks.post(
                    channel,
                    pieces[index].content,
                    username=username,
                    avatar_url=avatar_url,
                    picture=picture if names[index] else None,
                )
                self._posted(key, row_id, message.id)
                shown += 1
        except discord.Forbidden as exc:
            return shown, exc
        return shown, None

    async def already_sent(
        self,
        target: discord.abc.Messageable,
        posts: Sequence[Post],
        mark: int | None,
        since: datetime,
        mine: Callable[[discord.Message], bool] | None = None,
        files: Sequence[Sequence[str]] | None = None,
    ) -> tuple[int, int | None]:
        """How many of the first ``posts`` the bot already posted to ``target`` after its
        message ``mark`` (or, unknown, since shortly before ``since``), read from the
        target's history after it, page after page (however many players posted meanwhile,
        up to :data:`HISTORY_LIMIT` messages, newest first down to the mark): a message is
        recognised by its author (``mine``; by default the bot itself) and its signature
        (text and embeds, as text; with ``files``, the names of each post's files too); with
        the last of them found (its id: what the row
        posted, kept with it when it is marked sent)."""
        if mine is None:
            me = self.client.user
            if me is None:
                return 0, None
            me_id = me.id

            def mine(message: discord.Message) -> bool:
                return message.author.id == me_id

        after: discord.abc.Snowflake | datetime = (
            discord.Object(mark) if mark is not None else since - CLOCK_SLACK
        )
        found = [
            (seen_signature(message, files is not None), message.id)
            async for message in target.history(
                limit=HISTORY_LIMIT, after=after, oldest_first=False
            )
            if mine(message)
        ]
        found.reverse()  # oldest first
        done, last = 0, None
        for index, post in enumerate(posts):  # the messages go out in order: a prefix
            sig = signature(post) if files is None else with_files(signature(post), files[index])
            at = next((i for i, (seen, _id) in enumerate(found) if seen == sig), None)
            if at is None:
                break
            last = found[at][1]
            found = found[at + 1 :]
            done += 1
        if done:
            log.info("%d message(s) were already posted by an attempt whose answer was lost", done)
        return done, last
