"""The transcript: every message the demo shows, public (``#game``) and, with ``--host-view``,
private (replies, DMs, ``#host``, the mafia's room), printed as a Discord client shows it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TextIO

from simcord import ChannelHandle, Env

from core.i18n import Lang

_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_USER = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
#: A masked link to a Discord message (a quote's "to the post"): a client shows its text.
_MESSAGE_LINK = re.compile(r"\[([^\]\n]+)\]\(<?https://discord\.com/channels/[\d/@me]+>?\)")


class Transcript:
    """Prints every new message of the watched channels, oldest first, as a client shows it.

    Public view: ``#game`` only. Host view: also the mafia's room (a private thread in
    ``#mafia``), ``#host``, ``#discussion``, the lobby, every DM, and the private replies to the
    players' requests, each line prefixed with where it was seen. A message of the mafia's
    room edited in place (the kill board, R23) is printed again as it reads after the edit,
    marked ``(edited)``. A link to a message shows as its text (``[to the post]``), a player's
    picture as ``[file: picture.jpg]``. Reads SimCord's message
    store directly (``env.backend``, not public API) because converting the whole history on
    every step would be quadratic.
    """

    def __init__(
        self, env: Env, out: TextIO, *, host_view: bool, lang: Lang, labelled: bool = False
    ) -> None:
        self.env = env
        self.lang = lang
        self.out = out
        self.host_view = host_view
        #: Every line names where it was seen (the host view, or several tables' #game).
        self.labelled = host_view or labelled
        self.seen: set[int] = set()
        self.channels: dict[int, str] = {}  # watched channel id -> label
        self.parents: dict[int, str] = {}  # channel id -> label, whose threads are watched
        self.nick_of: dict[int, str] = {}  # user id -> nickname, for the host view's labels
        #: What was printed of each message whose edits are shown (the mafia's room).
        self.printed: dict[int, tuple[str, ...]] = {}

    def watch(self, channel: ChannelHandle, label: str) -> None:
        self.channels[channel.id] = label

    def watch_threads(self, channel: ChannelHandle, label: str) -> None:
        """Every thread of ``channel``, as ``label/<thread name>`` (the mafia's room: the bot
        opens a private thread in #mafia for each game)."""
        self.parents[channel.id] = label

    def say(self, line: str) -> None:
        """A line of the demo's own narration (never game information)."""
        self.out.write(line + "\n")
        self.out.flush()

    def hide_new_replies(self) -> None:
        """Mark the private replies just given as seen (a player looking at /role, /status)."""
        for channel_id, _label in self._watched():
            for message_id, message in self._messages(channel_id).items():
                if message_id not in self.seen and message.is_ephemeral:
                    self.seen.add(message_id)

    def flush(self) -> None:
        new: list[tuple[int, str, Any]] = []
        edited: list[tuple[int, str, Any]] = []
        shown = self.edits_shown if self.parents else set()
        for channel_id, label in self._watched():
            edits = channel_id in shown
            for message_id, message in self._messages(channel_id).items():
                if message_id in self.seen:
                    if edits and self.printed.get(message_id) != self._parts(message):
                        self.printed[message_id] = self._parts(message)
                        edited.append((message_id, label, message))
                    continue
                if edits:
                    self.printed[message_id] = self._parts(message)
                if message.is_ephemeral and not self.host_view:
                    continue
                self.seen.add(message_id)
                where = label
                if message.is_ephemeral:
                    where = self._user_label(self._reply_user(message), "reply to")
                new.append((message_id, where, message))
        for _id, label, message in sorted(new, key=lambda item: item[0]):
            self._print(label, message)
        for _id, label, message in sorted(edited, key=lambda item: item[0]):
            self._print(label, message, edited=True)

    # -- internals ---------------------------------------------------------------------------
    def _messages(self, channel_id: int) -> dict[int, Any]:
        messages: dict[int, Any] = self.env.backend.messages.get(channel_id, {})
        return messages

    @property
    def edits_shown(self) -> set[int]:
        """The channels whose messages are printed again when edited: the watched threads."""
        return {
            channel.id
            for channel in list(self.env.backend.channels.values())
            if channel.is_thread and channel.parent_id in self.parents
        }

    def _watched(self) -> Iterable[tuple[int, str]]:
        yield from self.channels.items()
        if self.parents:
            for channel in list(self.env.backend.channels.values()):
                if channel.is_thread and channel.parent_id in self.parents:
                    yield channel.id, f"{self.parents[channel.parent_id]}/{channel.name}"
        if self.host_view:
            dms: dict[int, int] = self.env.backend.dm_channels
            for user_id, channel_id in dms.items():
                yield channel_id, self._user_label(user_id, "DM")

    def _reply_user(self, message: Any) -> int:
        meta = message.interaction_metadata or {}
        return int((meta.get("user") or {}).get("id") or 0)

    def _user_label(self, user_id: int, kind: str) -> str:
        user = self.env.backend.users.get(user_id)
        name = user.name if user is not None else str(user_id)
        nick = self.nick_of.get(user_id)
        return f"{kind} {nick} ({name})" if nick else f"{kind} {name}"

    def _author(self, message: Any) -> str:
        if message.author_name:
            return str(message.author_name)
        user = self.env.backend.users.get(message.author_id)
        if user is None:
            return "?"
        return str(user.global_name or user.name)

    def _parts(self, message: Any) -> tuple[str, ...]:
        """A message's content and each embed's text, as printed; a player's post also names
        its files (a picture). The bot's own files (the final announcement's archive and
        picture) are left out: they are named by the game's id, which the demo does not
        print."""
        parts = [message.content] if message.content else []
        parts += [render_embed(embed) for embed in message.embeds]
        if message.attachments and message.author_name in self.nick_of.values():
            names = (str(a.get("filename", "")) for a in message.attachments)
            parts.append(" ".join(f"[file: {name}]" for name in names))
        return tuple(parts)

    def _print(self, label: str, message: Any, *, edited: bool = False) -> None:
        author = self._author(message) + (" (edited)" if edited else "")
        self.print_message(label, author, self._parts(message), ephemeral=message.is_ephemeral)

    def print_message(
        self, label: str, author: str, parts: Sequence[str], *, ephemeral: bool = False
    ) -> None:
        """A message (its content and each embed's text, as ``parts``) as a client shows it."""
        rendered = [self._render(part) for part in parts]
        lines = "\n".join(p for p in rendered if p).splitlines() or [""]
        head = f"{author}: {lines[0]}"
        rest = [f"  {line}" for line in lines[1:]]
        if ephemeral:
            head = lines[0]
            rest = [f"  {line}" for line in lines[1:]]
        if self.labelled:
            text = "\n".join(f"[{label}] {line}" for line in (head, *rest))
        else:
            text = "\n".join((head, *rest))
        self.out.write(text + "\n")
        self.out.flush()

    def _render(self, text: str) -> str:
        now = self.env.now()

        def stamp(m: re.Match[str]) -> str:
            moment = datetime.fromtimestamp(int(m[1]), UTC)
            if m[2] == "R":
                return _relative(moment - now, self.lang)
            return moment.strftime("%Y-%m-%d %H:%M UTC")

        def user(m: re.Match[str]) -> str:
            found = self.env.backend.users.get(int(m[1]))
            return "@" + (str(found.global_name or found.name) if found else "unknown-user")

        def channel(m: re.Match[str]) -> str:
            found = self.env.backend.channels.get(int(m[1]))
            return "#" + (str(found.name) if found is not None else "unknown")

        text = _TIMESTAMP.sub(stamp, text)
        text = _MESSAGE_LINK.sub(r"[\1]", text)
        text = _ROLE.sub("@role", text)
        text = _USER.sub(user, text)
        return _CHANNEL.sub(channel, text)


def _relative(delta: timedelta, lang: Lang) -> str:
    """Discord's relative timestamp, as a client in ``lang`` shows it (rounded)."""
    seconds = delta.total_seconds()
    minutes = round(abs(seconds) / 60)
    if minutes < 90:
        amount = f"{minutes} min" if lang == "en" else f"{minutes} мин"
    elif minutes < 48 * 60:
        amount = f"{round(minutes / 60)} h" if lang == "en" else f"{round(minutes / 60)} ч"
    else:
        days = round(minutes / 1440)
        amount = f"{days} days" if lang == "en" else f"{days} дн."
    if lang == "ru":
        return f"через {amount}" if seconds >= 0 else f"{amount} назад"
    return f"in {amount}" if seconds >= 0 else f"{amount} ago"


def render_embed(embed: dict[str, Any]) -> str:
    lines = [str(embed[key]) for key in ("title", "description") if embed.get(key)]
    for field in embed.get("fields") or ():
        name, value = str(field.get("name", "")), str(field.get("value", ""))
        if "\n" in value:  # a list: its name, then one indented line per item
            lines += [f"{name}:", *(f"  {item}" for item in value.splitlines())]
        else:
            lines.append(f"{name}: {value}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(str(footer))
    return "\n".join(lines)
