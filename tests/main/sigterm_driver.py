"""The SIGTERM test's child: the real bot, built by ``create_bot`` with its defaults (what
``main.py run`` runs), in SimCord on a real store, stopped by a real SIGTERM.

    python -m tests.main.sigterm_driver --db FILE --mode idle|sending

``idle``: a game is running and nothing is being sent; prints ``ready`` and waits for the
signal (sent by the test). ``sending``: the signal comes (from this process, to itself) while
the delivery is sending a player's post: the post must still be sent and marked. Either way
the bot stops as Ctrl-C stops it (``MafiaBot.close``): this exits 0, printing ``stopped``,
once the store is closed. Exit 4 if the signal did not stop the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from typing import Any

import simcord

from bot.client import MafiaBot
from main import create_bot
from tests.e2e.helpers import add_players, make_world, slot, start_game

#: A generous bound on the wall clock (a busy machine), not a speed requirement.
STOP_WAIT_SECONDS = 60.0


async def play(database: str, mode: str) -> int:
    bot = create_bot(database)
    assert isinstance(bot, MafiaBot)
    async with simcord.run(bot) as env:
        world = make_world(env)
        players = add_players(world, ["a", "b", "c", "d"])
        await start_game(world, "mafioso=1 commissar=1 villager=2", players)
        if mode == "sending":
            sender = bot.context.delivery.sender
            post_as = sender.post_as

            async def signalled(*args: Any, **kwargs: Any) -> Any:
                os.kill(os.getpid(), signal.SIGTERM)  # the stop arrives mid-send
                await asyncio.sleep(0)  # the handler runs now, before the post goes out
                return await post_as(*args, **kwargs)

            sender.post_as = signalled  # type: ignore[method-assign]
            await players[0].slash(slot(world, "game"), "say", text="last words before the stop")
        else:
            print("ready", flush=True)
        waited = 0.0
        while not bot.is_closed() and waited < STOP_WAIT_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05
        if bot._stopping is None or not bot.is_closed():
            return 4
        await bot._stopping
        _ = env.errors
    print("stopped", flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--mode", choices=("idle", "sending"), required=True)
    args = parser.parse_args()
    return asyncio.run(play(args.db, args.mode))


if __name__ == "__main__":
    sys.exit(main())
