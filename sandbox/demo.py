"""``python main.py demo``: a whole game of the real bot, played offline inside SimCord.

The bot is the real one (``create_bot``), attached to SimCord's in-memory Discord exactly as the
end-to-end tests do it. A host member runs ``/mafia setup``, ``/mafia new`` and ``/mafia start``;
N member actors sign up and then play through the slash commands a real user has (``/say``,
``/vote``, ``/kill``, ``/check``, ``/heal``, ``/block``, ``/slander``, ``/poison``, ``/hunt``,
``/note``, ``/shoot``), and the simulator moves the virtual clock to each deadline. The public
``#game`` transcript is printed as it happens; ``--host-view`` adds every private reply, DM,
``#host`` message and the mafia's room (the game's private thread in ``#mafia``, labelled
``#mafia/<thread>``). The last line is ``winner: <town|mafia|maniac|draw>``.

How the simulated players decide (:func:`plan_turn`): only from the seed, the turn number and
what the player sees right now through the client: his role card (``/role``), his ``/status``
(requests he has standing this turn, posts this turn, his private news of the latest turn) and
the living nicknames the autocomplete offers. Nothing is remembered between turns, so a demo
killed at any moment and started again on the same ``--db`` re-derives the same plans and
continues to the same ending:

- the game's own randomness comes from ``--seed`` (``create_bot(game_seed=...)``);
- the guild id and the member ids are fixed (SimCord's snowflakes are deterministic, and the
  members are created first, in the same order, on every run);
- within a turn the players act in a fixed order and skip what ``/status`` shows as done, so
  the requests reach the bot in the same order (lynch ties and hunts depend on arrival order);
  a request is committed before the bot answers, so a kill mid-command leaves it either stored
  (and shown by ``/status``) or not sent at all;
- SimCord's clock starts at the same instant on every run, before any stored deadline of the
  demo game, so a resumed turn is never resolved before its players have acted. (A deadline
  already in the past would be resolved by the bot at start, as it must on real Discord; the
  players of that turn would then lose the requests they had not sent yet. It cannot happen
  here.) Once the game is picked up, the clock moves on to the moment its open phase began
  (:meth:`Demo.opened_at`), where an uninterrupted run stood when those players acted;
- with ``--shard-count N --shard-id K`` the server is on shard K of N (:func:`demo_guild_id`)
  and the bot owns that server's games only, so N demos share one ``--db``, one game each.

What a restart loses is Discord's side only: the messages and DMs of the killed run (SimCord
is in memory). ``/mafia setup`` rebuilds the channels and the bot then delivers whatever it
had not sent yet.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any, Final, TextIO

import attrs
import discord
import simcord
from simcord import ChannelHandle, Env, GuildHandle, InteractionResult, MemberActor

from bot.client import MafiaBot, create_bot
from bot.posts import embed_text
from bot.render import command_name, render_posts, role_name, verb_name
from bot.signup import JOIN_ID, WISH_ID
from core.clock import game_events
from core.i18n import Lang, Matcher, t
from core.live import LiveGame
from core.refusal import Refusal
from core.service import table_seed
from db.models import TableSettings
from rules.model import Phase
from rules.roles import COMMON_VERBS, INTERNAL_ROLES, ROLES, Shape, known_verbs, verb_spec
from rules.schedule import hunt_opens_at
from rules.setup import SetupError, parse_role_list, preset, validate_setup
from rules.wishes import is_wishable
from sandbox.artifacts import write_artifacts
from sandbox.clients import EVERYONE, LOCALE_OF, client_locales
from sandbox.discord_contract import DiscordContract

log = logging.getLogger(__name__)

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
    #: The role list the host sets before the start (as ``/mafia roles`` takes it, e.g. the
    #: original's ``commissar=1 crook=1 villager=3``); None: the preset for ``players``.
    roles: str | None = None

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


# --- what a player reads in his private replies ----------------------------------------------
def _template(lang: Lang, key: str) -> Matcher:
    """A catalogue message as a matcher of its rendered text (one value per variable)."""
    return Matcher(lang, key)


#: Every role code a card may show.
ROLE_CODES: Final[tuple[str, ...]] = (*ROLES, *INTERNAL_ROLES)


@attrs.frozen
class Card:
    """What ``/role`` says."""

    nick: str
    role: str  # the role code as shown (the Foundling reads villager)
    alive: bool
    verbs: frozenset[str]
    team: tuple[str, ...]


@attrs.frozen
class Status:
    """What ``/status`` says: requests standing this turn, posts this turn, private news."""

    turn: int | None
    requested: frozenset[str]  # verbs with a standing request
    posts: int
    checks: tuple[tuple[str, bool], ...]  # (target, is mafia) from the latest news
    pistol: bool  # the latest news holds the pistol prompt


class Reader:
    """Parses the bot's private replies in one language, with the bot's own catalogue."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.title = _template(lang, "card.title")
        self.verbs = _template(lang, "card.verbs")
        self.team = _template(lang, "card.team")
        self.dead = t(lang, "card.dead")
        self.header = _template(lang, "status.header")
        self.request = _template(lang, "status.request")
        self.request_note = _template(lang, "status.request_note")
        self.posts = _template(lang, "status.posts")
        self.news = t(lang, "status.news")
        self.check_mafia = _template(lang, "check.mafia")
        self.check_clean = _template(lang, "check.not_mafia")
        self.pistol = t(lang, "announce.pistol")
        self.pistol_until = _template(lang, "announce.pistol_until")  # R18: with its end
        self.role_by_name = {role_name(lang, code): code for code in ROLE_CODES}
        self.verb_by_name = {verb_name(lang, verb): verb for verb in known_verbs()}

    @property
    def verb_by_command(self) -> dict[str, str]:
        """``/охота`` -> ``hunt``: role cards name commands in the reader's language."""
        return {command_name(self.lang, verb): verb for verb in self.verb_by_name.values()}

    def card(self, text: str) -> Card:
        nick = role = None
        verbs: frozenset[str] = frozenset()
        team: tuple[str, ...] = ()
        alive = True
        for line in text.splitlines():
            if (m := self.title.match(line)) is not None:
                nick = m["nick"].replace("**", "")
                role = self.role_by_name.get(m["role"])
            elif (m := self.verbs.match(line)) is not None:
                verbs = frozenset(
                    self.verb_by_command.get(v.strip(), v.strip().lstrip("/"))
                    for v in m["verbs"].split(",")
                )
            elif (m := self.team.match(line)) is not None:
                team = tuple(n.strip() for n in m["team"].split(","))
            elif line.strip() == self.dead:
                alive = False
        if nick is None or role is None:
            raise DemoError(f"cannot read the role card: {text!r}")
        return Card(nick=nick, role=role, alive=alive, verbs=verbs, team=team)

    def status(self, text: str) -> Status:
        turn: int | None = None
        requested: set[str] = set()
        posts = 0
        checks: list[tuple[str, bool]] = []
        pistol = False
        in_news = False
        for line in text.splitlines():
            if line == self.news:
                in_news = True
                continue
            if line.startswith("- ") and not in_news:
                item = line[2:]
                if self.request_note.match(item):
                    requested.add("note")
                elif (m := self.request.match(item)) is not None:
                    verb = self.verb_by_name.get(m["verb"])
                    if verb is not None:
                        requested.add(verb)
                continue
            if (m := self.header.match(line)) is not None and m["turn"].isdigit():
                turn = int(m["turn"])
            elif (m := self.posts.match(line)) is not None:
                posts = int(m["count"])
            elif in_news and (m := self.check_mafia.match(line)) is not None:
                checks.append((m["target"], True))
            elif in_news and (m := self.check_clean.match(line)) is not None:
                checks.append((m["target"], False))
            elif in_news and (
                line.strip() == self.pistol or self.pistol_until.match(line.strip()) is not None
            ):
                pistol = True
        return Status(turn, frozenset(requested), posts, tuple(checks), pistol)


