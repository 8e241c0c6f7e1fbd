"""Settings from the environment and ``.env``."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import BOT_DIR, ConfigError, load_settings, read_dotenv


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
