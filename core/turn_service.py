"""The turn's clock: resolution (by the deadline, or the host's confirmed ``/mafia resolve``),
the pistol window, downtime (R59) and the heartbeat, the reminders and the timed public
notices (``core/clock.py``). Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from core.clock import Event, NoticeMark, notice_done, pending_notice
from core.ghosts import with_ghosts
from core.live import LiveGame
from core.review import (
    WINDOW_KEY,
    hold,
    hold_window,
    is_window,
    review_minutes,
    snapshot_before,
    window_announcements,
)
from core.service_base import ServiceBase, ServiceError, audited, items
from db.errors import StaleGame
from db.models import AuditSpec, DowntimeCause, ReviewRecord
from rules.announce import (
    Announcement,
    downtime_announcements,
    ending_results,
    final_announcements,
    host_account,
    hunts_open_announcement,
    last_hour_announcement,
    night_announcements,
    reminder_announcements,
    turn_open_announcement,
    with_pistol_window,
)
from rules.downtime import Downtime, measure
from rules.model import Phase
from rules.schedule import Schedule, next_deadline
from rules.snapshot import state_to_dict

log = logging.getLogger(__name__)

#: R59: a process beats (``GameService.heartbeat``) while it serves its games, at a pace that
#: follows the shortest turn it serves (:func:`beat_period`): a hundredth of it, every minute
#: at the most (a ten-minute turn) and every ten minutes at the least (a forum day, or no game
#: running). A gap longer than :data:`GAP_BEATS` paces between two beats is downtime of its
#: running games (90 s for a ten-minute turn: two minutes down are seen, a beat late by half a
#: minute is not downtime); what a turn loses unnoticed stays under 2% of it, far from the
#: tenth that excuses it.
HEARTBEAT_SECONDS = 60.0
MAX_BEAT_SECONDS = 600.0
BEATS_PER_TURN = 100
GAP_BEATS = 1.5
DOWNTIME_GAP = timedelta(seconds=GAP_BEATS * HEARTBEAT_SECONDS)
#: A forum turn lasts a day at the least.
_FORUM_TURN_SECONDS = 24 * 3600.0


def beat_period(games: Iterable[LiveGame]) -> float:
    """R59: the heartbeat's pace, in seconds, for the running games ``games`` (see
    :data:`HEARTBEAT_SECONDS`)."""
    return pace_of(g.schedule for g in games)


def pace_of(schedules: Iterable[Schedule]) -> float:
    """The heartbeat's pace, in seconds, for running games of these schedules: what a bot
    serving them beats at (``main.py health`` judges a beat's age by it too)."""
    turns = [s.turn_minutes * 60.0 if s.kind == "fast" else _FORUM_TURN_SECONDS for s in schedules]
    if not turns:
        return MAX_BEAT_SECONDS
    return min(MAX_BEAT_SECONDS, max(HEARTBEAT_SECONDS, min(turns) / BEATS_PER_TURN))


def downtime_gap(period: float) -> timedelta:
    """The gap between two beats paced by ``period`` seconds that is downtime."""
    return timedelta(seconds=GAP_BEATS * period)


class TurnService(ServiceBase):
    """What moves a running game from turn to turn."""

    async def resolve(
        self,
        table_id: int,
        actor_id: int,
        *,
        turn: int,
        stage: str | None = None,
        game_id: int | None = None,
    ) -> None:
        """`/mafia resolve`, confirmed: resolve turn ``turn`` (``stage`` "open"; or close its
        pistol window, "pistol") only if it is still the open one. The host confirms what he
        was shown: a second click, or a confirmation the clock overtook, resolves nothing."""
        game = self.running(table_id)
        if game_id is not None and game.id != game_id:  # that game is over
            raise ServiceError("error.no_running_game")
        async with game.lock:
            if not await self._in_step(game) or game.engine.turn != turn:
                raise ServiceError("error.turn_already_resolved", turn=turn)
            self._not_in_review(game, window_ok=True)  # R18: a held window may be closed
            if stage is not None and game.engine.phase.value != stage:
                raise ServiceError("error.turn_already_resolved", turn=turn)
            audit, spec = audited(actor_id, "resolve", {"turn": turn, "stage": stage})
            # Its line in #host and its audit row commit with the resolution it asked for.
            await self._advance_locked(game, first=[audit], audit=spec)

    async def deadline_reached(
        self, game_id: int, *, if_due: bool = False, stage: tuple[int, Phase] | None = None
    ) -> None:
        """Resolve the turn (steps 0-5), or close its pistol window (steps 6-7).

        One transaction per stage, keyed by (game, turn): a crash before the commit resolves
        the turn again from the log, with the same result; after it, never again.

        ``if_due`` (the clock): only if the deadline has still passed once the game's lock is
        held, so a turn the host resolved meanwhile, or a deadline he moved, is left alone.
        ``stage`` (turn, phase): only if the game still stands there once the lock is held (a
        request resolves only the stage it was validated against, never the next one: the
        last pistol shot racing the window's close)."""
        game = self.live.get(game_id)
        if game is None:
            return
        async with game.lock:
            if not await self._in_step(game):
                return  # finished (here or by another process) while this call waited
            if stage is not None and (game.engine.turn, game.engine.phase) != stage:
                return  # that stage was closed meanwhile (the clock, a host, another process)
            if if_due:
                deadline = game.record.deadline
                if game.record.paused or deadline is None or deadline > self.clock():
                    return
            await self._advance_locked(game)

    async def _in_step(self, game: LiveGame) -> bool:
        """Under the game's lock, before a turn is resolved: whether the game is still live,
        once this process's copy is checked against the store (one cheap read) and rebuilt
        from it if another process changed the game (a request, a resolution, the clock)."""
        if self.live.get(game.id) is not game:
            return False
        head = await self.store.game_head(game.id)
        if head is None or head.record != game.record or head.entries != game.entries:
            log.info("game %s changed in the store; reloading it", game.id)
            await self._refresh(game)
        return self.live.get(game.id) is game

    async def _advance_locked(
        self,
        game: LiveGame,
        first: Sequence[Announcement] = (),
        audit: AuditSpec | None = None,
    ) -> None:
        """`_advance` under the game's lock; a failure reloads the game from the store.

        Another process may resolve the same stage: the store's claim decides. If it was
        lost, or the game changed in the store after it was checked (``StaleGame``: the
        write is fenced), this process's result is dropped unannounced and the game reloaded
        from the store; a stage still open then (only a request was added) is decided again."""
        stage = (game.engine.turn, game.engine.phase)

        async def decide() -> None:
            try:
                if not await self._advance(game, first, audit):
                    log.info("game %s: turn %s resolved by another process", game.id, stage[0])
                    await self._refresh(game)
            except StaleGame:
                raise
            except Exception:
                log.exception("resolving game %s failed; reloading it from the store", game.id)
                await self._refresh(game)
                raise

        async def reload() -> bool:  # decided again only if the stage is still open here
            await self._refresh(game)
            moved = (game.engine.turn, game.engine.phase) != stage
            return not moved and self.live.get(game.id) is game

        await self._retry_stale(decide, reload=reload, exhausted=lambda: None)

    async def _advance(
        self,
        game: LiveGame,
        first: Sequence[Announcement] = (),
        audit: AuditSpec | None = None,
    ) -> bool:
        """``first``: announcements queued ahead of the stage's own, in its transaction
        (``audit``: the audit row of the host command among them).
        False: another process claimed the stage first (nothing was written; the live game
        is then out of date)."""
        fence = game.fence()
        engine = game.engine
        turn = engine.turn
        now = self.clock()
        # core/review.py: what the players' private replies read until the results are out.
        before = snapshot_before(engine.state) if review_minutes(game.record) else None
        closing_window = engine.phase is not Phase.OPEN  # R18: the pistol window closes now
        kept_rows = 0  # rows of a held pistol window, whose dead were let in when it opened (R62)
        if not closing_window:
            downtime = await self._downtime(game, now)
            if downtime is not None:  # R59: an input of the resolution, logged with the turn
                await self.store.add_request(
                    game.id, turn, "host", downtime.to_dict(), None, fence=fence
                )
                game.entries += 1
                fence = game.fence()
                engine.note_downtime(downtime)
            result = engine.resolve()
            window_end = now + game.schedule.pistol_window
            night = [*first, *night_announcements(engine.state, result)]
            if downtime is not None:  # with the results (public only if it excused the turn)
                night[len(first) + 1 : len(first) + 1] = downtime_announcements(turn, downtime)
            if engine.state.pistols:  # R18: when the window closes, said with the pistols
                night = with_pistol_window(night, window_end.isoformat())
            night.append(host_account(engine.state, result))  # R47: the night, for the hosts
            if engine.state.pistols:  # R18: the win check waits for the shots
                night = with_ghosts(game.record, night)  # R62: the dead let into their room
                partial = result.to_dict()
                window: ReviewRecord | None = None
                minutes = review_minutes(game.record)
                if minutes:  # core/review.py: the night waits with the window for the draft
                    until = window_end + timedelta(minutes=minutes)
                    night, held = hold_window(night, turn=turn, until=until, before=before)
                    partial[WINDOW_KEY] = held
                    window = ReviewRecord(game.id, game.record.guild_id, turn, held)
                if not await self.store.begin_pistol_window(
                    game.id, turn, partial, items(night, audit), window_end, fence=fence
                ):
                    return False
                game.record = await self.store.require_game(game.id)
                game.review = window
                return True
        else:
            night = list(first)
            window = game.review if game.review is not None and is_window(game.review) else None
            if window is not None:  # the night held with the window joins its draft
                kept = window_announcements(window)
                night, kept_rows = [*kept, *night], len(kept)
                before = window.draft.get("before")
        result = engine.finish_turn()
        engine.history.clear()  # a live game keeps no turn results (see _rebuild)
        ending = self._ending(game) if result.winner is not None else None
        final = final_announcements(engine.state, result, ending)
        if result.winner is not None:  # the report that ends the game
            night = ending_results(night)
        deadline: datetime | None = None
        if result.winner is None:
            previous = game.record.deadline or now
            deadline = next_deadline(game.schedule, previous, now)
            final.append(turn_open_announcement(engine.state, engine.turn, deadline.isoformat()))
        # R62: the dead let into their room, held with the results (a held window's were).
        queued = [*night[:kept_rows], *with_ghosts(game.record, [*night[kept_rows:], *final])]
        minutes = review_minutes(game.record)
        if minutes:  # core/review.py: held for the host; the next turn waits for them
            queued = hold(queued, turn=turn, now=now, minutes=minutes, before=before)
            deadline = None
        claimed = await self.store.record_resolution(
            game.id,
            turn,
            result.to_dict(),
            items(queued, audit),
            engine.turn,
            deadline,
            next_phase=Phase.OPEN.value,
            winner=result.winner,
            # The state the next turn starts from, committed with the resolution: a restart
            # replays only the log after it.
            snapshot=state_to_dict(engine.state) if result.winner is None else None,
            fence=fence,
        )
        if not claimed:
            return False
        # The next turn's entries are those logged ahead for it (a pistol window's host
        # actions, R36).
        game.entries, game.entries_next = game.entries_next, 0
        if minutes:
            draft = queued[-1]
            review = ReviewRecord(game.id, game.record.guild_id, turn, draft.to_dict()["payload"])
            self.reviews[(game.id, turn)] = review
            game.review = review if result.winner is None else None
            if self.on_review is not None:
                self.on_review()
        if result.winner is not None:
            self.live.pop(game.id, None)
        else:
            game.record = await self.store.require_game(game.id)
        return True

    async def _downtime(self, game: LiveGame, now: datetime) -> Downtime | None:
        """R59: what the bot could not serve of the open turn (the store's downtime spans
        within it: from its opening to its deadline, or to now if resolved early); None if
        nothing was lost."""
        started = game.record.started_at
        if started is None:
            return None
        spans = await self.store.downtime(game.id, started)
        if not spans:
            return None  # the usual case: one cheap read, no more
        opened = started
        if game.engine.turn > 1:
            # The turn opened when the previous one's results went out: at its resolution,
            # or, reviewed by the host (core/review.py), at their publication; an outage
            # while the host reviewed belongs to no turn.
            turn = game.engine.turn - 1
            published = await self.store.review_published_at(game.id, turn)
            if published is not None:
                opened = published
            else:
                previous = [r for r in await self.store.resolutions(game.id) if r.turn == turn]
                opened = previous[-1].resolved_at if previous else started
        deadline = game.record.deadline
        end = min(now, deadline) if deadline is not None else now
        lost = 0.0
        for start, stop, _cause in spans:
            lost += max(0.0, (min(stop, end) - max(start, opened)).total_seconds())
        if lost <= 0:
            return None
        return measure(lost, (end - opened).total_seconds())

    async def downtime_now(self, game: LiveGame) -> Downtime | None:
        """R59 for the ``/mafia resolve`` preview: what the resolution would note if the open
        turn were resolved now."""
        if game.engine.phase is not Phase.OPEN:
            return None
        return await self._downtime(game, self.clock())

    async def heartbeat(
        self,
        process: str,
        *,
        cause: DowntimeCause = "discord",
        gap: timedelta = DOWNTIME_GAP,
    ) -> datetime | None:
        """R59: this process serves its games now (the service's clock). ``process`` names
        the shards it runs (the same key after a restart). A longer gap than ``gap`` (that of
        the pace the beats kept, :func:`downtime_gap`) since its previous beat is kept as
        downtime of each running game it holds, as ``cause``: ``down`` for the first beat of
        a run (the bot was not running), ``discord`` for later ones (it beats only while
        Discord answers it). Returns the gap's start, if there was one."""
        ids = list(self.live)
        since = await self.store.beat(process, self.clock(), ids, gap=gap, cause=cause)
        if since is not None:
            log.warning("downtime since %s (%s) for %d running games", since, cause, len(ids))
        return since

    async def send_reminders(self, game_id: int) -> int:
        """Queue this turn's private reminders (once a turn, also across restarts)."""
        game = self.live.get(game_id)
        if game is None:
            return 0
        async with game.lock:
            turn = game.engine.turn
            if game.reminded_turn >= turn:
                return 0
            if await self.store.last_outbox(game_id, "reminder", turn) is not None:
                game.reminded_turn = turn
                return 0  # queued before a restart
            reminders = reminder_announcements(game.engine.state)
            if reminders:
                await self.store.add_outbox(game.id, turn, items(reminders))
            game.reminded_turn = turn  # only once they are queued: a failure tries again
            return len(reminders)

    async def timed_notice(self, game_id: int, kind: Event) -> bool:
        """Queue the public notice ``kind`` (hunts open, R4; the last hour) if it is due
        (``core/clock.py``): once per turn, also across restarts (the outbox tells what was
        queued before one). True if it was queued now."""
        game = self.live.get(game_id)
        if game is None:
            return False
        async with game.lock:
            if self.live.get(game_id) is not game:
                return False
            now = self.clock()
            at = pending_notice(game, kind, now)
            if at is None or at > now:
                return False  # not (or no longer) due: the deadline moved, a pause
            deadline = game.record.deadline
            assert deadline is not None  # pending_notice checked it
            turn = game.engine.turn
            row = await self.store.last_outbox(game_id, kind.value, turn)
            if row is not None:  # queued before a restart
                named = datetime.fromisoformat(str(row.payload["payload"]["deadline"]))
                game.notices[kind.value] = NoticeMark(turn, named)
                if notice_done(kind, game.notices[kind.value], turn, deadline):
                    return False
            if kind is Event.HUNTS_OPEN:
                notice = hunts_open_announcement(deadline.isoformat())
            else:
                notice = last_hour_announcement(deadline.isoformat())
            await self.store.add_outbox(game.id, turn, items([notice]))
            game.notices[kind.value] = NoticeMark(turn, deadline)  # only once queued
            return True
