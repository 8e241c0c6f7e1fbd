"""Anonymous posts in #game (R6): the bot's webhook posts under a nickname and avatar, and
never pings anyone.

:func:`split_message` is pure and cuts a long text into Discord-sized messages at line or word
boundaries. :class:`GameWebhooks` finds or creates the bot's webhook in a channel, caches it,
and recreates it once if someone deleted it.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from typing import Final

import discord

from bot.pictures import picture_file
from rules.text import is_blank

log = logging.getLogger(__name__)

MESSAGE_LIMIT: Final[int] = 2000
WEBHOOK_NAME: Final[str] = "Forum mafia"
#: Discord's limit on a webhook message's username.
USERNAME_LIMIT: Final[int] = 80


def split_message(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters.

    Cuts at the last line break that fits (when it leaves at least half a piece), else at the
    last space, else (a single word longer than ``limit``, like a long URL) inside the word.
    The whitespace at a cut is dropped, so no piece starts or ends with it; nothing else
    changes. A blank text gives no piece.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    pieces: list[str] = []
    rest = text.strip()
    while rest:
        if len(rest) <= limit:
            pieces.append(rest)
            break
        window = rest[: limit + 1]  # the character after the limit may be the separator
        line_break = window.rfind("\n")
        space = max(window.rfind(" "), window.rfind("\t"))
        if line_break >= limit // 2 or (line_break > 0 and space <= 0):
            cut = line_break  # a line break, unless it would leave a short piece
        elif space > 0:
            cut = space
        else:
            cut = limit
        piece = rest[:cut].rstrip()
        if piece:
            pieces.append(piece)
        rest = rest[cut:].lstrip()
    return pieces


def pack_lines(lines: list[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Whole ``lines`` joined into messages of at most ``limit`` characters, so that no line
    (a quoted death note: a code block) is cut in two; only a line longer than a whole
    message is cut, by :func:`split_message`."""
    messages: list[str] = []
    current = ""
    for line in lines:
        for part in [line] if len(line) <= limit else split_message(line, limit):
            if current and len(current) + 1 + len(part) > limit:
                messages.append(current)
                current = ""
            current = f"{current}\n{part}" if current else part
    if current:
        messages.append(current)
    return messages


#: Discord refuses a webhook username containing these words (any case), or equal to these.
FORBIDDEN_WORDS: Final[dict[str, re.Pattern[str]]] = {
    # Each letter also matches what a name checker reads as that letter (digits and signs);
    # the skeleton below has already turned look-alike letters into Latin ones.
    "discord": re.compile(r"d[i1l!|][s5$][c(][o0]rd"),
    "clyde": re.compile("c[l1i!|]yd[e3]"),
}
FORBIDDEN_NAMES: Final[frozenset[str]] = frozenset({"everyone", "here"})
#: Where a forbidden word is cut, and by what: "Disc·ord", "Cl·yde".
CUT_AFTER: Final[dict[str, int]] = {"discord": 4, "clyde": 2}
SEPARATOR: Final[str] = "\u00b7"
#: Letters of other scripts that read as Latin ones (Cyrillic, Greek, fullwidth is NFKC's).
_LOOKALIKES: Final[dict[str, str]] = {
    **dict(zip("аϲсԁеһіјӏоοօрԛѕտυуүхχνκкгɡ", "accdehijlooopqsuuyyxxvkkrg", strict=True)),
    "ı": "i",
    "ɩ": "i",
    "ι": "i",
    "ℓ": "l",
    "ǀ": "l",
    "ε": "e",
    "α": "a",
    "δ": "d",
}


def _skeleton(name: str) -> tuple[str, list[int]]:
    """``name`` as a name checker reads it (compatibility forms, no accents, no invisible
    characters, lower case, look-alike letters as Latin ones), and for each of its characters
    the index of the character of ``name`` it comes from."""
    out: list[str] = []
    origin: list[int] = []
    for index, ch in enumerate(name):
        for part in unicodedata.normalize("NFKD", ch).casefold():
            if unicodedata.category(part) in ("Mn", "Me", "Cf"):
                continue
            out.append(_LOOKALIKES.get(part, part))
            origin.append(index)
    return "".join(out), origin


