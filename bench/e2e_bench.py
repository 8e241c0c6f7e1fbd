"""End-to-end benchmark through SimCord (the real bot, an in-memory Discord):

1. latency of ``/vote`` (validated, committed to SQLite, answered) next to ``/role`` (a read
   and a reply) and a no-op command added for the benchmark (SimCord's and discord.py's own
   cost of one interaction): p50, p99, and the ratios to the no-op, each timed until the
   REPLY (:class:`ReplyClock`: from handing the command to SimCord to the moment SimCord
   records the bot's interaction response), not until SimCord settles (which adds the bot's
   work after the reply and the simulator's idle wait, and hid the difference); 1,000
   samples each by default, so the p99 is the 10th worst, not the 2nd. One 16-player game:
   ``bench/vote_bench.py`` times ``/vote`` with 1,000 games loaded;
2. Discord API calls made per turn of a 16-player game (preset roles), split into public
   (#game: bot messages, webhook posts, edits), the mafia channel, and private (DMs, and the
   ephemeral replies to the players' commands), plus the rest (webhook lookups, permission
   edits, ...), and the share made by the resolution and its delivery.

    python -m bench.e2e_bench [--samples 1000]

Prints numbers only. Virtual time drives the game clock; latencies are real (wall) time.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import discord
import simcord
from discord import app_commands
from simcord import ChannelHandle, Env, MemberActor

from bot.client import MafiaBot
from core.i18n import t
from main import create_bot

PLAYERS = 16
SAMPLES = 1000


# --- the world --------------------------------------------------------------------------------
def add_noop_commands(bot: MafiaBot) -> None:
    """A command that only answers: SimCord's and discord.py's own cost of one interaction.

    ``noop`` yields to the loop once, as any real handler does. (Timed until SimCord settled, a
    handler that never yields cost a full idle interval, 50 ms, in SimCord 3.2.1; timed until
    the reply, as now, it does not matter.)"""

    @app_commands.command(name="noop", description="Benchmark: answer and do nothing else")
    async def noop(interaction: discord.Interaction[Any]) -> None:
        await asyncio.sleep(0)
        await interaction.response.send_message("ok", ephemeral=True)

    bot.tree.add_command(noop)


class Game:
    def __init__(self, env: Env) -> None:
        self.env = env
        self.guild = env.create_guild("Bench Club")
        self.lobby = self.guild.create_text_channel("general")
        mods = self.guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
        self.host = self.guild.add_member(env.create_user("host"), roles=[mods])
        self.players: list[MemberActor] = []
        self.role_of: dict[int, str] = {}
        self.nick_of: dict[int, str] = {}

    @property
    def bot(self) -> MafiaBot:
        assert isinstance(self.env.bot, MafiaBot)
        return self.env.bot

    def channel(self, slot: str) -> ChannelHandle:
        return self.guild.channels[t("en", f"channel.{slot}")]

    async def start(self, players: int, turn_minutes: int | None = None) -> None:
        """A fast game (turns of ``turn_minutes``, the bot's default if None) started."""
        await self.host.slash(self.lobby, "mafia setup", language="en")
        length: dict[str, Any] = {} if turn_minutes is None else {"turn_minutes": turn_minutes}
        await self.host.slash(self.lobby, "mafia new", schedule="fast", timezone="UTC", **length)
        game = self.channel("game")
        for i in range(players):
            actor = self.guild.add_member(self.env.create_user(f"player{i:02d}"))
            await actor.slash(game, "join")
            self.players.append(actor)
        await self.host.slash(self.lobby, "mafia roles", preset=str(players))
        await self.host.slash(self.lobby, "mafia start")
        live = self.bot.service.game_in(self.guild.id)
        assert live is not None
        for seat in live.players:
            self.role_of[seat.user_id] = seat.role
            self.nick_of[seat.user_id] = seat.nick

    def alive(self) -> list[MemberActor]:
        live = self.bot.service.game_in(self.guild.id)
        assert live is not None
        return [a for a in self.players if live.engine.state.alive(self.nick_of[a.id])]

    def holder(self, role: str) -> MemberActor | None:
        return next((a for a in self.alive() if self.role_of[a.id] == role), None)

    async def until_deadline(self) -> None:
        live = self.bot.service.game_in(self.guild.id)
        assert live is not None and live.record.deadline is not None
        await self.env.advance_time((live.record.deadline - self.env.now()).total_seconds())

    async def play_turn(self, turn: int) -> int:
        """Everybody posts (and votes from turn 2); the roles act on the town. Returns the
        number of commands the players ran."""
        game = self.channel("game")
        alive = self.alive()
        town = [a for a in alive if self.role_of[a.id] in ("villager", "foundling")]
        # The mafia kills one, the maniac poisons another, the commissar checks a third.
        victim, poisoned = self.nick_of[town[0].id], self.nick_of[town[1].id]
        suspect = self.nick_of[town[-1].id]
        healer = self.holder("doctor")
        doctor = self.nick_of[healer.id] if healer is not None else None
        commands = 0
        for actor in alive:
            await actor.slash(game, "say", text=f"Turn {turn}: good morning, all.")
            commands += 1
        actions = {
            "boss": ("kill", victim),
            "mafioso": ("kill", victim),
            "troublemaker": ("kill", victim),
            "commissar": ("check", suspect),
            "doctor": ("heal", doctor if turn % 2 and doctor else suspect),  # not twice the same
            "prostitute": ("block", suspect),
            "maniac": ("poison", poisoned),
        }
        for actor in alive:
            verb_target = actions.get(self.role_of[actor.id])
            if verb_target is not None:
                verb, target = verb_target
                await actor.slash(game, verb, target=target)
                commands += 1
            if turn > 1:
                await actor.slash(game, "vote", target=suspect if actor is not town[-1] else victim)
                commands += 1
        return commands


# --- classifying the REST calls -----------------------------------------------------------------
def classify(game: Game, method: str, path: str) -> str:
    if path.endswith("/callback") or "simcord_interaction_" in path:
        return "private: ephemeral replies"
    if path == "/users/@me/channels":
        return "private: DMs"
    parts = path.split("/")
    if method in ("POST", "PATCH") and len(parts) > 3 and parts[3] == "messages":
        channel_id = int(parts[2])
        if channel_id == game.channel("game").id:
            return "public: #game"
        mafia_id = game.channel("mafia").id
        cached = game.env.bot.get_channel(channel_id)
        if channel_id == mafia_id or getattr(cached, "parent_id", None) == mafia_id:
            return "mafia channel"  # the mafia's room: a private thread in #mafia
        if game.env.bot.get_channel(channel_id) is None or isinstance(
            game.env.bot.get_channel(channel_id), discord.DMChannel
        ):
            return "private: DMs"
        return "other channels"
    if method == "POST" and path.startswith("/webhooks/"):
        return "public: #game"  # an anonymous post (interaction followups are caught above)
    return "other (lookups, permissions, webhooks)"


CATEGORIES = (
    "public: #game",
    "mafia channel",
    "private: DMs",
    "private: ephemeral replies",
    "other channels",
    "other (lookups, permissions, webhooks)",
)


def count(game: Game, since: int) -> Counter[str]:
    return Counter(classify(game, r.method, r.path) for r in game.env.http_requests[since:])


# --- measuring -----------------------------------------------------------------------------------
class _StampedLog(list[Any]):
    """SimCord's log of the bot's REST calls, stamping the arrival of each interaction
    response (``POST /interactions/{id}/{token}/callback``)."""

    def __init__(self, entries: Sequence[Any]) -> None:
        super().__init__(entries)
        self.replies: list[float] = []

    def append(self, entry: Any) -> None:
        if entry.method == "POST" and str(entry.path).endswith("/callback"):
            self.replies.append(time.perf_counter())
        super().append(entry)


class ReplyClock:
    """Times a command until its reply: from handing it to SimCord to the moment SimCord
    records the bot's interaction response (what the member waits for), not until SimCord
    settles (the bot's work after the reply, and the simulator's idle wait)."""

    def __init__(self, log: _StampedLog) -> None:
        self._log = log

    @classmethod
    def install(cls, env: Env) -> ReplyClock:
        """Swap SimCord's request log for a stamping one (same entries; SimCord looks the
        list up on each call)."""
        backend = env.backend
        log = _StampedLog(backend.http_requests)
        backend.http_requests = log
        return cls(log)

    async def time(self, command: Awaitable[Any]) -> float:
        """Milliseconds from now to the first interaction response while ``command`` runs."""
        seen = len(self._log.replies)
        began = time.perf_counter()
        await command
        if len(self._log.replies) == seen:
            raise RuntimeError("the command was not answered")
        return (self._log.replies[seen] - began) * 1000


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def latencies(
    clock: ReplyClock, samples: int, calls: dict[str, Callable[[int], Awaitable[Any]]]
) -> dict[str, list[float]]:
    """Until the reply; interleaved, so that drift (caches, the database growing) hits every
    command alike."""
    out: dict[str, list[float]] = {name: [] for name in calls}
    for i in range(samples + 10):
        for name, call in calls.items():
            elapsed = await clock.time(call(i))
            if i >= 10:  # warm-up
                out[name].append(elapsed)
    return out


async def run(samples: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(str(Path(tmp) / "bench.db"))
        assert isinstance(bot, MafiaBot)
        add_noop_commands(bot)
        try:
            async with simcord.run(bot) as env:
                await scenario(env, samples)
        finally:
            await bot.close_store()


async def scenario(env: Env, samples: int) -> None:
    game = Game(env)
    began = len(env.http_requests)
    await game.start(PLAYERS)
    setup = count(game, began)

    per_turn: list[tuple[int, int, Counter[str], Counter[str]]] = []
    for turn in (1, 2):
        before = len(env.http_requests)
        commands = await game.play_turn(turn)
        resolving = len(env.http_requests)
        await game.until_deadline()
        per_turn.append((turn, commands, count(game, before), count(game, resolving)))

    # Latencies, in turn 3: every living player votes in turn; /role and the no-op alike.
    channel = game.channel("game")
    voters = game.alive()
    nicks = [game.nick_of[a.id] for a in voters]

    async def vote(i: int) -> Any:
        voter = voters[i % len(voters)]
        return await voter.slash(channel, "vote", target=nicks[(i + 1) % len(nicks)])

    async def role(i: int) -> Any:
        return await voters[i % len(voters)].slash(channel, "role")

    async def noop(i: int) -> Any:
        return await voters[i % len(voters)].slash(channel, "noop")

    clock = ReplyClock.install(env)
    measured = await latencies(clock, samples, {"noop": noop, "/role": role, "/vote": vote})

    print(f"e2e (SimCord {simcord.__version__}, {PLAYERS} players, {samples} samples each)")
    print("  until the reply, ms  p50      p99     mean   p50/noop")
    base = statistics.median(measured["noop"])
    for name, values in measured.items():
        p50 = statistics.median(values)
        print(
            f"  {name:<12} {p50:8.2f} {percentile(values, 0.99):8.2f}"
            f" {statistics.fmean(values):8.2f} {p50 / base:9.2f}"
        )
    print(
        f"  /vote p50 / /role p50: "
        f"{statistics.median(measured['/vote']) / statistics.median(measured['/role']):.2f}"
    )
    print(f"  API calls: sign-up and start of {PLAYERS} players: {sum(setup.values())}")
    for name in CATEGORIES:
        if setup[name]:
            print(f"    {name:<40} {setup[name]:5d}")
    for turn, commands, total, resolution in per_turn:
        print(
            f"  API calls, turn {turn} ({commands} player commands): {sum(total.values())},"
            f" of which the resolution and its delivery: {sum(resolution.values())}"
        )
        for name in CATEGORIES:
            if total[name]:
                print(f"    {name:<40} {total[name]:5d}   (resolution {resolution[name]})")
        public = total["public: #game"]
        private = total["private: DMs"] + total["private: ephemeral replies"]
        print(f"    public {public}, private {private}, mafia {total['mafia channel']}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=SAMPLES)
    args = parser.parse_args(argv)
    # The no-op command has no Russian name: keep the translator's warning out of the numbers.
    logging.getLogger("bot.command_i18n").setLevel(logging.ERROR)
    asyncio.run(run(args.samples))


if __name__ == "__main__":
    main()
