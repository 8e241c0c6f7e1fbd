"""Substitutes and reliability (R60, R63): standing by, asking to be replaced, the replacement
itself, and the hosts' bars on signing up. Part of :class:`core.service.GameService`.

What may race (two hosts replacing one player, a replacement and the deadline, a substitute
leaving the list or the server, another process, a restart in between) is decided in the
store's transaction (``db/ops/substitutes.py``): the nickname's holder must still be the one
the host saw, the substitute holds no seat and was never replaced in the game; the game's fence
makes a replacement decided on a game another process resolved meanwhile be decided again on
the reloaded game (a player who died at that deadline is no longer replaced).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Final

import attrs

from core.live import LiveGame
from core.quoting import quote_player_line
from core.service_base import ServiceBase, ServiceError, audited, items
from db.errors import NotFound, ReplacementRefused
from db.models import Bar, PlayerRecord
from rules.announce import HOST, Announcement, replacement_announcements
from rules.names import find_name, public_order

#: The store's refusals of a replacement (``db.errors.ReplacementRefused``) and their texts.
REPLACE_REFUSALS: Final[Mapping[str, str]] = {
    "seat_changed": "error.replace_seat_changed",
    "playing": "error.already_playing",
    "replaced": "error.replace_replaced",
    "left_list": "error.replace_left_list",
}

#: The longest bar a host gives in days (longer: until lifted).
MAX_BAR_DAYS = 3650


@attrs.frozen
class SubsList:
    """``/mafia subs``: the members standing by (in order of standing by, R60) and the
    nicknames whose players asked to be replaced (in the public order), with their reasons."""

    standing: tuple[int, ...]
    asked: tuple[tuple[str, str | None], ...]


def barred_refusal(bar: Bar) -> ServiceError:
    """R63: what a barred member is told, with the host's reason and until when."""
    reason = quote_player_line(bar.reason)  # the host's words, never the bot's voice
    if bar.until is None:
        return ServiceError("error.barred", reason=reason)
    return ServiceError(
        "error.barred_until", reason=reason, until=f"<t:{int(bar.until.timestamp())}:f>"
    )


