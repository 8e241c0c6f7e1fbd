"""Command line of the forum-mafia bot: run | replay | export | health | backup | migrate-store
| demo.

Heavy imports (discord.py, aiosqlite) happen inside the subcommands that need them, so that
`replay` starts fast and never imports discord. `main.py replay FILE` goes further
(replay at the speed of reading its input): it skips argparse, logging and pathlib too, which
cost more than the replay of a short script (see `_replay_file`).
"""

from __future__ import annotations

import io
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import argparse
    import logging
    from collections.abc import Callable
    from pathlib import Path

    from discord.ext import commands

PROG = "main.py"

NO_TOKEN_HELP = """\
No bot token: set DISCORD_TOKEN in the environment or in {dotenv}.

To get a token:
  1. Open https://discord.com/developers/applications and create an application
     (or pick yours).
  2. Bot tab: "Reset Token", copy it, and put DISCORD_TOKEN=<the token> in {dotenv}.
     Keep it secret: anyone with it controls the bot.
  3. Bot tab, Privileged Gateway Intents: enable "Server Members Intent".
     (Message Content is not needed.)
  4. Invite the bot to your server with this URL, after putting in the Application ID
     (General Information tab):
     https://discord.com/oauth2/authorize?client_id=<APPLICATION_ID>&scope=bot+applications.commands&permissions={permissions_value}
     It grants the bot:
{permissions}
  5. Run `python main.py run` again, then `/mafia setup` on your server.

No token at hand? `python main.py demo` plays a game offline, against a simulated Discord.
"""

LOGIN_FAILED_HELP = """\
Discord rejected the bot token ({reason}).
The token in DISCORD_TOKEN ({source}) is wrong or was reset. Open
https://discord.com/developers/applications, pick the application, Bot tab, "Reset Token",
and put the new token in DISCORD_TOKEN.

No token at hand? `python main.py demo` plays a game offline, against a simulated Discord.
"""

INTENTS_HELP = """\
Discord refused the "Server Members Intent" this bot needs.
Open https://discord.com/developers/applications, pick the application, Bot tab, and enable
"Server Members Intent" under Privileged Gateway Intents, then run again.
"""


def create_bot(database: str, **settings: Any) -> commands.Bot:
    """The bot factory (see bot/client.py); imported lazily so `replay` never loads discord."""
    from bot.client import create_bot as create

    return create(database, **settings)


def _log() -> logging.Logger:
    import logging

    return logging.getLogger("main")


