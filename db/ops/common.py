"""What several concerns' transactions do first: find or lock a game's row."""

from __future__ import annotations

from db.errors import NotFound
from db.tx import Row, Tx


async def lock_game(tx: Tx, game_id: int) -> Row:
    """The game's status and turn, as they are when this transaction first asks; on
    PostgreSQL its row stays locked until the transaction ends (``FOR UPDATE``): what every
    append to its log and every claim of a stage of its turn does first, so that two processes
    writing to one game take turns (SQLite's ``BEGIN IMMEDIATE`` already lets one writer at a
    time). Asked once per transaction (:attr:`db.tx.Tx.locked`): a caller that changes the
    status or turn does so after its checks. Raises :class:`NotFound`."""
    row = tx.locked.get(game_id)
    if row is None:
        row = await tx.fetchrow(
            "SELECT status, turn FROM games WHERE id = $1" + tx.dialect.for_update, game_id
        )
        if row is None:
            raise NotFound(f"no game {game_id}")
        tx.locked[game_id] = row
    return row


async def serialise(tx: Tx, game_id: int) -> None:
    """Before a write to the game's log: lock its row where the engine needs it (PostgreSQL;
    see :func:`lock_game`, whose row this does not read); nothing on SQLite. The statement has
    no parameters (the id is an int), so that PostgreSQL's engine sends it with the
    transaction's ``BEGIN``, in one round trip, and sends it once per transaction
    (:class:`db.postgres.base.PostgresTx`)."""
    if tx.dialect.row_locks and game_id not in tx.locked:
        await tx.execute(f"SELECT 1 FROM games WHERE id = {int(game_id)}{tx.dialect.for_update}")


async def game_exists(tx: Tx, game_id: int) -> bool:
    return await tx.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is not None