# --- the simulated players' policy (pure) ---------------------------------------------------
PHRASES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "intro": (
            "Hello everyone! Let's keep this game clean.",
            "Good morning, town. I'm here and I'm listening.",
            "Hi all. First time with this bot, looks neat.",
            "Greetings. {other}, nice to see you again.",
            "Morning! Coffee first, accusations later.",
            "Hey. I'll be reading every post carefully.",
            "Hello. May the best side win.",
        ),
        "day": (
            "I don't trust {suspect}.",
            "{suspect}, why so quiet?",
            "Something about {suspect} feels off.",
            "Let's not rush. {other}, what do you think?",
            "I'm watching the votes closely today.",
            "Stay sharp, everyone. They are among us.",
            "{other} seems honest to me.",
            "We need to agree on someone, or we lose.",
            "Has anyone noticed how {suspect} votes?",
            "My gut says {suspect}.",
            "Words are cheap. Watch the votes.",
        ),
        "sure": (
            "I'm certain about {target}. Vote with me.",
            "Trust me on this one: {target}, nobody else.",
        ),
        "note": (
            "If I fall, trust {to}.",
            "{to}, avenge me.",
            "Watch the quiet ones, {to}.",
        ),
    },
    "ru": {
        "intro": (
            "Всем привет! Играем честно.",
            "Доброе утро, город. Я здесь и слушаю.",
            "Привет всем. Первый раз с этим ботом, интересно.",
            "Здравствуйте. {other}, рад снова видеть.",
            "Утро! Сначала кофе, потом обвинения.",
            "Привет. Буду внимательно читать каждый пост.",
            "Здравствуйте. Пусть победит сильнейший.",
        ),
        "day": (
            "Не верю игроку {suspect}.",
            "{suspect}, почему так тихо?",
            "С игроком {suspect} что-то не так.",
            "Не будем спешить. {other}, что думаешь?",
            "Сегодня внимательно слежу за голосами.",
            "Не расслабляемся. Они среди нас.",
            "{other} кажется мне честным.",
            "Надо договориться, иначе проиграем.",
            "Кто-нибудь заметил, как голосует {suspect}?",
            "Чутьё подсказывает: {suspect}.",
            "Слова ничего не стоят. Смотрите на голоса.",
        ),
        "sure": (
            "Я уверен насчёт игрока {target}. Голосуйте со мной.",
            "Поверьте мне: {target}, и никто другой.",
        ),
        "note": (
            "Если я паду, {to}, не сдавайся.",
            "{to}, отомсти за меня.",
            "Присматривай за тихими, {to}.",
        ),
    },
}


@attrs.frozen
class View:
    """Everything a player's decisions may depend on."""

    seed: int
    turn: int
    card: Card
    living: tuple[str, ...]  # sorted
    status: Status


@attrs.frozen
class Plan:
    posts: tuple[str, ...] = ()
    actions: tuple[tuple[str, str], ...] = ()  # role requests (verb, target), in order
    vote: str | None = None
    hunt: str | None = None
    note: tuple[str, str] | None = None  # (to, text)


def _rng(seed: int, *parts: object) -> Random:
    """A generator keyed by the seed and a purpose (string seeding is stable across runs)."""
    return Random(":".join(["demo", str(seed), *map(str, parts)]))


def _parity(seed: int, nick: str) -> int:
    return hashlib.sha256(f"{seed}:{nick}".encode()).digest()[0] % 2


#: The abilities `plan_turn` plays with a plan of their own.
PLANNED_VERBS = frozenset({"kill", "slander", "check", "heal", "inject", "block", "poison"})


