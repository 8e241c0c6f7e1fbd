"""What every use case of the game service shares: the store, the clock, the running games
this process holds (``live``, with their locks), loading them at start and rebuilding one
from the store when it changed elsewhere (the store is the truth), and the retry of a fenced
write refused as stale. No Discord in it.

Errors a user can cause are `ServiceError(key, **values)`: a catalogue key and placeholders.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any, NoReturn, TypeVar

from core.clock import NoticeMark
from core.i18n import Lang, t
from core.live import LiveGame, schedule_of
from core.refusal import Refusal
from core.review import is_window, review_minutes, until_of, window_review
from db.errors import StaleGame, StoreError
from db.interface import GameStore
from db.models import AuditSpec, GameRecord, OutboxItem, RestartGame, ReviewRecord
from rules.announce import (
    Announcement,
    Ending,
    game_over_announcement,
    host_audit_announcement,
    turn_open_announcement,
)
from rules.engine import RebuildError, rebuild
from rules.model import Phase
from rules.roles import ROLES
from rules.setup import SetupError
from rules.snapshot import SnapshotError

log = logging.getLogger(__name__)

#: How many times a fenced write refused as stale (another process changed the game) is
#: decided again on the game reloaded from the store before the caller gets a refusal.
STALE_ATTEMPTS = 3
#: How many times a reload reads a game again whose row and log straddled another process's
#: commit (see ``_refresh``).
REFRESH_ATTEMPTS = 3

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class ServiceError(Refusal):
    """A refusal the user caused: a catalogue key and its placeholders (never a role leak)."""


class LateRefusal(ServiceError):
    """A request refused in a later stage than the one it was sent in (it waited while the
    deadline closed that turn, R5): the reply says so first, then why (the same key)."""

    def __init__(self, sent_turn: int, refusal: ServiceError) -> None:
        super().__init__(refusal.key, in_lang=refusal.in_lang, **refusal.values)
        self.sent_turn = sent_turn

    def render(self, lang: Lang) -> str:
        late = t(lang, "play.late_refused", sent=self.sent_turn)
        return f"{late}\n{super().render(lang)}"


class SetupRefusal(ServiceError):
    """An invalid setup: its facts name roles by code (``role``, ``known``); the reply names
    them as the reader's table does ("Роли: Мирный житель, Мафиози, ...")."""

    def render(self, lang: Lang) -> str:
        values = dict(self.values)
        role = values.get("role")
        if isinstance(role, str) and role in ROLES:
            values["role"] = t(lang, f"role.{role}")
        known = values.get("known")
        if isinstance(known, str):
            codes = [code.strip() for code in known.split(",")]
            names = [t(lang, f"role.{code}") if code in ROLES else code for code in codes]
            # Russian writes role names in lower case inside a sentence.
            values["known"] = ", ".join(n.lower() if lang == "ru" else n for n in names)
        return t(lang, self.key, **values)


def setup_refusal(exc: SetupError) -> ServiceError:
    """An invalid setup (docs/REFERENCE.md section 10) as a translated refusal with its facts."""
    values: dict[str, Any] = dict(exc.params)
    return SetupRefusal("error.setup." + exc.code, **values)


def items(
    announcements: Iterable[Announcement], audit: AuditSpec | None = None
) -> list[OutboxItem]:
    """The outbox rows of ``announcements``. ``audit``: the host command whose #host line is
    among them; its audit row is written with that row, in the same transaction (R56: a
    command is audited once, exactly when it takes effect, also when a failure is retried)."""
    out: list[OutboxItem] = []
    for a in announcements:
        spec = None
        if audit is not None and a.kind == "audit":
            spec, audit = audit, None
        out.append(OutboxItem(kind=a.kind, payload=a.to_dict(), audit=spec))
    assert audit is None, "an audit row needs its #host line"
    return out


def audited(actor_id: int, command: str, args: dict[str, Any]) -> tuple[Announcement, AuditSpec]:
    """A host command's #host line and its audit row, to queue together (:func:`items`)."""
    return host_audit_announcement(command, actor_id, args), AuditSpec(actor_id, command, args)


T = TypeVar("T")


def game_changed() -> NoReturn:
    """What a player or host is told when the game kept changing under his command."""
    raise ServiceError("error.game_changed")


