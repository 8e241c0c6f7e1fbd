"""The command tree Discord sees does not change by accident.

``fixtures/command_tree.json`` is the payload the bot syncs (names, options, choices, Russian
localisations, default permissions, guild only), recorded from the bot before its cogs were
split by feature (lobby, day, night, admin). Moving a command between cogs must leave it
byte for byte the same. Only the order of the top-level commands and of the ``/mafia``
subcommands is ignored: it follows the order the cogs are loaded in, and Discord lists
commands by name.

A deliberate change of the surface (a new command or option) updates the snapshot with::

    UPDATE_SNAPSHOT=1 .venv/bin/python -m pytest tests/e2e/test_command_tree.py

(read the diff before committing it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from simcord import Env

SNAPSHOT = Path(__file__).parent / "fixtures" / "command_tree.json"

#: Discord's option type of a subcommand (1) and of a subcommand group (2).
SUBCOMMAND_TYPES = frozenset({1, 2})


def synced_payload(env: Env) -> list[dict[str, Any]]:
    [put] = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert isinstance(put.json, list)
    return put.json


def normalised(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Commands sorted by name, subcommands too; parameters keep their order (it is shown)."""

    def one(command: dict[str, Any]) -> dict[str, Any]:
        options = command.get("options")
        if options and all(o.get("type") in SUBCOMMAND_TYPES for o in options):
            command = {**command, "options": normalised(options)}
        return command

    return sorted((one(c) for c in commands), key=lambda c: str(c["name"]))


async def test_synced_command_tree_matches_the_snapshot(simcord_env: Env) -> None:
    payload = normalised(synced_payload(simcord_env))
    if os.environ.get("UPDATE_SNAPSHOT") == "1":
        SNAPSHOT.write_text(
            json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
            encoding="utf-8",
        )
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert payload == expected
