"""The store's interface for what a host shapes at his table (part of
:class:`db.interface.GameStore`, whose contract every method keeps): the server's own setups
(presets), the ghosts' room's spectators (R62), and the substitutes, replacements and bars of
R60 and R63."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

from db.models import (
    Bar,
    Fence,
    OutboxItem,
    PlayerRecord,
    PresetRecord,
    Replacement,
    ReplaceRequest,
)

__all__ = ["Presets", "Spectators", "Substitutes"]


class Presets(Protocol):
    """A server's own named setups (``/mafia preset``), at most a limit per server. A name is
    stored as written and found by its key (``rules.names.name_key``: R44's comparison)."""

    async def save_preset(
        self, guild_id: int, name_key: str, name: str, roles: Sequence[str], *, limit: int
    ) -> bool:
        """Save (or replace) the server's preset of that key; True if it is new. Raises
        :class:`db.errors.PresetsFull` for a new one past ``limit`` (nothing saved)."""
        ...

    async def presets(self, guild_id: int) -> list[PresetRecord]:
        """The server's presets, by name."""
        ...

    async def preset_named(self, guild_id: int, name_key: str) -> PresetRecord | None:
        """The server's preset of that key, if any."""
        ...

    async def delete_preset(self, guild_id: int, name_key: str) -> bool:
        """Delete the server's preset of that key; False if there was none."""
        ...


class Spectators(Protocol):
    """The members who watch a game's ghosts' room (R62): a row stays when one stops watching,
    so that the game knows he has watched (he cannot stand by as a substitute, R60)."""

    async def set_spectator(
        self,
        game_id: int,
        user_id: int,
        watching: bool,
        *,
        turn: int = 0,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """He watches (or stops), and ``outbox_items`` are queued for ``turn``, in ONE
        transaction; False if that was so already (nothing written)."""
        ...

    async def spectators(self, game_id: int, *, ever: bool = False) -> list[int]:
        """The members watching now (``ever``: who watch or have watched), in the order they
        began."""
        ...


class Substitutes(Protocol):
    """Substitutes and reliability (R60, R63): the list of members standing by for a running
    game, the players' requests to be replaced, the replacements, and the server's bars."""

    async def stand_by(self, game_id: int, user_id: int, now: dt.datetime) -> str | None:
        """Put ``user_id`` on the game's substitutes' list (kept once, in order of standing
        by). Returns None when he stands by (now or already), else why not: ``no_game`` (the
        game is not running), ``playing`` (he holds a seat), ``replaced`` (he was replaced in
        this game and never comes back, R60)."""
        ...

    async def stand_down(self, game_id: int, user_id: int) -> bool:
        """Take ``user_id`` off the list; False if he was not on it."""
        ...

    async def substitutes(self, game_id: int) -> list[int]:
        """The members standing by, in order of standing by."""
        ...

    async def ask_replacement(
        self,
        game_id: int,
        user_id: int,
        reason: str | None,
        now: dt.datetime,
        outbox_items: Sequence[OutboxItem] = (),
    ) -> bool:
        """Keep the player's request to be replaced (a new one replaces his earlier one) and
        queue ``outbox_items`` (the hosts' notice) in the same transaction. Raises
        :class:`~db.errors.NotFound` if he holds no seat."""
        ...

    async def replace_requests(self, game_id: int) -> list[ReplaceRequest]:
        """The players' standing requests to be replaced, oldest first."""
        ...

    async def replace_player(
        self,
        game_id: int,
        nick: str,
        new_user_id: int,
        outbox_items: Sequence[OutboxItem] = (),
        *,
        previous_user_id: int | None = None,
        from_list: bool = False,
        fence: Fence | None = None,
        now: dt.datetime | None = None,
        sent_at: dt.datetime | None = None,
    ) -> PlayerRecord:
        """A substitute takes over ``nick`` (``/mafia replace``), in one transaction: the seat
        changes hands, the replacement is recorded (``replacements``), the substitute leaves
        the list and the replaced player's request is done; ``outbox_items`` are queued at the
        game's turn. Refused, writing nothing, by :class:`~db.errors.ReplacementRefused`: the
        seat is no longer ``previous_user_id``'s, or was handed over at or after ``sent_at``
        (when the host sent his command: two replacements of one player at once make one),
        the substitute holds a seat or was replaced in this game, or (``from_list``) he no longer
        stands by. Raises :class:`~db.errors.NotFound` for an unknown nick and
        :class:`~db.errors.StaleGame` if the game no longer matches ``fence``."""
        ...

    async def replacements(self, game_id: int) -> list[Replacement]:
        """The game's replacements, in order."""
        ...

    async def bar_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        until: dt.datetime | None,
        reason: str,
        actor_id: int,
        now: dt.datetime,
        table_id: int | None = None,
    ) -> Bar:
        """Bar ``user_id`` from signing up at the server's tables until ``until`` (None:
        until lifted), replacing an earlier bar; its audit row in the same transaction."""
        ...

    async def unbar_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        actor_id: int,
        now: dt.datetime,
        table_id: int | None = None,
    ) -> bool:
        """Lift the member's bar (audited); False if none was in force at ``now``."""
        ...

    async def bar_of(self, guild_id: int, user_id: int, now: dt.datetime) -> Bar | None:
        """The member's bar in force at ``now`` (an expired one is none)."""
        ...