class ServiceBase:
    """The state and the helpers the use cases (``core/*_service.py``) share."""

    def __init__(
        self, store: GameStore, clock: Clock = utc_now, game_seed: int | None = None
    ) -> None:
        self.store = store
        #: The one clock of the game: every decision reads it, and the store stamps with it
        #: (bound here), so that times the game compares come from one clock (R59).
        self.clock = clock
        store.use_clock(clock)
        #: The seed of every new game when set (reproducible demos), else a random one each.
        self.game_seed = game_seed
        self.live: dict[int, LiveGame] = {}  # running games by game id
        #: The posts (outbox rows) counted lately (R52), so a confirmation retried after the
        #: archive's write failed counts none twice (a crash in between still may).
        self._counted_posts: dict[int, None] = {}
        self._game_of_table: dict[int, int] = {}  # table id -> game id, checked (game_in)
        #: One lock per guild for the lobby (new, join, leave, roles, start, end): two such
        #: commands at once end in one success and one clear refusal, never a store error.
        self._table_locks: dict[int, asyncio.Lock] = {}
        #: How many times a running game was rebuilt from the store (another process changed
        #: it, or a store call failed): none while one process serves its games alone.
        self.reloads = 0
        #: The drafts awaiting the host's review (core/review.py), by (game id, turn): also
        #: of games that ended with the reviewed turn. ``on_review`` (the bot's review clock)
        #: is told when one is added.
        self.reviews: dict[tuple[int, int], ReviewRecord] = {}
        self.on_review: Callable[[], None] | None = None

    def table_lock(self, table_id: int) -> asyncio.Lock:
        """The guild's lobby lock. Taken before a game's own lock, never after it."""
        return self._table_locks.setdefault(table_id, asyncio.Lock())

    def _still_live(self, game: LiveGame) -> None:
        """Under the game's lock: refuse if the game ended while the caller waited for it."""
        if self.live.get(game.id) is not game:
            raise ServiceError("error.no_running_game")

    @staticmethod
    def _not_in_review(game: LiveGame, *, window_ok: bool = False) -> None:
        """Refused while the turn's results wait for the host (core/review.py). ``window_ok``:
        not in a pistol window whose results are held (R18: the shot, and closing it)."""
        review = game.review
        if review is not None and not (window_ok and is_window(review)):
            raise ServiceError("error.review_pending")

    @staticmethod
    def _clock_not_in_review(game: LiveGame) -> None:
        """The host's clock commands (extend, pause, resume): while a draft waits, the next
        turn has no clock to move (its deadline is counted from the publication). A pistol
        window holding its night has one, but its public notice would tell the players that
        a commissar died before the results do: the host closes it (``/mafia resolve``) or
        lets it run out."""
        review = game.review
        if review is None:
            return
        if is_window(review):
            end = game.record.deadline or until_of(review)
            raise ServiceError(
                "error.window_no_clock", turn=review.turn, until=int(end.timestamp())
            )
        until = int(until_of(review).timestamp())
        raise ServiceError("error.review_no_clock", turn=review.turn, until=until)

    async def load(self, owns: Callable[[int], bool] | None = None) -> list[LiveGame]:
        """Every running game, restored at start: the clock re-arms from these.

        One batch of reads for all games (``load_restart``); each game from the snapshot of
        its state kept with its last resolution, replaying only the current turn's log on
        top, or from its full log when it has no usable snapshot (the log is the truth).

        ``owns`` (shards: ``core/shards.py``) keeps only the games of the servers
        whose id it accepts; the others stay untouched in the store (another process owns
        them)."""
        self.live.clear()
        # Loading allocates hundreds of thousands of objects that all stay: the collector's
        # full passes, triggered again and again meanwhile, would walk the growing heap each
        # time (at 10,000 games a third of the start). Off while loading; the bot then moves
        # the loaded games out of its reach for good (gc.freeze, bot/client.py).
        collecting = gc.isenabled()
        gc.disable()
        try:
            for item in await self.store.load_restart():
                rec = item.game
                if owns is not None and not owns(rec.guild_id):  # shards: another process's
                    continue
                live = self.live[rec.id] = await self._restore(item)
                _mark_turn_notices(live, item)
                if not item.cards_queued:
                    await self._deal_cards_once(live)
                await self._finish_if_won(live)
        finally:
            if collecting:
                gc.enable()
        await self._load_reviews(owns)
        return list(self.live.values())

    async def _load_reviews(self, owns: Callable[[int], bool] | None) -> None:
        """The drafts still awaiting review after a restart (core/review.py)."""
        self.reviews.clear()
        for review in await self.store.pending_reviews():
            if owns is not None and not owns(review.guild_id):
                continue
            self.reviews[(review.game_id, review.turn)] = review
            live = self.live.get(review.game_id)
            if live is not None:
                live.review = review
        for live in self.live.values():  # R18: a pistol window holding its night
            if live.review is None:
                live.review = await self._window_hold(live.record)

    async def _window_hold(self, rec: GameRecord) -> ReviewRecord | None:
        """The held pistol window of a reviewed game in its window (core/review.py)."""
        if rec.phase != Phase.PISTOL.value or not review_minutes(rec):
            return None
        return window_review(rec, await self.store.pistol_window(rec.id, rec.turn))

    async def _restore(self, item: RestartGame) -> LiveGame:
        rec = item.game
        windows = {rec.turn} if rec.phase == Phase.PISTOL.value else set()
        args = (
            [(p.nick, p.role) for p in item.players],
            rec.seed,
            rec.activity_rules,
            item.log,
            item.resolved_turns,
            windows,
        )
        if item.snapshot is None:
            engine = rebuild(*args)
        else:
            try:
                engine = rebuild(*args, snapshot=item.snapshot)
            except (SnapshotError, RebuildError) as exc:
                # A snapshot of another format (an older build wrote it) or that does not fit:
                # the full log decides, as it would with no snapshot at all.
                log.warning("game %s: snapshot not used (%s); replaying its log", rec.id, exc)
                return await self._rebuild(rec)
        engine.history.clear()  # see _rebuild
        live = LiveGame(rec, engine, item.players, schedule_of(rec))
        live.count_entries(turn for turn, _section, _payload in item.log)
        return live

    async def _rebuild(self, rec: GameRecord) -> LiveGame:
        players = await self.store.players(rec.id)
        entries = await self.store.log_entries(rec.id, accepted_only=True)
        resolved = {r.turn for r in await self.store.resolutions(rec.id)}
        windows = {rec.turn} if rec.phase == Phase.PISTOL.value else set()
        engine = rebuild(
            [(p.nick, p.role) for p in players],
            rec.seed,
            rec.activity_rules,
            [(e.turn, e.section, e.payload) for e in entries],
            resolved,
            windows,
        )
        # A live game keeps no turn results (`Game.history`): the store's resolutions hold
        # them, and a game restored from its snapshot has none, so every live game is alike
        # however it was loaded (and 10,000 loaded games do not carry every past turn).
        engine.history.clear()
        live = LiveGame(rec, engine, players, schedule_of(rec))
        live.count_entries(e.turn for e in entries)
        return live

    def game_in(self, table_id: int) -> LiveGame | None:
        """The table's running game. Asked several times by every command, with thousands of
        games loaded: the last answer per table is remembered and checked against ``live``
        (which stays the truth: games come and go in it), so a lookup is a dict hit."""
        known = self._game_of_table.get(table_id)
        if known is not None:
            game = self.live.get(known)
            if game is not None and game.record.table_id == table_id:
                return game
        for g in self.live.values():
            if g.record.table_id == table_id:
                self._game_of_table[table_id] = g.id
                return g
        self._game_of_table.pop(table_id, None)
        return None

    def running(self, table_id: int) -> LiveGame:
        """The guild's running game, or the refusal that none is."""
        game = self.game_in(table_id)
        if game is None:
            raise ServiceError("error.no_running_game")
        return game

    @contextlib.asynccontextmanager
    async def _store_is_the_truth(self, game: LiveGame) -> AsyncIterator[None]:
        """Around a change to a running game: if a store call fails, the live game is rebuilt
        from the store. The failed call may or may not have committed (the connection can die
        on the reply), and what the store holds is what a restart would load."""
        try:
            yield
        except StoreError:
            await self._refresh(game)
            raise

    async def _refresh(self, game: LiveGame) -> None:
        """Rebuild ``game`` from the store in place (its lock and reminder mark stay); a game
        the store holds as finished leaves, one whose deciding exclusion committed is
        finished (R15)."""
        try:
            for _ in range(REFRESH_ATTEMPTS):
                rec = await self.store.get_game(game.id)
                if rec is None or rec.status != "running":
                    self.live.pop(game.id, None)
                    return
                fresh = await self._rebuild(rec)
                # The game's row and its log are separate reads: a resolution another process
                # committed between them leaves the log a turn ahead of the row (and its
                # deadline); read both again rather than keep a game at odds with itself.
                if fresh.engine.turn == rec.turn:
                    break
            game.record, game.engine, game.players = fresh.record, fresh.engine, fresh.players
            game.schedule = fresh.schedule
            game.entries, game.entries_next = fresh.entries, fresh.entries_next
            if game.review is not None or review_minutes(fresh.record):
                await self._reload_review(game)
            self.reloads += 1
            await self._finish_if_won(game)
        except StoreError:
            log.exception("reloading game %s from the store failed", game.id)

    async def _reload_review(self, game: LiveGame) -> None:
        """After ``game`` was rebuilt from the store: what of it waits for the host there (a
        held pistol window, a draft of its last turn, or nothing once published)."""
        if game.review is not None and not is_window(game.review):
            self.reviews.pop((game.id, game.review.turn), None)
        rec = game.record
        game.review = await self._window_hold(rec)
        if game.review is None and rec.deadline is None:
            pending = [r for r in await self.store.pending_reviews(rec.id) if r.turn < rec.turn]
            if pending:
                game.review = self.reviews[(game.id, pending[-1].turn)] = pending[-1]

    async def _retry_stale(
        self,
        decide: Callable[[], Awaitable[T]],
        *,
        reload: Callable[[], Awaitable[bool]] | None = None,
        exhausted: Callable[[], T] = game_changed,
    ) -> T:
        """The store is the truth: ``decide`` (validate against the game this process holds,
        then write, fenced: ``Fence``) is decided again when its write is refused as stale
        (``StaleGame``: another process changed the game meanwhile and nothing was written),
        on the game reloaded from the store, at most :data:`STALE_ATTEMPTS` times in all.

        The reload is ``_store_is_the_truth``'s (around the write), or ``reload``'s, which
        then says whether to decide again (False: the refusal stands). When no attempt is
        left: ``exhausted()``, by default the refusal that the game kept changing."""
        for _attempt in range(STALE_ATTEMPTS):
            try:
                return await decide()
            except StaleGame as exc:
                log.info("%s; reloaded from the store, deciding again", exc)
                if reload is not None and not await reload():
                    break
        return exhausted()

    def _ending(self, game: LiveGame) -> Ending:
        """What the end-of-game announcement needs that the rules do not know: the members
        behind the nicknames if the host chose to reveal them (``/mafia new reveal``), when
        the game started and now."""
        members = {p.nick: p.user_id for p in game.players} if game.record.reveal else None
        started = game.record.started_at.isoformat() if game.record.started_at else None
        return Ending(members=members, started=started, ended=self.clock().isoformat())

    async def _finish_if_won(self, game: LiveGame) -> None:
        """R15: the win check after an exclusion. Also repairs, at start, a game whose
        deciding exclusion was committed just before a crash."""
        engine = game.engine
        if engine.winner is None or engine.phase is not Phase.OVER:
            return
        over = game_over_announcement(engine.state, engine.winner, self._ending(game))
        await self.store.finish_game(game.id, engine.winner, items([over]))
        self.live.pop(game.id, None)

    async def _deal_cards_once(self, live: LiveGame) -> None:
        """Queue the role cards and turn 1's opening unless they are queued already (the
        start commits them with the seats; a game started by an older build may lack them)."""
        if await self.store.last_outbox(live.id, "role_card") is not None:
            return
        deadline = live.record.deadline
        cards = [Announcement("role_card", p.nick, {"turn": 1}) for p in live.players]
        iso = deadline.isoformat() if deadline is not None else None
        opening = turn_open_announcement(live.engine.state, 1, iso)
        await self.store.add_outbox(live.id, 1, items([*cards, opening]))


def _mark_turn_notices(live: LiveGame, item: RestartGame) -> None:
    """What this turn's once-a-turn rows queued before the restart tell the clock (read with
    the games in one batch, ``RestartGame.turn_notices``): the reminders are sent, a notice
    was queued naming this deadline. What is not there, the clock still asks the store about
    before queuing it (``send_reminders``, ``timed_notice``)."""
    turn = live.engine.turn
    if item.game.turn != turn:
        return  # the rows are of the stored turn
    if "reminder" in item.turn_notices:
        live.reminded_turn = turn
    for kind, row in item.turn_notices.items():
        named = (row.get("payload") or {}).get("deadline")
        if kind != "reminder" and isinstance(named, str):
            live.notices[kind] = NoticeMark(turn, datetime.fromisoformat(named))
