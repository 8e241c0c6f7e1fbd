"""The mafia's kill board: the id of each turn's board message in the mafia's room."""

from __future__ import annotations

from db.tx import Engine, Tx


class BoardsOps(Engine):
    """The mafia's kill board (R23): one message per turn, posted once across restarts."""

    async def kill_board(self, game_id: int, turn: int) -> int | None:
        """The board's message id for ``turn`` (0: posting begun, id not kept yet)."""
        row = await self._fetchrow(
            "SELECT message_id FROM kill_boards WHERE game_id = $1 AND turn = $2", game_id, turn
        )
        return None if row is None else int(row["message_id"])

    async def set_kill_board(self, game_id: int, turn: int, message_id: int) -> None:
        """Keep (or replace) the board's message id for ``turn``."""

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO kill_boards (game_id, turn, message_id) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id, turn) DO UPDATE SET message_id = excluded.message_id",
                game_id,
                turn,
                message_id,
            )

        await self._run_write(body)
