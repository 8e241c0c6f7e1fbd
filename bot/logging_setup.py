"""Logging for ``main.py run``: console plus a rotating file under ``logs/``.

Modules log through ``log = logging.getLogger(__name__)``; this sets up the handlers once, at
start-up. ``discord.http`` is kept at WARNING (at INFO it logs every rate-limit bucket).
``LOG_FORMAT=json`` writes one JSON object per line (time, level, logger, message, and the
traceback when there is one) for log shippers. Whatever the format, every line passes
through :class:`Redacting`: the token and the database password never reach a log, even
quoted by a library's error. Tests never call this: pytest captures log records itself.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import logging.handlers
from collections.abc import Iterable
from pathlib import Path

from db.urls import redact_secrets

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
LOG_FILE_NAME = "mafia.log"
LOG_FILE_BYTES = 5 * 1024 * 1024
LOG_FILE_BACKUPS = 5


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line: ``time`` (UTC, ISO 8601), ``level``,
    ``logger``, ``message``, and ``exception`` (the traceback) or ``stack`` when present."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            # The record's own stamp (the logging module's), not a game's time.
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False)


class Redacting(logging.Formatter):
    """Formats with ``inner``, then hides every secret in the line (tracebacks included)."""

    def __init__(self, inner: logging.Formatter, secrets: Iterable[str]) -> None:
        super().__init__()
        self.inner = inner
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        return redact_secrets(self.inner.format(record), self.secrets)


def make_formatter(fmt: str = "text", secrets: Iterable[str] = ()) -> logging.Formatter:
    """The formatter of ``LOG_FORMAT`` (``text`` or ``json``), hiding ``secrets``."""
    inner = JsonFormatter() if fmt == "json" else logging.Formatter(LOG_FORMAT)
    return Redacting(inner, secrets)


def setup_logging(
    level: str = "INFO",
    log_dir: Path | None = None,
    *,
    fmt: str = "text",
    secrets: Iterable[str] = (),
) -> logging.Handler | None:
    """Configure the root logger; returns the file handler (None without ``log_dir``)."""
    root = logging.getLogger()
    root.setLevel(level)
    formatter = make_formatter(fmt, secrets)

    console = logging.StreamHandler()
    console.setFormatter(formatter)
    root.addHandler(console)

    file_handler: logging.Handler | None = None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        file_handler = logging.handlers.RotatingFileHandler(
            log_dir / LOG_FILE_NAME,
            maxBytes=LOG_FILE_BYTES,
            backupCount=LOG_FILE_BACKUPS,
            encoding="utf-8",
        )
        file_handler.setFormatter(formatter)
        root.addHandler(file_handler)

    logging.getLogger("discord").setLevel(max(logging.INFO, root.level))
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    return file_handler
