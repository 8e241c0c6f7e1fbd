"""Sign-ups in the lobby, and the seats of a started game with their anonymous profiles.

Sign-up order is the order of arrival (:attr:`db.dialect.Dialect.signup_order`). Nicknames
compare regardless of case (:meth:`db.dialect.Dialect.same_name`): SQLite's ``NOCASE`` folds
ASCII only, PostgreSQL's ``lower()`` every letter the database's locale knows (Cyrillic
included)."""

from __future__ import annotations

from typing import Any

from db.errors import NotFound, SignupFull
from db.models import KEEP, Keep, PlayerRecord
from db.records import columns, player_record
from db.tx import Engine, Tx

#: In the record's field order (a start reads a seat positionally: ``PlayerRecord(*row)``).
PLAYER_COLUMNS = columns(PlayerRecord)


class PlayersOps(Engine):
    """Sign-ups, seated players and their profiles (games: :mod:`db.ops.games`)."""

    # --- sign-ups --------------------------------------------------------------------------

    async def add_signup(self, game_id: int, user_id: int, *, limit: int | None = None) -> bool:
        """Sign ``user_id`` up; False, writing nothing, if signed up already or the game is
        not in the lobby. Raises :class:`~db.errors.SignupFull` when the sign-up holds
        ``limit`` members: of members racing for the last place, one gets it."""
        now = self.dialect.time(self._now())

        async def body(tx: Tx) -> bool:
            if limit is not None:
                # The count and the insert agree: one writer at a time on SQLite; on
                # PostgreSQL the game's row is locked first, so a sign-up racing in another
                # process waits for this transaction, then counts the row it added.
                if tx.dialect.row_locks:
                    await tx.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game_id)
                row = await tx.fetchrow(
                    "SELECT COUNT(*) AS n, "
                    "EXISTS (SELECT 1 FROM signups WHERE game_id = $1 AND user_id = $2) AS me "
                    "FROM signups WHERE game_id = $1",
                    game_id,
                    user_id,
                )
                assert row is not None
                if not row["me"] and int(row["n"]) >= limit:
                    raise SignupFull(f"the sign-up of game {game_id} is full ({limit})")
            added = await tx.execute(
                "INSERT INTO signups (game_id, user_id, joined_at) "
                "SELECT id, $1, $2 FROM games WHERE id = $3 AND status = 'lobby' "
                "ON CONFLICT (game_id, user_id) DO NOTHING",
                user_id,
                now,
                game_id,
            )
            return added > 0

        return await self._run_write(body)

    async def remove_signup(self, game_id: int, user_id: int) -> bool:
        """Withdraw a sign-up. False if there was none or the game is not in the lobby."""

        async def body(tx: Tx) -> bool:
            removed = await tx.execute(
                "DELETE FROM signups WHERE game_id = $1 AND user_id = $2 "
                "AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = 'lobby')",
                game_id,
                user_id,
            )
            return removed > 0

        return await self._run_write(body)

    async def set_wish(self, game_id: int, user_id: int, wish: str | None) -> bool:
        """A signed-up member's role wish (R58; None withdraws it); False, writing nothing, if
        he is not signed up or the game is not in the lobby."""

        async def body(tx: Tx) -> bool:
            changed = await tx.execute(
                "UPDATE signups SET wish = $3 WHERE game_id = $1 AND user_id = $2 "
                "AND EXISTS (SELECT 1 FROM games WHERE id = $1 AND status = 'lobby')",
                game_id,
                user_id,
                wish,
            )
            return changed > 0

        return await self._run_write(body)

    async def wishes(self, game_id: int) -> dict[int, str]:
        """User id -> role code, for the sign-ups who wished (kept after the start)."""
        rows = await self._fetch(
            "SELECT user_id, wish FROM signups WHERE game_id = $1 AND wish IS NOT NULL "
            "ORDER BY user_id",
            game_id,
        )
        return {int(r["user_id"]): str(r["wish"]) for r in rows}

    async def signups(self, game_id: int) -> list[int]:
        """User ids signed up, in sign-up order (a user who leaves and rejoins goes last)."""
        rows = await self._fetch(
            f"SELECT user_id FROM signups WHERE game_id = $1 ORDER BY {self.dialect.signup_order}",
            game_id,
        )
        return [int(r["user_id"]) for r in rows]

    # --- players ---------------------------------------------------------------------------

    async def players(self, game_id: int) -> list[PlayerRecord]:
        """The seats of a started game, by seat (the script's order); empty in the lobby."""
        rows = await self._fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 ORDER BY seat", game_id
        )
        return [player_record(r) for r in rows]

    async def player_by_user(self, game_id: int, user_id: int) -> PlayerRecord | None:
        """The seat of ``user_id`` in the game, if any."""
        row = await self._fetchrow(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 AND user_id = $2",
            game_id,
            user_id,
        )
        return None if row is None else player_record(row)

    async def player_by_nick(self, game_id: int, nick: str) -> PlayerRecord | None:
        """The seat called ``nick``, compared case-insensitively, if any."""
        row = await self._fetchrow(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE game_id = $1 "
            f"AND {self.dialect.same_name('nick', '$2')}",
            game_id,
            nick,
        )
        return None if row is None else player_record(row)

    async def set_profile(
        self,
        game_id: int,
        user_id: int,
        *,
        avatar_url: str | Keep | None = KEEP,
        signature: str | Keep | None = KEEP,
    ) -> PlayerRecord:
        """Change a player's anonymous profile (R10). Raises ``NotFound`` if he does not play."""
        columns: dict[str, Any] = {}
        if not isinstance(avatar_url, Keep):
            columns["avatar_url"] = avatar_url
        if not isinstance(signature, Keep):
            columns["signature"] = signature
        if not columns:
            player = await self.player_by_user(game_id, user_id)
            if player is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=3))

        async def body(tx: Tx) -> PlayerRecord:
            row = await tx.fetchrow(
                f"UPDATE players SET {sets} WHERE game_id = $1 AND user_id = $2 "
                f"RETURNING {PLAYER_COLUMNS}",
                game_id,
                user_id,
                *columns.values(),
            )
            if row is None:
                raise NotFound(f"user {user_id} does not play in game {game_id}")
            return player_record(row)

        return await self._run_write(body)