def plan_turn(view: View, lang: Lang) -> Plan:
    """A living player's requests and posts for one open turn."""
    seed, turn, card = view.seed, view.turn, view.card
    me = card.nick
    rng = _rng(seed, turn, me)
    living = list(view.living)
    others = [n for n in living if n != me]
    if not others:
        return Plan()
    mafia = "kill" in card.verbs
    outsiders = [n for n in living if n not in card.team] if mafia else others
    # The mafia agree on their targets: every member derives the same ones (as if they read
    # the first member's choice in #mafia).
    bloc_kill = _rng(seed, turn, "mafia-kill").choice(outsiders) if outsiders else None
    bloc_vote = _rng(seed, turn, "mafia-vote").choice(outsiders) if outsiders else None
    # The "talk of the day": whom the town's discussion turns on (everybody reads it).
    suspect = _rng(seed, turn, "suspect").choice(living)
    known = [n for n, is_mafia in view.status.checks if is_mafia and n in others]

    phrases = PHRASES[lang]
    target = known[0] if known else (bloc_vote if mafia else suspect)
    if target == me:
        target = rng.choice(others)
    fill = {"suspect": target, "other": rng.choice(others), "target": target}
    if turn == 1:
        pool = phrases["intro"]
    elif known:
        pool = phrases["sure"]
    else:
        pool = phrases["day"]
    count = 2 if rng.random() < 0.35 else 1
    posts = tuple(p.format_map(fill) for p in rng.sample(pool, count))

    actions: list[tuple[str, str]] = []
    if mafia and bloc_kill is not None:
        actions.append(("kill", bloc_kill))
    if "slander" in card.verbs and outsiders:
        actions.append(("slander", rng.choice(outsiders)))
    if "check" in card.verbs:
        checked = {n for n, _ in view.status.checks}
        fresh = [n for n in others if n not in checked] or others
        actions.append(("check", rng.choice(fresh)))
    if "heal" in card.verbs:
        # Never the same player two turns in a row: odd and even turns heal disjoint halves.
        half = [n for n in living if _parity(seed, n) == turn % 2]
        if half:
            actions.append(("heal", rng.choice(half)))
    if "block" in card.verbs:
        actions.append(("block", rng.choice(others)))
    if "poison" in card.verbs:
        actions.append(("poison", rng.choice(others)))
    for verb in card.verbs:  # any other ability naming one player: somebody at random
        spec = verb_spec(verb)
        if (
            verb not in PLANNED_VERBS
            and verb not in COMMON_VERBS
            and verb != "hunt"
            and spec is not None
            and spec.shape is Shape.TARGET
            and turn >= spec.from_turn
        ):
            actions.append((verb, rng.choice(others)))

    vote: str | None = None
    hunt: str | None = None
    if turn >= 2:
        if mafia and bloc_vote is not None:
            vote = bloc_vote
        elif known:
            vote = known[0]
        elif suspect != me and rng.random() < 0.6:
            vote = suspect
        else:
            vote = rng.choice(others)
        if card.role == "villager" and "hunt" in card.verbs and rng.random() < 0.15:
            hunt = suspect if suspect != me else rng.choice(others)

    note: tuple[str, str] | None = None
    if turn == 1 and rng.random() < 0.25:
        to = rng.choice(others)
        note = (to, rng.choice(phrases["note"]).format_map({"to": to}))
    return Plan(posts=posts, actions=tuple(actions), vote=vote, hunt=hunt, note=note)


def plan_shot(view: View) -> str | None:
    """A killed commissar with the pistol prompt: the mafia he found, else anybody."""
    me = view.card.nick
    others = [n for n in view.living if n != me]
    if not others:
        return None
    known = [n for n, is_mafia in view.status.checks if is_mafia and n in others]
    return known[0] if known else _rng(view.seed, view.turn, me, "shot").choice(others)


# --- printing what Discord shows ---------------------------------------------------------------
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_USER = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")


