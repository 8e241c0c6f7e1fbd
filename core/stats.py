"""Player statistics of one server (``/stats``) and its list of finished games (``/history``).

Everything here is derived from the stored games (:mod:`core.history`), never from counters
kept on the side, so the numbers cannot drift from what happened. A finished game never
changes, so what one game says about its players (:class:`GameFacts`) is computed once and kept
in memory (an LRU per store, :data:`CACHE_SIZE` games); :func:`forget` drops games from it
(purging a member or a server deletes them from the store).

Definitions (the README repeats them for players):

- **played**: the member held a seat when the game ended (a replaced member's seat counts for
  the one who replaced him: the store keeps the seat's last holder; R60).
- **left** (R63): the times the member left a game for inactivity (R52, cause ``inactive``),
  for missed votes (R53, cause ``missed_votes``), and by replacement (R60: a replaced member's
  game counts as a replacement, not a game).
- **won**: the member's faction *at the end* is the winner: town, mafia, or the maniac alone
  (R12, R15). A Foundling converted by the Boss's death counts with the mafia (R22); a promoted
  Sergeant stays town (R19). A draw, or a game the host ended (no winner), is won by nobody.
- **by side**: the side a member wins with, by his faction at the end (the town, the mafia, or a
  loner's own: ``maniac``, ``crook``); **by role**: the role dealt at the start.
- **survived**: alive at the end. **lynched**: died by the day's vote (cause ``lynch``);
  **deaths**: every death by its cause (docs/REFERENCE.md section 8's causes).
- **checks**: the checks (R18) the member made as commissar, or as the sergeant promoted to
  commissar (R19), that the rules counted (a turn's check request standing at the deadline).
  **answered**: those that got an answer (not blocked, R21; checker and target alive when the
  night began, R39). **accurate**: answered checks whose answer ("mafia" / "not mafia") matched
  the target's true faction when the check was made (step 2d of that turn): a mafia member, or
  a Foundling converted earlier in the game or earlier in that same night (R22), is mafia;
  everyone else, the maniac included, is not. So a check on a slandered town player (R25,
  answered "mafia") is inaccurate. **accuracy** = accurate / answered.

Privacy (R55 and the host's ``reveal`` choice at ``/mafia new``): a game whose members were not
revealed never counts toward what others read about a member (the leaderboard, ``/stats`` of
somebody else); a member reading his own numbers sees all his games.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

import attrs

from core.history import FinishedGame, load_finished
from db.errors import NotFound
from db.interface import GameStore
from db.models import GameRecord
from rules.model import Faction, TurnResult
from rules.replay import replay_game
from rules.roles.base import STEP_ORDER, Role, Step
from rules.roles.registry import role_class
from rules.win import loner_winners

#: Finished games whose facts are kept in memory, per store (least recently used dropped).
CACHE_SIZE: Final[int] = 4096

#: The winner's name of each side (``GameRecord.winner``, R15): a loner wins alone, under
#: his role's name (`Role.wins_as`).
FACTION_WINNER: Final[Mapping[Faction, str]] = {
    Faction.TOWN: "town",
    Faction.MAFIA: "mafia",
}
#: The winners that are a side (a draw or no winner is won by nobody): the town, the mafia
#: and each loner of the registry (``maniac``, ...), who wins alone, under his role's name.
SIDES: Final[tuple[str, ...]] = ("town", "mafia", *loner_winners())


def side_of(role: type[Role]) -> str:
    """The winner's name a player of this role (at the end) wins with (R15)."""
    return FACTION_WINNER.get(role.faction) or role.wins_as()


_CHECK_STEP: Final[int] = STEP_ORDER.index(Step.CHECKS)


@attrs.frozen
class SeatFacts:
    """One seat of a finished game, as the stats count it."""

    nick: str
    user_id: int
    role: str  # the role dealt
    side: str  # the side he wins with, by his faction at the end: "town" | "mafia" | "maniac" ...
    won: bool
    alive: bool
    cause: str | None  # the cause of death, None when alive
    checks: int = 0  # R18, R19: checks made that the rules counted
    answered: int = 0  # ... that got an answer
    accurate: int = 0  # ... whose answer matched the target's faction then


@attrs.frozen
class GameFacts:
    """What one finished game says, for ``/history`` and ``/stats``."""

    id: int
    guild_id: int
    table_id: int
    table_name: str  # '' for a server's first table (or a table dropped since)
    reveal: bool
    started: datetime | None
    ended: datetime
    winner: str | None  # "town" | "mafia" | "maniac" | "draw" | None (the host ended it)
    turns: int
    seats: tuple[SeatFacts, ...]
    updated_at: datetime  # the record's, to tell a cached entry from a changed game
    replaced: tuple[int, ...] = ()  # R60: the members replaced in the game, in order


def _history(script: Mapping[str, object]) -> tuple[list[TurnResult], dict[str, str]]:
    """The game replayed from its export: every turn's result (with the step of each role
    change, which the replay format leaves out) and each nickname's side at the end."""
    game, _outcome = replay_game(script)
    sides = {nick: side_of(p.role_cls) for nick, p in game.state.players.items()}
    return game.history, sides


