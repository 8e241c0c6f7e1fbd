"""An outbox kind: one record per kind (:class:`OutboxKind`), all of them declared in one table,
``bot/outbox_kinds.py``, and read by :func:`load` (once, before the first delivery or rendering).

The delivery (``bot/delivery/``) is generic: it routes a row to its channel (by audience),
renders it (by its kind's record) and sends it. Everything a kind is, is its record, never a
branch in the generic code:

- ``audience``: whom it is for (#game, the mafia's room, #host, the ghosts' room, a player);
- its rendering: ``text`` (the announcement's text), ``embeds`` (its messages as embeds), or
  ``console`` (a #host row's own text; ``server``: a notice of what changed on the server,
  ``bot/serverlife.py``); ``bot/render/outbox.py`` reads them;
- ``view``: the message's components (the pistol's menu, ``bot/pistol.py``; the draft's buttons,
  ``bot/review.py``);
- ``files``: the files of its first message, built only when it is sent (the end-of-game
  picture, ``bot/attachments.py``);
- ``prepare``: its payload completed from the server before rendering (the end links #mafia);
- ``private``: its private message's text, for a kind rendered from the live state instead of
  its payload (the role card, ``bot/render/players.py``);
- ``before`` / ``after``: side effects around the send (the mafia's room: a member let in
  before his welcome, let out after his farewell, locked after the end, ``bot/mafia_room.py``);
- ``deliver``: a delivery of its own instead of the bot's message (a player's post through the
  webhook, ``bot/delivery/player_posts.py``);
- ``joins``: its messages may share a message with those of the rows committed with it in its
  destination, where Discord's limits allow (the turn's results and the next turn's opening;
  ``bot/delivery/sender.py`` ``coalesce``).

The hooks receive a :class:`Sending`: the row, its game, server, table and language, and a
narrow :class:`KindPort` onto the delivery (the live games, the store, the rooms, telling the
hosts), never the delivery itself; this module imports nothing of ``bot/delivery/``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

import attrs
import discord

if TYPE_CHECKING:
    from bot.embeds import Post
    from bot.ghost_room import GhostRooms
    from bot.mafia_room import MafiaRooms
    from core.i18n import Lang
    from core.service import GameService
    from db.interface import GameStore
    from db.models import GameRecord, OutboxRecord, TableSettings

#: The audience of a kind whose rows go to one player's DMs (the row names him by nickname).
PLAYER: Final = "player"


class KindPort(Protocol):
    """What a kind's hooks may use of the delivery (``bot/delivery/port.py`` gives it)."""

    @property
    def service(self) -> GameService:
        """The live games (the role card, the pistol's menu) and what a post's showing records."""

    @property
    def store(self) -> GameStore: ...

    @property
    def kind_state(self) -> dict[str, Any]:
        """What the hooks keep between attempts, by their own keys."""

    @property
    def rooms(self) -> MafiaRooms:
        """The mafia's rooms: a member let in or out, the room locked at the end."""

    @property
    def ghost_rooms(self) -> GhostRooms: ...

    @property
    def broken(self) -> set[tuple[int, str]]:
        """The game's destinations whose hosts were told they are broken (told once)."""

    async def user_of(self, game_id: int, nick: str) -> int | None: ...

    async def ghost_room(self, sending: Sending) -> discord.TextChannel | None: ...

    async def tell_hosts(
        self, guild: discord.Guild, text: str, *, table_id: int | None = None
    ) -> bool: ...

    async def warn_hosts(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        lang: Lang,
        game_id: int | None,
        text: str,
    ) -> bool: ...

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
        """A player's post through the webhook (``Sender.post_as``): the pieces shown, and what
        refused the rest."""

    def message_of(self, row_id: int) -> int | None:
        """The last message the row posted."""

    def post_outcome(self, row_id: int, outcome: str) -> None:
        """What became of a post, for its author's answer."""


@attrs.define
class Sending:
    """One row being delivered, as the kind hooks see it."""

    port: KindPort
    guild: discord.Guild
    game: GameRecord
    settings: TableSettings | None
    lang: Lang
    row: OutboxRecord
    kind: str
    audience: str
    payload: Mapping[str, Any]
    #: Where it goes (a channel, the mafia's room, a DM channel), once routed.
    target: discord.abc.Messageable | None = None
    #: For a private message, the player's Discord user, once routed.
    user_id: int | None = None


TextRenderer = Callable[["Lang", Mapping[str, Any]], str]
PostsRenderer = Callable[["Lang", Mapping[str, Any]], "list[Post]"]
Hook = Callable[[Sending], Awaitable[None]]
#: A custom delivery: True (done with), False (waits) or ``MARKED`` (bot/delivery/outcomes.py).
Deliver = Callable[[Sending], Awaitable[Any]]


@attrs.frozen
class OutboxKind:
    """One outbox kind: its audience, its rendering and its hooks (see the module's
    docstring)."""

    name: str
    audience: str
    text: TextRenderer | None = None
    embeds: PostsRenderer | None = None
    console: TextRenderer | None = None
    server: bool = False
    view: Callable[[Sending], discord.ui.View | None] | None = None
    files: Callable[[Sending], Awaitable[list[discord.File]]] | None = None
    prepare: Callable[[Sending], Mapping[str, Any]] | None = None
    private: Callable[[Sending], str | None] | None = None
    deliver: Deliver | None = None
    before: tuple[Hook, ...] = ()
    after: tuple[Hook, ...] = ()
    joins: bool = False

    @property
    def coalesces(self) -> bool:
        """Its rows may share messages with their neighbours committed with them: it says
        so (``joins``) and adds nothing to its messages (no view, files, hooks)."""
        return self.joins and not (
            self.view or self.files or self.prepare or self.deliver or self.before or self.after
        )

    @property
    def rendered(self) -> bool:
        """It has a text of its own (else it is delivered without one: a player's post, a
        spectator's access)."""
        return bool(self.text or self.embeds or self.console or self.private)


#: The module declaring every kind (:data:`OUTBOX_KINDS` there), read by :func:`load`.
KINDS_MODULE: Final = "bot.outbox_kinds"
KINDS: dict[str, OutboxKind] = {}
_NONE: Final = OutboxKind("", "")


def table(kinds: Iterable[OutboxKind]) -> dict[str, OutboxKind]:
    """The kinds by name; a kind declared twice, or with neither a text nor a delivery of its
    own, is refused."""
    found: dict[str, OutboxKind] = {}
    for kind in kinds:
        if kind.name in found:
            raise ValueError(f"outbox kind {kind.name!r} is declared twice")
        if not (kind.rendered or kind.deliver):
            raise ValueError(f"outbox kind {kind.name!r} has no rendering and no delivery")
        found[kind.name] = kind
    return found


def load() -> dict[str, OutboxKind]:
    """Read :data:`KINDS_MODULE`'s table once (by name: the generic code imports no kind's
    module); every kind afterwards."""
    if not KINDS:
        declared: Sequence[OutboxKind] = importlib.import_module(KINDS_MODULE).OUTBOX_KINDS
        KINDS.update(table(declared))
    return KINDS


def lookup(kind: str) -> OutboxKind | None:
    """``kind``'s record, or None for a kind nobody declared."""
    return load().get(kind)


def entry(kind: str) -> OutboxKind:
    """``kind``'s record (an empty one, which adds nothing, for a kind nobody declared)."""
    return lookup(kind) or _NONE
