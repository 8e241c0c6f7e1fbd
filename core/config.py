"""Settings of a running bot, from the environment and an optional ``.env`` file.

Variables (the environment wins over ``.env``):

- ``DISCORD_TOKEN``: the bot token (required by ``main.py run`` only).
- ``MAFIA_DB``: the store. A ``postgresql://`` (or ``postgres://``) URL is a PostgreSQL
  database (several processes, shards); anything else is the SQLite file, default ``mafia.db``
  next to ``main.py``. A relative path is taken relative to the directory of ``main.py`` too, so
  the bot finds its data wherever it is started from.
- ``LOG_LEVEL``: DEBUG, INFO (default), WARNING, ERROR.
- ``DEV_GUILD_ID``: a guild id; when set, slash commands are synced to that guild only, which
  Discord applies at once (global commands can take a while to appear).
- ``DISCORD_TOKEN_FILE``, ``MAFIA_DB_FILE``: the token, the store, read from a file instead
  (Docker's and systemd's secrets); one of the pair, never both.
- ``LOG_FORMAT``: ``text`` (default) or ``json`` (one JSON object per line).
- ``MAFIA_LOG_DIR``: the log file's folder (default ``logs`` next to ``main.py``); ``-``: the
  console only (a container, whose runtime keeps what it prints).
- ``MAFIA_METRICS_PORT``, ``MAFIA_METRICS_HOST``: serve Prometheus metrics (off by default;
  on 127.0.0.1 unless the host says otherwise), see docs/OPERATIONS.md.

No secret ever reaches a message of this module: an error names the variable or the file.

No import of discord here: ``main.py`` reads settings before deciding to load the bot.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import attrs

from db.urls import is_postgres_url, redact_url

__all__ = [
    "ConfigError",
    "Settings",
    "is_postgres_url",
    "load_settings",
    "parse_database",
    "read_dotenv",
    "redact_url",
]

BOT_DIR: Final[Path] = Path(__file__).resolve().parent.parent
DEFAULT_DOTENV: Final[Path] = BOT_DIR / ".env"
DEFAULT_DB_NAME: Final[str] = "mafia.db"
LOG_LEVELS: Final[tuple[str, ...]] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS: Final[tuple[str, ...]] = ("text", "json")


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; the message says which and why."""


@attrs.frozen
class Settings:
    discord_token: str | None
    #: The SQLite file, or a PostgreSQL URL (:func:`is_postgres_url`).
    database: Path | str
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    #: ``MAFIA_LOG_DIR``: the rotating log file's folder; None (``-``): the console only.
    log_dir: Path | None = BOT_DIR / "logs"
    #: ``text`` (default) or ``json``: one JSON object per log line, for log shippers.
    log_format: str = "text"
    #: ``MAFIA_METRICS_PORT``: serve Prometheus metrics on this port (None: no metrics).
    metrics_port: int | None = None
    #: ``MAFIA_METRICS_HOST``: the address the metrics listen on (loopback unless said).
    metrics_host: str = "127.0.0.1"

    @property
    def secrets(self) -> tuple[str, ...]:
        """What no log line or message may show: the token, the database URL's password."""
        found = [self.discord_token or ""]
        if isinstance(self.database, str):
            from urllib.parse import urlsplit

            try:
                found.append(urlsplit(self.database).password or "")
            except ValueError:
                found.append(self.database)
        return tuple(s for s in found if s)


