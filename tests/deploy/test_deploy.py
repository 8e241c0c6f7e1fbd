"""The operator's files: ``.env.example`` and the systemd unit ``deploy/forum-mafia@.service``
say only what the bot reads and runs."""

from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

from core.config import load_settings, read_dotenv
from core.shards import shards_from
from main import build_parser

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "forum-mafia@.service"
EXAMPLE = ROOT / ".env.example"


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_unit_runs_one_shard_group_and_restarts_on_failure() -> None:
    unit = _unit()
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"  # the bot stops as on Ctrl-C (test_sigterm.py)
    assert "EnvironmentFile" in service and "WantedBy" in unit["Install"]
    command = shlex.split(service["ExecStart"])
    assert command[0].endswith("/.venv/bin/python") and command[1] == "main.py"
    # What systemd hands main.py for `forum-mafia@0,1` with MAFIA_SHARD_COUNT=2.
    argv = [a.replace("${MAFIA_SHARD_COUNT}", "2").replace("%i", "0,1") for a in command[2:]]
    args = build_parser().parse_args(argv)
    assert args.command == "run"
    shards = shards_from({}, args.shard_count, args.shard_ids)
    assert shards is not None and shards.count == 2 and tuple(shards.ids) == (0, 1)


def test_the_example_names_only_settings_the_bot_reads(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    names = set(re.findall(r"^#?\s*([A-Z][A-Z_]+)=", text, flags=re.MULTILINE))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert names == {
        "DISCORD_TOKEN",
        "MAFIA_DB",
        "LOG_LEVEL",
        "DEV_GUILD_ID",
        "MAFIA_SHARD_COUNT",
        "MAFIA_SHARD_IDS",
        "DISCORD_TOKEN_FILE",
        "MAFIA_DB_FILE",
        "LOG_FORMAT",
        "MAFIA_LOG_DIR",
        "MAFIA_METRICS_PORT",
        "MAFIA_METRICS_HOST",
    }
    assert all(f"`{name}`" in readme for name in names)  # each in the configuration table
    # Every commented example value is one the bot accepts.
    for line in text.splitlines():
        match = re.match(
            r"^#\s*(MAFIA_DB|LOG_LEVEL|LOG_FORMAT|MAFIA_LOG_DIR|MAFIA_METRICS_\w+)=(\S+)$", line
        )
        if match:
            load_settings({match[1]: match[2]}, dotenv=None)
    copy = tmp_path / ".env"
    copy.write_text(text, encoding="utf-8")
    assert read_dotenv(copy) == {"DISCORD_TOKEN": ""}  # as shipped: nothing but the token
    assert load_settings({}, dotenv=copy).discord_token is None


def test_the_backup_timer_runs_the_backup_command_daily() -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((ROOT / "deploy" / "forum-mafia-backup.timer").read_text("utf-8"))
    assert parser["Timer"]["OnCalendar"] == "*-*-* 05:00:00"
    assert parser["Timer"]["Persistent"] == "true"
    service = configparser.ConfigParser(interpolation=None, strict=False)
    service.optionxform = str  # type: ignore[assignment,method-assign]
    service.read_string((ROOT / "deploy" / "forum-mafia-backup.service").read_text("utf-8"))
    assert service["Service"]["Type"] == "oneshot"
    command = shlex.split(service["Service"]["ExecStart"])
    args = build_parser().parse_args(command[2:])
    assert args.command == "backup" and args.keep == 14
    assert args.to.startswith("/var/lib/" + service["Service"]["StateDirectory"])
