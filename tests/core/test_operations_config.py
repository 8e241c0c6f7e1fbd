"""What an admin configures: secrets read from files (Docker's and systemd's secrets), JSON
log lines, the metrics' settings, and no secret in any log line or error message; the one
rule for a PostgreSQL URL; the HTTP trace counting Discord's 429s (a real aiohttp server)."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.delivery.sender import global_rate_trace
from bot.logging_setup import make_formatter
from core.config import ConfigError, is_postgres_url, load_settings, redact_url
from db.store import open_store
from db.urls import is_postgres_url as store_is_postgres_url
from db.urls import redact_secrets

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.secret-token-value-0123456789"
PASSWORD = "pg-pass-Zx9"


def test_secrets_come_from_files(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    db_file = tmp_path / "db"
    db_file.write_text(f"postgresql://mafia:{PASSWORD}@db:5432/mafia\n")
    settings = load_settings(
        {"DISCORD_TOKEN_FILE": str(token_file), "MAFIA_DB_FILE": str(db_file)}, dotenv=None
    )
    assert settings.discord_token == TOKEN
    assert settings.database == f"postgresql://mafia:{PASSWORD}@db:5432/mafia"
    assert set(settings.secrets) == {TOKEN, PASSWORD}


@pytest.mark.parametrize(
    ("environ", "says"),
    [
        ({"DISCORD_TOKEN": TOKEN, "DISCORD_TOKEN_FILE": "/run/secrets/x"}, "both set"),
        ({"DISCORD_TOKEN_FILE": "/nonexistent/token"}, "cannot read /nonexistent/token"),
        ({"MAFIA_DB_FILE": "EMPTY"}, "is empty"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of text, json"),
        ({"MAFIA_METRICS_PORT": "99999"}, "MAFIA_METRICS_PORT must be a port"),
    ],
)
def test_bad_settings_say_which_without_the_secret(
    tmp_path: Path, environ: dict[str, str], says: str
) -> None:
    empty = tmp_path / "empty"
    empty.write_text("\n")
    environ = {k: str(empty) if v == "EMPTY" else v for k, v in environ.items()}
    with pytest.raises(ConfigError) as error:
        load_settings(environ, dotenv=None)
    assert says in str(error.value)
    assert TOKEN not in str(error.value)


def test_a_bad_url_read_from_a_file_is_not_shown(tmp_path: Path) -> None:
    db_file = tmp_path / "db"
    db_file.write_text(f"postgresql://mafia:{PASSWORD}@db:notaport/mafia")
    with pytest.raises(ConfigError) as error:
        load_settings({"MAFIA_DB_FILE": str(db_file)}, dotenv=None)
    assert PASSWORD not in str(error.value)


def test_metrics_are_off_unless_asked_and_on_loopback() -> None:
    plain = load_settings({}, dotenv=None)
    assert plain.metrics_port is None and plain.metrics_host == "127.0.0.1"
    asked = load_settings({"MAFIA_METRICS_PORT": "9108"}, dotenv=None)
    assert asked.metrics_port == 9108 and asked.metrics_host == "127.0.0.1"
    wide = load_settings({"MAFIA_METRICS_PORT": "9108", "MAFIA_METRICS_HOST": "0.0.0.0"}, None)
    assert wide.metrics_host == "0.0.0.0"


def _log_line(fmt: str, message: str, *args: object, exc: BaseException | None = None) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(make_formatter(fmt, (TOKEN, PASSWORD)))
    logger = logging.getLogger(f"test.operations.{fmt}")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        if exc is None:
            logger.warning(message, *args)
        else:
            try:
                raise exc
            except type(exc):
                logger.exception(message, *args)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_json_logs_are_one_object_a_line() -> None:
    out = _log_line("json", "game %s resolved", 7)
    assert out.count("\n") == 1
    entry = json.loads(out)
    assert entry["level"] == "WARNING" and entry["message"] == "game 7 resolved"
    assert entry["logger"] == "test.operations.json" and entry["time"].endswith("+00:00")
    failed = json.loads(_log_line("json", "oops", exc=ValueError("bad value")))
    assert "ValueError: bad value" in failed["exception"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_no_secret_reaches_a_log_line(fmt: str) -> None:
    out = _log_line(fmt, "connecting with %s to %s", TOKEN, f"postgresql://m:{PASSWORD}@h/d")
    out += _log_line(fmt, "failed", exc=RuntimeError(f"refused token {TOKEN}"))
    assert TOKEN not in out and PASSWORD not in out
    assert "***" in out


def test_one_rule_for_a_postgres_url() -> None:
    for url in ("PostgreSQL://h/db", "POSTGRES://u@h/db", "postgresql://u:p@h:5/db"):
        assert is_postgres_url(url) and store_is_postgres_url(url)
    assert is_postgres_url is store_is_postgres_url  # the configuration's is the store's
    assert not is_postgres_url(Path("postgresql://x")) and not is_postgres_url("mafia.db")
    assert redact_url(f"PostgreSQL://mafia:{PASSWORD}@h/db") == "postgresql://mafia:***@h/db"
    assert redact_url("postgresql://mafia:p%40ss@h/db") == "postgresql://mafia:***@h/db"
    assert redact_secrets(f"x {TOKEN} y", (TOKEN, "")) == "x *** y"


async def test_a_mixed_case_url_opens_postgres_not_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``migrate-store`` and ``open_store`` read the same URL alike: never a SQLite file
    named after it."""

    monkeypatch.chdir(tmp_path)
    with pytest.raises(Exception) as error:
        await open_store("PostgreSQL://nobody@127.0.0.1:1/none")
    assert "sqlite" not in type(error.value).__module__
    assert not any(tmp_path.iterdir())  # no file was created


async def test_the_trace_counts_discords_answers_and_429s() -> None:
    async def limited(request: web.Request) -> web.Response:
        return web.Response(status=429, headers={"X-RateLimit-Global": "true"})

    async def fine(request: web.Request) -> web.Response:
        return web.Response(status=200)

    app = web.Application()
    app.router.add_get("/limited", limited)
    app.router.add_get("/fine", fine)
    seen: list[tuple[int, str]] = []

    def answered(status: int, headers: object) -> None:
        seen.append((status, dict(headers).get("X-RateLimit-Global", "")))  # type: ignore[call-overload]

    trace = global_rate_trace(rate=1000.0, on_response=answered)
    async with TestServer(app) as server, aiohttp.ClientSession(trace_configs=[trace]) as s:
        for path in ("/fine", "/limited"):
            async with s.get(server.make_url(path), headers={"Authorization": "Bot x"}):
                pass
    assert seen == [(200, ""), (429, "true")]