class Transcript:
    """Prints every new message of the watched channels, oldest first, as a client shows it.

    Public view: ``#game`` only. Host view: also the mafia's room (a private thread in
    ``#mafia``), ``#host``, ``#discussion``, the lobby, every DM, and the private replies to the
    players' requests, each line prefixed with where it was seen. Reads SimCord's message
    store directly (``env.backend``, not public API) because converting the whole history on
    every step would be quadratic.
    """

    def __init__(
        self, env: Env, out: TextIO, *, host_view: bool, lang: Lang, labelled: bool = False
    ) -> None:
        self.env = env
        self.lang = lang
        self.out = out
        self.host_view = host_view
        #: Every line names where it was seen (the host view, or several tables' #game).
        self.labelled = host_view or labelled
        self.seen: set[int] = set()
        self.channels: dict[int, str] = {}  # watched channel id -> label
        self.parents: dict[int, str] = {}  # channel id -> label, whose threads are watched
        self.nick_of: dict[int, str] = {}  # user id -> nickname, for the host view's labels

    def watch(self, channel: ChannelHandle, label: str) -> None:
        self.channels[channel.id] = label

    def watch_threads(self, channel: ChannelHandle, label: str) -> None:
        """Every thread of ``channel``, as ``label/<thread name>`` (the mafia's room: the bot
        opens a private thread in #mafia for each game)."""
        self.parents[channel.id] = label

    def say(self, line: str) -> None:
        """A line of the demo's own narration (never game information)."""
        self.out.write(line + "\n")
        self.out.flush()

    def hide_new_replies(self) -> None:
        """Mark the private replies just given as seen (a player looking at /role, /status)."""
        for channel_id, _label in self._watched():
            for message_id, message in self._messages(channel_id).items():
                if message_id not in self.seen and message.is_ephemeral:
                    self.seen.add(message_id)

    def flush(self) -> None:
        new: list[tuple[int, str, Any]] = []
        for channel_id, label in self._watched():
            for message_id, message in self._messages(channel_id).items():
                if message_id in self.seen:
                    continue
                if message.is_ephemeral and not self.host_view:
                    continue
                self.seen.add(message_id)
                where = label
                if message.is_ephemeral:
                    where = self._user_label(self._reply_user(message), "reply to")
                new.append((message_id, where, message))
        for _id, label, message in sorted(new, key=lambda item: item[0]):
            self._print(label, message)

    # -- internals ---------------------------------------------------------------------------
    def _messages(self, channel_id: int) -> dict[int, Any]:
        messages: dict[int, Any] = self.env.backend.messages.get(channel_id, {})
        return messages

    def _watched(self) -> Iterable[tuple[int, str]]:
        yield from self.channels.items()
        if self.parents:
            for channel in list(self.env.backend.channels.values()):
                if channel.is_thread and channel.parent_id in self.parents:
                    yield channel.id, f"{self.parents[channel.parent_id]}/{channel.name}"
        if self.host_view:
            dms: dict[int, int] = self.env.backend.dm_channels
            for user_id, channel_id in dms.items():
                yield channel_id, self._user_label(user_id, "DM")

    def _reply_user(self, message: Any) -> int:
        meta = message.interaction_metadata or {}
        return int((meta.get("user") or {}).get("id") or 0)

    def _user_label(self, user_id: int, kind: str) -> str:
        user = self.env.backend.users.get(user_id)
        name = user.name if user is not None else str(user_id)
        nick = self.nick_of.get(user_id)
        return f"{kind} {nick} ({name})" if nick else f"{kind} {name}"

    def _author(self, message: Any) -> str:
        if message.author_name:
            return str(message.author_name)
        user = self.env.backend.users.get(message.author_id)
        if user is None:
            return "?"
        return str(user.global_name or user.name)

    def _print(self, label: str, message: Any) -> None:
        parts = [message.content] if message.content else []
        parts += [_embed_text(embed) for embed in message.embeds]
        self.print_message(label, self._author(message), parts, ephemeral=message.is_ephemeral)

    def print_message(
        self, label: str, author: str, parts: Sequence[str], *, ephemeral: bool = False
    ) -> None:
        """A message (its content and each embed's text, as ``parts``) as a client shows it."""
        rendered = [self._render(part) for part in parts]
        lines = "\n".join(p for p in rendered if p).splitlines() or [""]
        head = f"{author}: {lines[0]}"
        rest = [f"  {line}" for line in lines[1:]]
        if ephemeral:
            head = lines[0]
            rest = [f"  {line}" for line in lines[1:]]
        if self.labelled:
            text = "\n".join(f"[{label}] {line}" for line in (head, *rest))
        else:
            text = "\n".join((head, *rest))
        self.out.write(text + "\n")
        self.out.flush()

    def _render(self, text: str) -> str:
        now = self.env.now()

        def stamp(m: re.Match[str]) -> str:
            moment = datetime.fromtimestamp(int(m[1]), UTC)
            if m[2] == "R":
                return _relative(moment - now, self.lang)
            return moment.strftime("%Y-%m-%d %H:%M UTC")

        def user(m: re.Match[str]) -> str:
            found = self.env.backend.users.get(int(m[1]))
            return "@" + (str(found.global_name or found.name) if found else "unknown-user")

        def channel(m: re.Match[str]) -> str:
            found = self.env.backend.channels.get(int(m[1]))
            return "#" + (str(found.name) if found is not None else "unknown")

        text = _TIMESTAMP.sub(stamp, text)
        text = _ROLE.sub("@role", text)
        text = _USER.sub(user, text)
        return _CHANNEL.sub(channel, text)


def _relative(delta: timedelta, lang: Lang) -> str:
    """Discord's relative timestamp, as a client in ``lang`` shows it (rounded)."""
    seconds = delta.total_seconds()
    minutes = round(abs(seconds) / 60)
    if minutes < 90:
        amount = f"{minutes} min" if lang == "en" else f"{minutes} мин"
    elif minutes < 48 * 60:
        amount = f"{round(minutes / 60)} h" if lang == "en" else f"{round(minutes / 60)} ч"
    else:
        days = round(minutes / 1440)
        amount = f"{days} days" if lang == "en" else f"{days} дн."
    if lang == "ru":
        return f"через {amount}" if seconds >= 0 else f"{amount} назад"
    return f"in {amount}" if seconds >= 0 else f"{amount} ago"


def _embed_text(embed: dict[str, Any]) -> str:
    lines = [str(embed[key]) for key in ("title", "description") if embed.get(key)]
    for field in embed.get("fields") or ():
        name, value = str(field.get("name", "")), str(field.get("value", ""))
        if "\n" in value:  # a list: its name, then one indented line per item
            lines += [f"{name}:", *(f"  {item}" for item in value.splitlines())]
        else:
            lines.append(f"{name}: {value}")
    footer = (embed.get("footer") or {}).get("text")
    if footer:
        lines.append(str(footer))
    return "\n".join(lines)


# --- the simulator -----------------------------------------------------------------------------
@attrs.define
class Seat:
    """A member actor and what he learnt about himself (re-learnt after a restart)."""

    index: int
    actor: MemberActor
    nick: str | None = None


