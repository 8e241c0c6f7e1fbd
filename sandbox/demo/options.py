"""The demo's options and limits (``main.py demo --players ... --seed ...``), its server id
(fixed, or one per shard) and its tables' names."""

from __future__ import annotations

from typing import Final

import attrs

from core.i18n import Lang

#: The demo's guild: fixed, so that a restarted demo finds its stored game again.
DEMO_GUILD_ID: Final[int] = 1_300_000_000_000_000_001
#: The most shards ``--shard-count`` accepts: one demo process (its own simulated server) per
#: shard, all of them on one shared ``--db``.
MAX_DEMO_SHARDS: Final[int] = 16
MIN_PLAYERS: Final[int] = 4
MAX_PLAYERS: Final[int] = 30
#: A game still running after this many turns stops the demo (``winner: none``, exit 1).
TURN_CAP: Final[int] = 40
#: The whole demo gives up after this many seconds of real time (never hang).
WALL_LIMIT_SECONDS: Final[float] = 300.0
#: The bot's own name in the demo's guild, in the game's language: it posts in #game as the
#: game's host ("Host", "Ведущий"), as the host's webhook posts do.
BOT_NAME_KEY: Final[str] = "host.display_name"
#: Discord shows at most 25 autocomplete choices.
AUTOCOMPLETE_LIMIT: Final[int] = 25


@attrs.frozen(kw_only=True)
class DemoOptions:
    players: int = 8
    seed: int = 1
    db: str | None = None
    host_view: bool = False
    schedule: str = "fast"  # fast | forum
    lang: Lang = "en"
    turn_cap: int = TURN_CAP
    tables: int = 1  # games played at once, each at its own table of the one server
    artifacts: str | None = None  # a folder for the archives, pictures and stats afterwards
    #: Shards: this process is shard ``shard_id`` of ``shard_count`` (both or
    #: neither), its server an id on that shard; the other shards' demos share ``db``.
    shard_count: int | None = None
    shard_id: int | None = None
    #: The sign-up takes role wishes (R58): members wish for roles of the preset, some in the
    #: sign-up post's menu, some with /wish, and the host adopts the tally as the setup.
    wishes: bool = False
    #: The host reviews each turn's results (``/mafia new review:N``, R47): the draft waits in
    #: #host, the host adds his story and publishes it, the story goes out above the results.
    #: 0: results go out at the deadline.
    review: int = 0
    #: The dead talk in their own room (``/mafia new ghost_room:true``, R62): each posts a
    #: line there a turn, and the transcript shows the room.
    ghost_room: bool = False
    #: The role list the host sets before the start (as ``/mafia roles`` takes it, e.g. the
    #: original's ``commissar=1 crook=1 villager=3``, or in the table's words, ``комиссар=1
    #: жулик=1 мж=3``); None: the preset for ``players``.
    roles: str | None = None
    #: R60: on turn 2 a member who does not play stands by (/standby), a living player asks
    #: to be replaced (/replaceme) and the host hands his nickname to the substitute
    #: (/mafia replace), who plays it from then on.
    substitute: bool = False

    @property
    def guild_id(self) -> int:
        """The demo's server id (:func:`demo_guild_id`)."""
        return demo_guild_id(self.shard_count, self.shard_id)


def demo_guild_id(shard_count: int | None = None, shard_id: int | None = None) -> int:
    """The demo's server id: :data:`DEMO_GUILD_ID`, or with shards the nearest id at or below
    it that is on shard ``shard_id`` of ``shard_count`` by Discord's formula
    (``core.shards.shard_of``): the same on every run, so a restarted shard finds its game,
    and another on every shard, so the demos of one ``--db`` never share a server."""
    if shard_count is None or shard_id is None:
        return DEMO_GUILD_ID
    millis, low = DEMO_GUILD_ID >> 22, DEMO_GUILD_ID & ((1 << 22) - 1)
    millis -= (millis - shard_id) % shard_count
    return (millis << 22) | low


#: The names of the demo's tables when it plays several (``--tables``), in the server's language.
TABLE_NAMES: Final[dict[Lang, tuple[str, ...]]] = {
    "en": (
        "Main",
        "Newcomers",
        "Classic",
        "Evening",
        "Weekend",
        "Night",
        "Autumn",
        "Winter",
        "Spring",
        "Summer",
    ),
    "ru": (
        "Основной",
        "Новички",
        "Классика",
        "Вечерний",
        "Выходные",
        "Ночной",
        "Осень",
        "Зима",
        "Весна",
        "Лето",
    ),
}
MAX_TABLES: Final[int] = len(TABLE_NAMES["en"])


class DemoError(Exception):
    """The demo cannot run with these options (e.g. the database holds another game)."""
