"""The command line: a clean message, never a traceback, for a missing or wrong token, an
unreachable Discord, a bad option, database or script, a closed pipe or Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import main
from bot import logging_setup
from bot.client import MafiaBot
from bot.layout import INVITE_PERMISSIONS

ROOT = Path(main.__file__).resolve().parent


def test_main_exposes_the_bot_factory(tmp_path: Path) -> None:
    bot = main.create_bot(str(tmp_path / "m.db"), sync_commands=False)
    assert isinstance(bot, MafiaBot)
    assert bot.database == str(tmp_path / "m.db")


def test_unknown_factory_setting_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        main.create_bot(str(tmp_path / "m.db"), no_such_setting=True)


def test_importing_main_does_not_import_discord() -> None:
    code = "import sys, main; main.build_parser(); sys.exit('discord' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert done.returncode == 0


def test_run_without_token_exits_1_with_instructions(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    done = subprocess.run(
        [sys.executable, "main.py", "run", "--env-file", str(tmp_path / ".env")],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "No bot token" in done.stderr
    assert "https://discord.com/developers/applications" in done.stderr
    assert "Server Members Intent" in done.stderr
    assert "Manage Webhooks" in done.stderr
    assert f"&permissions={INVITE_PERMISSIONS.value}" in done.stderr
    assert "python main.py demo" in done.stderr
    assert "Traceback" not in done.stderr


def test_rejected_token_exits_1_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def reject(self: object, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", reject)
    monkeypatch.setattr(logging_setup, "setup_logging", lambda *a, **k: None)

    code = main.main(["run", "--env-file", str(tmp_path / ".env")])

    assert code == 1
    err = capsys.readouterr().err
    assert "Discord rejected the bot token (Improper token has been passed.)" in err
    assert "Reset Token" in err
    assert "python main.py demo" in err
    assert "Traceback" not in err


def test_demo_without_simcord_says_it_needs_the_development_requirements() -> None:
    """The demo harness (sandbox/) needs SimCord, a development dependency: without it,
    ``main.py demo`` says what to install instead of a traceback."""
    code = "import sys; sys.modules['simcord'] = None; import main; sys.exit(main.main(['demo']))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 1
    assert "requirements-dev.txt" in done.stderr
    assert "make demo" in done.stderr
    assert "Traceback" not in done.stderr


# --- every failure is one line on standard error, never a traceback ---------------

#: No subprocess of these tests may hang the suite.
TIMEOUT = 90


def _environ(**extra: str) -> dict[str, str]:
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "MAFIA_DB", "LOG_LEVEL", "DEV_GUILD_ID")
    }
    environ["LOG_LEVEL"] = "WARNING"  # the log's INFO lines are not part of the answer
    environ.update(extra)
    return environ


def _cli(
    *args: str,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    prelude: str = "",
) -> subprocess.CompletedProcess[str]:
    """``python main.py ARGS`` (after ``prelude``, Python run in the same process)."""
    code = f"import sys\n{prelude}\nimport main\nsys.exit(main.main(sys.argv[1:]))"
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=_environ() if env is None else env,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def _one_line_failure(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0, done.stdout
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr
    return done.stderr.strip()


@pytest.fixture(scope="module")
def game_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one finished game, played by the offline demo."""
    path = tmp_path_factory.mktemp("game") / "game.db"
    done = _cli("demo", "--players", "4", "--db", str(path))
    assert done.returncode in (0, 1), done.stderr  # 1: the demo's turn cap, still a game
    assert path.stat().st_size > 0
    return path


def _state(path: Path) -> tuple[bytes, int, list[str]]:
    """A database file's bytes, its mtime and the files of its folder."""
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


def test_demo_on_a_corrupt_database_is_one_line(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"\x07not a database" * 400)
    line = _one_line_failure(_cli("demo", "--db", str(corrupt)))
    assert line == f"demo: {corrupt}: not a SQLite database (corrupt or some other file)"

    line = _one_line_failure(_cli("demo", "--db", str(tmp_path / "no" / "such" / "dir.db")))
    assert line.startswith("demo: ") and "cannot open the database" in line


def test_run_without_a_reachable_discord_is_one_line() -> None:
    """The gateway and the HTTP API unreachable (here: a closed local port instead of
    discord.com): one line and exit 1, not aiohttp's traceback."""
    done = _cli(
        "run",
        "--env-file",
        "/nonexistent/.env",
        env=_environ(DISCORD_TOKEN="x.y.z"),
        prelude="import discord.http\ndiscord.http.Route.BASE = 'http://127.0.0.1:9/api/v10'",
    )
    assert done.returncode == 1
    line = _one_line_failure(done)
    assert line.startswith("Cannot reach Discord: ") and "127.0.0.1:9" in line