class Demo:
    """One table's game: its host commands, its players and its channels. With ``--tables N``
    the first table's Demo builds the server and every member; the others share them
    (:meth:`adopt`), each with its own members and its own game."""

    def __init__(
        self,
        env: Env,
        bot: MafiaBot,
        options: DemoOptions,
        out: TextIO,
        *,
        index: int = 0,
        transcript: Transcript | None = None,
    ) -> None:
        self.env = env
        self.bot = bot
        self.options = options
        self.index = index
        self.lang: Lang = options.lang
        self.reader = Reader(options.lang)
        self.transcript = transcript or Transcript(
            env, out, host_view=options.host_view, lang=options.lang, labelled=options.tables > 1
        )
        self.unexpected: list[BaseException] = []
        self.guild: GuildHandle
        self.lobby: ChannelHandle
        self.host: MemberActor
        self.seats: list[Seat] = []
        self._game_channel: ChannelHandle | None = None
        self.table: TableSettings | None = None
        self.capped = False  # the turn cap stopped the game

    @property
    def table_name(self) -> str | None:
        """The table's name when the demo plays several, else None (the server's only table)."""
        if self.options.tables <= 1:
            return None
        return TABLE_NAMES[self.lang][self.index]

    @property
    def table_key(self) -> int:
        return self.table.table_id if self.table is not None else self.options.guild_id

    def _label(self, slot: str) -> str:
        channel = "#" + t(self.lang, f"channel.{slot}")
        return channel if self.table_name is None else f"{self.table_name} {channel}"

    # -- the world ---------------------------------------------------------------------------
    def build_world(self) -> None:
        """The guild, the host and the members: created first and in the same order on every
        run, so their ids are the same after a restart."""
        env = self.env
        # the application's name (not public API)
        env.backend.edit_bot_profile(t(self.lang, BOT_NAME_KEY))
        self.guild = env.create_guild(
            "Forum Mafia Club",
            id=self.options.guild_id,
            preferred_locale="ru" if self.lang == "ru" else None,
        )
        moderators = self.guild.create_role(
            "Moderators", permissions=discord.Permissions(manage_guild=True)
        )
        self.host = self.guild.add_member(env.create_user("club_admin"), roles=[moderators])
        self.members = [
            self.guild.add_member(env.create_user(f"member_{i:02d}"))
            for i in range(1, self.options.players * max(1, self.options.tables) + 1)
        ]
        self.seats = self._seats(self.members)
        self.lobby = self.guild.create_text_channel("general")
        self.transcript.watch(self.lobby, "#general")

    def _seats(self, members: Sequence[MemberActor]) -> list[Seat]:
        first = self.index * self.options.players
        return [Seat(i, members[first + i - 1]) for i in range(1, self.options.players + 1)]

    def adopt(self, first: Demo) -> None:
        """Another table of the first table's server: the same host, its own members."""
        self.guild, self.host, self.lobby = first.guild, first.host, first.lobby
        self.members = first.members
        self.seats = self._seats(first.members)

    @property
    def game_channel(self) -> ChannelHandle:
        if self._game_channel is None:
            raise DemoError("the game channels are not set up")
        return self._game_channel

    def _slot(self, slot: str) -> ChannelHandle:
        """One of the table's channels (``/mafia setup`` stored their ids)."""
        channel_id = getattr(self.table, f"{slot}_channel_id", None)
        channel = self.env.backend.channels.get(channel_id) if channel_id is not None else None
        if channel is None:
            raise DemoError(f"/mafia setup made no #{t(self.lang, f'channel.{slot}')}")
        return ChannelHandle(self.env, self.guild, channel)

    @property
    def host_place(self) -> ChannelHandle:
        """Where the host types his commands: #general on a server of one table (any channel
        will do), the table's own #game when there are several (a command finds its table by
        its channel)."""
        return self.lobby if self.table_name is None else self.game_channel

    # -- acting as a user --------------------------------------------------------------------
    async def _observe(self, action: Any) -> Any:
        """Run one user action; refusals are fine (a user reads them), anything else the bot
        raised is a bug the demo reports."""
        cursor = self.env.error_cursor
        result = await action
        for error in self.env.errors_since(cursor):
            original = getattr(error, "original", error)
            if not isinstance(original, Refusal):
                self.unexpected.append(error)
        return result

    async def slash(
        self,
        actor: MemberActor,
        command: str,
        *,
        where: ChannelHandle | None = None,
        flush: bool = True,
        **options: Any,
    ) -> InteractionResult:
        result: InteractionResult = await self._observe(
            actor.slash(where or self.game_channel, command, **options)
        )
        if flush:
            self.transcript.flush()
        return result

    async def look(self, actor: MemberActor, command: str) -> str:
        """A command whose private answer the player reads for himself (not printed)."""
        result: InteractionResult = await self._observe(actor.slash(self.game_channel, command))
        self.transcript.hide_new_replies()
        self.transcript.flush()
        return reply_text(result)

    async def advance_to(self, moment: datetime) -> None:
        delta = (moment - self.env.now()).total_seconds()
        if delta > 0:
            await self._observe(self.env.advance_time(delta))
        self.transcript.flush()

    # -- the host ----------------------------------------------------------------------------
    async def setup(self) -> None:
        named: dict[str, Any] = {} if self.table_name is None else {"table": self.table_name}
        await self.slash(self.host, "mafia setup", where=self.lobby, language=self.lang, **named)
        tables = await self.bot.store.tables(self.guild.id)
        wanted = (self.table_name or "").casefold()
        self.table = next((tb for tb in tables if tb.name.casefold() == wanted), None)
        if self.table is None:
            raise DemoError(f"/mafia setup made no table {self.table_name or ''}".rstrip())
        self._game_channel = self._slot("game")
        self.transcript.watch(self.game_channel, self._label("game"))
        if self.options.host_view:
            for slot in ("discussion", "host"):
                self.transcript.watch(self._slot(slot), self._label(slot))
            self.transcript.watch_threads(self._slot("mafia"), self._label("mafia"))
        self.transcript.flush()

    async def open_signup(self) -> None:
        options: dict[str, Any] = {"schedule": self.options.schedule}
        if self.options.schedule == "fast":
            options["timezone"] = "UTC"
        if self.options.wishes:
            options["wishes"] = True
        await self.slash(self.host, "mafia new", where=self.host_place, **options)

    def _signup_message(self) -> Any:
        """The sign-up post in #game (the latest message with the Join button), or None."""
        return next(
            (
                m
                for m in reversed(self.game_channel.history())
                if any(
                    getattr(item, "custom_id", None) == JOIN_ID
                    for row in m.components
                    for item in getattr(row, "children", ())
                )
            ),
            None,
        )

    async def wish(self, *, resumed: bool) -> None:
        """R58: members wish for the preset's roles other than Villager (one each, drawn with
        the seed; the rest wish for nothing), half in the sign-up post's menu, half with
        /wish; then the host adopts the tally as the setup (``/mafia roles from_wishes``)."""
        rng = Random(f"demo-wishes/{self.options.seed}")
        roles = [r for r in preset(len(self.seats)) if r != "villager" and is_wishable(r)]
        wishers = rng.sample(list(self.seats), min(len(roles), len(self.seats)))
        signup = None if resumed else self._signup_message()
        for n, (seat, role) in enumerate(zip(wishers, roles, strict=False)):
            if signup is not None and n % 2 == 0:
                await self._observe(seat.actor.select(signup, [role], custom_id=WISH_ID))
                self.transcript.flush()
            else:
                await self.slash(seat.actor, "wish", role=role)
        await self.slash(self.host, "mafia roles", where=self.host_place, from_wishes=True)

    async def sign_up(self, *, resumed: bool) -> None:
        """Every member signs up, in order: some with the button, some with /join (after a
        restart the sign-up message is gone, and /join tells who already signed up)."""
        signup = None if resumed else self._signup_message()
        for seat in self.seats:
            if signup is not None and seat.index % 2 == 1:
                await self._observe(seat.actor.click(signup, custom_id=JOIN_ID))
                self.transcript.flush()
            else:
                await self.slash(seat.actor, "join")

    async def start(self) -> None:
        if self.options.roles is not None:
            await self.slash(
                self.host, "mafia roles", where=self.host_place, roles=self.options.roles
            )
        await self.slash(self.host, "mafia start", where=self.host_place, flush=False)
        self._label_players()
        self.transcript.flush()

    def _label_players(self) -> None:
        """Host view: DMs and replies are labelled with the nickname too (the host knows it
        from /mafia state; the players' decisions never read this)."""
        game = self.bot.service.game_in(self.table_key)
        if game is not None:
            self.transcript.nick_of.update({p.user_id: p.nick for p in game.players})

    # -- the players -------------------------------------------------------------------------
    async def public_living(self) -> tuple[str, ...]:
        """The living nicknames, as any player's autocomplete offers them (public knowledge:
        deaths are announced). Discord shows 25 choices: past that, type letters."""
        actor = self.seats[0].actor
        found = {c["value"] for c in await self._autocomplete(actor, "")}
        if len(found) >= AUTOCOMPLETE_LIMIT:
            typed = {ch.casefold() for name in found for ch in name if ch.isalpha()}
            typed |= set("abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя")
            for letter in sorted(typed):
                found |= {c["value"] for c in await self._autocomplete(actor, letter)}
        return tuple(sorted(found))

    async def _autocomplete(self, actor: MemberActor, text: str) -> list[dict[str, Any]]:
        choices: list[dict[str, Any]] = await self._observe(
            actor.autocomplete(self.game_channel, "vote", "target", text)
        )
        return choices

    async def view_of(self, seat: Seat, living: tuple[str, ...]) -> View:
        """What the player reads about himself: /role and /status (the turn number too)."""
        card = self.reader.card(await self.look(seat.actor, "role"))
        text = await self.look(seat.actor, "status")
        status = self.reader.status(text)
        if status.turn is None:
            raise DemoError(f"cannot read /status: {text!r}")
        seat.nick = card.nick
        return View(
            seed=self.options.seed, turn=status.turn, card=card, living=living, status=status
        )

    async def play_turn(self, hunts_at: datetime) -> None:
        """Every living player posts and sends his requests; hunters wait for the hunt."""
        living = await self.public_living()
        hunts: list[tuple[Seat, str]] = []
        for seat in self.seats:
            if seat.nick is not None and seat.nick not in living:
                continue  # dead (his death was announced): ghosts stay silent in the demo
            view = await self.view_of(seat, living)
            if not view.card.alive:
                continue
            plan = plan_turn(view, self.lang)
            done = view.status
            actor = seat.actor
            for text in plan.posts[done.posts :]:
                await self.slash(actor, "say", text=text)
            for verb, target in plan.actions:
                if verb not in done.requested:
                    await self.slash(actor, verb, target=target)
            if plan.vote is not None and "vote" not in done.requested:
                await self.slash(actor, "vote", target=plan.vote)
            if plan.note is not None and "note" not in done.requested:
                await self.slash(actor, "note", to=plan.note[0], text=plan.note[1])
            if plan.hunt is not None and "hunt" not in done.requested:
                hunts.append((seat, plan.hunt))
        if hunts:
            await self.advance_to(hunts_at)
            for seat, target in hunts:
                await self.slash(seat.actor, "hunt", target=target)

    async def pistol_window(self, turn: int) -> None:
        """A killed commissar, prompted in private, fires his pistol."""
        living = await self.public_living()
        for seat in self.seats:
            if seat.nick is not None and seat.nick in living:
                continue
            view = await self.view_of(seat, living)
            if view.card.alive or not view.status.pistol:
                continue
            target = plan_shot(view)
            if target is not None:
                await self.slash(seat.actor, "shoot", target=target)
            if self._phase() != (turn, Phase.PISTOL.value):
                return  # the last shot closed the window

    def _phase(self) -> tuple[int, str] | None:
        game = self.bot.service.game_in(self.table_key)
        return None if game is None else (game.engine.turn, game.record.phase)

    # -- the whole game ----------------------------------------------------------------------
    def _where(self) -> str:
        """The ``--db`` store as it may be printed (a PostgreSQL URL without its password)."""
        from core.config import redact_url

        return redact_url(str(self.options.db))

    async def begin(self) -> bool:
        """Set the table up and open its game, or pick up the stored one. True if the game
        is already over (its ending is shown again)."""
        self._label_players()
        await self.setup()
        store = self.bot.store
        games = await store.list_games(table_id=self.table_key)
        record = games[-1] if games else None
        if record is not None:
            self._check_resumable(
                record, await store.signups(record.id), await store.players(record.id)
            )
        if record is not None and record.status == "finished":
            await self._finished(record.id)
            return True
        if record is None:
            await self.open_signup()
            await self.sign_up(resumed=False)
            if self.options.wishes:
                await self.wish(resumed=False)
            await self.start()
        else:
            where = "" if self.table_name is None else f" at table {self.table_name}"
            self.transcript.say(
                f"-- resuming game {record.id}{where} of {self._where()} "
                f"({'sign-up' if record.status == 'lobby' else f'turn {record.turn}'})"
            )
            if record.status == "lobby":
                await self.sign_up(resumed=True)
                if record.wishes:
                    await self.wish(resumed=True)
                await self.start()
        self._label_players()
        return False

    def game(self) -> LiveGame | None:
        return self.bot.service.game_in(self.table_key)

    def opened_at(self) -> datetime | None:
        """When the table's open phase began: its deadline less the phase's length (a fast
        turn, or the pistol window, R18); None without a deadline, or on the forum schedule
        (its turns end at a time of day, whatever their start)."""
        game = self.game()
        deadline = None if game is None else game.record.deadline
        if game is None or deadline is None:
            return None
        if game.engine.phase is Phase.PISTOL:
            return deadline - game.schedule.pistol_window
        if game.schedule.kind == "fast":
            return deadline - timedelta(minutes=game.schedule.turn_minutes)
        return None

    def moment(self) -> tuple[int, str, datetime | None] | None:
        """Where the table's game stands (turn, phase, deadline); None once it is over."""
        game = self.game()
        return None if game is None else (game.engine.turn, game.record.phase, game.record.deadline)

    async def act(self, game: LiveGame) -> None:
        """The table's players act in the open turn (or the pistol window)."""
        deadline = game.record.deadline
        if deadline is None:
            raise DemoError("the game's clock is stopped")
        if game.engine.phase is Phase.PISTOL:
            await self.pistol_window(game.engine.turn)
        else:
            await self.play_turn(hunt_opens_at(game.schedule, deadline))

    async def winner(self) -> str | None:
        """The winner of the table's game; None if the turn cap stopped it."""
        if self.capped:
            return None
        games = await self.bot.store.list_games(table_id=self.table_key)
        record = games[-1] if games else None
        if record is None or record.status != "finished":
            raise DemoError("the game vanished")
        return record.winner or "none"

    async def _finished(self, game_id: int) -> str | None:
        """The stored game is over: /mafia setup delivered what was still pending; if its
        final announcement had gone out before, show it again."""
        record = await self.bot.store.require_game(game_id)
        rows = await self.bot.store.outbox(game_id)
        final = next((r for r in reversed(rows) if r.kind == "game_over"), None)
        delivered_now = any(
            t(self.lang, f"winner.{record.winner or 'none'}")
            in "\n".join([m.content or "", *(embed_text(e) for e in m.embeds)])
            for m in self.game_channel.history()
        )
        if final is not None and not delivered_now:
            where = "" if self.table_name is None else f" at table {self.table_name}"
            self.transcript.say(
                f"-- game {game_id}{where} of {self._where()} is over; it ended so:"
            )
            # As the message was shown when it went out: its embeds, markup rendered.
            payload = final.payload.get("payload") or {}
            for post in render_posts(self.lang, "game_over", payload):
                parts = [post.content] if post.content else []
                parts += [_embed_text(dict(embed.to_dict())) for embed in post.embeds]
                self.transcript.print_message(
                    self._label("game"), t(self.lang, BOT_NAME_KEY), parts
                )
        return record.winner or "none"

    def _check_resumable(self, record: Any, signups: Sequence[int], players: Sequence[Any]) -> None:
        members = {seat.actor.id for seat in self.seats}
        users = [p.user_id for p in players] if players else list(signups)
        if (
            record.seed != table_seed(self.options.seed, self.table_key, self.options.guild_id)
            or not set(users) <= members
            or (players and len(players) != len(members))
        ):
            raise DemoError(
                f"{self._where()} holds a demo game with other options "
                f"(seed {record.seed}, {len(users)} players): give the same --seed and "
                "--players, or another --db"
            )


