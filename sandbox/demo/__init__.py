"""``python main.py demo``: a whole game of the real bot, played offline inside SimCord.

The bot is the real one (``create_bot``), attached to SimCord's in-memory Discord exactly as the
end-to-end tests do it. A host member runs ``/mafia setup``, ``/mafia new`` and ``/mafia
start``; N member actors sign up and then play through the slash commands a real user has
(``/say``, ``/vote``, ``/kill``, ``/check``, ``/heal``, ``/block``, ``/slander``, ``/poison``,
``/steal``, ``/hunt``, ``/note``, ``/shoot``, the message command "Quote" on another player's
post, ``/say`` with a picture, ``/votes`` and ``/iso`` before voting), and the simulator moves
the virtual clock to each deadline. With ``--review`` the host adds his story to each turn's
draft in ``#host`` and publishes it. The public ``#game`` transcript is printed as it happens;
``--host-view`` adds every private reply, DM, ``#host`` message and the mafia's room (the game's
private thread in ``#mafia``, labelled ``#mafia/<thread>``, its kill board printed again as each
request edits it). The last line is ``winner: <town|mafia|maniac|crook|draw>``.

How the simulated players decide (:func:`plan_turn`): only from the seed, the turn number and
what the player sees right now through the client: his role card (``/role``), his ``/status``
(requests he has standing this turn, posts this turn, his private news of the latest turn) and
the living nicknames the autocomplete offers. Nothing is remembered between turns, so a demo
killed at any moment and started again on the same ``--db`` re-derives the same plans and
continues to the same ending:

- the game's own randomness comes from ``--seed`` (``create_bot(game_seed=...)``);
- the guild id and the member ids are fixed (SimCord's snowflakes are deterministic, and the
  members are created first, in the same order, on every run);
- within a turn the players act in a fixed order and skip what ``/status`` shows as done, so
  the requests reach the bot in the same order (lynch ties and hunts depend on arrival order);
  a request is committed before the bot answers, so a kill mid-command leaves it either stored
  (and shown by ``/status``) or not sent at all;
- SimCord's clock starts at the same instant on every run, before any stored deadline of the
  demo game, so a resumed turn is never resolved before its players have acted. (A deadline
  already in the past would be resolved by the bot at start, as it must on real Discord; the
  players of that turn would then lose the requests they had not sent yet. It cannot happen
  here.) Once the game is picked up, the clock moves on to the moment its open phase began
  (:meth:`Demo.opened_at`), where an uninterrupted run stood when those players acted;
- with ``--shard-count N --shard-id K`` the server is on shard K of N (:func:`demo_guild_id`)
  and the bot owns that server's games only, so N demos share one ``--db``, one game each.

What a restart loses is Discord's side only: the messages and DMs of the killed run (SimCord
is in memory). ``/mafia setup`` rebuilds the channels and the bot then delivers whatever it
had not sent yet. A quote whose post is lost goes out as a ``/say`` (one post all the same); a
draft under review whose message is lost goes out as it is when its review time is over.

Where things are:

- :mod:`sandbox.demo.options`: the options (:class:`DemoOptions`), limits, the server id
  (:func:`demo_guild_id`) and the tables' names;
- :mod:`sandbox.demo.reader`: what a player reads back (his ``/role`` card, his ``/status``,
  a private reply), parsed with the bot's catalogue;
- :mod:`sandbox.demo.players`: the simulated players' choices (pure: :func:`plan_turn`,
  :func:`plan_shot`);
- :mod:`sandbox.demo.transcript`: every public and private message, printed as a client shows
  it (:class:`Transcript`);
- :mod:`sandbox.demo.table`: one table (:class:`Demo`): its server and members, the host's
  and the players' commands, picking a stored game up again;
- :mod:`sandbox.demo.driver`: the run (:func:`run_demo`): the bot in SimCord, the tables
  played on the one virtual clock, the limits, the contract check, the exit code; and
  :func:`demo_main`, the command line entry.
"""

from __future__ import annotations

from sandbox.demo.driver import demo_main, play_all, play_tables, run_demo
from sandbox.demo.options import (
    DEMO_GUILD_ID,
    MAX_DEMO_SHARDS,
    MAX_PLAYERS,
    MAX_TABLES,
    MIN_PLAYERS,
    TABLE_NAMES,
    TURN_CAP,
    WALL_LIMIT_SECONDS,
    DemoError,
    DemoOptions,
    demo_guild_id,
)
from sandbox.demo.players import Plan, View, plan_shot, plan_turn
from sandbox.demo.reader import Card, Reader, Status, reply_text
from sandbox.demo.table import Demo, Seat
from sandbox.demo.transcript import Transcript

__all__ = [
    "DEMO_GUILD_ID",
    "MAX_DEMO_SHARDS",
    "MAX_PLAYERS",
    "MAX_TABLES",
    "MIN_PLAYERS",
    "TABLE_NAMES",
    "TURN_CAP",
    "WALL_LIMIT_SECONDS",
    "Card",
    "Demo",
    "DemoError",
    "DemoOptions",
    "Plan",
    "Reader",
    "Seat",
    "Status",
    "Transcript",
    "View",
    "demo_guild_id",
    "demo_main",
    "plan_shot",
    "plan_turn",
    "play_all",
    "play_tables",
    "reply_text",
    "run_demo",
]
