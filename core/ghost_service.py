"""The ghosts' room's spectators (R62): a member who does not play may watch the room of a game
that allows it (``/spectate``), and stop (``/spectate off``). Part of
:class:`core.service.GameService`.

Watching is a row of the store (``spectators``) and a ``ghost_watch`` row of the outbox that
gives or takes his access to the room, committed together (exactly once, across restarts: the
delivery sets his access when it sends the row). A member who watches or has watched a game
cannot stand by as its substitute (R60): ``/standby`` asks :meth:`GhostService.has_watched`.
A member standing by cannot watch: the caller passes the substitutes' ids
(``standing_by``).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.ghosts import has_ghost_room, spectate_refusal, watch_announcement
from core.live import LiveGame
from core.service_base import ServiceBase, ServiceError, items


class GhostService(ServiceBase):
    """``/spectate`` and what the substitutes ask of it."""

    async def spectate(
        self,
        table_id: int,
        user_id: int,
        watching: bool = True,
        *,
        standing_by: Iterable[int] = (),
    ) -> LiveGame:
        """He watches the table's running game's ghosts' room (``watching``) or stops.
        Refused, privately, changing nothing: no running game, no room or no spectators in
        it, he plays in it, he stands by as its substitute (``standing_by``), he watches
        already, or does not."""
        game = self.running(table_id)
        async with game.lock:
            self._still_live(game)
            if watching:
                # R60, R62: a substitute standing by may not learn what the dead know.
                waiting = {*standing_by, *await self.store.substitutes(game.id)}
                refusal = spectate_refusal(
                    game.record,
                    user_id,
                    players=[p.user_id for p in game.players],
                    standing_by=waiting,
                )
                if refusal is not None:
                    raise ServiceError(refusal)
            elif not has_ghost_room(game.record):
                raise ServiceError("error.no_ghost_room")
            changed = await self.store.set_spectator(
                game.id,
                user_id,
                watching,
                turn=game.engine.turn,
                outbox_items=items([watch_announcement(user_id, watching)]),
            )
            if not changed:
                key = "error.already_spectating" if watching else "error.not_spectating"
                raise ServiceError(key)
            return game

    async def spectators(self, game_id: int) -> list[int]:
        """The members watching the game's ghosts' room now."""
        return await self.store.spectators(game_id)

    async def has_watched(self, game_id: int, user_id: int) -> bool:
        """R60, R62: whether he watches or has watched the game's ghosts' room (then he
        cannot stand by as its substitute)."""
        return user_id in await self.store.spectators(game_id, ever=True)
