"""Discord shards across processes: which servers, hence which games, a process owns.

Discord splits a bot's servers into ``shard_count`` shards by a fixed formula on the server's id
(:func:`shard_of`), and every event of a server arrives on its shard only. A process running the
shards ``ids`` of ``count`` (``main.py run --shard-count N --shard-ids a,b``) therefore owns the
games of the servers on those shards: at start it loads, arms the clock for and delivers the
outbox of those games only; the others stay untouched in the shared store for the process that
runs their shard. Every process reads its games from the store at start, so a re-shard (a new
count) is: stop every process, start them all with the new count; each game follows its server.

No import of discord here: ``main.py`` reads these settings before deciding to load the bot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

import attrs

#: The most shards this bot accepts (a bounded input: Discord's large bots use fewer).
MAX_SHARDS: Final[int] = 4096

#: The environment variables that stand for ``--shard-count`` and ``--shard-ids``.
COUNT_VAR: Final[str] = "MAFIA_SHARD_COUNT"
IDS_VAR: Final[str] = "MAFIA_SHARD_IDS"


class ShardError(ValueError):
    """Shard settings the bot cannot use; the message (one line) says which and why."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a server, by Discord's formula: ``(guild_id >> 22) % shard_count``
    (https://discord.com/developers/docs/topics/gateway#sharding)."""
    return (guild_id >> 22) % shard_count


def _ids(ids: Iterable[int]) -> tuple[int, ...]:
    return tuple(ids)


def _check(instance: Shards, attribute: object, ids: tuple[int, ...]) -> None:
    count = instance.count
    if not 1 <= count <= MAX_SHARDS:
        raise ShardError(f"the shard count must be from 1 to {MAX_SHARDS}, not {count}")
    if not ids:
        raise ShardError("a process must run at least one shard")
    for shard in ids:
        if not 0 <= shard < count:
            raise ShardError(f"shard id {shard} is not from 0 to {count - 1} (count {count})")
    if len(set(ids)) != len(ids):
        raise ShardError(f"a shard id is given twice: {','.join(map(str, ids))}")


@attrs.frozen
class Shards:
    """The shards ``ids`` (of ``count``) that this process runs: the servers it owns."""

    count: int
    ids: tuple[int, ...] = attrs.field(converter=_ids, validator=_check)

    def owns(self, guild_id: int) -> bool:
        """Whether the server ``guild_id`` is on one of this process's shards."""
        return shard_of(guild_id, self.count) in self.ids


def _number(text: str, what: str) -> int:
    """A whole number written in ASCII digits, short enough to be a shard count or id (so a
    5,000-digit string is refused before ``int()`` sees it)."""
    digits = text.strip()
    if digits.isascii() and digits.isdigit() and len(digits) <= len(str(MAX_SHARDS)):
        return int(digits)
    shown = text if len(text) <= 24 else text[:21] + "..."
    raise ShardError(f"{what} must be a whole number, not {shown!r}")


def parse_shards(count: str | None, ids: str | None) -> Shards | None:
    """The shards of ``--shard-count`` (``count``) and ``--shard-ids`` (``ids``, ``"a,b"``).

    Neither: None, a plain bot that owns every server (one process, as before shards). A count
    alone: every shard of it in this one process. Ids need a count: alone they would mean
    nothing, since the shard of a server depends on the count."""
    count = (count or "").strip() or None
    ids = (ids or "").strip() or None
    if count is None:
        if ids is not None:
            raise ShardError("shard ids need a shard count (--shard-count or MAFIA_SHARD_COUNT)")
        return None
    total = _number(count, "the shard count")
    if total < 1:
        raise ShardError(f"the shard count must be from 1 to {MAX_SHARDS}, not {total}")
    if ids is None:
        return Shards(total, tuple(range(total)))
    parts = ids.split(",")
    if len(parts) > total:
        raise ShardError(f"more shard ids ({len(parts)}) than shards ({total})")
    return Shards(total, tuple(_number(part, "a shard id") for part in parts))


def shards_from(
    values: Mapping[str, str], count: str | None = None, ids: str | None = None
) -> Shards | None:
    """The shards of the command line (``count``, ``ids``; None when not given), each over
    its variable in the settings ``values`` (the environment over ``.env``):
    ``MAFIA_SHARD_COUNT``, ``MAFIA_SHARD_IDS``. One count shared by every process can so stay
    in ``.env`` while each process (a systemd unit per shard group) names its ids."""
    return parse_shards(
        values.get(COUNT_VAR) if count is None else count,
        values.get(IDS_VAR) if ids is None else ids,
    )
