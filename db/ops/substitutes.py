"""Substitutes and reliability (R60, R63; migration 18): the members standing by for a running
game, the players who asked to be replaced, the replacements themselves, and the members a
server's hosts barred from signing up.

Every decision that two hosts, two processes or a restart could race is taken inside the
store's transaction: a replacement checks the nickname's holder is still the one the host saw,
the substitute holds no seat and was never replaced in the game, and (when he is the first on
the list) still stands by; on PostgreSQL the game's row is locked first, so two replacements of
one game run one after the other."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from db.convert import aware, dumps, stored_time
from db.errors import NotFound, ReplacementRefused
from db.models import Bar, Fence, OutboxItem, PlayerRecord, Replacement, ReplaceRequest
from db.ops.audit import insert_audit
from db.ops.common import serialise
from db.ops.outbox import insert_outbox
from db.ops.players import PLAYER_COLUMNS
from db.ops.requests import check_fence
from db.records import bar_record, player_record, replace_request_record, replacement_record
from db.tx import Engine, Tx


async def _why_not_seated(tx: Tx, game_id: int, user_id: int) -> str | None:
    """Why ``user_id`` may not take a seat of the game now (None: he may)."""
    if await tx.fetchval(
        "SELECT 1 FROM players WHERE game_id = $1 AND user_id = $2", game_id, user_id
    ):
        return "playing"
    if await tx.fetchval(
        "SELECT 1 FROM replacements WHERE game_id = $1 AND old_user_id = $2", game_id, user_id
    ):
        return "replaced"
    return None


class SubstitutesOps(Engine):
    """Substitutes and reliability (R60, R63): the list of members standing by for a running
    game, the players' requests to be replaced, the replacements, and the server's bars."""

    # --- the list (R60) ----------------------------------------------------------------------

    async def stand_by(self, game_id: int, user_id: int, now: dt.datetime) -> str | None:
        """Put ``user_id`` on the game's substitutes' list (kept once, in order of standing
        by). Returns None when he stands by (now or already), else why not: ``no_game`` (the
        game is not running), ``playing`` (he holds a seat), ``replaced`` (he was replaced in
        this game and never comes back, R60)."""
        at = self.dialect.time(aware(now))

        async def body(tx: Tx) -> str | None:
            await serialise(tx, game_id)  # a replacement of this game waits, or goes first
            status = await tx.fetchval("SELECT status FROM games WHERE id = $1", game_id)
            if status != "running":
                return "no_game"
            why = await _why_not_seated(tx, game_id, user_id)
            if why is not None:
                return why
            await tx.execute(
                "INSERT INTO substitutes (game_id, user_id, since) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, user_id) DO NOTHING",
                game_id,
                user_id,
                at,
            )
            return None

        return await self._run_write(body)

    async def stand_down(self, game_id: int, user_id: int) -> bool:
        """Take ``user_id`` off the list; False if he was not on it."""

        async def body(tx: Tx) -> bool:
            done = await tx.execute(
                "DELETE FROM substitutes WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
            return done > 0

        return await self._run_write(body)

    async def substitutes(self, game_id: int) -> list[int]:
        """The members standing by, in order of standing by."""
        rows = await self._fetch(
            "SELECT user_id FROM substitutes WHERE game_id = $1 ORDER BY id", game_id
        )
        return [int(r["user_id"]) for r in rows]

    # --- requests to be replaced (R60) -------------------------------------------------------

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
        at = aware(now)

        async def body(tx: Tx) -> bool:
            seat = await tx.fetchval(
                "SELECT 1 FROM players WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
            if seat is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            await tx.execute(
                "INSERT INTO replace_requests (game_id, user_id, reason, asked_at) "
                "VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, user_id) "
                "DO UPDATE SET reason = excluded.reason, asked_at = excluded.asked_at",
                game_id,
                user_id,
                reason,
                tx.dialect.time(at),
            )
            if outbox_items:
                turn = await tx.fetchval("SELECT turn FROM games WHERE id = $1", game_id)
                await insert_outbox(tx, game_id, int(turn), outbox_items, at)
            return True

        return await self._run_write(body)

    async def replace_requests(self, game_id: int) -> list[ReplaceRequest]:
        """The players' standing requests to be replaced, oldest first."""
        rows = await self._fetch(
            "SELECT user_id, reason, asked_at FROM replace_requests WHERE game_id = $1 "
            "ORDER BY asked_at, user_id",
            game_id,
        )
        return [replace_request_record(r) for r in rows]

    # --- the replacement (R60) ---------------------------------------------------------------

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
        at = aware(now) if now is not None else self._now()
        sent = aware(sent_at) if sent_at is not None else None
        same = self.dialect.same_name("nick", "$2")

        async def body(tx: Tx) -> PlayerRecord:
            await check_fence(tx, game_id, fence)
            await serialise(tx, game_id)
            seat = await tx.fetchrow(
                f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 AND {same}",
                game_id,
                nick,
            )
            if seat is None:
                raise NotFound(f"no player {nick!r} in game {game_id}")
            old = int(seat["user_id"])
            if previous_user_id is not None and old != previous_user_id:
                raise ReplacementRefused("seat_changed")
            if sent is not None:  # handed over since the host sent his command: at once
                last = await tx.fetchval(
                    "SELECT MAX(at) FROM replacements WHERE game_id = $1 AND nick = $2",
                    game_id,
                    str(seat["nick"]),
                )
                if last is not None and stored_time(last) >= sent:
                    raise ReplacementRefused("seat_changed")
            why = await _why_not_seated(tx, game_id, new_user_id)
            if why is not None:
                raise ReplacementRefused(why)
            left = await tx.execute(
                "DELETE FROM substitutes WHERE game_id = $1 AND user_id = $2", game_id, new_user_id
            )
            if from_list and not left:
                raise ReplacementRefused("left_list")
            turn = int(await tx.fetchval("SELECT turn FROM games WHERE id = $1", game_id))
            stamp = at
            seq = await tx.fetchval(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM replacements WHERE game_id = $1", game_id
            )
            await tx.execute(
                "INSERT INTO replacements "
                "(game_id, seq, nick, old_user_id, new_user_id, turn, at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                game_id,
                int(seq),
                str(seat["nick"]),
                old,
                new_user_id,
                turn,
                tx.dialect.time(stamp),
            )
            await tx.execute(
                "DELETE FROM replace_requests WHERE game_id = $1 AND user_id = $2", game_id, old
            )
            row = await tx.fetchrow(
                "UPDATE players SET user_id = $1 WHERE game_id = $2 AND seat = $3 "
                f"RETURNING {PLAYER_COLUMNS}",
                new_user_id,
                game_id,
                int(seat["seat"]),
            )
            assert row is not None
            if outbox_items:
                await insert_outbox(tx, game_id, turn, outbox_items, stamp)
            return player_record(row)

        return await self._run_write(body)

    async def replacements(self, game_id: int) -> list[Replacement]:
        """The game's replacements, in order."""
        rows = await self._fetch(
            "SELECT game_id, seq, nick, old_user_id, new_user_id, turn, at FROM replacements "
            "WHERE game_id = $1 ORDER BY seq",
            game_id,
        )
        return [replacement_record(r) for r in rows]

    # --- bars (R63) --------------------------------------------------------------------------

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
        at = aware(now)
        bar = Bar(guild_id, user_id, None if until is None else aware(until), reason, actor_id, at)

        async def body(tx: Tx) -> Bar:
            d = tx.dialect
            await tx.execute(
                "INSERT INTO bars (guild_id, user_id, until, reason, actor_id, barred_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id, user_id) DO UPDATE "
                "SET until = excluded.until, reason = excluded.reason, "
                "actor_id = excluded.actor_id, barred_at = excluded.barred_at",
                guild_id,
                user_id,
                d.opt_time(bar.until),
                reason,
                actor_id,
                d.time(at),
            )
            args = {"member": user_id, "reason": reason}
            if bar.until is not None:
                args["until"] = bar.until.isoformat()
            await insert_audit(
                tx, guild_id, None, actor_id, "bar", dumps(args), at, table_id=table_id
            )
            return bar

        return await self._run_write(body)

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
        at = aware(now)

        async def body(tx: Tx) -> bool:
            gone = await tx.execute(
                "DELETE FROM bars WHERE guild_id = $1 AND user_id = $2 "
                "AND (until IS NULL OR until > $3)",
                guild_id,
                user_id,
                tx.dialect.time(at),
            )
            await tx.execute(  # an expired bar goes too, unannounced
                "DELETE FROM bars WHERE guild_id = $1 AND user_id = $2", guild_id, user_id
            )
            if gone:
                args = dumps({"member": user_id})
                await insert_audit(tx, guild_id, None, actor_id, "unbar", args, at, table_id)
            return gone > 0

        return await self._run_write(body)

    async def bar_of(self, guild_id: int, user_id: int, now: dt.datetime) -> Bar | None:
        """The member's bar in force at ``now`` (an expired one is none)."""
        row = await self._fetchrow(
            "SELECT guild_id, user_id, until, reason, actor_id, barred_at FROM bars "
            "WHERE guild_id = $1 AND user_id = $2 AND (until IS NULL OR until > $3)",
            guild_id,
            user_id,
            self.dialect.time(aware(now)),
        )
        return None if row is None else bar_record(row)