async def play_tables(demos: Sequence[Demo]) -> None:
    """Every table's game to its end on the one virtual clock: each table whose game runs acts
    in its turn, then the clock moves through each notice to the earliest deadline, until a
    game there has moved on (resolved, its pistol window closed, or over)."""
    first = demos[0]
    while True:
        live: list[tuple[Demo, LiveGame]] = []
        for demo in demos:
            game = demo.game()
            if game is None or demo.capped:
                continue
            if game.engine.turn > demo.options.turn_cap:
                demo.capped = True
                continue
            live.append((demo, game))
        if not live:
            return
        before = {demo.index: demo.moment() for demo, _game in live}
        for demo, game in live:
            await demo.act(game)
        deadline = min(b[2] for b in before.values() if b is not None and b[2] is not None)
        moments = sorted(
            event.at
            for _demo, game in live
            for event in game_events(game, first.env.now())
            if event.at < deadline
        )
        for moment in moments:  # each notice at its moment
            await first.advance_to(moment)
        await first.advance_to(deadline)
        for _ in range(5):  # the clock fires at the deadline; allow for rounding
            if any(demo.moment() != before[demo.index] for demo, _game in live):
                break
            await first._observe(first.env.advance_time(1.0))
            first.transcript.flush()
        else:
            turn = min(b[0] for b in before.values() if b is not None)
            raise DemoError(f"turn {turn} did not resolve at its deadline")


