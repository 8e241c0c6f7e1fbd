"""The game service: rules + store + clock, with no Discord in it.

Cogs call it with user ids and plain values; it loads the game, asks `rules/` to decide,
commits to the store, and only then returns (R: every accepted request is committed before
the player is told). What must be announced goes to the store's outbox in the same
transaction as the change that causes it; the bot delivers the outbox and marks it sent.

Errors a user can cause are `ServiceError(key, **values)`: a catalogue key and placeholders.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gc
import logging
import random
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import attrs

from core.clock import Event, NoticeMark, notice_done, pending_notice
from core.i18n import Lang, t
from core.images import CleanImage, archived_text
from core.refusal import Refusal
from core.review import (
    MAX_REVIEW_MINUTES,
    MAX_STORY,
    held_items,
    hold,
    public_state,
    review_minutes,
    snapshot_before,
)
from db.errors import NotFound, OpenGameExists, SignupFull, StaleGame, StoreError
from db.interface import GameStore
from db.models import (
    KEEP,
    AuditSpec,
    DowntimeCause,
    Fence,
    GameRecord,
    OutboxItem,
    OutboxRecord,
    PlayerRecord,
    PlayerSpec,
    RestartGame,
    ReviewRecord,
    refused,
)
from rules.announce import (
    HOST,
    PUBLIC,
    Announcement,
    Ending,
    clock_extended_announcement,
    clock_paused_announcement,
    clock_resumed_announcement,
    deprived_announcement,
    double_kill_announcement,
    downtime_announcements,
    exclusion_announcements,
    final_announcements,
    game_over_announcement,
    host_account,
    host_audit_announcement,
    hunts_open_announcement,
    last_hour_announcement,
    night_announcements,
    reminder_announcements,
    replaced_announcement,
    turn_open_announcement,
    with_pistol_window,
)
from rules.downtime import Downtime, measure
from rules.engine import Game, RebuildError, game_from_snapshot, rebuild
from rules.killboard import KillBoard, kill_board
from rules.knowledge import RoleCard, role_card
from rules.model import GameState, HostAction, Phase, RefusalCode, Request
from rules.names import UnknownName, find_name, resolve_host_action, resolve_request
from rules.requests import parse_request, verb_slot
from rules.schedule import (
    Schedule,
    first_deadline,
    hunt_opens_at,
    hunts_open,
    make_schedule,
    next_deadline,
    reminder_at,
)
from rules.setup import (
    MAX_PLAYERS,
    SetupError,
    assign_nicknames,
    deal,
    parse_role_list,
    preset,
)
from rules.setup import validate_setup as validate_role_list
from rules.snapshot import SnapshotError, state_to_dict
from rules.text import is_blank
from rules.validation import validate_host_action, validate_request
from rules.wishes import is_wishable, roles_from_wishes, wish_tally

log = logging.getLogger(__name__)

#: The longest a host can move a deadline at once (a week, as `/mafia extend` offers).
MAX_EXTEND_MINUTES = 7 * 24 * 60

#: R59: a process beats (``GameService.heartbeat``) about every half minute while it serves
#: its games; a longer gap than this between two beats is downtime of its running games.
HEARTBEAT_SECONDS = 30.0
DOWNTIME_GAP = timedelta(seconds=90)

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


def setup_refusal(exc: SetupError) -> ServiceError:
    """An invalid setup (docs/REFERENCE.md section 10) as a translated refusal with its facts."""
    values: dict[str, Any] = dict(exc.params)
    return ServiceError("error.setup." + exc.code, **values)


@attrs.define
class LiveGame:
    record: GameRecord
    engine: Game
    players: list[PlayerRecord]
    schedule: Schedule
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    reminded_turn: int = 0  # the last turn whose reminders were queued
    #: The public timed notices queued (core/clock.py), by event name: once per turn.
    notices: dict[str, NoticeMark] = attrs.Factory(dict)
    #: The accepted log entries this process knows at the game's turn or later, and of
    #: those the ones logged for the next turn (a host action during the pistol window,
    #: R36): with the turn and phase, what every fenced write is checked against in the
    #: store, so a request another process logged is never missed (db.models.Fence).
    entries: int = 0
    entries_next: int = 0
    #: The turn's results held for the host's review (core/review.py): while set, the next
    #: turn has no deadline and player requests are refused.
    review: ReviewRecord | None = None

    @property
    def public_state(self) -> GameState:
        """The game as the players know it: while a turn's results wait for the host's review,
        as it stood before they were decided (core/review.py); else the game itself."""
        return public_state(self.review) or self.engine.state

    def fence(self) -> Fence:
        """What a decision taken on this game now was taken against."""
        return Fence(turn=self.record.turn, phase=self.record.phase, entries=self.entries)

    def count_entries(self, turns: Iterable[int]) -> None:
        """Set ``entries`` from the turns of the accepted log entries known."""
        turn = self.record.turn
        later = [t for t in turns if t >= turn]
        self.entries = len(later)
        self.entries_next = sum(1 for t in later if t > turn)

    def reminder_due_at(self, now: datetime | None = None) -> datetime | None:
        """When this turn's reminders are due, if they still are (not once the deadline
        has passed, as after a restart: the turn is resolved instead)."""
        deadline = self.record.deadline
        if (
            deadline is None
            or (now is not None and now >= deadline)
            or self.record.paused
            or self.reminded_turn >= self.engine.turn
            or self.engine.phase is not Phase.OPEN
        ):
            return None
        return reminder_at(self.schedule, deadline)

    @property
    def id(self) -> int:
        return self.record.id

    def nick_of(self, user_id: int) -> str | None:
        for p in self.players:
            if p.user_id == user_id:
                return p.nick
        return None

    def user_of(self, nick: str) -> int | None:
        for p in self.players:
            if p.nick == nick:
                return p.user_id
        return None


#: The outbox kind of a player's post in #game (``/say``, ``/post``).
POST_KIND = "post"
#: How many counted posts :class:`GameService` remembers (see ``_counted_posts``).
COUNTED_POSTS_KEPT = 10_000


@attrs.frozen
class QueuedPost:
    """A player's post committed to the outbox (:meth:`GameService.queue_post`)."""

    game_id: int
    row_id: int
    turn: int
    payload: dict[str, Any]