def _ended(summary: Mapping[str, Any], stored: datetime) -> datetime:
    """When the game ended on the service's clock (its final announcement), else the store's
    time of the end."""
    ended = summary.get("ended")
    return datetime.fromisoformat(ended) if isinstance(ended, str) and ended else stored


def _before_check(step: Step | None) -> bool:
    """A role change at ``step`` happened before the night's check (2d): a host exclusion
    (no step) or a death of steps 0-2c."""
    return step is None or STEP_ORDER.index(step) < _CHECK_STEP


def game_facts(game: FinishedGame) -> GameFacts:
    """The facts of one finished game (pure: reads only ``game``)."""
    history, end_sides = _history(game.script)
    seats = {p.nick: p for p in game.players}
    mafia = {  # R12: the mafia members dealt
        e["nick"] for e in game.summary["roles"] if role_class(e["role"]).faction is Faction.MAFIA
    }
    checks: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    accurate: Counter[str] = Counter()
    for result in history:
        early = [c for c in result.conversions if _before_check(c.step)]
        mafia |= {c.player for c in early}  # R22: converted before the check
        for check in result.checks:
            checks[check.by] += 1
            if check.result is None:
                continue
            answered[check.by] += 1
            truth = "mafia" if check.target in mafia else "not_mafia"
            accurate[check.by] += check.result == truth
        mafia |= {c.player for c in result.conversions}
    winner = game.record.winner
    out: list[SeatFacts] = []
    for entry in game.summary["roles"]:
        nick = entry["nick"]
        side = end_sides[nick]
        out.append(
            SeatFacts(
                nick=nick,
                user_id=seats[nick].user_id,
                role=entry["role"],
                side=side,
                won=side == winner,  # R15, R22
                alive=bool(entry["alive"]),
                cause=entry.get("cause"),
                checks=checks[nick],
                answered=answered[nick],
                accurate=accurate[nick],
            )
        )
    rec = game.record
    return GameFacts(
        id=rec.id,
        guild_id=rec.guild_id,
        table_id=rec.table_id,
        table_name=game.table.name if game.table is not None else "",
        reveal=rec.reveal,
        started=rec.started_at,
        ended=_ended(game.summary, rec.updated_at),
        winner=winner,
        turns=int(game.summary.get("turns") or 0),
        seats=tuple(out),
        updated_at=rec.updated_at,
        replaced=tuple(r.old_user_id for r in game.replacements if r.old_user_id > 0),
    )


# --- the cache -------------------------------------------------------------------------------


class _Cache:
    """Game id -> facts, least recently used first."""

    def __init__(self) -> None:
        self.games: OrderedDict[int, GameFacts] = OrderedDict()

    def get(self, rec: GameRecord) -> GameFacts | None:
        facts = self.games.get(rec.id)
        if facts is None or facts.updated_at != rec.updated_at:
            return None
        self.games.move_to_end(rec.id)
        return facts

    def put(self, facts: GameFacts) -> None:
        self.games[facts.id] = facts
        self.games.move_to_end(facts.id)
        while len(self.games) > CACHE_SIZE:
            self.games.popitem(last=False)


_caches: weakref.WeakKeyDictionary[GameStore, _Cache] = weakref.WeakKeyDictionary()


def forget(game_ids: Iterable[int]) -> None:
    """Drop these games' facts from memory (the privacy purge deletes them from the store)."""
    ids = set(game_ids)
    for cache in list(_caches.values()):
        for game_id in ids:
            cache.games.pop(game_id, None)


def cached_count(store: GameStore) -> int:
    """How many games' facts are kept for ``store`` (tests, diagnostics)."""
    cache = _caches.get(store)
    return len(cache.games) if cache is not None else 0


async def facts_of(store: GameStore, rec: GameRecord) -> GameFacts:
    """The facts of the finished game ``rec``, computed once per store."""
    cache = _caches.get(store)
    if cache is None:
        cache = _caches[store] = _Cache()
    facts = cache.get(rec)
    if facts is None:
        game = await load_finished(store, rec.id)
        # A replay per game, the first time: CPU work, kept off the event loop.
        facts = await asyncio.to_thread(game_facts, game)
        cache.put(facts)
    return facts


async def server_games(store: GameStore, guild_id: int) -> list[GameFacts]:
    """Every finished game of the server (all its tables), newest first. A sign-up cancelled
    before the start is finished too, but no game was played: it is left out; so is a game
    whose last results still wait for the host's review (core/review.py): not over for the
    players until they are published."""
    records = await store.list_games(guild_id=guild_id, status="finished")
    held = {r.game_id for r in await store.pending_reviews()}
    out: list[GameFacts] = []
    for rec in reversed(records):
        if rec.started_at is None or rec.id in held:
            continue
        try:
            out.append(await facts_of(store, rec))
        except NotFound:  # purged meanwhile (/mafia purge): it no longer counts
            continue
    return out