def reply_text(result: InteractionResult) -> str:
    parts = []
    if result.response is not None:
        parts.append(result.response.content)
    parts += [f.content for f in result.followups]
    return "\n".join(parts)


# --- entry points ------------------------------------------------------------------------------
async def run_demo(options: DemoOptions, out: TextIO | None = None) -> int:
    """Play the demo, printing to ``out`` (stdout); returns the exit code."""
    out = out if out is not None else sys.stdout
    if (
        not MIN_PLAYERS <= options.players <= MAX_PLAYERS
        or options.schedule not in ("fast", "forum")
        or not 1 <= options.tables <= MAX_TABLES
    ):
        print(
            f"demo: {options.players} players, {options.schedule!r} schedule, "
            f"{options.tables} tables?",
            file=sys.stderr,
        )
        return 2
    if (options.shard_count is None) != (options.shard_id is None) or (
        options.shard_count is not None
        and options.shard_id is not None
        and not 0 <= options.shard_id < options.shard_count <= MAX_DEMO_SHARDS
    ):
        print(f"demo: shard {options.shard_id} of {options.shard_count}?", file=sys.stderr)
        return 2
    if options.db is not None:
        return await _run(options, options.db, out)
    with tempfile.TemporaryDirectory(prefix="mafia-demo-") as folder:
        return await _run(options, str(Path(folder) / "demo.db"), out)


