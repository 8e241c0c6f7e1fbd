"""What stays of a finished game: everything the archive, the picture and the stats read.

:func:`load_finished` gathers one finished game from the store: its record and table, the
seats (members), the stored log exported as a replay script (docs/REPLAY.md), the outcome of
replaying that script through the rules engine (every turn's deaths, checks, lynch votes,
refusals, notes), and the end-of-game summary (winner, why, every nickname's role and fate).
All of it is derived from the stored log, never from counters kept on the side, so it cannot
drift from what happened.

Members: ``summary["roles"][i]["member"]`` is set only when the host chose to reveal them
(``/mafia new reveal``); :attr:`FinishedGame.members` always holds them (nickname -> user id),
for the stats a member reads about himself. Anything shown to others must go through
:meth:`FinishedGame.member_of`, which respects the host's choice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from core.review import DRAFT_KIND, STORY_KIND
from db.errors import NotFound
from db.interface import GameStore
from db.models import (
    GameRecord,
    LogEntry,
    OutboxRecord,
    PlayerRecord,
    PostRecord,
    Replacement,
    TableSettings,
)
from rules.announce import Ending, game_over_announcement
from rules.engine import rebuild
from rules.replay import run_script


@attrs.frozen
class FinishedGame:
    """One finished game as the archive, the picture and the stats read it."""

    record: GameRecord
    table: TableSettings | None  # None when the table was dropped since
    players: tuple[PlayerRecord, ...]  # by seat
    script: Mapping[str, Any]  # the export: a replay script (docs/REPLAY.md)
    outcome: Mapping[str, Any]  # run_script(script): per-turn results, the winner
    summary: Mapping[str, Any]  # the game_over payload: winner, reason, turns, roles, dates
    posts: tuple[PostRecord, ...] = ()  # every public post of #game, in publication order
    #: Requests the rules refused when they were sent (the sender was told why, privately):
    #: not part of the game's script, shown in the archive once the game is over.
    refused: tuple[LogEntry, ...] = ()
    #: The role wishes of a game opened with them (R58), by user id: not for display.
    wishes: Mapping[int, str] = attrs.field(factory=dict)
    #: The host's story of each reviewed turn, as he published it (core/review.py), by turn.
    stories: Mapping[int, str] = attrs.field(factory=dict)
    #: Turns whose results still wait for the host's review (the last one of a game that
    #: ended with it): not published yet.
    unpublished: frozenset[int] = frozenset()
    #: R60: every replacement, in order (who held a nickname before whom): not for display
    #: but through :meth:`holders`, which respects the host's choice to reveal the members.
    replacements: tuple[Replacement, ...] = ()

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def members(self) -> dict[str, int]:
        """Nickname -> user id of every seat, whatever the reveal setting (not for display).
        A seat whose member was purged (``/mafia purge``: a negative id) names nobody."""
        return {p.nick: p.user_id for p in self.players if p.user_id > 0}

    def member_of(self, nick: str) -> int | None:
        """The member behind ``nick`` if the host chose to reveal the members, else None."""
        return self.members.get(nick) if self.record.reveal else None

    def wish_of(self, nick: str) -> str | None:
        """What the member behind ``nick`` wished for (R58), only in a game with wishes
        whose members are revealed: a wish would otherwise trace the nickname to its member
        (the member himself knows his own, the hosts theirs from ``/mafia state``)."""
        member = self.member_of(nick)
        if not self.record.wishes or member is None:
            return None
        return self.wishes.get(member)

    @property
    def winner(self) -> str | None:
        return self.record.winner

    def holders(self) -> list[tuple[str, list[int | None], list[int]]]:
        """R60: each replaced nickname (in the order of its first replacement) with the members
        who played it, in order, and the turns of its replacements. The members are None
        unless the host chose to reveal them (and for a member purged since); that the
        nickname changed hands on those turns is public (#game said so)."""
        out: dict[str, tuple[list[int | None], list[int]]] = {}
        for r in self.replacements:
            members, turns = out.setdefault(r.nick, ([self._shown(r.old_user_id)], []))
            members.append(self._shown(r.new_user_id))
            turns.append(r.turn)
        return [(nick, members, turns) for nick, (members, turns) in out.items()]

    def _shown(self, user_id: int) -> int | None:
        return user_id if self.record.reveal and user_id > 0 else None


def _ended(rec: GameRecord, rows: Sequence[OutboxRecord]) -> str:
    """When the game ended on the service's clock (as its final announcement said), else when
    the store wrote the end."""
    for row in rows:
        if row.kind == "game_over":
            ended = row.payload.get("payload", {}).get("ended")
            if isinstance(ended, str) and ended:
                return ended
    return rec.updated_at.isoformat()


def _stories(rows: Sequence[OutboxRecord]) -> dict[int, str]:
    """The host's stories as published (core/review.py), by the turn each tells: the turn in
    its payload, else that of the draft published with it (the last one queued before it)."""
    stories: dict[int, str] = {}
    draft_turn: int | None = None
    for row in rows:
        payload = row.payload.get("payload") or {}
        if row.kind == DRAFT_KIND:
            draft_turn = row.turn
        elif row.kind == STORY_KIND and str(payload.get("text") or "").strip():
            turn = payload.get("turn", draft_turn)
            if isinstance(turn, int):
                stories[turn] = str(payload["text"])
    return stories


async def load_finished(store: GameStore, game_id: int) -> FinishedGame:
    """The finished game ``game_id``; raises :class:`~db.errors.NotFound` if there is no such
    game, it has not finished, or it never started (a sign-up the host cancelled)."""
    rec = await store.get_game(game_id)
    if rec is None or rec.status != "finished":
        raise NotFound(f"no finished game {game_id}")
    players = tuple(await store.players(game_id))
    if not players:
        raise NotFound(f"game {game_id} never started")
    script = await store.load_script(game_id)
    log = await store.log_entries(game_id)
    resolved = {r.turn for r in await store.resolutions(game_id)}
    rows = await store.outbox(game_id)
    ended = _ended(rec, rows)
    pending = frozenset(r.turn for r in await store.pending_reviews(game_id))
    table = await store.get_table(rec.table_id)
    posts = tuple(await store.posts(game_id))
    wishes = await store.wishes(game_id) if rec.wishes else {}
    # Replaying a long game is CPU work: off the event loop that serves every server.
    summary, outcome = await asyncio.to_thread(_derive, rec, players, script, log, resolved, ended)
    return FinishedGame(
        record=rec,
        table=table,
        players=players,
        script=script,
        outcome=outcome,
        summary=summary,
        posts=posts,
        refused=tuple(e for e in log if not e.accepted),
        wishes=wishes,
        stories=_stories(rows),
        unpublished=pending,
        replacements=tuple(await store.replacements(game_id)),
    )


def _derive(
    rec: GameRecord,
    players: Sequence[PlayerRecord],
    script: Mapping[str, Any],
    log: Sequence[LogEntry],
    resolved: set[int],
    ended: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The end-of-game summary (the game rebuilt from its log, as the service rebuilds it) and
    the outcome of replaying its export (pure: run in a worker thread)."""
    engine = rebuild(
        [(p.nick, p.role) for p in players],
        rec.seed,
        rec.activity_rules,
        [(e.turn, e.section, e.payload) for e in log if e.accepted],
        resolved,
    )
    members = {p.nick: p.user_id for p in players if p.user_id > 0} if rec.reveal else None
    ending = Ending(
        members=members,
        started=rec.started_at.isoformat() if rec.started_at else None,
        ended=ended,
    )
    summary = game_over_announcement(engine.state, rec.winner, ending).payload
    return dict(summary), run_script(script)
