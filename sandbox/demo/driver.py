"""The run: the bot in SimCord, every table set up and played turn by turn on the one virtual
clock (:func:`play_tables`), the wall-clock limit, the contract check, the artifacts, the
exit code; and the command line entry (:func:`demo_main`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO, cast

import simcord

from bot.client import MafiaBot, create_bot
from core.clock import game_events
from core.i18n import Lang
from core.live import LiveGame
from rules.setup import SetupError, parse_role_list, validate_setup
from sandbox.artifacts import write_artifacts
from sandbox.clients import EVERYONE, LOCALE_OF, client_locales
from sandbox.contract import DiscordContract
from sandbox.demo.options import (
    MAX_DEMO_SHARDS,
    MAX_PLAYERS,
    MAX_TABLES,
    MIN_PLAYERS,
    WALL_LIMIT_SECONDS,
    DemoError,
    DemoOptions,
)
from sandbox.demo.table import Demo

log = logging.getLogger(__name__)


async def play_tables(demos: Sequence[Demo]) -> None:
    """Every table's game to its end on the one virtual clock: each table whose game runs acts
    in its turn, then the clock moves through each notice to the earliest deadline, until a
    game there has moved on (resolved, its pistol window closed, or over)."""
    first = demos[0]
    while True:
        live: list[tuple[Demo, LiveGame]] = []
        for demo in demos:
            game = demo.game()
            if demo.capped:
                continue
            if game is not None and game.engine.turn > demo.options.turn_cap:
                demo.capped = True  # a draft of its last turn stays unpublished
                continue
            # --review: the host publishes what the deadline held (also a game's last turn).
            await demo.review()
            game = demo.game()
            if game is not None:
                live.append((demo, game))
        if not live:
            return
        before = {demo.index: demo.moment() for demo, _game in live}
        for demo, game in live:
            await demo.act(game)
        deadline = min(b[2] for b in before.values() if b is not None and b[2] is not None)
        moments = sorted(
            event.at
            for _demo, game in live
            for event in game_events(game, first.env.now())
            if event.at < deadline
        )
        for moment in moments:  # each notice at its moment
            await first.advance_to(moment)
        await first.advance_to(deadline)
        for _ in range(5):  # the clock fires at the deadline; allow for rounding
            if any(demo.moment() != before[demo.index] for demo, _game in live):
                break
            await first._observe(first.env.advance_time(1.0))
            first.transcript.flush()
        else:
            turn = min(b[0] for b in before.values() if b is not None)
            raise DemoError(f"turn {turn} did not resolve at its deadline")


async def run_demo(options: DemoOptions, out: TextIO | None = None) -> int:
    """Play the demo, printing to ``out`` (stdout); returns the exit code."""
    out = out if out is not None else sys.stdout
    if (
        not MIN_PLAYERS <= options.players <= MAX_PLAYERS
        or options.schedule not in ("fast", "forum")
        or not 1 <= options.tables <= MAX_TABLES
    ):
        print(
            f"demo: {options.players} players, {options.schedule!r} schedule, "
            f"{options.tables} tables?",
            file=sys.stderr,
        )
        return 2
    if (options.shard_count is None) != (options.shard_id is None) or (
        options.shard_count is not None
        and options.shard_id is not None
        and not 0 <= options.shard_id < options.shard_count <= MAX_DEMO_SHARDS
    ):
        print(f"demo: shard {options.shard_id} of {options.shard_count}?", file=sys.stderr)
        return 2
    if options.db is not None:
        return await _run(options, options.db, out)
    with tempfile.TemporaryDirectory(prefix="mafia-demo-") as folder:
        return await _run(options, str(Path(folder) / "demo.db"), out)


async def _run(options: DemoOptions, database: str, out: TextIO) -> int:
    shards: dict[str, Any] = {}
    if options.shard_count is not None and options.shard_id is not None:
        # Its own server's games only: the other shards' demos own theirs in the same --db.
        shards = {"shard_count": options.shard_count, "shard_ids": [options.shard_id]}
    # The bot as production runs it, but for two settings. No heap freeze: a demo is a short
    # run, and the tests play many demos in one process. No R59 heartbeat: SimCord's clock
    # starts at the same instant on every run, so a demo resumed after a kill starts its
    # clock over, before the beats of the run it resumes, which then measure nothing; the
    # demo shows the game (R59 is played by the end-to-end tests, with create_bot's defaults).
    bot = create_bot(
        database,
        game_seed=options.seed,
        freeze_heap=False,
        heartbeat=False,
        handle_sigterm=False,
        **shards,
    )
    assert isinstance(bot, MafiaBot)
    winners: list[tuple[str | None, str | None]] = []  # (table name, winner)
    code = 0
    started = time.monotonic()
    # Every request is checked against Discord's limits (sandbox/contract/).
    contract = DiscordContract()
    try:
        # Every member's client speaks the demo's language, as in a club of one language.
        with client_locales({EVERYONE: LOCALE_OF[options.lang]}), contract.installed():
            async with simcord.run(bot, check_errors=False) as env:
                first = Demo(env, bot, options, out)
                demos = [first] + [
                    Demo(env, bot, options, out, index=i, transcript=first.transcript)
                    for i in range(1, options.tables)
                ]
                try:
                    winners = await asyncio.wait_for(play_all(demos), WALL_LIMIT_SECONDS)
                except TimeoutError:
                    print(f"demo: gave up after {WALL_LIMIT_SECONDS:.0f} s", file=sys.stderr)
                except DemoError as error:
                    print(f"demo: {error}", file=sys.stderr)
                    return 2
                if options.artifacts is not None and winners:
                    await _write_artifacts(bot, first, Path(options.artifacts), options.lang)
                for demo in demos:
                    for failure in demo.unexpected:
                        print(f"demo: the bot failed: {failure!r}", file=sys.stderr)
                        code = 1
                _ = env.errors  # acknowledged: refusals are part of play, the rest reported above
    finally:
        await bot.close_store()
        for violation in contract.violations:  # also when the demo stopped early
            print(f"demo: Discord would refuse: {violation}", file=sys.stderr)
    if contract.violations:
        code = 1
    log.info("demo finished in %.1f s", time.monotonic() - started)
    if not winners:
        winners = [(None, None)]
    for name, winner in winners:
        label = "winner" if options.tables <= 1 else f"winner[{name}]"
        out.write(f"{label}: {winner or 'none'}\n")
        if winner is None or winner == "none":
            code = 1
    out.flush()
    return code


async def _write_artifacts(bot: MafiaBot, first: Demo, folder: Path, lang: Lang) -> None:
    """``--artifacts``: the archives, pictures and stats of the demo server (sandbox/artifacts),
    listed on standard error (the transcript stays as it is)."""
    guild = bot.get_guild(first.guild.id)
    if guild is None:
        raise DemoError("the demo server vanished")
    for path in await write_artifacts(bot.store, guild, folder, lang):
        print(f"demo: wrote {path}", file=sys.stderr)


async def play_all(demos: Sequence[Demo]) -> list[tuple[str | None, str | None]]:
    """Build the server, set every table up and open its game (or pick up the stored ones),
    play them all to the end; each table's name and winner."""
    first = demos[0]
    first.build_world()
    for demo in demos[1:]:
        demo.adopt(first)
    running = [demo for demo in demos if not await demo.begin()]
    # A resumed game: the clock back where it stood when its phase opened (SimCord's starts at
    # the same early instant on every run), so what its players do now happens when it did
    # in an uninterrupted run (a pistol shot that ends the game, its end time).
    opened = [moment for demo in running if (moment := demo.opened_at()) is not None]
    if opened:
        await first.advance_to(min(opened))
    if running:
        await play_tables(running)
    return [(demo.table_name, await demo.winner()) for demo in demos]


