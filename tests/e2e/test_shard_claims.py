"""Claims by shard: a process running some Discord shards claims only the outbox
rows of the games of its shards' servers. Before, its delivery leased every game's rows, sent
only its own and renewed the others' leases at each retry, so the process owning them never
got them. On both engines: the real bot as the process of shard 0 of 2, and a game of a server
on shard 1 whose row, queued by another process, must stay free for shard 1's process."""

from __future__ import annotations

from simcord import Env

from core.shards import shard_of
from db.models import OutboxItem, PlayerSpec
from rules.announce import clock_extended_announcement
from tests.e2e.helpers import Restart, add_players, start_game
from tests.e2e.test_shards import EVEN_MS, ROLES, server_on

BOTH_ENGINES = True


async def test_a_shard_never_leases_another_shards_rows(
    simcord_env: Env,
    restart: Restart,
) -> None:
    env = simcord_env
    zero = await restart(shard_count=2, shard_ids=(0,))
    world = server_on(env, 0, 0)
    await start_game(world, ROLES, add_players(world, [f"p{n}" for n in range(1, 5)]))
    own = zero.service.game_in(world.guild.id)
    assert own is not None
    # A running game of a server on shard 1 (its process is elsewhere), with a row to send.
    elsewhere = (EVEN_MS + 1) << 22
    assert shard_of(elsewhere, 2) == 1
    store = zero.store
    other = await store.create_game(elsewhere, seed=1, schedule_kind="fast", timezone="UTC")
    seats = [PlayerSpec(user_id=10 + i, nick=f"N{i}", role="villager") for i in range(4)]
    await store.start_game(other.id, seats, deadline=env.now())
    [theirs] = await store.add_outbox(other.id, 1, [OutboxItem("narrative", {"text": "x"})])
    notice = clock_extended_announcement(env.now().isoformat())
    item = OutboxItem(kind=notice.kind, payload=notice.to_dict())
    [mine] = await store.add_outbox(own.id, own.engine.turn, [item])

    await zero.context.delivery.deliver()
    await env.settle()
    # Shard 0's delivery claimed (and handled) its own game's row only; shard 1's row is
    # unleased, so shard 1's process claims it at once, as a fresh row.
    assert [r.id for r in await store.pending_outbox()] == [theirs]
    claimed = await store.claim_outbox("shard 1", shard_count=2, shard_ids=(1,))
    assert [(r.id, r.retaken) for r in claimed] == [(theirs, False)]
    assert mine not in [r.id for r in await store.pending_outbox()]
