"""Generated command inputs, shared by the input property test (``tests/e2e/test_inputs.py``)
and the input benchmark (``bench/input_bench.py``), so both run the same inputs.

The strategies are derived from the command surface the bot syncs (the snapshot in
``fixtures/command_tree.json``, which ``test_command_tree.py`` keeps equal to it): every option
gets any value Discord itself would let through (its type, its choices, its min/max length or
value; an integer option without bounds any integer Discord carries, up to 2^53), with extra
weight on the edges: empty, whitespace only, format characters only, the longest text allowed,
the largest numbers. Nickname options also get the game's real nicknames (by index, resolved
when run), so both the accepted and the refused paths run.

Every invocation must end in a success or a private, translated refusal (never an unhandled
error), and no single step of the event loop may block it for long: :class:`StallMeter`
times every callback the loop runs (the longest is the worst stall any other guild saw).
"""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import discord
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from simcord import ChannelHandle, Env, InteractionResult, MemberActor, OptionError, SetupError

from bot.embeds import embed_text
from core.i18n import catalogue, t
from core.refusal import Refusal
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    make_world,
    reply_text,
    slot,
    start_game,
)

SNAPSHOT = Path(__file__).parent / "fixtures" / "command_tree.json"

#: Discord carries integers up to 2^53 (JSON numbers): the largest value a user can send.
DISCORD_INT = 2**53
#: Discord's longest text option value.
DISCORD_TEXT = 6000
#: The game's roles for the running game: every night verb has a holder.
ROLES = "boss=1 mafioso=1 commissar=1 doctor=1 prostitute=1 maniac=1 villager=2"
PLAYERS = 8
#: Commands whose run would end the fuzzed game or rebuild the world: their options (none, or
#: choices only) are covered by the other tests.
SKIPPED = frozenset({"mafia end", "mafia resolve", "mafia start", "mafia doublekill"})
#: Nickname options that would remove a player or give his seat away if they named one: they
#: get random text only (a refusal, never an error).
TEXT_ONLY_NICKS = frozenset({("mafia exclude", "player"), ("mafia replace", "player")})

#: The test and the benchmark draw the same inputs: the same strategy, seed and count.
SEED = 20260909
EXAMPLES = 400
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

_STRING, _INTEGER, _BOOLEAN, _USER, _ROLE, _ATTACHMENT = 3, 4, 5, 6, 8, 11


@attrs.frozen
class NickRef:
    """The n-th nickname of the running game (resolved when the invocation runs)."""

    index: int


@attrs.frozen
class RoleRef:
    """A role of guild A: ``everyone`` or ``hosts``."""

    name: str


@attrs.frozen
class ActorRef:
    """Who acts: ``host``, ``player`` (the n-th seated player) or ``outsider``."""

    kind: str
    index: int = 0


@attrs.frozen
class Invocation:
    command: str  # "say", "mafia roles", ...
    actor: ActorRef
    options: dict[str, Any]
    kind: str = "slash"  # "slash", "autocomplete" (of option ``focused``), "modal" (/post)
    focused: str | None = None


def leaf_commands() -> dict[str, list[dict[str, Any]]]:
    """Every runnable command of the synced tree with its options."""
    out: dict[str, list[dict[str, Any]]] = {}

    def walk(command: dict[str, Any], prefix: str) -> None:
        options = command.get("options") or []
        subs = [o for o in options if o.get("type") in (1, 2)]
        name = f"{prefix}{command['name']}"
        if subs:
            for sub in subs:
                walk(sub, name + " ")
        else:
            out[name] = options

    for command in json.loads(SNAPSHOT.read_text(encoding="utf-8")):
        walk(command, "")
    return out


#: Text nobody can see, and text at the edges of what Discord allows.
_BLANKS = ["", " ", "\u200b", "\u200b\u200d\u2060", "\n\t \u3000", "\u3164", "\u2800", "\ufeff"]
_ODD = ["²", "٣", "３", "-1", "0", "@everyone", "<@1>", "`", "||", "\x00", "=", ":", ",", "\ud7ff"]
_ODD += ["America", "UTC", "Europe/Moscow", "../etc", "https://", "http://x", "mafioso=²"]


def text_for(option: dict[str, Any]) -> st.SearchStrategy[str]:
    low = int(option.get("min_length", 0))
    high = int(option.get("max_length", DISCORD_TEXT))

    def fits(s: str) -> bool:
        return low <= len(s) <= high

    longest = st.sampled_from(["x", "ж", "\u200b", "9", " ", "villager=9 "]).map(
        lambda unit: (unit * high)[:high]
    )
    return st.one_of(
        st.text(min_size=low, max_size=min(high, 60)),
        st.sampled_from(_BLANKS + _ODD).filter(fits),
        longest,
        st.text(alphabet=st.characters(categories=["Cf", "Zs", "Cc"]), min_size=low, max_size=20),
    )


