"""One version of the schema, as both engines build it."""

from __future__ import annotations

import attrs


@attrs.frozen
class Migration:
    """What takes a database from version ``number - 1`` to ``number``: the same change
    written for each engine. ``purpose``: one line, what the version adds."""

    number: int
    purpose: str
    #: The SQLite statements (``;``-terminated; run one by one in the runner's transaction).
    sqlite: str
    #: The PostgreSQL statements (run as one script in the runner's transaction).
    postgres: str
