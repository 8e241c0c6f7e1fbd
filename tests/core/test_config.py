"""Settings from the environment and ``.env``."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import (
    BOT_DIR,
    ConfigError,
    check_database_path,
    is_postgres_url,
    load_settings,
    read_dotenv,
    redact_url,
)


def test_defaults_without_anything(tmp_path: Path) -> None:
    settings = load_settings({}, dotenv=tmp_path / "missing.env")
    assert settings.discord_token is None
    assert settings.database == BOT_DIR / "mafia.db"
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "# secrets\nexport DISCORD_TOKEN='from-file'\nLOG_LEVEL=debug # chatty\n"
        "DEV_GUILD_ID=123\nMAFIA_DB=/data/m.db\n",
        encoding="utf-8",
    )
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, dotenv=dotenv)
    assert settings.discord_token == "from-env"
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 123
    assert settings.database == Path("/data/m.db")
    assert read_dotenv(dotenv)["DISCORD_TOKEN"] == "from-file"


def test_relative_database_is_next_to_the_bot(tmp_path: Path) -> None:
    settings = load_settings({"MAFIA_DB": "games/m.db"}, dotenv=None)
    assert settings.database == BOT_DIR / "games" / "m.db"


@pytest.mark.parametrize(("name", "value"), [("LOG_LEVEL", "LOUD"), ("DEV_GUILD_ID", "my-guild")])
def test_bad_values_are_named(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_settings({name: value}, dotenv=None)


def test_a_postgresql_url_is_kept_as_the_store(tmp_path: Path) -> None:
    url = "postgresql://mafia:s3cret@db.example:5432/mafia?sslmode=require"
    settings = load_settings({"MAFIA_DB": url}, dotenv=None)
    assert settings.database == url
    assert is_postgres_url(settings.database) and is_postgres_url("postgres://h/db")
    assert not is_postgres_url(tmp_path / "postgresql://x")  # a path is never a URL
    check_database_path(settings.database)  # checked when the store connects, not here
    assert redact_url(url) == "postgresql://mafia:***@db.example:5432/mafia?sslmode=require"
    assert redact_url("postgresql://mafia@h/db") == "postgresql://mafia@h/db"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("postgresql://mafia:pw@localhost", "name the database"),
        ("postgresql://mafia:pw@localhost:port/mafia", "not a valid URL"),
    ],
)
def test_an_unusable_url_is_refused_without_its_password(url: str, reason: str) -> None:
    with pytest.raises(ConfigError, match=reason) as caught:
        load_settings({"MAFIA_DB": url}, dotenv=None)
    assert "pw" not in str(caught.value)
