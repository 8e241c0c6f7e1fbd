"""Shards: Discord's guild -> shard formula, the bounded ``--shard-count`` /
``--shard-ids`` input (and their environment variables), and that ``main.py run`` builds a
discord.py ``AutoShardedBot`` with them (a plain bot without), checked without connecting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import main
from bot.client import MafiaBot, ShardedMafiaBot
from core.shards import MAX_SHARDS, ShardError, Shards, parse_shards, shard_of, shards_from

ROOT = Path(main.__file__).resolve().parent


def guild_on(ms: int, low: int = 0) -> int:
    """A server id made at millisecond ``ms`` of Discord's epoch (the bits above 22)."""
    return (ms << 22) | low


def test_shard_of_is_discords_formula() -> None:
    """(guild_id >> 22) % shard_count: the timestamp bits decide, never the low 22 bits."""
    assert shard_of(guild_on(10), 4) == 2
    assert shard_of(guild_on(10, (1 << 22) - 1), 4) == 2
    assert shard_of(guild_on(11), 4) == 3
    assert shard_of(guild_on(12), 4) == 0
    assert shard_of(guild_on(10), 1) == 0
    # A real server id (Discord API's): its timestamp bits 19403645698, shard 0 of 2, 3 of 5.
    assert shard_of(81384788765712384, 2) == 0
    assert shard_of(81384788765712384, 5) == 3


def test_a_process_owns_the_servers_on_its_shards_only() -> None:
    shards = Shards(4, (1, 3))
    assert [shards.owns(guild_on(ms)) for ms in range(8)] == [False, True, False, True] * 2
    everything = Shards(1, (0,))
    assert all(everything.owns(guild_on(ms, ms)) for ms in range(50))
    # Every server has exactly one owner among the processes of one count.
    processes = [Shards(3, (0,)), Shards(3, (1, 2))]
    for ms in range(30):
        assert sum(p.owns(guild_on(ms)) for p in processes) == 1


def test_parse_shards_reads_the_count_and_the_ids() -> None:
    assert parse_shards(None, None) is None  # a plain bot: one process owns every server
    assert parse_shards("", "  ") is None
    assert parse_shards("3", None) == Shards(3, (0, 1, 2))  # every shard in this process
    assert parse_shards(" 4 ", "3, 1") == Shards(4, (3, 1))
    assert parse_shards("1", "0") == Shards(1, (0,))
    assert parse_shards(str(MAX_SHARDS), str(MAX_SHARDS - 1)) == Shards(
        MAX_SHARDS, (MAX_SHARDS - 1,)
    )


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        (None, "0", "shard ids need a shard count (--shard-count or MAFIA_SHARD_COUNT)"),
        ("0", None, "the shard count must be from 1 to 4096, not 0"),
        ("4097", None, "the shard count must be from 1 to 4096, not 4097"),
        ("-1", None, "the shard count must be a whole number, not '-1'"),
        ("two", None, "the shard count must be a whole number, not 'two'"),
        ("٣", None, "the shard count must be a whole number, not '٣'"),
        (
            "9" * 5000,
            None,
            "the shard count must be a whole number, not '999999999999999999999...'",
        ),
        ("2", "2", "shard id 2 is not from 0 to 1 (count 2)"),
        ("4", "1,-1", "a shard id must be a whole number, not '-1'"),
        ("4", "1,,2", "a shard id must be a whole number, not ''"),
        ("4", "1;2", "a shard id must be a whole number, not '1;2'"),
        ("4", "1,3,1", "a shard id is given twice: 1,3,1"),
        ("2", "0,1,0", "more shard ids (3) than shards (2)"),
        ("2", "0," * 3000, "more shard ids (3001) than shards (2)"),
    ],
)
def test_bad_shard_settings_are_one_clear_line(count: str | None, ids: str, message: str) -> None:
    with pytest.raises(ShardError) as raised:
        parse_shards(count, ids)
    assert str(raised.value) == message
    assert "\n" not in message


def test_the_command_line_wins_over_the_environment_setting_by_setting() -> None:
    env = {"MAFIA_SHARD_COUNT": "4", "MAFIA_SHARD_IDS": "0,1"}
    assert shards_from({}) is None
    assert shards_from(env) == Shards(4, (0, 1))
    assert shards_from(env, ids="2,3") == Shards(4, (2, 3))  # one count in .env, ids per unit
    assert shards_from({"MAFIA_SHARD_COUNT": "2"}, count="3") == Shards(3, (0, 1, 2))
    with pytest.raises(ShardError, match="shard id 3 is not from 0 to 1"):
        shards_from({"MAFIA_SHARD_IDS": "3"}, count="2")