def test_run_with_a_token_and_no_network_is_one_line() -> None:
    """``DISCORD_TOKEN=x.y.z main.py run`` as a user types it: without network it cannot reach
    Discord, with network Discord refuses the token; either way no traceback."""
    done = _cli("run", "--env-file", "/nonexistent/.env", env=_environ(DISCORD_TOKEN="x.y.z"))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(("Cannot reach Discord: ", "Discord rejected the bot token")), first


@pytest.mark.parametrize("where", ["folder", "missing folder"])
def test_run_with_an_impossible_database_path_stops_before_connecting(
    tmp_path: Path, where: str
) -> None:
    database = tmp_path if where == "folder" else tmp_path / "gone" / "m.db"
    done = _cli(
        "run",
        "--env-file",
        "/nonexistent/.env",
        env=_environ(DISCORD_TOKEN="x.y.z", MAFIA_DB=str(database)),
    )
    line = _one_line_failure(done)
    assert line.startswith(f"Configuration error: MAFIA_DB {database}")


def test_run_with_an_unreadable_env_file_is_one_line(tmp_path: Path) -> None:
    line = _one_line_failure(_cli("run", "--env-file", str(tmp_path)))
    assert line == f"Configuration error: cannot read {tmp_path}: Is a directory"
    dotenv = tmp_path / ".env"
    dotenv.write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    line = _one_line_failure(_cli("run", "--env-file", str(dotenv)))
    assert line == f"Configuration error: {dotenv} is not UTF-8 text (byte 14)"


def test_a_non_ascii_dev_guild_id_is_a_configuration_error(tmp_path: Path) -> None:
    done = _cli("run", "--env-file", str(tmp_path / ".env"), env=_environ(DEV_GUILD_ID="12²"))
    assert _one_line_failure(done) == (
        "Configuration error: DEV_GUILD_ID must be a numeric guild id, not '12²'"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["demo", "--players", "abc"],
            "main.py demo: argument --players: expected a whole number from 4 to 30, got 'abc'",
        ),
        (
            ["demo", "--players", "31"],
            "main.py demo: argument --players: expected a whole number from 4 to 30, got '31'",
        ),
        (
            ["demo", "--players", "²"],
            "main.py demo: argument --players: expected a whole number from 4 to 30, got '²'",
        ),
        (
            ["demo", "--seed", "9" * 5000],
            "main.py demo: argument --seed: expected a whole number from 0 to "
            f"{2**63 - 1}, got '999999999999999999999...'",
        ),
        (
            ["demo", "--seed", "-1"],
            "main.py demo: argument --seed: expected a whole number from 0 to "
            f"{2**63 - 1}, got '-1'",
        ),
        (
            ["demo", "--lang", "xx"],
            "main.py demo: argument --lang: invalid choice: 'xx' (choose from 'en', 'ru')",
        ),
        (
            ["export", "abc"],
            "main.py export: argument game_id: expected a game number from 1 to "
            f"{2**63 - 1}, got 'abc'",
        ),
        (["frobnicate"], "main.py: argument command: invalid choice: 'frobnicate'"),
        ([], "main.py: the following arguments are required: command"),
    ],
)
def test_usage_errors_name_the_option_in_one_line(args: list[str], message: str) -> None:
    done = _cli(*args)
    assert done.returncode == 2
    assert _one_line_failure(done).startswith(message)


def test_export_opens_the_database_read_only_and_changes_nothing(game_db: Path) -> None:
    before = _state(game_db)
    done = _cli("export", "--db", str(game_db))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"]
    assert _state(game_db) == before  # same bytes, same mtime, no -wal or -shm left


