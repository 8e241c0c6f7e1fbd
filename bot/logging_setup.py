"""Logging for ``main.py run``: console plus a rotating file under ``logs/``.

Modules log through ``log = logging.getLogger(__name__)``; this sets up the handlers once, at
start-up. ``discord.http`` is kept at WARNING (at INFO it logs every rate-limit bucket).
Tests never call this: pytest captures log records itself.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
LOG_FILE_NAME = "mafia.log"
LOG_FILE_BYTES = 5 * 1024 * 1024
LOG_FILE_BACKUPS = 5


def setup_logging(level: str = "INFO", log_dir: Path | None = None) -> logging.Handler | None:
    """Configure the root logger; returns the file handler (None without ``log_dir``)."""
    root = logging.getLogger()
    root.setLevel(level)
    formatter = logging.Formatter(LOG_FORMAT)

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
