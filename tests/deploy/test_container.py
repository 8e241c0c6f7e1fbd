"""The image and the compose file, read as Docker would read them (these machines run no
Docker daemon): the Python of CI, the pinned requirements, a non-root user, the data in a
volume, the health probe and the command the README runs, a stop that lets a delivery
finish; PostgreSQL and the bot each with a health check, the bot started once the database
is healthy, every setting one the bot reads, and no secret written in either file."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from bot.client import DRAIN_SECONDS
from core.config import load_settings
from main import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined, comments dropped)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n\s*", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _exec_form(rest: str) -> list[str]:
    words = yaml.safe_load(rest)  # a JSON array is YAML too
    assert isinstance(words, list), f"exec form expected: {rest}"
    return [str(w) for w in words]


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_the_image_is_cis_python_with_the_pinned_requirements() -> None:
    steps = _instructions()
    base = next(rest for word, rest in steps if word == "FROM")
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert re.fullmatch(rf"python:{re.escape(version)}(-[a-z-]+)?", base), base
    runs = " ".join(rest for word, rest in steps if word == "RUN")
    assert "pip install -r requirements.txt" in runs
    assert "requirements-dev" not in runs  # the image runs the bot, not the tests
    pinned = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert all("==" in line for line in pinned.splitlines() if line and not line.startswith("#"))
    assert "postgresql-client" in runs  # pg_dump, for main.py backup of a PostgreSQL store


def test_the_image_runs_the_readmes_command_as_a_user_with_its_data_in_a_volume() -> None:
    steps = _instructions()
    user = [rest for word, rest in steps if word == "USER"]
    assert user and user[-1] not in ("root", "0")
    volumes = [v for word, rest in steps if word == "VOLUME" for v in _exec_form(rest)]
    env = " ".join(rest for word, rest in steps if word == "ENV")
    assert "/data" in volumes and "MAFIA_DB=/data/" in env
    command = _exec_form(next(rest for word, rest in steps if word == "CMD"))
    assert command[:2] == ["python", "main.py"]
    assert build_parser().parse_args(command[2:]).command == "run"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python main.py run" in readme and "docker compose up -d" in readme


def test_the_image_is_healthy_while_the_bot_beats_and_stops_gently() -> None:
    steps = _instructions()
    health = next(rest for word, rest in steps if word == "HEALTHCHECK")
    probe = _exec_form(health.split("CMD", 1)[1].strip())
    assert probe[:2] == ["python", "main.py"]
    args = build_parser().parse_args(probe[2:])
    assert args.command == "health"
    interval = int(re.search(r"--interval=(\d+)s", health)[1])  # type: ignore[index]
    assert interval <= args.max_age  # a beat every 30 s fits in the probe's age
    assert next(rest for word, rest in steps if word == "STOPSIGNAL") == "SIGTERM"


def test_compose_starts_the_bot_once_postgres_is_healthy() -> None:
    compose = _compose()
    services = compose["services"]
    db, bot = services["db"], services["bot"]
    assert db["image"].startswith("postgres:15")  # the image's pg_dump is 15's
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    probe = bot["healthcheck"]["test"]
    assert probe[0] == "CMD" and build_parser().parse_args(probe[3:]).command == "health"
    for name, service in (("db", db), ("bot", bot)):
        mounts = [str(v).split(":", 1)[0] for v in service["volumes"]]
        assert all(m in compose["volumes"] for m in mounts), name
    grace = int(str(bot["stop_grace_period"]).rstrip("s"))
    assert bot["stop_signal"] == "SIGTERM" and grace > DRAIN_SECONDS
    assert all(str(p).startswith("127.0.0.1:") for p in bot.get("ports", []))


def test_compose_settings_are_the_bots_and_its_secrets_are_files(tmp_path: Path) -> None:
    compose = _compose()
    bot = compose["services"]["bot"]
    environment = {k: str(v) for k, v in bot["environment"].items()}
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    for name in environment:
        assert re.search(rf"^#?\s*{name}=", example, re.MULTILINE), f"{name} not in .env.example"
    assert "DISCORD_TOKEN" not in environment and environment["MAFIA_DB"] == ""
    for secret in bot["secrets"]:
        assert compose["secrets"][secret]["file"].startswith("./secrets/")
    gitignore = (ROOT / ".gitignore").read_text(encoding="utf-8")
    assert "secrets/" in gitignore.split()
    dockerignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert {"secrets", ".env", ".git"} <= set(dockerignore)
    # What the bot reads in the container: the files of its secrets.
    token = tmp_path / "discord_token"
    token.write_text("a-token")
    url = tmp_path / "database_url"
    url.write_text("postgresql://mafia:pw@db:5432/mafia")
    environment |= {"DISCORD_TOKEN_FILE": str(token), "MAFIA_DB_FILE": str(url)}
    image_env = {"MAFIA_DB": "/data/mafia.db", **environment}
    settings = load_settings(image_env, dotenv=None)
    assert settings.discord_token == "a-token" and settings.database == url.read_text()
    assert settings.log_format == "json" and settings.log_dir is None
    assert settings.metrics_port == 9108


def test_no_secret_is_written_in_the_files() -> None:
    for name in ("Dockerfile", "compose.yaml"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert not re.search(r"postgresql://\w+:[^@\s'\"%]+@", text.replace("%s", "")), name
        assert not re.search(r"DISCORD_TOKEN\s*[=:]\s*[\"']?[\w.-]{20,}", text), name