def _defuse(name: str) -> str:
    """``name`` with every forbidden word cut by a visible separator ("Disc·ord")."""
    for _ in range(2 * len(name) + 1):
        skeleton, origin = _skeleton(name)
        found = next(
            ((word, m) for word, rx in FORBIDDEN_WORDS.items() if (m := rx.search(skeleton))),
            None,
        )
        if found is None:
            return name
        word, match = found
        at = origin[match.start() + CUT_AFTER[word]]  # the character after the cut
        if at <= origin[match.start()]:  # one character reads as the whole word: drop it
            name = name[: origin[match.start()]] + SEPARATOR + name[origin[match.end() - 1] + 1 :]
        else:
            name = name[:at] + SEPARATOR + name[at:]
    return SEPARATOR  # unreachable: each pass removes one match


def webhook_username(nickname: str) -> str:
    """A nickname (or the host's display name) as a webhook username Discord accepts, still
    recognisable: one line of 1 to 80 characters, no invisible characters, "discord" and
    "clyde" (in any case or look-alike spelling) cut by a middle dot ("Disc·ord"), and never
    "everyone" or "here" alone (those are quoted: «here»)."""
    visible = "".join(ch for ch in nickname if ch == "\u200d" or unicodedata.category(ch) != "Cf")
    name = _defuse(" ".join(visible.split()))[:USERNAME_LIMIT].strip()
    if _skeleton(name)[0] in FORBIDDEN_NAMES:
        name = f"«{name[: USERNAME_LIMIT - 2]}»"
    name = _defuse(name)
    return "?" if is_blank(name) else name  # nothing visible (a lone joiner, fillers)


class GameWebhooks:
    """The bot's webhook per channel, fetched or created once and then cached."""

    def __init__(self) -> None:
        self._by_channel: dict[int, discord.Webhook] = {}

    async def get(self, channel: discord.TextChannel) -> discord.Webhook:
        cached = self._by_channel.get(channel.id)
        if cached is not None:
            return cached
        me = channel.guild.me
        hook = next(
            (
                w
                for w in await channel.webhooks()
                if w.user is not None and w.user.id == me.id and w.token is not None
            ),
            None,
        )
        if hook is None:
            log.info("creating the webhook of #%s in guild %s", channel.name, channel.guild.id)
            hook = await channel.create_webhook(name=WEBHOOK_NAME)
        self._by_channel[channel.id] = hook
        return hook

    def forget(self, channel_id: int) -> None:
        self._by_channel.pop(channel_id, None)

    async def post(
        self,
        channel: discord.TextChannel,
        text: str,
        *,
        username: str,
        avatar_url: str | None = None,
        picture: tuple[str, bytes] | None = None,
    ) -> list[discord.WebhookMessage]:
        """Post ``text`` (split as needed) under ``username``, with no mention ever pinging;
        ``picture`` (a file name and its bytes) goes with the last piece, or alone."""
        pieces = split_message(text)
        if picture is not None and not pieces:
            pieces = [""]
        sent: list[discord.WebhookMessage] = []
        for index, piece in enumerate(pieces):
            last = picture if index == len(pieces) - 1 else None
            sent.append(await self._send(channel, piece, username, avatar_url, last))
        return sent

    async def _send(
        self,
        channel: discord.TextChannel,
        content: str,
        username: str,
        avatar_url: str | None,
        picture: tuple[str, bytes] | None = None,
    ) -> discord.WebhookMessage:
        for attempt in (1, 2):
            hook = await self.get(channel)
            try:
                return await hook.send(
                    content or discord.utils.MISSING,
                    username=webhook_username(username),
                    avatar_url=avatar_url or discord.utils.MISSING,
                    allowed_mentions=discord.AllowedMentions.none(),
                    file=picture_file(picture) if picture is not None else discord.utils.MISSING,
                    wait=True,
                )
            except discord.NotFound:
                # Someone deleted the webhook: forget it and create a new one, once.
                self.forget(channel.id)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")
