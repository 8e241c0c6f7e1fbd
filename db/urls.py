"""What names a store, and how it may be shown: the ONE rule for a PostgreSQL URL and the ONE
password redactor, used by the store (:func:`db.store.open_store`), the transfer
(``migrate-store``), the backup, the configuration (``core/config.py``) and every message.

A URL's scheme is case-insensitive (RFC 3986, section 3.1): ``PostgreSQL://host/db`` is a
PostgreSQL database for every reader, never a SQLite file of that odd name. A
``os.PathLike`` is always a file, whatever its text says.
"""

from __future__ import annotations

import os
from typing import Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: The schemes of a PostgreSQL database (libpq's and asyncpg's), lower case.
POSTGRES_SCHEMES: Final[tuple[str, ...]] = ("postgresql://", "postgres://")

#: What stands for a hidden password.
HIDDEN: Final[str] = "***"


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` names a PostgreSQL database rather than a SQLite file: a ``str``
    starting with ``postgresql://`` or ``postgres://``, in any case."""
    return isinstance(target, str) and target[:13].lower().startswith(POSTGRES_SCHEMES)


def redact_url(url: str) -> str:
    """``url`` with its password, if any (``user:password@``, or a ``password`` parameter as
    libpq and asyncpg take it), replaced by ``***``: safe to print or log. A URL that cannot be
    read is not shown at all (it may hold the password anywhere)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return "<unreadable database URL>"
    query = parse_qsl(parts.query, keep_blank_values=True)
    if password is None and all(key != "password" for key, _ in query):
        return url
    if any(key == "password" for key, _ in query):
        hidden = [(key, HIDDEN if key == "password" else value) for key, value in query]
        parts = parts._replace(query=urlencode(hidden, safe="*"))
    if password is not None:
        userinfo, _, host = parts.netloc.rpartition("@")
        parts = parts._replace(netloc=f"{userinfo.split(':', 1)[0]}:{HIDDEN}@{host}")
    return urlunsplit(parts)


def shown(target: str | os.PathLike[str]) -> str:
    """A store's name as it may be printed: a URL without its password, a file's path."""
    if is_postgres_url(target):
        return redact_url(str(target))
    return os.fspath(target)


def redact_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` with every one of ``secrets`` (of 4 characters or more) replaced by ``***``:
    the last guard of a line that might quote a token or a password."""
    for secret in secrets:
        if len(secret) >= 4:
            text = text.replace(secret, HIDDEN)
    return text
