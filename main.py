"""Command line of the forum-mafia bot: run | replay | export | demo.

Heavy imports (discord.py, aiosqlite) happen inside the subcommands that need them, so that
`replay` starts fast and never imports discord.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def _cmd_replay(args: argparse.Namespace) -> int:
    from rules.replay import main as replay_main

    return replay_main(args.file)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="main.py", description="Forum mafia Discord bot")
    sub = parser.add_subparsers(dest="command", required=True)

    p_replay = sub.add_parser("replay", help="run a game script through the rules engine")
    p_replay.add_argument("file", help="script file, or - for standard input")
    p_replay.set_defaults(func=_cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Any = args.func
    return int(func(args))


if __name__ == "__main__":
    sys.exit(main())