def read_dotenv(path: Path) -> dict[str, str]:
    """Parse a ``.env`` file: ``KEY=value`` lines, ``#`` comments, optional quotes and
    ``export``. A missing file is an empty mapping."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path} is not UTF-8 text (byte {e.start})") from e
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        if key:
            values[key] = value
    return values


def load_settings(
    environ: Mapping[str, str] | None = None, dotenv: Path | None = DEFAULT_DOTENV
) -> Settings:
    """Settings from ``environ`` (default ``os.environ``) over the ``dotenv`` file."""
    values = read_dotenv(dotenv) if dotenv is not None else {}
    values.update(os.environ if environ is None else environ)

    token = _secret(values, "DISCORD_TOKEN") or None

    database = parse_database(_secret(values, "MAFIA_DB") or DEFAULT_DB_NAME)

    log_level = values.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")

    dev_guild_raw = values.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if dev_guild_raw:
        if not (dev_guild_raw.isascii() and dev_guild_raw.isdigit()):
            raise ConfigError(f"DEV_GUILD_ID must be a numeric guild id, not {dev_guild_raw!r}")
        dev_guild_id = int(dev_guild_raw)

    log_format = values.get("LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")

    metrics_port: int | None = None
    port_raw = values.get("MAFIA_METRICS_PORT", "").strip()
    if port_raw:
        if not (port_raw.isascii() and port_raw.isdigit() and 1 <= int(port_raw) <= 65535):
            raise ConfigError(
                f"MAFIA_METRICS_PORT must be a port from 1 to 65535, not {port_raw!r}"
            )
        metrics_port = int(port_raw)
    metrics_host = values.get("MAFIA_METRICS_HOST", "").strip() or "127.0.0.1"

    log_dir_raw = values.get("MAFIA_LOG_DIR", "").strip()
    log_dir: Path | None = BOT_DIR / "logs"
    if log_dir_raw == "-":  # the console only (a container: its runtime keeps the lines)
        log_dir = None
    elif log_dir_raw:
        log_dir = Path(log_dir_raw).expanduser()
        if not log_dir.is_absolute():
            log_dir = BOT_DIR / log_dir

    return Settings(
        discord_token=token,
        database=database,
        log_level=log_level,
        dev_guild_id=dev_guild_id,
        log_format=log_format,
        metrics_port=metrics_port,
        metrics_host=metrics_host,
        log_dir=log_dir,
    )


#: A secret read from a file (Docker's and systemd's secrets): ``<NAME>_FILE``.
FILE_SUFFIX: Final[str] = "_FILE"
#: A secret file is a line or two, never megabytes.
SECRET_FILE_BYTES: Final[int] = 64 * 1024


def _secret(values: Mapping[str, str], name: str) -> str:
    """``name``'s value: the variable itself, or the contents of the file that
    ``<name>_FILE`` names (stripped of surrounding white space, as Docker's secrets end in a
    newline). Both set is an error: which one is meant? An error never shows the secret."""
    direct = values.get(name, "").strip()
    file_name = values.get(name + FILE_SUFFIX, "").strip()
    if not file_name:
        return direct
    if direct:
        raise ConfigError(f"{name} and {name}{FILE_SUFFIX} are both set: keep one")
    path = Path(file_name).expanduser()
    try:
        with path.open("rb") as handle:
            data = handle.read(SECRET_FILE_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"{name}{FILE_SUFFIX}: cannot read {path}: {e.strerror}") from None
    if len(data) > SECRET_FILE_BYTES:
        raise ConfigError(f"{name}{FILE_SUFFIX}: {path} is larger than a secret can be")
    try:
        text = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ConfigError(f"{name}{FILE_SUFFIX}: {path} is not UTF-8 text") from None
    if not text:
        raise ConfigError(f"{name}{FILE_SUFFIX}: {path} is empty")
    return text


def parse_database(raw: str) -> Path | str:
    """``MAFIA_DB``'s value as the store to open: a PostgreSQL URL as it is (checked for a
    host or socket and a database name), a file path made absolute (relative to ``main.py``)."""
    if is_postgres_url(raw):
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(raw)
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
        except ValueError as e:
            raise ConfigError(f"MAFIA_DB {redact_url(raw)}: not a valid URL ({e})") from e
        if not parts.path.strip("/"):
            raise ConfigError(
                f"MAFIA_DB {redact_url(raw)}: name the database, "
                "e.g. postgresql://mafia@localhost/mafia"
            )
        return raw
    try:
        database = Path(raw).expanduser()
    except RuntimeError as e:  # "~nobody/x.db": no such user
        raise ConfigError(f"MAFIA_DB {raw!r}: {e}") from e
    if not database.is_absolute():
        database = BOT_DIR / database
    return database


def check_database_path(path: Path | str) -> None:
    """Refuse at once a ``MAFIA_DB`` that can never be a database file (a folder, or a file in
    a folder that does not exist), before ``main.py run`` connects to Discord. (A PostgreSQL
    URL is checked when the store connects.)"""
    if not isinstance(path, Path):
        return
    if path.is_dir():
        raise ConfigError(f"MAFIA_DB {path} is a folder, not a database file")
    if not path.parent.is_dir():
        raise ConfigError(f"MAFIA_DB {path}: the folder {path.parent} does not exist")
