"""What each outbox kind adds to its delivery, registered by the module the kind belongs to.

The delivery (``bot/delivery/``) is generic: it routes a row to its channel (by audience), renders
it (``bot/render.py``'s tables, by kind) and sends it. What one kind needs beyond that is an
entry here, declared where the kind lives, never a branch in the generic code:

- ``view``: the message's components (the pistol's menu, ``bot/pistol.py``; the draft's buttons,
  ``bot/review.py``);
- ``files``: the files of its first message, built only when it is sent (the end-of-game
  picture, ``bot/attachments.py``);
- ``prepare``: its payload completed from the server before rendering (the end links #mafia);
- ``private``: its private message's text, for a kind rendered from the live state instead of
  its payload (the role card, ``bot/render.py``);
- ``before`` / ``after``: side effects around the send (the mafia's room: a member let in
  before his welcome, let out after his farewell, locked after the end, ``bot/mafia_room.py``);
- ``deliver``: a delivery of its own instead of the bot's message (a player's post through the
  webhook, ``bot/delivery/player_posts.py``);
- ``joins``: its messages may share a message with those of the rows committed with it in its
  destination, where Discord's limits allow (the turn's results and the next turn's opening,
  ``bot/render.py``; ``bot/delivery/sender.py`` ``coalesce``).

Several modules may register hooks for one kind: their hooks add up (in import order), a
second ``view``, ``files``, ``prepare``, ``private`` or ``deliver`` replaces none (refused).
:func:`load` imports the modules of :data:`KIND_MODULES` (by name: the generic code imports no
kind's module) once, before the first delivery.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs
import discord

if TYPE_CHECKING:
    from bot.delivery.worker import Delivery
    from core.i18n import Lang
    from db.models import GameRecord, OutboxRecord, TableSettings


@attrs.define
class Sending:
    """One row being delivered, as the kind hooks see it."""

    delivery: Delivery
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


Hook = Callable[[Sending], Awaitable[None]]
#: A custom delivery: True (done with), False (waits) or the ``MARKED`` of bot/delivery/worker.
Deliver = Callable[[Sending], Awaitable[Any]]


@attrs.define
class KindEntry:
    """What a kind adds to its delivery (see the module's docstring)."""

    view: Callable[[Sending], discord.ui.View | None] | None = None
    files: Callable[[Sending], Awaitable[list[discord.File]]] | None = None
    prepare: Callable[[Sending], Mapping[str, Any]] | None = None
    private: Callable[[Sending], str | None] | None = None
    deliver: Deliver | None = None
    before: list[Hook] = attrs.Factory(list)
    after: list[Hook] = attrs.Factory(list)
    joins: bool = False

    @property
    def coalesces(self) -> bool:
        """Its rows may share messages with their neighbours committed with them: it says
        so (``joins``) and adds nothing to its messages (no view, files, hooks)."""
        return self.joins and not (
            self.view or self.files or self.prepare or self.deliver or self.before or self.after
        )


KINDS: dict[str, KindEntry] = {}
_NONE: Final = KindEntry()

#: The modules declaring kind entries, imported by :func:`load`.
KIND_MODULES: Final[tuple[str, ...]] = (
    "bot.pistol",
    "bot.review",
    "bot.attachments",
    "bot.mafia_room",
    "bot.ghost_room",
    "bot.render",
    "bot.delivery.player_posts",
)


def register(
    kind: str,
    *,
    view: Callable[[Sending], discord.ui.View | None] | None = None,
    files: Callable[[Sending], Awaitable[list[discord.File]]] | None = None,
    prepare: Callable[[Sending], Mapping[str, Any]] | None = None,
    private: Callable[[Sending], str | None] | None = None,
    deliver: Deliver | None = None,
    before: Hook | None = None,
    after: Hook | None = None,
    joins: bool = False,
) -> None:
    """Add to ``kind``'s entry (a module registers at import)."""
    entry = KINDS.setdefault(kind, KindEntry())
    entry.joins = entry.joins or joins
    for name, value in (
        ("view", view),
        ("files", files),
        ("prepare", prepare),
        ("private", private),
        ("deliver", deliver),
    ):
        if value is None:
            continue
        if getattr(entry, name) not in (None, value):
            raise ValueError(f"kind {kind!r} has a {name} already")
        setattr(entry, name, value)
    for hooks, hook in ((entry.before, before), (entry.after, after)):
        if hook is not None and hook not in hooks:
            hooks.append(hook)


def entry(kind: str) -> KindEntry:
    """``kind``'s entry (an empty one for a kind nobody registered)."""
    return KINDS.get(kind, _NONE)


_loaded = False


def load() -> None:
    """Import every module of :data:`KIND_MODULES` (they register their kinds)."""
    global _loaded
    if _loaded:
        return
    for name in KIND_MODULES:
        importlib.import_module(name)
    _loaded = True
