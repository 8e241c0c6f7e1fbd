"""The players' use cases in a running game: requests (validated by the rules, fenced in the
store), posts in #game and their count (R52), the profile (R10) and the role card.
Part of :class:`core.service.GameService`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import attrs

from core.ghosts import has_ghost_room
from core.images import CleanImage, archived_text
from core.live import Accepted, LiveGame, QueuedPost, ReplyHeader, schedule_of
from core.service_base import LateRefusal, ServiceError
from core.turn_service import TurnService
from db.models import KEEP, OutboxItem, PlayerRecord, TableSettings, refused
from rules.announce import GHOSTS, PUBLIC
from rules.engine import game_from_snapshot
from rules.killboard import kill_board
from rules.knowledge import RoleCard, role_card
from rules.model import Phase, Refusal, RefusalCode
from rules.names import UnknownName, resolve_request
from rules.requests import parse_request, verb_slot
from rules.roles import verb_spec
from rules.schedule import hunt_opens_at, hunts_open
from rules.text import is_blank

#: The outbox kind of a player's post in #game (``/say``, ``/post``).
POST_KIND = "post"
#: How many counted posts the service remembers (see ``_counted_posts``).
COUNTED_POSTS_KEPT = 10_000


class PlayService(TurnService):
    """A player's request, post and profile. Over :class:`TurnService`: the last pistol shot
    closes its window (``deadline_reached``)."""

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
            return LiveGame(rec, engine, players, schedule_of(rec), review=review)
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

    async def playing(self, table_id: int, user_id: int) -> tuple[LiveGame, str]:
        """:meth:`player_nick`, for what a player sends (requests, posts, his profile): a game
        whose last results still wait for the host (:meth:`held_game`) still runs for its
        players, who are told so as in any review, never that no game is running."""
        if self.game_in(table_id) is None:
            held = await self.held_game(table_id)
            if held is not None:
                if held.nick_of(user_id) is None:
                    raise ServiceError("error.not_a_player")
                raise ServiceError("error.review_pending")
        return self.player_nick(table_id, user_id)

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
        in the next one, and its answer says so (``Accepted.sent_turn``, ``LateRefusal``).

        The :class:`Accepted` returned carries all the player's answer says (its table, its
        header, until when it may be replaced): the caller reads nothing more. What it needs
        of the store is read first, so that a failing read changes nothing."""
        table = await self.store.get_table(table_id)
        tables = await self.store.tables(table.guild_id) if table is not None else []
        accepted = await self._accept(table_id, user_id, raw)
        return self._reply_needs(table_id, user_id, accepted, table, tables)

    async def _accept(self, table_id: int, user_id: int, raw: dict[str, Any]) -> Accepted:
        """:meth:`submit` without what only the answer needs."""
        game, _nick = await self.playing(table_id, user_id)
        sent = (game.id, game.engine.turn, game.engine.phase)

        async def decide() -> Accepted:
            game, nick = self.player_nick(table_id, user_id)
            try:
                accepted = await self._submit(game, nick, user_id, raw)
            except ServiceError as refusal:
                late = (game.id, game.engine.turn, game.engine.phase) != sent
                if late and game.id == sent[0] and not isinstance(refusal, LateRefusal):
                    raise LateRefusal(sent[1], refusal) from None
                raise
            if game.id == sent[0] and accepted.turn != sent[1]:
                accepted = attrs.evolve(accepted, sent_turn=sent[1])
            return accepted

        return await self._retry_stale(decide)  # reloaded by _store_is_the_truth

    def _reply_needs(
        self,
        table_id: int,
        user_id: int,
        accepted: Accepted,
        table: TableSettings | None,
        tables: list[TableSettings],
    ) -> Accepted:
        """What the player's answer says besides the request: the table's game as it is now
        (a shot may have closed the window and resolved the night), its table, the header of
        a member seated at several tables, and until when the request may still be replaced
        (R5)."""
        game = self.game_in(table_id)
        if game is None:  # the shot closed the window, and the game ended with the night
            return attrs.evolve(accepted, table=table)
        spec = verb_spec(accepted.request.do)
        replaceable = spec is None or spec.replaceable
        return attrs.evolve(
            accepted,
            game=game,
            table=table,
            header=self._header(game, user_id, tables, table),
            until=game.record.deadline if replaceable else None,
            zone=game.schedule.tz,
        )

    async def reply_header(self, game: LiveGame, user_id: int) -> ReplyHeader | None:
        """Which table and game a private reply about ``game`` is about, when the member plays
        at several tables of its server; None when he plays at one."""
        tables = await self.store.tables(game.record.guild_id)  # from memory: the store keeps them
        table = next((s for s in tables if s.table_id == game.record.table_id), None)
        return self._header(game, user_id, tables, table)

    def _header(
        self,
        game: LiveGame,
        user_id: int,
        tables: list[TableSettings],
        table: TableSettings | None,
    ) -> ReplyHeader | None:
        """:meth:`reply_header` of the server's ``tables`` (``table``: the game's)."""
        if len(tables) < 2:
            return None  # one table, one game: nothing to tell apart
        running = (self.game_in(s.table_id) for s in tables)
        seated = [g for g in running if g is not None and g.nick_of(user_id) is not None]
        if len(seated) < 2:
            return None
        return ReplyHeader(table, game.id)

    async def _submit(
        self, game: LiveGame, nick: str, user_id: int, raw: dict[str, Any]
    ) -> Accepted:
        async with game.lock, self._store_is_the_truth(game):
            self._still_live(game)
            spec = verb_spec(str(raw.get("do")))
            after_night = spec is not None and spec.after_night
            # R18: a killed commissar shoots while the night waits with his window.
            self._not_in_review(game, window_ok=after_night)
            engine = game.engine
            req = parse_request({**raw, "by": nick})
            if req.text is not None and is_blank(req.text):
                raise ServiceError("error.empty_note")  # R37: one note a game, not a blank one
            try:  # R44: a typed name is matched under the exact rule, kept as the game spells it
                req = resolve_request(req, engine.state.players)
            except UnknownName as exc:
                raise ServiceError("error.unknown_nick", nick=exc.typed) from None
            now = self.clock()
            deadline = game.record.deadline
            open_ = deadline is None or hunts_open(game.schedule, deadline, now)
            # The rules judge it once: committed as judged, then applied without a second look.
            verdict = engine.validate(req, hunts_open=open_)
            section = "after" if after_night else "requests"
            fence = game.fence()
            if isinstance(verdict, Refusal):
                refusal = verdict
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
            engine.apply(verdict)
            after = engine.standing_requests(nick)
            slot = verb_slot(req.do)
            withdrawn = tuple(r.do for r in before if r not in after and verb_slot(r.do) != slot)
            update = kill_board(engine.state) if spec is not None and spec.on_board else None
            accepted = Accepted(req, engine.turn, update, withdrawn, after_night=after_night)
            closes = after_night and not engine.state.pistols
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
        game, nick = await self.playing(table_id, user_id)
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
        # R62: in a game with a ghosts' room, a dead player's posts go there, not to #game.
        where = GHOSTS if body["ghost"] and has_ghost_room(game.record) else PUBLIC
        item = OutboxItem(
            kind=POST_KIND, payload={"kind": POST_KIND, "audience": where, "payload": body}
        )
        if picture is None:
            [row_id] = await self.store.add_outbox(game.id, turn, [item])
        else:
            row_id = await self.store.queue_picture_post(
                game.id, turn, item, picture.filename, picture.data
            )
        return QueuedPost(
            game_id=game.id, row_id=row_id, turn=turn, payload=body, to_ghosts=where == GHOSTS
        )

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
            await self._accept(live.record.table_id, user_id, {"do": "post"})
        except ServiceError as refusal:
            if refusal.key not in (
                "refusal.request_closed",
                "error.no_running_game",
                "error.review_pending",  # written before a pistol window holding the night
            ):
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
        game, _nick = await self.playing(table_id, user_id)
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
