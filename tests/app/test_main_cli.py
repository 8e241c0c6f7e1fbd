"""``main.py run``: a clean message, not a traceback, when the token is missing or wrong."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import main
from bot import logging_setup
from bot.client import MafiaBot
from bot.layout import REQUIRED_BOT_PERMISSIONS

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
    assert f"&permissions={REQUIRED_BOT_PERMISSIONS.value}" in done.stderr
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