def _run_options(tmp_path: Path, *flags: str, dotenv: str = "") -> dict[str, object]:
    env_file = tmp_path / ".env"
    env_file.write_text(dotenv, encoding="utf-8")
    args = main.build_parser().parse_args(["run", "--env-file", str(env_file), *flags])
    return main._shard_options(args, env_file)


def test_main_builds_an_auto_sharded_bot_with_the_shards_given(tmp_path: Path) -> None:
    """``main.py run --shard-count 4 --shard-ids 1,3``: the factory's optional shard settings
    make a discord.py AutoShardedBot running shards 1 and 3 of 4, owning their servers."""
    options = _run_options(tmp_path, "--shard-count", "4", "--shard-ids", "1,3")
    assert options == {"shard_count": 4, "shard_ids": (1, 3)}
    bot = main.create_bot(str(tmp_path / "m.db"), sync_commands=False, **options)
    assert isinstance(bot, ShardedMafiaBot)
    assert isinstance(bot, discord.ext.commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    assert bot.owns_guild(guild_on(5)) and not bot.owns_guild(guild_on(6))

    options = _run_options(tmp_path, dotenv="MAFIA_SHARD_COUNT=2\nMAFIA_SHARD_IDS=1\n")
    assert options == {"shard_count": 2, "shard_ids": (1,)}


def test_without_shards_main_builds_the_plain_bot_owning_everything(tmp_path: Path) -> None:
    assert _run_options(tmp_path) == {}
    bot = main.create_bot(str(tmp_path / "m.db"), sync_commands=False)
    assert type(bot) is MafiaBot
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.owns_guild(guild_on(5)) and bot.owns_guild(guild_on(6))


def test_the_factory_refuses_shard_ids_that_do_not_fit(tmp_path: Path) -> None:
    with pytest.raises(ShardError, match="shard id 2 is not from 0 to 1"):
        main.create_bot(str(tmp_path / "m.db"), shard_count=2, shard_ids=(2,))


def _run(tmp_path: Path, *flags: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``main.py run FLAGS`` with a token, where discord.py's ``Client.run`` (never reached by
    a wrong setting) prints the bot it was given instead of connecting."""
    prelude = (
        "import discord\n"
        "def run(self, *a, **k):\n"
        "    print(type(self).__name__, isinstance(self, discord.AutoShardedClient),"
        " self.shard_count, getattr(self, 'shard_ids', None))\n"
        "discord.Client.run = run\n"
    )
    code = f"import sys\n{prelude}import main\nsys.exit(main.main(sys.argv[1:]))"
    environ = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "MAFIA_", "LOG_", "DEV_GUILD"))
    }
    environ.update(DISCORD_TOKEN="x.y.z", MAFIA_DB=str(tmp_path / "m.db"), LOG_LEVEL="WARNING")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", code, "run", "--env-file", str(tmp_path / ".env"), *flags],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )


def test_main_py_run_passes_the_shards_to_the_bot(tmp_path: Path) -> None:
    done = _run(tmp_path, "--shard-count", "4", "--shard-ids", "3,1")
    assert (done.returncode, done.stdout) == (0, "ShardedMafiaBot True 4 [3, 1]\n"), done.stderr
    done = _run(tmp_path, MAFIA_SHARD_COUNT="2")
    assert (done.returncode, done.stdout) == (0, "ShardedMafiaBot True 2 [0, 1]\n"), done.stderr
    done = _run(tmp_path)
    assert (done.returncode, done.stdout) == (0, "MafiaBot False None None\n"), done.stderr


def test_main_py_run_with_bad_shards_stops_with_one_line(tmp_path: Path) -> None:
    done = _run(tmp_path, "--shard-count", "2", "--shard-ids", "0,2")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "Configuration error: shard id 2 is not from 0 to 1 (count 2)\n"
    done = _run(tmp_path, MAFIA_SHARD_IDS="1")
    assert done.stderr == (
        "Configuration error: shard ids need a shard count (--shard-count or MAFIA_SHARD_COUNT)\n"
    )