class SubstituteService(ServiceBase):
    """R60's list, requests and replacements; R63's bars."""

    # --- the list ----------------------------------------------------------------------------

    async def _why_not_substitute(self, game: LiveGame, user_id: int) -> str | None:
        """A refusal key (or None) for a member who may not stand by or be seated as a
        substitute for reasons of other parts of the game: R62's ghosts' room (a member who
        watches or watched it knows what the dead know)."""
        if user_id in await self.store.spectators(game.id, ever=True):
            return "error.substitute_watched"
        return None

    async def stand_by(self, table_id: int, user_id: int) -> LiveGame:
        """``/standby``: on the running game's list (kept once). Refused: no running game, a
        player of it, a member replaced in it (R60), a barred member (R63)."""
        game = self.running(table_id)
        why = await self._why_not_substitute(game, user_id)
        if why is not None:
            raise ServiceError(why)
        bar = await self.bar_of(game.record.guild_id, user_id)  # R63: no sign-up, no standing by
        if bar is not None:
            raise barred_refusal(bar)
        refused = await self.store.stand_by(game.id, user_id, self.clock())
        if refused is not None:
            raise ServiceError(
                {
                    "no_game": "error.no_running_game",
                    "playing": "error.standby_playing",
                    "replaced": "error.standby_replaced",
                }[refused]
            )
        return game

    async def stand_down(self, table_id: int, user_id: int) -> LiveGame:
        """``/standby off``: off the list; refused if he was not on it."""
        game = self.running(table_id)
        if not await self.store.stand_down(game.id, user_id):
            raise ServiceError("error.not_standing_by")
        return game

    async def is_standing_by(self, game_id: int, user_id: int) -> bool:
        """Whether ``user_id`` is on the game's substitutes' list (R62 asks)."""
        return user_id in await self.store.substitutes(game_id)

    async def substitutes_of(self, table_id: int) -> SubsList:
        """``/mafia subs``: the list and the players' requests to be replaced."""
        game = self.running(table_id)
        standing = await self.store.substitutes(game.id)
        asked: dict[str, str | None] = {}
        for request in await self.store.replace_requests(game.id):
            nick = game.nick_of(request.user_id)
            if nick is not None:
                asked[nick] = request.reason
        return SubsList(tuple(standing), tuple((n, asked[n]) for n in public_order(asked)))

    # --- a player's request ------------------------------------------------------------------

    async def ask_replacement(self, table_id: int, user_id: int, reason: str | None) -> str:
        """``/replaceme``: kept, and the hosts told in #host in the same transaction. Returns
        the player's nickname. Refused for a member who holds no living seat."""
        game = self.running(table_id)
        nick = game.nick_of(user_id)
        if nick is None:
            raise ServiceError("error.not_a_player")
        if not game.engine.state.players[nick].alive:
            raise ServiceError("error.replaceme_dead")
        payload = {"nick": nick, **({"reason": reason} if reason else {})}
        notice = Announcement("replace_asked", HOST, payload)
        try:
            await self.store.ask_replacement(
                game.id, user_id, reason, self.clock(), items([notice])
            )
        except NotFound:  # replaced meanwhile
            raise ServiceError("error.not_a_player") from None
        return nick

    # --- the replacement ---------------------------------------------------------------------

    async def first_substitute(
        self, table_id: int, present: Callable[[int], bool] = lambda _user: True
    ) -> int:
        """The first member standing by who is still on the server (``present``); those who
        are not leave the list. Refused when nobody stands by."""
        game = self.running(table_id)
        for user_id in await self.store.substitutes(game.id):
            if present(user_id):
                return user_id
            await self.store.stand_down(game.id, user_id)
        raise ServiceError("error.no_substitutes")

    async def replace(
        self,
        table_id: int,
        actor_id: int,
        nick: str,
        new_user_id: int,
        *,
        from_list: bool = False,
        sent_at: datetime | None = None,
    ) -> tuple[int | None, PlayerRecord]:
        """`/mafia replace`: a substitute takes over a living nickname (R60), with its role
        card, its requests, its note and its missed votes (all kept by nickname). Returns the
        previous member and the new seat. The holder the host saw is read now, before waiting
        for the game: of two replacements of one player at once, the second finds the seat
        changed and is refused. ``from_list``: the substitute is the first standing by, and
        must still be. ``sent_at``: when the host sent the command; a replacement of the same
        nickname committed since then (another host's, at once) refuses this one. The same
        replacement again (a retry whose answer was lost) changes and
        queues nothing more."""
        game = self.running(table_id)
        found = find_name(game.engine.state.players, nick)  # R44: the exact rule
        if found is None:
            raise ServiceError("error.unknown_nick", nick=nick)
        nick = found
        expected = game.user_of(nick)

        async def decide() -> tuple[int | None, PlayerRecord]:
            async with game.lock, self._store_is_the_truth(game):
                self._still_live(game)
                previous = game.user_of(nick)
                if previous == new_user_id:  # a retry once the seat had changed: done already
                    record = next(p for p in game.players if p.nick == nick)
                    return previous, record
                if previous != expected:  # handed over while this command waited
                    raise ServiceError("error.replace_seat_changed", nick=nick)
                if not game.engine.state.players[nick].alive:
                    raise ServiceError("error.replace_dead", nick=nick)
                why = await self._why_not_substitute(game, new_user_id)
                if why is not None:
                    raise ServiceError(why)
                args = {"nick": nick, "user_id": new_user_id}
                audit, spec = audited(actor_id, "replace", args)
                # #game: the nickname, never a member; the mafia's room follows the seat
                # (the notice names the replaced member for the delivery, never in its text).
                notices = [
                    attrs.evolve(a, payload={**a.payload, "previous": previous})
                    if a.kind == "mafia_seat"
                    else a
                    for a in replacement_announcements(game.engine.state, nick)
                ]
                try:
                    record = await self.store.replace_player(
                        game.id,
                        nick,
                        new_user_id,
                        items([audit, *notices], spec),
                        previous_user_id=previous,
                        from_list=from_list,
                        fence=game.fence(),
                        now=self.clock(),
                        sent_at=sent_at,
                    )
                except ReplacementRefused as refused:
                    if refused.code == "seat_changed":  # another process's: see it now
                        game.players = await self.store.players(game.id)
                    raise ServiceError(REPLACE_REFUSALS[refused.code], nick=nick) from None
                game.players = await self.store.players(game.id)
                return previous, record

        return await self._retry_stale(decide)

    # --- bars (R63) --------------------------------------------------------------------------

    async def bar(
        self,
        guild_id: int,
        actor_id: int,
        user_id: int,
        *,
        days: int | None,
        reason: str,
        table_id: int | None = None,
    ) -> Bar:
        """``/mafia bar``: the member may not sign up at the server's tables for ``days``
        (None: until lifted); in the audit log."""
        if days is not None and not 1 <= days <= MAX_BAR_DAYS:
            raise ServiceError("error.bad_bar_days", maximum=MAX_BAR_DAYS)
        now = self.clock()
        until = now + timedelta(days=days) if days is not None else None
        return await self.store.bar_member(
            guild_id,
            user_id,
            until=until,
            reason=reason,
            actor_id=actor_id,
            now=now,
            table_id=table_id,
        )

    async def unbar(
        self, guild_id: int, actor_id: int, user_id: int, *, table_id: int | None = None
    ) -> None:
        """``/mafia unbar``: lifted (audited); refused if no bar is in force."""
        lifted = await self.store.unbar_member(
            guild_id, user_id, actor_id=actor_id, now=self.clock(), table_id=table_id
        )
        if not lifted:
            raise ServiceError("error.not_barred")

    async def bar_of(self, guild_id: int, user_id: int) -> Bar | None:
        """The member's bar in force now, by the service's clock."""
        return await self.store.bar_of(guild_id, user_id, self.clock())

    async def ensure_not_barred(self, guild_id: int, user_id: int) -> None:
        """R63: refuse a barred member's sign-up, with the reason and until when."""
        bar = await self.bar_of(guild_id, user_id)
        if bar is not None:
            raise barred_refusal(bar)