@attrs.frozen
class Accepted:
    """A committed request; `mafia_update` is the mafia's kill board after a kill request
    (R23), to show in the mafia's room."""

    request: Request
    turn: int
    mafia_update: KillBoard | None = None
    withdrawn: tuple[str, ...] = ()  # R17: verbs this request withdrew (hunt vs. ability)
    #: The turn open when the request was sent, if the deadline closed it while the request
    #: waited and it counts for a later turn (``turn``): the reply says so (R5).
    sent_turn: int | None = None


def _items(
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


def _audited(actor_id: int, command: str, args: dict[str, Any]) -> tuple[Announcement, AuditSpec]:
    """A host command's #host line and its audit row, to queue together (:func:`_items`)."""
    return host_audit_announcement(command, actor_id, args), AuditSpec(actor_id, command, args)


def table_seed(game_seed: int, table_id: int, guild_id: int) -> int:
    """The seed of a new game when the bot has a fixed one (demos): the server's first table
    plays it, any other table a seed of its own derived from it, so two tables do not deal
    alike."""
    return game_seed if table_id == guild_id else (game_seed ^ table_id) % 2**62


class GameService:
    def __init__(
        self, store: GameStore, clock: Clock = utc_now, game_seed: int | None = None
    ) -> None:
        self.store = store
        self.clock = clock
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

    # --- start-up ---------------------------------------------------------------------
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
        live = LiveGame(rec, engine, item.players, self._schedule(rec))
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
        live = LiveGame(rec, engine, players, self._schedule(rec))
        live.count_entries(e.turn for e in entries)
        return live

    @staticmethod
    def _schedule(rec: GameRecord) -> Schedule:
        params = dict(rec.schedule_params)
        params.setdefault("kind", rec.schedule_kind)
        params.setdefault("tz", rec.timezone)
        return Schedule.from_dict(params)

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
            if game.review is not None and fresh.record.deadline is not None:  # published elsewhere
                self.reviews.pop((game.id, game.review.turn), None)
                game.review = None
            self.reloads += 1
            await self._finish_if_won(game)
        except StoreError:
            log.exception("reloading game %s from the store failed", game.id)

    # --- lobby ------------------------------------------------------------------------
    async def new_game(
        self,
        table_id: int,
        host_user_id: int,
        schedule_kind: str = "forum",
        timezone: str = "Europe/Moscow",
        *,
        turn_minutes: int = 10,
        roles: str | None = None,
        activity_rules: bool = True,
        reveal: bool = True,
        seed: int | None = None,
        wishes: bool = False,
        review: int = 0,
    ) -> GameRecord:
        try:
            schedule = make_schedule(schedule_kind, timezone, turn_minutes=turn_minutes)
        except ValueError as exc:
            raise ServiceError(f"error.{getattr(exc, 'code', 'bad_schedule')}") from None
        if not 0 <= review <= MAX_REVIEW_MINUTES:
            raise ServiceError("error.bad_review", maximum=MAX_REVIEW_MINUTES)
        params = schedule.to_dict()
        if review:
            params["review"] = review  # core/review.py
        role_list = self._parse_roles(roles) if roles else None
        async with self.table_lock(table_id):
            if await self.store.open_game(table_id) is not None:
                raise ServiceError("error.game_exists")
            table = await self.store.get_table(table_id)
            if seed is None and self.game_seed is not None:
                guild = table.guild_id if table is not None else table_id
                seed = table_seed(self.game_seed, table_id, guild)
            try:
                return await self.store.create_game(
                    table.guild_id if table is not None else table_id,
                    table_id=table_id,
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                    schedule_kind=schedule.kind,
                    timezone=schedule.tz,
                    schedule_params=params,
                    activity_rules=activity_rules,
                    roles=role_list,
                    host_user_id=host_user_id,
                    reveal=reveal,
                    wishes=wishes,
                )
            except OpenGameExists:  # another process opened one meanwhile
                raise ServiceError("error.game_exists") from None

    @staticmethod
    def _parse_roles(text: str) -> list[str]:
        try:
            roles = parse_role_list(text)
            validate_role_list(roles)
        except SetupError as exc:
            raise setup_refusal(exc) from None
        return roles

    async def _lobby(self, table_id: int) -> GameRecord:
        rec = await self.store.open_game(table_id)
        if rec is None or rec.status != "lobby":
            raise ServiceError("error.no_signup")
        return rec

    async def join(self, table_id: int, user_id: int) -> int:
        """Sign up; refused past the most members a game seats (the store decides, so of two
        members racing for the last place, in one process or two, one gets it)."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            try:
                added = await self.store.add_signup(rec.id, user_id, limit=MAX_PLAYERS)
            except SignupFull:
                raise ServiceError("error.signup_full", maximum=MAX_PLAYERS) from None
            if not added:
                raise ServiceError("error.already_joined")
            return len(await self.store.signups(rec.id))

    async def wish(self, table_id: int, user_id: int, role: str | None) -> GameRecord:
        """R58: a signed-up member's role wish (None withdraws it), while sign-up is open in
        a game with wishes. Refused, changing nothing: no sign-up, no wishes in this game, a
        role nobody may wish for, not signed up."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if not rec.wishes:
                raise ServiceError("error.no_wishes")
            if role is not None and not is_wishable(role):
                raise ServiceError("error.unknown_wish", role=role)
            if not await self.store.set_wish(rec.id, user_id, role):
                raise ServiceError("error.not_joined")
            return rec

    async def signed_up(self, table_id: int, user_id: int) -> tuple[GameRecord, str | None] | None:
        """The open sign-up ``user_id`` is in, with his own wish (R58), or None."""
        rec = await self.store.open_game(table_id)
        if rec is None or rec.status != "lobby":
            return None
        if user_id not in await self.store.signups(rec.id):
            return None
        return rec, (await self.store.wishes(rec.id)).get(user_id)

    async def wish_tally(self, game_id: int) -> dict[str, int]:
        """R58: the sign-up post's tally, counts by role only."""
        return wish_tally(await self.store.wishes(game_id))

    async def leave(self, table_id: int, user_id: int) -> int:
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if not await self.store.remove_signup(rec.id, user_id):
                raise ServiceError("error.not_joined")
            return len(await self.store.signups(rec.id))

    async def member_left(self, table_id: int, user_id: int) -> tuple[str, int | str] | None:
        """A member left the server: out of the open sign-up (``("signup", count)``), or, in
        a running game, ``("player", nick)`` for the hosts to replace him; else None."""
        async with self.table_lock(table_id):
            game = self.game_in(table_id)
            if game is not None:
                nick = game.nick_of(user_id)
                if nick is None or nick not in game.engine.state.players:
                    return None
                if not game.engine.state.players[nick].alive:
                    return None
                return ("player", nick)
            rec = await self.store.open_game(table_id)
            if rec is None or rec.status != "lobby":
                return None
            if not await self.store.remove_signup(rec.id, user_id):
                return None
            return ("signup", len(await self.store.signups(rec.id)))

    async def set_roles(
        self,
        table_id: int,
        roles: str | None,
        preset_for: int | None,
        *,
        from_wishes: bool = False,
    ) -> list[str]:
        """The role list: written out, adopted from the wishes' tally (R58: Villagers for the
        members who wished for nothing, checked as any setup, R43), or a preset."""
        async with self.table_lock(table_id):
            rec = await self._lobby(table_id)
            if roles:
                role_list = self._parse_roles(roles)
            elif from_wishes:
                if not rec.wishes:
                    raise ServiceError("error.no_wishes")
                members = await self.store.signups(rec.id)
                role_list = roles_from_wishes(members, await self.store.wishes(rec.id))
                try:
                    validate_role_list(role_list)
                except SetupError as exc:
                    raise setup_refusal(exc) from None
            else:
                count = preset_for or len(await self.store.signups(rec.id))
                try:
                    role_list = preset(count)
                except SetupError as exc:
                    raise setup_refusal(exc) from None
            try:
                await self.store.update_lobby(rec.id, roles=role_list)
            except NotFound:
                raise ServiceError("error.no_signup") from None
            return role_list

    async def start(
        self,
        table_id: int,
        theme: str = "en",
        *,
        is_member: Callable[[int], bool] | None = None,
    ) -> LiveGame:
        """Roles at random from the stored seed (R13), nicknames (R44), turn 1 opens.

        ``is_member`` (the bot's member cache): sign-ups of members who left the server while
        the bot could not see it are dropped first."""
        async with self.table_lock(table_id):
            return await self._start(table_id, theme, is_member)

    async def _start(
        self, table_id: int, theme: str, is_member: Callable[[int], bool] | None
    ) -> LiveGame:
        # A retry after a start whose commit went through but whose reply failed finishes
        # that start (the live game, the role cards) instead of refusing.
        rec = await self.store.open_game(table_id)
        if rec is not None and rec.status == "running" and rec.id not in self.live:
            return await self._open(rec)
        rec = await self._lobby(table_id)
        members = await self.store.signups(rec.id)
        if is_member is not None:
            for gone in [uid for uid in members if not is_member(uid)]:
                log.info("game %s: dropping the sign-up of %s, who left the server", rec.id, gone)
                await self.store.remove_signup(rec.id, gone)
                members.remove(gone)
        roles: list[str] = list(rec.roles) if rec.roles else []
        if not roles:
            try:
                roles = preset(len(members))
            except SetupError as exc:
                raise setup_refusal(exc) from None
        # R13, R58: the seats from the seed (never the sign-up order), the wishes granted first.
        wishes = await self.store.wishes(rec.id) if rec.wishes else None
        try:
            dealt = deal(members, roles, rec.seed, wishes)
        except SetupError as exc:
            raise setup_refusal(exc) from None
        nicks = assign_nicknames(len(dealt), rec.seed, theme)
        specs = [
            PlayerSpec(user_id=uid, nick=nick, role=role)
            for (uid, role), nick in zip(dealt, nicks, strict=True)
        ]
        schedule = self._schedule(rec)
        now = self.clock()
        deadline = first_deadline(schedule, now)
        # The role cards and turn 1's opening commit with the seats (one transaction).
        first = rebuild([(s.nick, s.role) for s in specs], rec.seed, rec.activity_rules, [], ())
        cards = [Announcement("role_card", s.nick, {"turn": 1}) for s in specs]
        opening = turn_open_announcement(first.state, 1, deadline.isoformat())
        try:
            rec = await self.store.start_game(
                rec.id,
                specs,
                deadline=deadline,
                phase="open",
                started_at=now,
                outbox_items=_items([*cards, opening]),
            )
        except NotFound:  # started or ended by another process meanwhile
            raise ServiceError("error.no_signup") from None
        return await self._open(rec)

    async def _open(self, rec: GameRecord) -> LiveGame:
        """A started game goes live; its role cards and turn 1's opening are queued once."""
        live = await self._rebuild(rec)
        await self._deal_cards_once(live)
        self.live[rec.id] = live  # last: until then a retry of the start finishes it
        return live

    async def _deal_cards_once(self, live: LiveGame) -> None:
        """Queue the role cards and turn 1's opening unless they are queued already (the
        start commits them with the seats; a game started by an older build may lack them)."""
        if await self.store.last_outbox(live.id, "role_card") is not None:
            return
        deadline = live.record.deadline
        cards = [Announcement("role_card", p.nick, {"turn": 1}) for p in live.players]
        iso = deadline.isoformat() if deadline is not None else None
        opening = turn_open_announcement(live.engine.state, 1, iso)
        await self.store.add_outbox(live.id, 1, _items([*cards, opening]))

    # --- players ----------------------------------------------------------------------
    def card(self, table_id: int, user_id: int) -> RoleCard:
        game = self.running(table_id)
        nick = game.nick_of(user_id)
        if nick is None:
            raise ServiceError("error.not_a_player")
        return role_card(game.public_state, nick)  # core/review.py: not the held results

    async def held_game(self, table_id: int) -> LiveGame | None:
        """The table's game that ended with its last results still in the host's review
        (core/review.py), as the players knew it before them: read by their private replies
        (``/role``, ``/status``, ``/players``, ``/help``) so that none tells the game is over
        before the results do. Nothing changes it; publication ends it."""
        for review in list(self.reviews.values()):
            if review.game_id in self.live or not review.draft.get("before"):
                continue
            rec = await self.store.get_game(review.game_id)
            if rec is None or rec.table_id != table_id:
                continue
            engine = game_from_snapshot(review.draft["before"])
            players = await self.store.players(rec.id)
            return LiveGame(rec, engine, players, self._schedule(rec), review=review)
        return None

    async def card_now(self, table_id: int, user_id: int) -> tuple[LiveGame, str, RoleCard]:
        """The member's game, nickname and card as he knows them: the running game, or one
        whose last results wait for the host (:meth:`held_game`)."""
        game = self.game_in(table_id) or await self.held_game(table_id)
        if game is None:
            raise ServiceError("error.no_running_game")
        nick = game.nick_of(user_id)
        if nick is None:
            raise ServiceError("error.not_a_player")
        return game, nick, role_card(game.public_state, nick)

    def player_nick(self, table_id: int, user_id: int) -> tuple[LiveGame, str]:
        game = self.running(table_id)
        nick = game.nick_of(user_id)
        if nick is None:
            raise ServiceError("error.not_a_player")
        return game, nick

    async def submit(self, table_id: int, user_id: int, raw: dict[str, Any]) -> Accepted:
        """A player's request: validated by the rules, committed, then applied.

        Validated against the game this process holds; the append is fenced in the store
        (``Fence``: the turn, phase and accepted entries validated against), so when another
        process changed the game meanwhile nothing is written, the game is reloaded from the
        store and the request validated again: the player's answer is the one a single
        process would give.

        A request that waited while the deadline closed the stage it was sent in is decided
        in the next one, and its answer says so (``Accepted.sent_turn``, ``LateRefusal``)."""
        game, _nick = self.player_nick(table_id, user_id)
        sent = (game.id, game.engine.turn, game.engine.phase)
        for _attempt in range(STALE_ATTEMPTS):
            game, nick = self.player_nick(table_id, user_id)
            try:
                accepted = await self._submit(game, nick, user_id, raw)
            except StaleGame as exc:  # reloaded by _store_is_the_truth
                log.info("game %s: %s; reloaded, deciding again", game.id, exc)
                continue
            except ServiceError as refusal:
                late = (game.id, game.engine.turn, game.engine.phase) != sent
                if late and game.id == sent[0] and not isinstance(refusal, LateRefusal):
                    raise LateRefusal(sent[1], refusal) from None
                raise
            if game.id == sent[0] and accepted.turn != sent[1]:
                accepted = attrs.evolve(accepted, sent_turn=sent[1])
            return accepted
        raise ServiceError("error.game_changed")

    async def _submit(
        self, game: LiveGame, nick: str, user_id: int, raw: dict[str, Any]
    ) -> Accepted:
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._not_in_review(game)
            engine = game.engine
            req = parse_request({**raw, "by": nick})
            if req.do == "note" and is_blank(req.text or ""):
                raise ServiceError("error.empty_note")  # R37: one note a game, not a blank one
            try:  # R44: a typed name is matched under the exact rule, kept as the game spells it
                req = resolve_request(req, engine.state.players)
            except UnknownName as exc:
                raise ServiceError("error.unknown_nick", nick=exc.typed) from None
            now = self.clock()
            deadline = game.record.deadline
            open_ = deadline is None or hunts_open(game.schedule, deadline, now)
            refusal = validate_request(engine.state, req, hunts_open=open_)
            section = "after" if req.do == "shoot" else "requests"
            fence = game.fence()
            if refusal is not None:
                await self.store.add_request(
                    game.id,
                    engine.turn,
                    section,
                    req.to_dict(),
                    user_id,
                    refused(refusal.code),
                    fence=fence,
                )
                if refusal.code is RefusalCode.HUNT_NOT_OPEN and deadline is not None:
                    # R4: when it opens, a Discord timestamp the reader sees in his own time
                    opens = hunt_opens_at(game.schedule, deadline)
                    raise ServiceError("refusal.hunt_opens_at", opens=int(opens.timestamp()))
                raise ServiceError(f"refusal.{refusal.code}")
            await self.store.add_request(
                game.id, engine.turn, section, req.to_dict(), user_id, fence=fence
            )
            game.entries += 1
            before = engine.standing_requests(nick)
            applied = engine.submit(req, hunts_open=open_)
            assert applied is None, applied
            after = engine.standing_requests(nick)
            slot = verb_slot(req.do)
            withdrawn = tuple(r.do for r in before if r not in after and verb_slot(r.do) != slot)
            update = kill_board(engine.state) if req.do == "kill" else None
            accepted = Accepted(req, engine.turn, update, withdrawn)
            closes = req.do == "shoot" and not engine.state.pistols
        if closes:  # the last shot closes its window, and only its own (not the next turn)
            await self.deadline_reached(game.id, stage=(accepted.turn, Phase.PISTOL))
        return accepted

    async def post(self, table_id: int, user_id: int, text: str) -> bool:
        """A post published at once (callers with no channel to wait on: tests, benches):
        :meth:`queue_post` then :meth:`post_shown`. Returns whether it counted (R52)."""
        queued = await self.queue_post(table_id, user_id, text)
        return await self.post_shown(queued.row_id, queued.game_id, queued.turn, queued.payload)

    async def queue_post(
        self, table_id: int, user_id: int, text: str, picture: CleanImage | None = None
    ) -> QueuedPost:
        """A post in #game under the player's nickname: refused when it is blank (nothing
        would be published, `rules.text`), else committed to the outbox (kind ``post``,
        audience ``public``) in #game's order with the announcements, before the player is
        told anything. Nothing is counted or archived yet: only a post Discord showed is
        (:meth:`post_shown`, called by the delivery). ``picture`` (already stripped of its
        metadata, ``core/images.py``) goes with it, kept in the store in the same transaction
        until it is shown; the text may then be blank."""
        game, nick = self.player_nick(table_id, user_id)
        if is_blank(text):
            if picture is None:
                raise ServiceError("error.empty_text")
            text = ""
        # The held results are not out (core/review.py): a post would show who died in them.
        self._not_in_review(game)
        turn = game.engine.turn
        body = {
            "nick": nick,
            "text": text,
            "ghost": not game.engine.state.alive(nick),
            "at": self.clock().isoformat(),
        }
        if picture is not None:
            body["picture"] = True
        item = OutboxItem(
            kind=POST_KIND, payload={"kind": POST_KIND, "audience": PUBLIC, "payload": body}
        )
        if picture is None:
            [row_id] = await self.store.add_outbox(game.id, turn, [item])
        else:
            row_id = await self.store.queue_picture_post(
                game.id, turn, item, picture.filename, picture.data
            )
        return QueuedPost(game_id=game.id, row_id=row_id, turn=turn, payload=body)

    async def post_shown(
        self,
        row_id: int,
        game_id: int,
        turn: int,
        payload: dict[str, Any],
        *,
        message_id: int | None = None,
    ) -> bool:
        """The post of outbox row ``row_id`` (``payload`` as :meth:`queue_post` wrote it) was
        shown in #game: it counts for a living player while the requests of the turn it was
        written in are still open (R52; a ghost's never does, nor one between turns, or one
        shown only after its turn was resolved), then it is kept for the archive and its row
        marked sent (with ``message_id``, the last message it posted), in one transaction
        (:meth:`GameStore.publish_post`). The count comes first (the other order could lose
        it): confirmed again after the archive's write failed, it is not counted again; only
        a crash in between counts it twice, which R52 does not mind. Returns whether it counted."""
        nick = str(payload.get("nick", ""))
        ghost = bool(payload.get("ghost"))
        at_text = payload.get("at")
        at = datetime.fromisoformat(at_text) if isinstance(at_text, str) else self.clock()
        counted = False if ghost else await self._count_post(row_id, game_id, turn, nick)
        text = archived_text(str(payload.get("text", "")), bool(payload.get("picture")))
        await self.store.publish_post(
            row_id, game_id, turn, nick, text, ghost=ghost, at=at, message_id=message_id
        )
        return counted

    async def _count_post(self, row_id: int, game_id: int, turn: int, nick: str) -> bool:
        if row_id in self._counted_posts:  # counted, then the archive's write failed
            return True
        live = self.live.get(game_id)
        if live is None or live.engine.turn != turn or not live.engine.state.alive(nick):
            return False
        user_id = live.user_of(nick)
        if user_id is None:
            return False
        try:
            await self.submit(live.record.table_id, user_id, {"do": "post"})
        except ServiceError as refusal:
            if refusal.key not in ("refusal.request_closed", "error.no_running_game"):
                raise
            return False  # between turns (the pistol window): talk is free, it does not count
        self._counted_posts[row_id] = None
        while len(self._counted_posts) > COUNTED_POSTS_KEPT:
            del self._counted_posts[next(iter(self._counted_posts))]
        return True

    async def set_profile(
        self,
        table_id: int,
        user_id: int,
        *,
        avatar_url: str | None = None,
        signature: str | None = None,
    ) -> PlayerRecord:
        """R10: a player's anonymous avatar and signature (None leaves a field as it is)."""
        game, _nick = self.player_nick(table_id, user_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            record = await self.store.set_profile(
                game.id,
                user_id,
                avatar_url=KEEP if avatar_url is None else avatar_url,
                signature=KEEP if signature is None else signature,
            )
            game.players = await self.store.players(game.id)
            return record

    # --- host -------------------------------------------------------------------------
    async def host_action(
        self, table_id: int, actor_id: int, action: HostAction, reason: str | None = None
    ) -> HostAction:
        """R56: exclude, deprive the vote, grant the double kill (all through the rules).
        Returns the action as applied, naming the player as the game spells him (R44).
        Fenced in the store like a player's request (:meth:`submit`)."""
        for _attempt in range(STALE_ATTEMPTS):
            game = self.running(table_id)
            try:
                return await self._host_action(game, actor_id, action, reason)
            except StaleGame as exc:  # reloaded by _store_is_the_truth
                log.info("game %s: %s; reloaded, deciding again", game.id, exc)
        raise ServiceError("error.game_changed")

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
                outbox_items=_items([audit, *announcements]),
                fence=game.fence(),
            )
            game.engine = trial
            game.entries += 1
            if turn > engine.turn:
                game.entries_next += 1
            await self._finish_if_won(game)
        return action

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
        await self.store.finish_game(game.id, engine.winner, _items([over]))
        self.live.pop(game.id, None)

    async def replace(
        self, table_id: int, actor_id: int, nick: str, new_user_id: int
    ) -> tuple[int | None, PlayerRecord]:
        """`/mafia replace`: a substitute takes over a nickname and gets its role card.
        Returns the previous user id and the new seat. The seat, its audit row, the notices
        and the card commit together: the same replacement again (a retry whose answer was
        lost) changes and queues nothing more."""
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            found = find_name(game.engine.state.players, nick)  # R44: the exact rule
            if found is None:
                raise ServiceError("error.unknown_nick", nick=nick)
            nick = found
            previous = game.user_of(nick)
            if previous == new_user_id:  # a retry once the seat had changed: done already
                record = next(p for p in game.players if p.nick == nick)
                return previous, record
            if game.nick_of(new_user_id) is not None:
                raise ServiceError("error.already_playing")
            # One transaction: the seat, its audit row and #host line, #game's notice (R56:
            # the nickname has a new player, never who) and the substitute's role card.
            audit, spec = _audited(actor_id, "replace", {"nick": nick, "user_id": new_user_id})
            notice = replaced_announcement(nick)
            card = Announcement("role_card", nick, {"turn": game.engine.turn})
            record = await self.store.replace_player(
                game.id, nick, new_user_id, outbox_items=_items([audit, notice, card], spec)
            )
            game.players = await self.store.players(game.id)
            return previous, record

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
                audit, spec = _audited(actor_id, "end", {"signup": True})
                await self.store.finish_game(rec.id, None, _items([audit], spec))
                return rec
            async with game.lock, self._store_is_the_truth(game):
                self._still_live(game)
                ending = self._ending(game)
                over = game_over_announcement(game.engine.state, None, ending)
                audit, spec = _audited(actor_id, "end", {})
                await self.store.finish_game(game.id, None, _items([audit, over], spec))
                self.live.pop(game.id, None)
            return None

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
            self._not_in_review(game)
            if stage is not None and game.engine.phase.value != stage:
                raise ServiceError("error.turn_already_resolved", turn=turn)
            audit, spec = _audited(actor_id, "resolve", {"turn": turn, "stage": stage})
            # Its line in #host and its audit row commit with the resolution it asked for.
            await self._advance_locked(game, first=[audit], audit=spec)

    # --- the clock --------------------------------------------------------------------
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
        for attempt in range(1, STALE_ATTEMPTS + 1):
            try:
                if not await self._advance(game, first, audit):
                    log.info("game %s: turn %s resolved by another process", game.id, stage[0])
                    await self._refresh(game)
                return
            except StaleGame as exc:
                log.info("game %s: %s; reloading it", game.id, exc)
                await self._refresh(game)
                moved = (game.engine.turn, game.engine.phase) != stage
                if moved or self.live.get(game.id) is not game or attempt == STALE_ATTEMPTS:
                    return
            except Exception:
                log.exception("resolving game %s failed; reloading it from the store", game.id)
                await self._refresh(game)
                raise

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
        if engine.phase is Phase.OPEN:
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
                if not await self.store.begin_pistol_window(
                    game.id, turn, result.to_dict(), _items(night, audit), window_end, fence=fence
                ):
                    return False
                game.record = await self.store.require_game(game.id)
                return True
        else:
            night = list(first)
        result = engine.finish_turn()
        engine.history.clear()  # a live game keeps no turn results (see _rebuild)
        ending = self._ending(game) if result.winner is not None else None
        final = final_announcements(engine.state, result, ending)
        deadline: datetime | None = None
        if result.winner is None:
            previous = game.record.deadline or now
            deadline = next_deadline(game.schedule, previous, now)
            final.append(turn_open_announcement(engine.state, engine.turn, deadline.isoformat()))
        queued = [*night, *final]
        minutes = review_minutes(game.record)
        if minutes:  # core/review.py: held for the host; the next turn waits for them
            queued = hold(queued, turn=turn, now=now, minutes=minutes, before=before)
            deadline = None
        claimed = await self.store.record_resolution(
            game.id,
            turn,
            result.to_dict(),
            _items(queued, audit),
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
            previous = [
                r for r in await self.store.resolutions(game.id) if r.turn == game.engine.turn - 1
            ]
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

    async def heartbeat(self, process: str, *, cause: DowntimeCause = "discord") -> datetime | None:
        """R59: this process serves its games now. ``process`` names the shards it runs (the
        same key after a restart). A longer gap than :data:`DOWNTIME_GAP` since its previous
        beat is kept as downtime of each running game it holds, as ``cause``: ``down`` for
        the first beat of a run (the bot was not running), ``discord`` for later ones (it
        beats only while Discord answers it). Returns the gap's start, if there was one."""
        ids = list(self.live)
        since = await self.store.beat(process, self.clock(), ids, gap=DOWNTIME_GAP, cause=cause)
        if since is not None:
            log.warning("downtime since %s (%s) for %d running games", since, cause, len(ids))
        return since

    # --- the host's review (core/review.py) ---------------------------------------------
    @staticmethod
    def _not_in_review(game: LiveGame) -> None:
        if game.review is not None:
            raise ServiceError("error.review_pending")

    def pending_review(self, game_id: int, turn: int) -> ReviewRecord:
        review = self.reviews.get((game_id, turn))
        if review is None:
            raise ServiceError("error.review_published")
        return review

    async def set_story(self, game_id: int, turn: int, story: str) -> None:
        """The host's story of a pending draft (shown above the results when published);
        editable until then."""
        review = self.pending_review(game_id, turn)
        if is_blank(story) or len(story) > MAX_STORY:
            raise ServiceError("error.empty_text")
        if not await self.store.set_review_story(game_id, turn, story):
            self.reviews.pop((game_id, turn), None)
            raise ServiceError("error.review_published")
        self.reviews[(game_id, turn)] = attrs.evolve(review, story=story)
        live = self.live.get(game_id)
        if live is not None and live.review is not None and live.review.turn == turn:
            live.review = self.reviews[(game_id, turn)]

    async def publish(self, game_id: int, turn: int, *, if_due: bool = False) -> bool:
        """Publish a pending draft (the host's button, or the review clock with ``if_due``
        once its time is over): the story, the held results and the next turn's opening,
        its deadline counted from now, in one transaction and exactly once. False: it was
        published already (another click, the clock, another process), or is not due."""
        review = self.reviews.get((game_id, turn))
        if review is None:
            return False
        game = self.live.get(game_id)
        lock = game.lock if game is not None else asyncio.Lock()
        async with lock:
            review = self.reviews.get((game_id, turn))
            if review is None:
                return False
            now = self.clock()
            if if_due and datetime.fromisoformat(str(review.draft["until"])) > now:
                return False
            stored = await self.store.pending_reviews(game_id)
            current = next((r for r in stored if r.turn == turn), None)
            items = held_items(review, current.story if current is not None else review.story)
            deadline: datetime | None = None
            next_turn = turn
            if game is not None and self.live.get(game_id) is game and game.review is not None:
                deadline = next_deadline(game.schedule, now, now)
                next_turn = game.engine.turn
                opening = turn_open_announcement(game.engine.state, next_turn, deadline.isoformat())
                items.extend(_items([opening]))
            done = current is not None and await self.store.publish_review(
                game_id, turn, next_turn, items, deadline, now
            )
            self.reviews.pop((game_id, turn), None)
            if game is not None:
                game.review = None
                if done and self.live.get(game_id) is game:
                    game.record = await self.store.require_game(game_id)
                elif not done:
                    await self._refresh(game)
            return bool(done)

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
                await self.store.add_outbox(game.id, turn, _items(reminders))
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
            await self.store.add_outbox(game.id, turn, _items([notice]))
            game.notices[kind.value] = NoticeMark(turn, deadline)  # only once queued
            return True

    async def extend(self, table_id: int, actor_id: int, minutes: int) -> datetime:
        if not 1 <= minutes <= MAX_EXTEND_MINUTES:  # never a datetime overflow
            raise ServiceError("error.bad_extend", maximum=MAX_EXTEND_MINUTES)
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._not_in_review(game)
            base = game.record.deadline or self.clock()
            deadline = base + timedelta(minutes=minutes)
            notice = clock_extended_announcement(deadline.isoformat())  # R56: everyone is told
            audit, spec = _audited(actor_id, "extend", {"minutes": minutes})
            game.record = await self.store.set_deadline(
                game.id, deadline, _items([audit, notice], spec)
            )
            return deadline

    async def pause(self, table_id: int, actor_id: int) -> None:
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            self._not_in_review(game)
            if game.record.paused or game.record.deadline is None:
                raise ServiceError("error.already_paused")
            remaining = max(0.0, (game.record.deadline - self.clock()).total_seconds())
            notice = clock_paused_announcement(remaining)  # R56: everyone is told
            audit, spec = _audited(actor_id, "pause", {})
            game.record = await self.store.pause_game(
                game.id, remaining, _items([audit, notice], spec)
            )

    async def resume(self, table_id: int, actor_id: int) -> datetime:
        game = self.running(table_id)
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            if not game.record.paused:
                raise ServiceError("error.not_paused")
            deadline = self.clock() + timedelta(seconds=game.record.paused_remaining or 0.0)
            notice = clock_resumed_announcement(deadline.isoformat())  # R56: everyone is told
            audit, spec = _audited(actor_id, "resume", {})
            game.record = await self.store.resume_game(
                game.id, deadline, _items([audit, notice], spec)
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
        audit, spec = _audited(actor_id, command, args)
        await self.store.add_outbox(game_id, turn, _items([audit], spec))  # one transaction
        return True

    async def host_notice(self, game_id: int, kind: str, payload: dict[str, Any]) -> bool:
        """Queue a notice for the hosts of a running game (#host, in the order of the game's
        other #host rows): what the bot saw happen on the server mid-game (rights gained, the
        mafia's room repaired, a player back; ``bot/serverlife.py``). The outbox keeps it, so
        it is sent once and stays readable (:meth:`host_notices`). False: no running game."""
        game = self.live.get(game_id)
        if game is None:
            return False
        notice = Announcement(kind, HOST, payload)
        await self.store.add_outbox(game_id, game.engine.turn, _items([notice]))
        return True

    async def host_notices(self, game_id: int, kind: str) -> list[dict[str, Any]]:
        """The payloads of the game's #host notices of ``kind`` queued so far (sent or not),
        oldest first: what the hosts were already told, also before a restart."""
        return [
            dict(row.payload.get("payload") or {})
            for row in await self.store.outbox(game_id)
            if row.kind == kind
        ]

    async def pending_outbox(self) -> list[OutboxRecord]:
        return await self.store.pending_outbox()