def demo_main(
    *,
    players: int = 8,
    seed: int = 1,
    db: str | None = None,
    host_view: bool = False,
    schedule: str = "fast",
    lang: str = "en",
    tables: int = 1,
    artifacts: str | None = None,
    shard_count: int | None = None,
    shard_id: int | None = None,
    wishes: bool = False,
    roles: str | None = None,
    review: int = 0,
    ghost_room: bool = False,
    substitute: bool = False,
) -> int:
    """``main.py demo``: the command line entry (its own event loop). ``roles``: the role
    list to play (its length is the number of players)."""
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if roles is not None:
        try:
            dealt = parse_role_list(roles)
            validate_setup(dealt)
        except SetupError as error:
            print(f"demo: --roles: {error}", file=sys.stderr)
            return 2
        players = len(dealt)
    options = DemoOptions(
        roles=roles,
        players=players,
        seed=seed,
        db=db,
        host_view=host_view,
        schedule=schedule,
        lang="ru" if lang == "ru" else "en",
        tables=tables,
        artifacts=artifacts,
        shard_count=shard_count,
        shard_id=shard_id,
        wishes=wishes,
        review=review,
        ghost_room=ghost_room,
        substitute=substitute,
    )
    interrupted = False

    async def interruptible() -> int:
        """The demo, stopped by Ctrl-C wherever it stands: the signal sets a flag before it
        cancels the demo, so what the cancellation meets on its way (a simulated request, the
        store, the simulator's teardown) never turns it into another ending."""
        loop = asyncio.get_running_loop()
        main = asyncio.current_task()
        assert main is not None

        def on_sigint() -> None:
            nonlocal interrupted
            interrupted = True
            main.cancel()

        # Where the loop takes no signal handler, Ctrl-C stays Python's KeyboardInterrupt.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, on_sigint)
        try:
            quiet = cast(TextIO, _Quiet(sys.stdout, lambda: interrupted))
            return await run_demo(options, out=quiet)
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)

    code = 1
    try:
        code = asyncio.run(interruptible())
    except (KeyboardInterrupt, asyncio.CancelledError):
        interrupted = True
    except BrokenPipeError:  # `main.py demo | head`: the reader left, nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second complaint when Python exits
        return 0
    except Exception:
        if not interrupted:
            raise
    if interrupted:
        where = f"; run it again with --db {db} to continue" if db else ""
        print(f"demo: interrupted{where}", file=sys.stderr)
        return 130
    return code


class _Quiet:
    """The demo's standard output, silent once the demo was interrupted (a summary written
    on the way out would read as the game's ending)."""

    def __init__(self, out: TextIO, interrupted: Callable[[], bool]) -> None:
        self._out = out
        self._interrupted = interrupted

    def write(self, text: str) -> int:
        return 0 if self._interrupted() else self._out.write(text)

    def flush(self) -> None:
        self._out.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)