def role_list_for(option: dict[str, Any]) -> st.SearchStrategy[str]:
    """``/mafia roles roles``: role=count lists, with odd counts (digits that are not ASCII,
    signs, huge numbers) as well as plain ones."""
    from rules.roles import ROLES as ROLE_CODES

    count = st.one_of(
        st.integers(0, 12).map(str),
        st.integers(0, 10**30).map(str),
        st.sampled_from(["²", "٣", "３", "-1", "", "1.5", "8000000", "1000000000000000000"]),
    )
    item = st.tuples(st.sampled_from([*ROLE_CODES, "wizard", "Boss"]), st.sampled_from("=:"), count)
    high = int(option.get("max_length", DISCORD_TEXT))
    return (
        st.lists(item, min_size=1, max_size=10)
        .map(lambda items: " ".join(f"{n}{s}{c}" for n, s, c in items)[:high])
        .filter(lambda text: len(text) >= int(option.get("min_length", 0)))
    )


def integer_for(option: dict[str, Any]) -> st.SearchStrategy[int]:
    low = int(option.get("min_value", -DISCORD_INT))
    high = int(option.get("max_value", DISCORD_INT))
    return st.one_of(st.integers(low, high), st.sampled_from([low, high]))


def option_strategy(command: str, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    choices = option.get("choices")
    if choices:
        return st.sampled_from([c["value"] for c in choices])
    kind = option["type"]
    if kind == _STRING:
        text = text_for(option)
        if (command, option["name"]) == ("mafia roles", "roles"):
            return st.one_of(text, role_list_for(option), role_list_for(option))
        if option.get("autocomplete") and (command, option["name"]) not in TEXT_ONLY_NICKS:
            return st.one_of(text, st.integers(0, PLAYERS - 1).map(NickRef))
        return text
    if kind == _INTEGER:
        return integer_for(option)
    if kind == _BOOLEAN:
        return st.booleans()
    if kind == _USER:
        return st.sampled_from(
            [ActorRef("host"), ActorRef("outsider"), *(ActorRef("player", i) for i in (0, 1))]
        )
    if kind == _ROLE:
        return st.sampled_from([RoleRef("everyone"), RoleRef("hosts")])
    if kind == _ATTACHMENT:
        return st.tuples(st.sampled_from(["a.png", "b.txt", "c"]), st.binary(max_size=64))
    raise AssertionError(f"no strategy for option type {kind} of /{command}")


def actors_for(command: str) -> st.SearchStrategy[ActorRef]:
    seated = st.integers(0, PLAYERS - 1).map(lambda i: ActorRef("player", i))
    if command.startswith("mafia "):
        host = st.just(ActorRef("host"))  # mostly the host: his options are the ones parsed
        return st.one_of(host, host, host, st.just(ActorRef("outsider")), seated)
    return st.one_of(seated, st.just(ActorRef("outsider")))


@st.composite
def slash_invocation(draw: st.DrawFn, command: str, options: list[dict[str, Any]]) -> Invocation:
    values: dict[str, Any] = {}
    for option in options:
        if option.get("required") or draw(st.booleans()):
            values[option["name"]] = draw(option_strategy(command, option))
    return Invocation(command, draw(actors_for(command)), values)


def typing_into(command: str, option: dict[str, Any]) -> st.SearchStrategy[Invocation]:
    """Any text typed into an autocomplete option (what the member has typed so far)."""
    name = str(option["name"])

    def typed(text: str) -> dict[str, Any]:
        return {name: text}

    return st.builds(
        Invocation,
        st.just(command),
        actors_for(command),
        text_for({"max_length": option.get("max_length", 100)}).map(typed),
        st.just("autocomplete"),
        st.just(name),
    )


def invocations() -> st.SearchStrategy[Invocation]:
    """Any command (but SKIPPED) with generated options; any nickname option's autocomplete
    with generated text; ``/post``'s modal with generated text."""
    commands = leaf_commands()
    ways: list[st.SearchStrategy[Invocation]] = []
    for command, options in sorted(commands.items()):
        if command in SKIPPED:
            continue
        typed = [o for o in options if o["type"] in (_STRING, _INTEGER) and not o.get("choices")]
        # Options typed freely are parsed by the bot: they get more of the examples.
        ways += [slash_invocation(command, options)] * (3 if typed else 1)
        for option in options:
            if option.get("autocomplete"):
                ways.append(typing_into(command, option))
    body = {"min_length": 1, "max_length": 4000}  # the /post modal's text input (cogs/day.py)
    ways.append(
        st.builds(
            Invocation,
            st.just("post"),
            actors_for("post"),
            text_for(body).map(lambda text: {"body": text}),
            st.just("modal"),
        )
    )
    return st.one_of(ways)


def generated() -> list[Invocation]:
    """The invocations the property test runs (``SETTINGS``, ``SEED``), collected."""
    out: list[Invocation] = []

    @SETTINGS
    @seed(SEED)
    @given(inv=invocations())
    def collect(inv: Invocation) -> None:
        out.append(inv)

    collect()
    return out


# --- the event loop's longest step ---------------------------------------------------------------
class StallMeter:
    """Times every callback the event loop runs (``asyncio.Handle._run``: a task's step, a
    future's callback): the longest one is the longest time the loop could serve nobody else,
    whatever else ran around it. Three figures per step: wall time (what the other guilds
    wait); the loop thread's CPU time (the bot's own work, without the pauses another process
    on a busy machine causes); wall time less the garbage collector's pauses in that step (a
    full collection walks the whole heap, here the simulated Discord's and hypothesis' too).
    """

    def __init__(self) -> None:
        self.worst = 0.0  # since the last reset, wall seconds
        self.worst_cpu = 0.0  # since the last reset, CPU seconds
        self.worst_no_gc = 0.0  # since the last reset, wall seconds less GC pauses
        self.last_cpu = 0.0  # the CPU figure up to the last reset
        self.last_no_gc = 0.0  # the no-GC figure up to the last reset
        self.gc_pauses: list[float] = []  # every collection's pause, seconds
        self._gc_began = 0.0
        self._gc_in_step = 0.0

    def reset(self) -> float:
        """The worst wall stall since the last reset (the others go to ``last_*``)."""
        worst, self.worst = self.worst, 0.0
        self.last_cpu, self.worst_cpu = self.worst_cpu, 0.0
        self.last_no_gc, self.worst_no_gc = self.worst_no_gc, 0.0
        return worst

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            pause = time.perf_counter() - self._gc_began
            self.gc_pauses.append(pause)
            self._gc_in_step += pause

    @contextmanager
    def measuring(self) -> Iterator[StallMeter]:
        original: Callable[[asyncio.Handle], None] = asyncio.Handle._run
        meter = self

        def timed(handle: asyncio.Handle) -> None:
            meter._gc_in_step = 0.0
            began, began_cpu = time.perf_counter(), time.thread_time()
            try:
                original(handle)
            finally:
                wall = time.perf_counter() - began
                meter.worst = max(meter.worst, wall)
                meter.worst_cpu = max(meter.worst_cpu, time.thread_time() - began_cpu)
                meter.worst_no_gc = max(meter.worst_no_gc, wall - meter._gc_in_step)

        setattr(asyncio.Handle, "_run", timed)  # noqa: B010 (a method is patched)
        gc.callbacks.append(self._on_gc)
        try:
            yield self
        finally:
            gc.callbacks.remove(self._on_gc)
            setattr(asyncio.Handle, "_run", original)  # noqa: B010


# --- the world the inputs run in -----------------------------------------------------------------
@attrs.define
class InputWorld:
    """Guild A runs a game (the players' and the host's game commands); guild B has a sign-up
    open (``/mafia new`` reaches its option checks, ``/mafia roles`` sets lists)."""

    env: Env
    host: MemberActor
    outsider: MemberActor
    players: list[MemberActor]
    game: ChannelHandle  # guild A's #game
    lobby: ChannelHandle  # guild A's #general
    lobby_b: ChannelHandle  # guild B's #general
    host_b: MemberActor
    roles: dict[str, Any]  # "everyone" / "hosts" -> RoleHandle, guild A

    def nick(self, index: int) -> str:
        guild = self.lobby.guild
        assert guild is not None
        game = bot_of(self.env).service.game_in(guild.id)
        if game is None:
            return "Nobody"
        nicks = sorted(p.nick for p in game.players)
        return nicks[index % len(nicks)]

    def actor(self, ref: ActorRef, command: str) -> tuple[MemberActor, ChannelHandle]:
        if ref.kind == "host":
            return (self.host_b, self.lobby_b) if command in LOBBY_B else (self.host, self.lobby)
        if ref.kind == "outsider":
            return self.outsider, self.game
        return self.players[ref.index % len(self.players)], self.game


#: Host commands run in guild B, where a sign-up is open.
LOBBY_B = frozenset({"mafia new", "mafia roles"})


async def build_world(env: Env) -> InputWorld:
    world: World = make_world(env)
    players = add_players(world, [f"p{i}" for i in range(PLAYERS)])
    await start_game(world, ROLES, players)
    hosts = world.guild.create_role("Hosts")
    guild_b = env.create_guild("Second Club")
    lobby_b = guild_b.create_text_channel("general")
    mods = guild_b.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    host_b = guild_b.add_member(env.create_user("carol"), roles=[mods])
    reply_text(await host_b.slash(lobby_b, "mafia setup", language="en"))
    reply_text(await host_b.slash(lobby_b, "mafia new", schedule="fast", timezone="UTC"))
    return InputWorld(
        env=env,
        host=world.admin,
        outsider=world.player,
        players=players,
        game=slot(world, "game"),
        lobby=world.lobby,
        lobby_b=lobby_b,
        host_b=host_b,
        roles={"everyone": world.guild.default_role, "hosts": hosts},
    )


def _resolve(world: InputWorld, value: Any) -> Any:
    if isinstance(value, NickRef):
        return world.nick(value.index)
    if isinstance(value, ActorRef):
        return world.actor(value, "")[0]
    if isinstance(value, RoleRef):
        return world.roles[value.name]
    return value


@attrs.frozen
class Outcome:
    kind: str  # "ok", "refused", "discord" (the client itself would not send it)
    stall: float  # seconds: the longest event-loop step during the invocation (wall)
    cpu: float = 0.0  # seconds: the most CPU time one step took
    no_gc: float = 0.0  # seconds: the longest step less the garbage collector's pauses in it
    text: str = ""


_KEYS = frozenset(catalogue("en"))


async def run(world: InputWorld, inv: Invocation, meter: StallMeter) -> Outcome:
    """Run one invocation; fail (AssertionError) on anything but a success or a private,
    translated refusal."""
    env = world.env
    actor, where = world.actor(inv.actor, inv.command)
    options = {name: _resolve(world, value) for name, value in inv.options.items()}
    cursor = env.error_cursor
    previous = world.game.last_message
    before = previous.id if previous is not None else None
    meter.reset()
    result: InteractionResult | None = None
    try:
        if inv.kind == "autocomplete":
            assert inv.focused is not None
            value = options.pop(inv.focused)
            choices = await actor.autocomplete(where, inv.command, inv.focused, value, **options)
            assert isinstance(choices, list)
        elif inv.kind == "modal":
            shown = await actor.slash(where, inv.command)
            if shown.modal is not None:
                result = await actor.submit_modal(shown, options)
            else:
                result = shown
        else:
            result = await actor.slash(where, inv.command, **options)
    except OptionError:
        raise  # a strategy produced what Discord would not send: a bug of the test
    except SetupError:
        # The client would not let this member run it (e.g. the command is hidden from him).
        return Outcome("discord", meter.reset(), meter.last_cpu, meter.last_no_gc)
    stall = meter.reset()
    cpu, no_gc = meter.last_cpu, meter.last_no_gc
    raised = env.errors_since(cursor)
    for error in raised:
        original = getattr(error, "original", error)
        assert isinstance(original, Refusal), f"/{inv.command} {inv.options!r}: {error!r}"
    _ = env.errors  # acknowledge the refusals
    if result is None:
        return Outcome("ok", stall, cpu, no_gc)
    posted = t("en", "say.done", channel=world.game.mention)
    assert result.acknowledged, f"/{inv.command} {inv.options!r}: no answer"
    if result.modal is not None:
        return Outcome("ok", stall, cpu, no_gc)
    response = result.response
    assert response is not None and result.ephemeral, f"/{inv.command}: not private: {result!r}"
    text = response.content or "\n".join(embed_text(e) for e in response.embeds)
    assert text and text not in _KEYS, f"/{inv.command} {inv.options!r}: reply {text!r}"
    if raised:  # the reply is the refusal, translated
        original = getattr(raised[-1], "original", raised[-1])
        assert isinstance(original, Refusal)
        assert text in (original.render("en"), original.render("ru")), (original, text)
    if text == posted:  # R52: "Posted" only when something was published
        last = world.game.last_message
        assert last is not None and last.webhook_id is not None, inv
        assert last.id != before, f"/{inv.command} {inv.options!r}: nothing was posted"
    return Outcome("refused" if raised else "ok", stall, cpu, no_gc, text)