async def server_game(store: GameStore, guild_id: int, game_id: int) -> FinishedGame | None:
    """The finished game ``game_id`` if it is one of this server's; None otherwise (another
    server's game is unknown here, R55: nothing about it leaks)."""
    rec = await store.get_game(game_id)
    if rec is None or rec.guild_id != guild_id or rec.status != "finished":
        return None
    if rec.started_at is None:  # a sign-up cancelled before the start: no game was played
        return None
    if await store.pending_reviews(game_id):  # its end is not published yet (core/review.py)
        return None
    return await load_finished(store, game_id)


# --- what the commands show ------------------------------------------------------------------


@attrs.frozen
class Tally:
    games: int = 0
    wins: int = 0

    def add(self, won: bool) -> Tally:
        return Tally(self.games + 1, self.wins + won)


@attrs.frozen
class MemberStats:
    """A member's numbers on one server (see the module's definitions)."""

    user_id: int
    games: int
    wins: int
    by_side: Mapping[str, Tally]  # the side won with (SIDES) -> games, wins
    by_role: Mapping[str, Tally]  # role dealt -> games, wins
    survived: int
    lynched: int
    deaths: Mapping[str, int]  # cause -> times
    checks: int
    answered: int
    accurate: int
    replaced: int = 0  # R60, R63: games he left by replacement (not counted as games)

    @property
    def inactive(self) -> int:
        """R52, R63: games he left for posting nothing in a turn."""
        return self.deaths.get("inactive", 0)

    @property
    def missed_votes(self) -> int:
        """R53, R63: games he left for missing the lynch vote twice."""
        return self.deaths.get("missed_votes", 0)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def accuracy(self) -> float | None:
        """Accurate / answered checks; None when no check was answered."""
        return self.accurate / self.answered if self.answered else None


def visible_games(games: Iterable[GameFacts], *, own: bool) -> list[GameFacts]:
    """The games that may count: all of them for a member reading his own numbers, else only
    those whose members the host chose to reveal."""
    return [g for g in games if own or g.reveal]


def member_stats(games: Iterable[GameFacts], user_id: int, *, own: bool) -> MemberStats:
    """``user_id``'s numbers over ``games``; ``own``: the reader is that member (he sees the
    games whose members were hidden too)."""
    by_side: dict[str, Tally] = {}
    by_role: dict[str, Tally] = {}
    deaths: Counter[str] = Counter()
    games_n = wins = survived = checks = answered = accurate = replaced = 0
    for game in visible_games(games, own=own):
        replaced += game.replaced.count(user_id)
        for seat in game.seats:
            if seat.user_id != user_id:
                continue
            games_n += 1
            wins += seat.won
            by_side[seat.side] = by_side.get(seat.side, Tally()).add(seat.won)
            by_role[seat.role] = by_role.get(seat.role, Tally()).add(seat.won)
            survived += seat.alive
            if seat.cause is not None:
                deaths[seat.cause] += 1
            checks += seat.checks
            answered += seat.answered
            accurate += seat.accurate
    return MemberStats(
        user_id=user_id,
        games=games_n,
        wins=wins,
        by_side=by_side,
        by_role=by_role,
        survived=survived,
        lynched=deaths["lynch"],
        deaths=dict(deaths),
        checks=checks,
        answered=answered,
        accurate=accurate,
        replaced=replaced,
    )


@attrs.frozen
class LeaderRow:
    user_id: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def leaderboard(games: Iterable[GameFacts], *, min_games: int = 1) -> list[LeaderRow]:
    """The server's members ranked by wins, then win rate, then games played (then user id,
    for a stable order), over revealed games only (privacy); members with fewer than
    ``min_games`` such games are left out."""
    tallies: dict[int, Tally] = {}
    for game in visible_games(games, own=False):
        for seat in game.seats:
            if seat.user_id <= 0:  # a seat whose member's data was purged names nobody
                continue
            tallies[seat.user_id] = tallies.get(seat.user_id, Tally()).add(seat.won)
    rows = [LeaderRow(uid, t.games, t.wins) for uid, t in tallies.items() if t.games >= min_games]
    rows.sort(key=lambda r: (-r.wins, -r.win_rate, -r.games, r.user_id))
    return rows


@attrs.frozen
class TableTotals:
    """One table's finished games and who won them (no member named: every game counts)."""

    table_id: int
    name: str
    games: int
    winners: Mapping[str, int]  # "town" | "mafia" | "maniac" | "draw" | "none" -> games


def table_totals(games: Sequence[GameFacts]) -> list[TableTotals]:
    """Per table (in the order of each table's first game), its games and winners."""
    order: dict[int, str] = {}
    counts: dict[int, Counter[str]] = {}
    for game in sorted(games, key=lambda g: g.id):
        order.setdefault(game.table_id, game.table_name)
        counts.setdefault(game.table_id, Counter())[game.winner or "none"] += 1
    return [
        TableTotals(tid, name, sum(counts[tid].values()), dict(counts[tid]))
        for tid, name in order.items()
    ]