@pytest.mark.parametrize("kind", ["empty", "missing", "folder", "old schema", "text"])
def test_export_refuses_what_is_not_a_current_database_and_changes_nothing(
    tmp_path: Path, kind: str
) -> None:
    from db.sqlite import migrations

    path = tmp_path / "x.db"
    if kind == "empty":
        path.touch()
    elif kind == "folder":
        path.mkdir()
    elif kind == "old schema":
        migrations.migrate(path, migrations.LATEST_VERSION - 1)
    elif kind == "text":
        path.write_text("hello\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    content = path.read_bytes() if path.is_file() else None
    line = _one_line_failure(_cli("export", "--db", str(path)))
    assert line.startswith(f"export: {path}: ")
    expected = {
        "empty": "an empty file, not a database",
        "missing": "no such database file",
        "folder": "not a file",
        "old schema": f"schema version {migrations.LATEST_VERSION - 1}, but this bot reads",
        "text": "not a SQLite database",
    }[kind]
    assert expected in line
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (path.read_bytes() if path.is_file() else None) == content


def _closed_pipe_run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """Run main.py with a standard output whose reader has already gone (``| head``)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "main.py", *args],
            cwd=ROOT,
            env=_environ(),
            input=stdin,
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        os.close(write_end)
    return subprocess.CompletedProcess(
        done.args, done.returncode, "", done.stderr.decode("utf-8", "replace")
    )


def test_export_into_a_closed_pipe_exits_quietly(game_db: Path) -> None:
    done = _closed_pipe_run(["export", "--db", str(game_db)])
    assert done.stderr == ""
    assert done.returncode == 1  # as Python's documentation on SIGPIPE does


def test_replay_into_a_closed_pipe_exits_quietly() -> None:
    script = {
        "players": [
            {"nick": "Anna", "role": "commissar"},
            {"nick": "Bob", "role": "mafioso"},
            {"nick": "Cid", "role": "villager"},
            {"nick": "Dan", "role": "villager"},
        ],
        "turns": [{"requests": [{"by": "Bob", "do": "kill", "target": "Anna"}]}],
    }
    done = _closed_pipe_run(["replay", "-"], stdin=json.dumps(script).encode())
    assert done.stderr == ""
    assert done.returncode == 1


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (b'{"players": "\xff"}', "replay: standard input is not UTF-8 text"),
        (b"[" * 100_000, "replay: bad JSON: nested too deeply"),
    ],
)
def test_replay_of_unreadable_standard_input_is_one_line(stdin: bytes, message: str) -> None:
    done = _cli("replay", "-", stdin=stdin)
    assert done.returncode == 2
    assert _one_line_failure(done) == message


def test_an_interrupted_demo_exits_130_with_one_line(tmp_path: Path) -> None:
    """Ctrl-C during the demo: exit 130, one line saying how to continue. The demo's output
    is unbuffered (each line reaches the pipe when printed, not when a buffer fills or the
    demo ends), and the signal goes once its first line was read: the demo is under way,
    however slow the machine (the whole game takes many times longer than its first line)."""
    database = tmp_path / "demo.db"
    process = subprocess.Popen(
        [sys.executable, "main.py", "demo", "--players", "30", "--db", str(database)],
        cwd=ROOT,
        env=_environ(PYTHONUNBUFFERED="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()  # blocks until the game is under way
        assert first.strip(), "the demo ended before its first line"
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    done = subprocess.CompletedProcess(process.args, process.returncode, "", err)
    assert done.returncode == 130
    assert _one_line_failure(done) == (
        f"demo: interrupted; run it again with --db {database} to continue"
    )


async def test_a_read_only_store_refuses_every_write(game_db: Path, tmp_path: Path) -> None:
    import shutil

    from db.errors import StoreError
    from db.models import TableSettings
    from db.store import SQLiteStore

    path = tmp_path / "copy.db"
    shutil.copyfile(game_db, path)
    before = _state(path)
    store = await SQLiteStore.open(path, read_only=True)
    try:
        assert await store.latest_game() is not None
        with pytest.raises(StoreError):
            await store.save_table(TableSettings(guild_id=1))
    finally:
        await store.close()
    assert _state(path) == before


async def test_export_reads_a_database_in_use_and_leaves_its_files(
    game_db: Path, tmp_path: Path
) -> None:
    """While the bot has the database open (its -wal and -shm files exist), export reads the
    committed state and leaves the bot's files where they are."""
    import asyncio
    import shutil

    from db.models import TableSettings
    from db.store import SQLiteStore

    path = tmp_path / "live.db"
    shutil.copyfile(game_db, path)
    store = await SQLiteStore.open(path)  # the running bot
    try:
        await store.save_table(TableSettings(guild_id=77, language="ru"))
        files = sorted(p.name for p in tmp_path.iterdir())
        assert files == ["live.db", "live.db-shm", "live.db-wal"]
        done = await asyncio.to_thread(_cli, "export", "--db", str(path))
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["players"]
        assert sorted(p.name for p in tmp_path.iterdir()) == files
        assert (await store.get_table(77)) is not None  # the bot goes on
    finally:
        await store.close()