async def _run(options: DemoOptions, database: str, out: TextIO) -> int:
    shards: dict[str, Any] = {}
    if options.shard_count is not None and options.shard_id is not None:
        # Its own server's games only: the other shards' demos own theirs in the same --db.
        shards = {"shard_count": options.shard_count, "shard_ids": [options.shard_id]}
    bot = create_bot(database, game_seed=options.seed, **shards)
    assert isinstance(bot, MafiaBot)
    winners: list[tuple[str | None, str | None]] = []  # (table name, winner)
    code = 0
    started = time.monotonic()
    # Every request is checked against Discord's limits (sandbox/discord_contract.py).
    contract = DiscordContract()
    try:
        # Every member's client speaks the demo's language, as in a club of one language.
        with client_locales({EVERYONE: LOCALE_OF[options.lang]}), contract.installed():
            async with simcord.run(bot, check_errors=False) as env:
                first = Demo(env, bot, options, out)
                demos = [first] + [
                    Demo(env, bot, options, out, index=i, transcript=first.transcript)
                    for i in range(1, options.tables)
                ]
                try:
                    winners = await asyncio.wait_for(play_all(demos), WALL_LIMIT_SECONDS)
                except TimeoutError:
                    print(f"demo: gave up after {WALL_LIMIT_SECONDS:.0f} s", file=sys.stderr)
                except DemoError as error:
                    print(f"demo: {error}", file=sys.stderr)
                    return 2
                if options.artifacts is not None and winners:
                    await _write_artifacts(bot, first, Path(options.artifacts), options.lang)
                for demo in demos:
                    for failure in demo.unexpected:
                        print(f"demo: the bot failed: {failure!r}", file=sys.stderr)
                        code = 1
                _ = env.errors  # acknowledged: refusals are part of play, the rest reported above
    finally:
        await bot.close_store()
        for violation in contract.violations:  # also when the demo stopped early
            print(f"demo: Discord would refuse: {violation}", file=sys.stderr)
    if contract.violations:
        code = 1
    log.info("demo finished in %.1f s", time.monotonic() - started)
    if not winners:
        winners = [(None, None)]
    for name, winner in winners:
        label = "winner" if options.tables <= 1 else f"winner[{name}]"
        out.write(f"{label}: {winner or 'none'}\n")
        if winner is None or winner == "none":
            code = 1
    out.flush()
    return code


async def _write_artifacts(bot: MafiaBot, first: Demo, folder: Path, lang: Lang) -> None:
    """``--artifacts``: the archives, pictures and stats of the demo server (sandbox/artifacts),
    listed on standard error (the transcript stays as it is)."""
    guild = bot.get_guild(first.guild.id)
    if guild is None:
        raise DemoError("the demo server vanished")
    for path in await write_artifacts(bot.store, guild, folder, lang):
        print(f"demo: wrote {path}", file=sys.stderr)


async def play_all(demos: Sequence[Demo]) -> list[tuple[str | None, str | None]]:
    """Build the server, set every table up and open its game (or pick up the stored ones),
    play them all to the end; each table's name and winner."""
    first = demos[0]
    first.build_world()
    for demo in demos[1:]:
        demo.adopt(first)
    running = [demo for demo in demos if not await demo.begin()]
    # A resumed game: the clock back where it stood when its phase opened (SimCord's starts at
    # the same early instant on every run), so what its players do now happens when it did
    # in an uninterrupted run (a pistol shot that ends the game, its end time).
    opened = [moment for demo in running if (moment := demo.opened_at()) is not None]
    if opened:
        await first.advance_to(min(opened))
    if running:
        await play_tables(running)
    return [(demo.table_name, await demo.winner()) for demo in demos]


def demo_main(
    *,
    players: int = 8,
    seed: int = 1,
    db: str | None = None,
    host_view: bool = False,
    schedule: str = "fast",
    lang: str = "en",
    tables: int = 1,
    artifacts: str | None = None,
    shard_count: int | None = None,
    shard_id: int | None = None,
    wishes: bool = False,
    roles: str | None = None,
) -> int:
    """``main.py demo``: the command line entry (its own event loop). ``roles``: the role
    list to play (its length is the number of players)."""
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    if roles is not None:
        try:
            dealt = parse_role_list(roles)
            validate_setup(dealt)
        except SetupError as error:
            print(f"demo: --roles: {error}", file=sys.stderr)
            return 2
        players = len(dealt)
    options = DemoOptions(
        roles=roles,
        players=players,
        seed=seed,
        db=db,
        host_view=host_view,
        schedule=schedule,
        lang="ru" if lang == "ru" else "en",
        tables=tables,
        artifacts=artifacts,
        shard_count=shard_count,
        shard_id=shard_id,
        wishes=wishes,
    )
    try:
        return asyncio.run(run_demo(options))
    except KeyboardInterrupt:
        where = f"; run it again with --db {db} to continue" if db else ""
        print(f"demo: interrupted{where}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `main.py demo | head`: the reader left, nothing more to say
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second complaint when Python exits
        return 0