def _cmd_run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from core.config import ConfigError, check_database_path, load_settings

    dotenv = Path(args.env_file)
    try:
        settings = load_settings(dotenv=dotenv)
        check_database_path(settings.database)
        shard_options = _shard_options(args, dotenv)
    except ConfigError as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 1
    if settings.discord_token is None:
        import textwrap

        import discord

        from bot.layout import INVITE_PERMISSIONS, missing_bot_permissions
        from core.i18n import t

        flags = missing_bot_permissions(discord.Permissions.none())
        names = textwrap.fill(
            ", ".join(t("en", f"perm.{flag}") for flag in flags),
            width=90,
            initial_indent="     ",
            subsequent_indent="     ",
        )
        print(
            NO_TOKEN_HELP.format(
                dotenv=dotenv,
                permissions=names,
                permissions_value=INVITE_PERMISSIONS.value,
            ),
            file=sys.stderr,
        )
        return 1

    import aiohttp
    import discord

    from bot.logging_setup import setup_logging
    from db.errors import StoreError
    from db.urls import redact_secrets

    try:
        setup_logging(
            settings.log_level,
            settings.log_dir,
            fmt=settings.log_format,
            secrets=settings.secrets,
        )
    except OSError as error:
        print(f"Cannot write the log in {settings.log_dir}: {error.strerror}", file=sys.stderr)
        return 1
    bot = create_bot(
        str(settings.database),
        dev_guild_id=settings.dev_guild_id,
        freeze_heap=True,
        heartbeat=True,  # R59: downtime is known
        metrics_port=settings.metrics_port,
        metrics_host=settings.metrics_host,
        **shard_options,
    )
    source = _token_source(dotenv)
    try:
        bot.run(settings.discord_token, log_handler=None)
    except discord.LoginFailure as error:
        print(LOGIN_FAILED_HELP.format(reason=error, source=source), file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(INTENTS_HELP, file=sys.stderr)
        return 1
    except StoreError as error:
        text = redact_secrets(f"Database {_shown(settings.database)}: {error}", settings.secrets)
        print(text, file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        _log().debug("connecting to Discord failed", exc_info=True)
        print(f"Cannot reach Discord: {_one_line(error)}", file=sys.stderr)
        return 1
    except discord.GatewayNotFound as error:
        _log().debug("no gateway", exc_info=True)
        print(f"Cannot reach Discord: {_one_line(error)}", file=sys.stderr)
        return 1
    except discord.ConnectionClosed as error:
        _log().debug("gateway closed", exc_info=True)
        print(f"Discord closed the connection: {_one_line(error)}", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        _log().debug("Discord answered with an error", exc_info=True)
        print(f"Discord answered with an error: {_one_line(error)}", file=sys.stderr)
        return 1
    return 0


def _shown(database: str | os.PathLike[str]) -> str:
    """The database setting as it may be printed: a URL's password hidden."""
    from db.urls import shown

    return shown(database)


def _token_source(dotenv: Path) -> str:
    """Where the token came from, for the message that Discord refused it."""
    if os.environ.get("DISCORD_TOKEN_FILE"):
        return f"the file {os.environ['DISCORD_TOKEN_FILE']}"
    return "environment" if os.environ.get("DISCORD_TOKEN") else str(dotenv)


def _shard_options(args: argparse.Namespace, dotenv: Path) -> dict[str, Any]:
    """The ``create_bot`` settings of ``--shard-count`` / ``--shard-ids``, each over its
    variable (``MAFIA_SHARD_COUNT`` / ``MAFIA_SHARD_IDS``, the environment over ``.env``):
    none without a count (a plain bot owning every server). A ``ConfigError`` (one line)
    for shards that do not fit."""
    from core.config import ConfigError, read_dotenv
    from core.shards import ShardError, shards_from

    values = read_dotenv(dotenv)
    values.update(os.environ)
    try:
        shards = shards_from(values, args.shard_count, args.shard_ids)
    except ShardError as error:
        raise ConfigError(str(error)) from None
    if shards is None:
        return {}
    return {"shard_count": shards.count, "shard_ids": shards.ids}


def _one_line(error: BaseException) -> str:
    """``str(error)`` on one line, or the error's class name when it says nothing."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _cmd_replay(args: argparse.Namespace) -> int:
    return _replay(args.file)


def _replay(file: str) -> int:
    from rules.replay import main as replay_main

    if file == "-" and isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8")  # a script is UTF-8, whatever the locale says
    try:
        return replay_main(file)
    except UnicodeDecodeError:
        print("replay: standard input is not UTF-8 text", file=sys.stderr)
    except RecursionError:
        print("replay: bad JSON: nested too deeply", file=sys.stderr)
    return 2


def _cmd_export(args: argparse.Namespace) -> int:
    from db.export import export_main

    database = args.db
    if database is None:
        from core.config import ConfigError, load_settings

        try:
            database = str(load_settings().database)
        except ConfigError as error:
            print(f"export: configuration error: {error}", file=sys.stderr)
            return 2
    renderer = None
    if args.format != "json":  # the archive of a finished game, in --lang
        from bot.archive import archive_renderer

        renderer = archive_renderer(args.format, args.lang)
    return export_main(database, args.game_id, renderer)


def _store_setting(args: argparse.Namespace, command: str) -> tuple[str, tuple[str, ...]] | None:
    """The store of ``--db``, else of the settings (``MAFIA_DB`` or ``MAFIA_DB_FILE``), with
    the secrets no line may show; None (the error printed) when the settings are unusable."""
    from core.config import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"{command}: configuration error: {error}", file=sys.stderr)
        return None
    if args.db is not None:
        from urllib.parse import urlsplit

        from db.urls import is_postgres_url

        secrets: tuple[str, ...] = ()
        if is_postgres_url(args.db):
            try:
                secrets = tuple(s for s in (urlsplit(args.db).password,) if s)
            except ValueError:
                secrets = (args.db,)
        return args.db, secrets
    return str(settings.database), settings.secrets


def _cmd_health(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from core.health import health_main

    found = _store_setting(args, "health")
    if found is None:
        return 1
    database, secrets = found
    # The probe looks at the bot from outside: the machine's own time is its clock.
    return health_main(database, args.max_age, now=datetime.now(UTC), secrets=secrets)


def _cmd_backup(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from db.backup import backup_main

    found = _store_setting(args, "backup")
    if found is None:
        return 1
    # The copy is named by the machine's time: when it was taken, for the admin.
    return backup_main(found[0], args.to, at=datetime.now(UTC), keep=args.keep)


def _cmd_migrate_store(args: argparse.Namespace) -> int:
    from db.transfer import migrate_store_main

    return migrate_store_main(args.source, args.target)


def _cmd_demo(args: argparse.Namespace) -> int:
    try:
        from sandbox.demo import demo_main
    except ModuleNotFoundError as error:
        if error.name != "simcord":
            raise
        print(
            "The demo runs the bot in SimCord, a development dependency: "
            "pip install -r requirements-dev.txt (or `make demo`).",
            file=sys.stderr,
        )
        return 1
    from db.errors import StoreError

    try:
        return demo_main(
            players=args.players,
            seed=args.seed,
            db=args.db,
            host_view=args.host_view,
            schedule=args.schedule,
            lang=args.lang,
            tables=args.tables,
            artifacts=args.artifacts,
            shard_count=args.shard_count,
            shard_id=args.shard_id,
            wishes=args.wishes,
            roles=args.roles,
            review=args.review,
            ghost_room=args.ghost_room,
            substitute=args.substitute,
        )
    except StoreError as error:
        print(f"demo: {error}", file=sys.stderr)
        return 1


def _whole_number(text: str, low: int, high: int, what: str) -> int:
    """``text`` as an int in ``low..high``, or an ArgumentTypeError that says what was
    expected (argparse prefixes it with the option's name). Only ASCII digits: ``int()``
    takes "٣" and refuses "²", and a 5,000-digit string is refused before ``int()`` sees it."""
    import argparse

    digits = text.strip().removeprefix("+")
    shown = text if len(text) <= 24 else text[:21] + "..."
    if digits.isascii() and digits.isdigit() and len(digits) <= len(str(high)):
        value = int(digits)
        if low <= value <= high:
            return value
    raise argparse.ArgumentTypeError(f"expected {what} from {low} to {high}, got {shown!r}")


def _players(text: str) -> int:
    return _whole_number(text, 4, 30, "a whole number")


def _tables(text: str) -> int:
    return _whole_number(text, 1, 10, "a whole number")


def _seed(text: str) -> int:
    return _whole_number(text, 0, 2**63 - 1, "a whole number")


def _review_minutes(text: str) -> int:
    return _whole_number(text, 1, 1440, "a number of minutes")  # core.review.MAX_REVIEW_MINUTES


def _demo_shard_count(text: str) -> int:
    return _whole_number(text, 1, 16, "a whole number")  # sandbox.demo.MAX_DEMO_SHARDS


def _demo_shard_id(text: str) -> int:
    return _whole_number(text, 0, 15, "a whole number")


def _check_demo_shards(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """``demo --shard-count N --shard-id K``: both or neither, and K below N (a one-line
    argparse error, status 2, otherwise)."""
    if (args.shard_count is None) != (args.shard_id is None):
        parser.error("--shard-count and --shard-id go together: give both or neither")
    if args.shard_count is not None and args.shard_id >= args.shard_count:
        parser.error(
            f"--shard-id must be from 0 to {args.shard_count - 1} "
            f"(--shard-count {args.shard_count}), got {args.shard_id}"
        )


def _max_age(text: str) -> int:
    return _whole_number(text, 1, 86400, "a number of seconds")


def _keep(text: str) -> int:
    return _whole_number(text, 1, 100000, "a number of copies")


def _game_id(text: str) -> int:
    return _whole_number(text, 1, 2**63 - 1, "a game number")


def build_parser() -> argparse.ArgumentParser:
    import argparse
    from pathlib import Path

    class _Parser(argparse.ArgumentParser):
        """An argparse parser whose usage errors are one line (the usage is in ``--help``)."""

        def error(self, message: str) -> NoReturn:
            self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    parser = _Parser(prog=PROG, description="Forum mafia Discord bot")
    sub = parser.add_subparsers(dest="command", required=True)

    p_replay = sub.add_parser("replay", help="run a game script through the rules engine")
    p_replay.add_argument("file", help="script file, or - for standard input")
    p_replay.set_defaults(func=_cmd_replay)

    p_export = sub.add_parser(
        "export", help="print a stored game as a replay script, or a finished game's archive"
    )
    p_export.add_argument(
        "--db", default=None, help="database file or postgresql:// URL (default: MAFIA_DB)"
    )
    p_export.add_argument(
        "--format",
        choices=("json", "html", "md"),
        default="json",
        help="json: the replay script (default); html, md: the archive of a finished game",
    )
    p_export.add_argument(
        "--lang",
        choices=("en", "ru"),
        default=None,
        help="the archive's language (default: the game's table language)",
    )
    p_export.add_argument("game_id", nargs="?", type=_game_id, help="default: the most recent game")
    p_export.set_defaults(func=_cmd_export)

    p_run = sub.add_parser("run", help="run the bot on Discord (needs DISCORD_TOKEN)")
    p_run.add_argument(
        "--env-file",
        default=str(Path(__file__).resolve().parent / ".env"),
        help="the .env file to read settings from (default: .env next to main.py)",
    )
    p_run.add_argument(
        "--shard-count",
        default=None,
        metavar="N",
        help="run as Discord shards: N in all (default: MAFIA_SHARD_COUNT, else no shards, "
        "one process owning every server)",
    )
    p_run.add_argument(
        "--shard-ids",
        default=None,
        metavar="A,B",
        help="the shards this process runs, from 0 to N-1 (default: MAFIA_SHARD_IDS, "
        "else all N); it owns the games of their servers only",
    )
    p_run.set_defaults(func=_cmd_run)

    p_health = sub.add_parser(
        "health",
        help="exit 0 if a bot beat in the store lately, 1 if not (for Docker, systemd, monitors)",
    )
    p_health.add_argument(
        "--db", default=None, metavar="FILE|URL", help="the store (default: MAFIA_DB)"
    )
    p_health.add_argument(
        "--max-age",
        type=_max_age,
        default=90,
        metavar="SECONDS",
        help="the newest beat may be this old (default 90), or one and a half of the bot's "
        "pace if longer (it beats every minute with ten-minute turns, every ten minutes "
        "with forum days)",
    )
    p_health.set_defaults(func=_cmd_health)

    p_backup = sub.add_parser(
        "backup", help="a consistent copy of the store, while the bot runs, named by the time"
    )
    p_backup.add_argument(
        "--db", default=None, metavar="FILE|URL", help="the store (default: MAFIA_DB)"
    )
    p_backup.add_argument("--to", required=True, metavar="DIR", help="the folder of the copies")
    p_backup.add_argument(
        "--keep",
        type=_keep,
        default=None,
        metavar="N",
        help="then remove the oldest copies beyond the newest N (default: keep all)",
    )
    p_backup.set_defaults(func=_cmd_backup)

    p_migrate = sub.add_parser(
        "migrate-store",
        help="copy every game of one store into another, empty one "
        "(e.g. a SQLite file into PostgreSQL)",
    )
    p_migrate.add_argument("source", help="a SQLite file or a postgresql:// URL")
    p_migrate.add_argument("target", help="a SQLite file or a postgresql:// URL (empty)")
    p_migrate.set_defaults(func=_cmd_migrate_store)

    p_demo = sub.add_parser(
        "demo", help="play a whole game offline: the real bot in a simulated Discord"
    )
    p_demo.add_argument(
        "--players", type=_players, default=8, metavar="N", help="4 to 30 (default 8)"
    )
    p_demo.add_argument("--seed", type=_seed, default=1, help="the game's seed (default 1)")
    p_demo.add_argument(
        "--roles",
        default=None,
        metavar="LIST",
        help="the role list to play, as /mafia roles takes it (e.g. the original's "
        "'commissar=1 crook=1 villager=3', or as a host writes it, 'комиссар=1 жулик=1 мж=3'); "
        "its length is the number of players "
        "(default: the preset for --players)",
    )
    p_demo.add_argument(
        "--db",
        default=None,
        metavar="FILE|URL",
        help="keep the game in FILE (SQLite) or a postgresql:// database; run again after "
        "an interruption to continue it (default: a temporary file)",
    )
    p_demo.add_argument(
        "--host-view",
        action="store_true",
        help="also print private replies, DMs, #mafia and #host",
    )
    p_demo.add_argument("--schedule", choices=("fast", "forum"), default="fast")
    p_demo.add_argument(
        "--lang", choices=("en", "ru"), default="en", help="the server's language (default en)"
    )
    p_demo.add_argument(
        "--tables",
        type=_tables,
        default=1,
        metavar="N",
        help="play N games at once, each at its own table of one server: 1 to 10 (default 1)",
    )
    p_demo.add_argument(
        "--artifacts",
        default=None,
        metavar="DIR",
        help="afterwards, write each game's archive (HTML, Markdown), its picture (PNG) and "
        "the server's stats to DIR",
    )
    p_demo.add_argument(
        "--wishes",
        action="store_true",
        help="open the sign-up with role wishes: members wish for roles (privately), the "
        "host adopts the tally as the setup, the wishes are granted at the start",
    )
    p_demo.add_argument(
        "--review",
        type=_review_minutes,
        default=0,
        metavar="MINUTES",
        help="the host reviews each turn's results (/mafia new review): they wait in #host, "
        "the host adds his story and publishes them; 1 to 1440 minutes before they go out "
        "unreviewed (default: no review)",
    )
    p_demo.add_argument(
        "--ghost-room",
        action="store_true",
        help="the dead talk in their own room (/mafia new ghost_room), not in #game (R62)",
    )
    p_demo.add_argument(
        "--substitute",
        action="store_true",
        help="on turn 2 a player asks to be replaced (/replaceme), a member stands by "
        "(/standby) and the host hands him the nickname (/mafia replace, R60)",
    )
    p_demo.add_argument(
        "--shard-count",
        type=_demo_shard_count,
        default=None,
        metavar="N",
        help="with --shard-id: one of N demo processes sharing --db (1 to 16), each the bot "
        "of one shard with its own server on that shard, owning only that server's games",
    )
    p_demo.add_argument(
        "--shard-id",
        type=_demo_shard_id,
        default=None,
        metavar="K",
        help="with --shard-count: this process's shard, from 0 to N-1",
    )
    p_demo.set_defaults(func=_cmd_demo, check=lambda args: _check_demo_shards(p_demo, args))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; every failure is one line on standard error and a non-zero status
    (the traceback too, with ``LOG_LEVEL=DEBUG``)."""
    file = _replay_file(sys.argv[1:] if argv is None else argv)
    command: str
    run: Callable[[], Any]
    if file is not None:  # the fast path: what argparse would do, without argparse
        command = "replay"

        def run() -> Any:
            return _replay(file)

    else:
        args = build_parser().parse_args(argv)
        command = args.command
        check = getattr(args, "check", None)
        if check is not None:  # what argparse cannot check option by option
            check(args)

        def run() -> Any:
            return args.func(args)

    try:
        status = int(run())
        sys.stdout.flush()  # a closed pipe shows here, not at interpreter exit
    except KeyboardInterrupt:
        print(f"{PROG} {command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # `main.py export | head`: the reader left. As Python's documentation on SIGPIPE
        # recommends, point stdout at devnull so that the flush at exit stays quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except Exception as error:  # the last resort: never a traceback on the command line
        if os.environ.get("LOG_LEVEL", "").strip().upper() == "DEBUG":
            import traceback

            traceback.print_exc()
        _log().debug("%s failed", command, exc_info=True)
        print(
            f"{PROG} {command}: unexpected error: {type(error).__name__}: {_one_line(error)}",
            file=sys.stderr,
        )
        return 1
    return status


def _replay_file(argv: list[str]) -> str | None:
    """The FILE of ``replay FILE`` when argparse would read the arguments so and do nothing
    else: exactly two, the second no option ("-" is standard input). Anything else (``--help``,
    ``--``, an option, a missing file) goes through the parser, errors and help included."""
    if len(argv) == 2 and argv[0] == "replay" and (argv[1] == "-" or argv[1][:1] != "-"):
        return argv[1]
    return None


if __name__ == "__main__":
    sys.exit(main())
