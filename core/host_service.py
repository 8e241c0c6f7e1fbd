"""The hosts' commands on a running game (R56): host actions through the rules, the end,
the clock (extend, pause, resume), the audit of the commands the service does not
record itself, and the hosts' notices in #host. Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

import copy
from datetime import datetime, timedelta
from typing import Any

from core.ghosts import with_ghosts
from core.live import LiveGame
from core.review import held_items, is_window, window_announcements
from core.service_base import ServiceBase, ServiceError, audited, items
from db.models import GameRecord
from rules.announce import (
    HOST,
    Announcement,
    clock_extended_announcement,
    clock_paused_announcement,
    clock_resumed_announcement,
    deprived_announcement,
    double_kill_announcement,
    exclusion_announcements,
    game_over_announcement,
    host_audit_announcement,
)
from rules.model import HostAction, Phase
from rules.names import UnknownName, resolve_host_action
from rules.validation import validate_host_action

#: The longest a host can move a deadline at once (a week, as `/mafia extend` offers).
MAX_EXTEND_MINUTES = 7 * 24 * 60


class HostService(ServiceBase):
    """Moderator overrides, each audited once, when it takes effect (R56)."""

    async def host_action(
        self, table_id: int, actor_id: int, action: HostAction, reason: str | None = None
    ) -> HostAction:
        """R56: exclude, deprive the vote, grant the double kill (all through the rules).
        Returns the action as applied, naming the player as the game spells him (R44).
        Fenced in the store like a player's request (``PlayService.submit``)."""

        async def decide() -> HostAction:
            return await self._host_action(self.running(table_id), actor_id, action, reason)

        return await self._retry_stale(decide)  # reloaded by _store_is_the_truth

    async def _host_action(
        self, game: LiveGame, actor_id: int, action: HostAction, reason: str | None
    ) -> HostAction:
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            engine = game.engine
            try:  # R44: matched under the exact rule
                action = resolve_host_action(action, engine.state.players)
            except UnknownName as exc:
                raise ServiceError("error.unknown_nick", nick=exc.typed) from None
            refusal = validate_host_action(engine.state, action)
            if refusal is not None:
                raise ServiceError(f"refusal.{refusal.code}")
            turn = engine.turn
            if engine.phase is Phase.PISTOL:
                if action.do == "exclude":
                    raise ServiceError("error.wait_for_pistol")
                turn += 1  # takes effect from the next turn (R36), logged there
            # Decide on a copy first: the log entry and what it announces commit together,
            # and only then does the live game change.
            trial = copy.deepcopy(engine)
            current = trial.state.current
            before = (len(current.conversions), len(current.promotions)) if current else (0, 0)
            applied = trial.host_action(action)
            assert applied is None, applied
            announcements: list[Announcement] = []
            if action.do == "exclude":
                assert action.player is not None
                result = trial.state.current or trial.history[-1]
                announcements = exclusion_announcements(trial.state, result, action.player, *before)
                announcements = with_ghosts(game.record, announcements)  # R62
            elif action.do == "double_kill":  # R36, R56: the mafia's room is told
                announcements = [double_kill_announcement(engine.state)]
            elif action.do == "deprive_vote":  # R54: he is told now, not when he votes
                assert action.player is not None
                announcements = [deprived_announcement(action.player, turn)]
            args = {**action.to_dict(), **({"reason": reason} if reason else {})}
            # The audit line in #host first, then what the command announces (R56).
            audit = host_audit_announcement(action.do, actor_id, args)
            await self.store.add_host_action(
                game.id,
                turn,
                action.to_dict(),
                actor_id=actor_id,
                command=action.do,
                args=args,
                outbox_items=items([audit, *announcements]),
                fence=game.fence(),
            )
            game.engine = trial
            game.entries += 1
            if turn > engine.turn:
                game.entries_next += 1
            await self._finish_if_won(game)
        return action

    async def end(
        self, table_id: int, actor_id: int, *, game_id: int | None = None
    ) -> GameRecord | None:
        """`/mafia end`: the game stops with no winner and every role is revealed; an open
        sign-up is cancelled instead (returned, for its message to be closed). ``game_id``:
        only that game (what the host confirmed), else a refusal."""
        async with self.table_lock(table_id):
            game = self.game_in(table_id)
            if game is not None and game_id is not None and game.id != game_id:
                raise ServiceError("error.no_running_game")
            if game is None:
                rec = await self.store.open_game(table_id)
                if rec is None or rec.status != "lobby":
                    raise ServiceError("error.no_running_game")
                if game_id is not None and rec.id != game_id:
                    raise ServiceError("error.no_running_game")
                audit, spec = audited(actor_id, "end", {"signup": True})
                await self.store.finish_game(rec.id, None, items([audit], spec))
                return rec
            async with game.lock, self._store_is_the_truth(game):
                self._still_live(game)
                await self._publish_held(game)
                ending = self._ending(game)
                over = game_over_announcement(game.engine.state, None, ending)
                audit, spec = audited(actor_id, "end", {})
                await self.store.finish_game(game.id, None, items([audit, over], spec))
                self.live.pop(game.id, None)
            return None

    async def _publish_held(self, game: LiveGame) -> None:
        """`/mafia end` while a turn's results wait for the host (core/review.py): they go
        out as they stand (with his story, if he wrote one) ahead of the end, once, rather
        than after it or never."""
        review = game.review
        if review is None:
            return
        if is_window(review):
            queued = items(window_announcements(review))
        else:
            stored = await self.store.pending_reviews(game.id)
            current = next((r for r in stored if r.turn == review.turn), None)
            queued = held_items(review, current.story if current is not None else review.story)
        await self.store.publish_review(
            game.id, review.turn, game.engine.turn, queued, None, self.clock()
        )
        self.reviews.pop((game.id, review.turn), None)
        game.review = None

    async def extend(self, table_id: int, actor_id: int, minutes: int) -> datetime:
        if not 1 <= minutes <= MAX_EXTEND_MINUTES:  # never a datetime overflow
            raise ServiceError("error.bad_extend", maximum=MAX_EXTEND_MINUTES)
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._clock_not_in_review(game)
            base = game.record.deadline or self.clock()
            deadline = base + timedelta(minutes=minutes)
            notice = clock_extended_announcement(deadline.isoformat())  # R56: everyone is told
            audit, spec = audited(actor_id, "extend", {"minutes": minutes})
            game.record = await self.store.set_deadline(
                game.id, deadline, items([audit, notice], spec)
            )
            return deadline

    async def pause(self, table_id: int, actor_id: int) -> None:
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._clock_not_in_review(game)
            if game.record.paused or game.record.deadline is None:
                raise ServiceError("error.already_paused")
            remaining = max(0.0, (game.record.deadline - self.clock()).total_seconds())
            notice = clock_paused_announcement(remaining)  # R56: everyone is told
            audit, spec = audited(actor_id, "pause", {})
            game.record = await self.store.pause_game(
                game.id, remaining, items([audit, notice], spec)
            )

    async def resume(self, table_id: int, actor_id: int) -> datetime:
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._clock_not_in_review(game)
            if not game.record.paused:
                raise ServiceError("error.not_paused")
            deadline = self.clock() + timedelta(seconds=game.record.paused_remaining or 0.0)
            notice = clock_resumed_announcement(deadline.isoformat())  # R56: everyone is told
            audit, spec = audited(actor_id, "resume", {})
            game.record = await self.store.resume_game(
                game.id, deadline, items([audit, notice], spec)
            )
            return deadline

    async def audit(
        self,
        table_id: int,
        game_id: int | None,
        actor_id: int,
        command: str,
        args: dict[str, Any],
    ) -> bool:
        """Record a host command the service did not record itself (``/mafia announce``,
        ``state``, ...), and queue its line for #host when it belongs to a game (R56).
        False: no game, the caller tells #host directly."""
        if game_id is None:
            table = await self.store.get_table(table_id)
            guild_id = table.guild_id if table is not None else table_id
            await self.store.add_audit(guild_id, None, actor_id, command, args, table_id=table_id)
            return False
        live = self.live.get(game_id)
        turn = live.engine.turn if live is not None else 0
        audit, spec = audited(actor_id, command, args)
        await self.store.add_outbox(game_id, turn, items([audit], spec))  # one transaction
        return True

    async def audit_at_table(
        self, table_id: int, actor_id: int, command: str, args: dict[str, Any]
    ) -> bool:
        """:meth:`audit` of a host command used at a table: it belongs to the table's open
        game, else to its last one, else to none."""
        game = await self.store.open_game(table_id)
        if game is None:
            games = await self.store.list_games(table_id=table_id)
            game = games[-1] if games else None
        return await self.audit(
            table_id, game.id if game is not None else None, actor_id, command, args
        )

    async def host_notice(self, game_id: int, kind: str, payload: dict[str, Any]) -> bool:
        """Queue a notice for the hosts of a running game (#host, in the order of the game's
        other #host rows): what the bot saw happen on the server mid-game (rights gained, the
        mafia's room repaired, a player back; ``bot/serverlife.py``). The outbox keeps it, so
        it is sent once and stays readable (:meth:`host_notices`). False: no running game."""
        game = self.live.get(game_id)
        if game is None:
            return False
        notice = Announcement(kind, HOST, payload)
        await self.store.add_outbox(game_id, game.engine.turn, items([notice]))
        return True

    async def host_notices(self, game_id: int, kind: str) -> list[dict[str, Any]]:
        """The payloads of the game's #host notices of ``kind`` queued so far (sent or not),
        oldest first: what the hosts were already told, also before a restart."""
        return [
            dict(row.payload.get("payload") or {})
            for row in await self.store.outbox(game_id)
            if row.kind == kind
        ]
