"""Arrange-and-assert helpers shared by the end-to-end tests.

Four of them reach into SimCord's internals, which are not public API; they are kept here, in
one place, so a SimCord upgrade breaks one file: ``set_bot_permissions`` (no builder edits a
role), ``archive_thread`` (no builder archives a thread) and the cross-check in
``permissions_in`` use ``env.backend``; ``Faults`` wraps ``simcord.http.router.dispatch``
(timeouts and lost answers, which ``env.inject_error`` cannot make). A fifth, ``client_locale``,
sets the language of a member's Discord client, which SimCord fixes at ``en-US``
(``sandbox/clients.py``).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import attrs
import discord
import pytest
from simcord import BackendError, ChannelHandle, Env, GuildHandle, InteractionResult, MemberActor
from simcord.http import router

from bot.client import MafiaBot
from bot.embeds import embed_text
from bot.layout import is_member_target
from core.i18n import Lang, t
from core.refusal import Refusal
from core.service import LiveGame
from sandbox.clients import EVERYONE, client_locales

#: The ``restart`` fixture (tests/e2e/conftest.py): stop the bot, start a new one on its file.
Restart = Callable[..., Awaitable[MafiaBot]]


@attrs.define
class World:
    env: Env
    guild: GuildHandle
    lobby: ChannelHandle
    #: Manage Server through a "Moderators" role: a host without any host role.
    admin: MemberActor
    #: A plain member.
    player: MemberActor


#: What the test bots change of ``create_bot``'s defaults (production's, as ``main.py run``
#: runs, R59's heartbeat included): only the heap freeze, which changes no behaviour but would
#: keep every earlier test's bot from the collector in a process that starts hundreds of them.
TEST_BOT: dict[str, Any] = {"freeze_heap": False}


def make_world(env: Env, *, locale: str | None = None) -> World:
    guild = env.create_guild("Mafia Club", preferred_locale=locale)
    lobby = guild.create_text_channel("general")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("alice"), roles=[moderators])
    player = guild.add_member(env.create_user("bob"))
    return World(env=env, guild=guild, lobby=lobby, admin=admin, player=player)


@contextmanager
def client_locale(who: MemberActor | int | None, locale: str) -> Iterator[None]:
    """Within the block, the interactions of ``who`` (a member or user id; everyone for None)
    carry the Discord client locale ``locale`` (``"ru"``, ``"en-GB"``, ``"uk"``...), which the
    bot's private replies follow; SimCord alone sends ``en-US`` for everyone. Blocks nest: the
    inner one wins for the member it names."""
    user_id = who.id if isinstance(who, MemberActor) else who
    with client_locales({EVERYONE if user_id is None else user_id: locale}):
        yield


def channel(world: World, name: str) -> ChannelHandle:
    channels = world.guild.channels
    assert name in channels, f"no channel {name!r}; channels: {sorted(channels)}"
    return channels[name]


def permissions_in(env: Env, where: ChannelHandle, member: MemberActor) -> discord.Permissions:
    """The member's permissions in a channel as discord.py computes them from the bot's cache,
    checked against SimCord's own computation (what Discord would enforce)."""
    cached = env.bot.get_channel(where.id)
    assert isinstance(cached, discord.abc.GuildChannel)
    assert member.member is not None
    seen = cached.permissions_for(member.member)
    assert where.guild is not None
    raw = env.backend.compute_permissions(where.guild.id, member.id, where.id)
    enforced = discord.Permissions(raw)
    # discord.py also applies Discord's implicit rules (no voice permissions in a text channel;
    # no embeds or files without Send Messages; nothing at all without View Channel), which
    # SimCord's raw computation leaves out: compare the flags the layout sets.
    if not enforced.view_channel:
        assert not seen.view_channel, f"the bot's cache lets {member.name} see #{where.name}"
        return seen
    diff = [name for name in CHECKED_FLAGS if getattr(seen, name) != getattr(enforced, name)]
    assert not diff, f"cache and backend disagree in #{where.name} for {member.name}: {diff}"
    return seen


CHECKED_FLAGS = (
    "view_channel",
    "read_message_history",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "create_private_threads",
    "add_reactions",
    "use_application_commands",
    "manage_webhooks",
    "manage_channels",
)


def bot_role_id(env: Env, guild: GuildHandle) -> int:
    return next(r.id for r in env.backend.get_guild(guild.id).roles.values() if r.managed)


async def set_bot_permissions(
    env: Env, guild: GuildHandle, permissions: discord.Permissions
) -> None:
    """Give the bot's managed role exactly ``permissions`` (as a server admin would)."""
    env.backend.edit_role(guild.id, bot_role_id(env, guild), {"permissions": permissions.value})
    await env.settle()


async def archive_thread(env: Env, guild: GuildHandle, thread: ChannelHandle) -> None:
    """Archive a thread as Discord does once it has been quiet for its auto-archive duration.
    Discord's GUILD_CREATE carries active threads only, so the thread is also left out of the
    guild's state that a bot starting later receives (SimCord would send every thread)."""
    env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": True})
    env.backend.get_guild(guild.id).thread_ids.remove(thread.id)
    await env.settle()


def message_text(message: discord.Message) -> str:
    """A message as a reader sees it: its text, then each embed as text (title, description,
    fields, footer). Tests read announcements through this, whether they are text or embeds."""
    parts = [message.content, *(embed_text(e) for e in message.embeds)]
    return "\n".join(part for part in parts if part)


def announcement_texts(message: discord.Message) -> list[str]:
    """The announcements a message carries, each as text (as :func:`message_text` shows a
    message of one): its text with its first embed, then each embed that starts another
    announcement (a title or a description), with the embeds that continue it (fields only).
    The turn's results and the next turn's opening share one #game message where Discord's
    limits allow (bot/delivery/sender.py, coalesce)."""
    if not message.embeds:
        return [message_text(message)]
    parts: list[str] = []
    for index, embed in enumerate(message.embeds):
        text = embed_text(embed)
        if index == 0:
            parts.append("\n".join(p for p in (message.content, text) if p))
        elif embed.title or embed.description:
            parts.append(text)
        else:
            parts[-1] = "\n".join(p for p in (parts[-1], text) if p)
    return parts


def channel_announcements(messages: Sequence[discord.Message]) -> list[str]:
    """Every announcement of ``messages`` (oldest first) as text: a message carrying two (the
    results and the opening) gives two."""
    return [text for message in messages for text in announcement_texts(message)]


def channel_texts(where: ChannelHandle) -> list[str]:
    """Every message of a channel (oldest first) as text, embeds included."""
    return [message_text(m) for m in where.history()]


def reply_text(result: InteractionResult) -> str:
    """The private reply of an interaction (its response, deferred or not)."""
    assert result.acknowledged, f"the bot did not answer: {result!r}"
    assert result.ephemeral, f"the reply is public: {result!r}"
    response = result.response
    assert response is not None
    parts = [response.content, *(embed_text(e) for e in response.embeds)]
    return "\n".join(part for part in parts if part)


async def refusal(env: Env, action: Awaitable[InteractionResult]) -> str:
    """Run ``action`` and return its private refusal text.

    Every error the bot raises meanwhile must be a :class:`Refusal`: refusals reach
    ``MafiaTree.on_error``, SimCord records each error that does, and this acknowledges them
    (an unacknowledged one fails the test at teardown).
    """
    cursor = env.error_cursor
    result = await action
    raised = env.errors_since(cursor)
    assert raised, "the bot refused nothing"
    for error in raised:
        original = getattr(error, "original", error)
        assert isinstance(original, Refusal), f"unexpected error: {error!r}"
    _ = env.errors  # acknowledge: they were expected
    return reply_text(result)


async def at_once(
    env: Env, *actions: Callable[[], Awaitable[InteractionResult]]
) -> list[InteractionResult]:
    """Run actor calls as if sent at the same moment: every interaction reaches the bot before
    it handles any. SimCord settles the bot after each call and forbids overlapping calls, so
    its settling (``Env._settle_internal``, internal) is held back until the last call."""
    settle = env._settle_internal

    async def later(**_kwargs: object) -> None:
        return None

    results: list[InteractionResult] = []
    env._settle_internal = later  # type: ignore[method-assign]
    try:
        for action in actions[:-1]:
            results.append(await action())
    finally:
        env._settle_internal = settle  # type: ignore[method-assign]
    results.append(await actions[-1]())
    return results


# --- confirmations (bot/confirm.py) --------------------------------------------------------
def confirm_button(preview: InteractionResult) -> str:
    """The custom id of the Confirm button on a private preview."""
    assert preview.response is not None, f"no preview: {preview!r}"
    ids = [
        c["custom_id"]
        for row in preview.response.components
        for c in row.get("components", [])
        if str(c.get("custom_id", "")).startswith("mafia:confirm:")
    ]
    assert len(ids) == 1, f"confirm buttons: {ids}"
    return str(ids[0])


def confirmed_text(clicked: InteractionResult) -> str:
    """The private reply that follows a click on Confirm (the preview itself loses its
    buttons)."""
    assert clicked.acknowledged, f"the bot did not answer: {clicked!r}"
    assert clicked.followups, f"no reply after the confirmation: {clicked!r}"
    reply = clicked.followups[-1]
    return reply.content


async def confirm_now(
    world: World, command: str, host: MemberActor | None = None, **options: object
) -> str:
    """A host command that confirms (``mafia resolve``, ``mafia end``), then Confirm on its
    private preview; returns the reply to the confirmation."""
    host = host or world.admin
    preview = await host.slash(world.lobby, command, **options)
    reply_text(preview)
    assert preview.response is not None
    clicked = await host.click(preview.response, custom_id=confirm_button(preview))
    return confirmed_text(clicked)


async def resolve_now(world: World, host: MemberActor | None = None) -> str:
    """``/mafia resolve``, confirmed."""
    return await confirm_now(world, "mafia resolve", host)


# --- a running game (the anonymity, permission and restart tests) ------------------------------
def bot_of(env: Env) -> MafiaBot:
    assert isinstance(env.bot, MafiaBot)
    return env.bot


def live_game(world: World) -> LiveGame:
    game = bot_of(world.env).service.game_in(world.guild.id)
    assert game is not None, "no game is running"
    return game


#: The first line of every private message: the server and the game it is about.
DM_HEADER = re.compile(r"\*\*(?P<server>.+) · (?:game #|игра №)(?P<game>\d+)\*\*")


def dm_body(text: str, server: str | None = None) -> str:
    """A private message without its header, which must name the server (``server``, when
    given) and the game."""
    header, _, body = text.partition("\n")
    found = DM_HEADER.fullmatch(header)
    assert found, f"a private message that names no server and game: {text!r}"
    if server is not None:
        assert found["server"] == server, header
    return body


def dm_texts(actor: MemberActor) -> list[str]:
    """The private messages the bot sent this member, oldest first, without their header
    (checked: each names this member's server and a game)."""
    dm = actor.user.dm_channel
    server = actor.guild.name
    return [] if dm is None else [dm_body(m.content, server) for m in dm.history()]


def slot(world: World, name: str) -> ChannelHandle:
    """One of the game's channels (``game``, ``discussion``, ``mafia``, ``host``) in either
    language (a Russian set-up names them in Russian)."""
    channels = world.guild.channels
    for lang in ("en", "ru"):
        handle = channels.get(t(lang, f"channel.{name}"))
        if handle is not None:
            return handle
    raise AssertionError(f"no #{name} channel; channels: {sorted(channels)}")


def mafia_room(world: World, game_id: int | None = None) -> ChannelHandle:
    """The mafia's room of a game (default: the running one, else the last one): the private
    thread in #mafia named for the game (R14)."""
    threads = slot(world, "mafia").threads
    if game_id is None:
        game = bot_of(world.env).service.game_in(world.guild.id)
        if game is None:
            assert threads, "#mafia has no thread"
            return max(threads, key=lambda th: th.id)
        game_id = game.id
    names = {t(lang, "channel.mafia_thread", game=game_id) for lang in ("en", "ru")}
    rooms = [th for th in threads if th.name in names]
    assert len(rooms) == 1, f"rooms of game {game_id}: {rooms}; threads: {threads}"
    return rooms[0]


def member_overwrites(env: Env, guild: GuildHandle) -> dict[str, set[int]]:
    """R14: every member overwrite in the guild, channel name -> member ids, as the gateway
    sends them (to every member's client, whatever he may view)."""
    cached = env.bot.get_guild(guild.id)
    assert cached is not None
    found: dict[str, set[int]] = {}
    for ch in [*cached.channels, *cached.threads]:
        targets = getattr(ch, "overwrites", {})
        ids = {target.id for target in targets if is_member_target(target)}
        if ids:
            found[ch.name] = ids
    return found


def add_players(world: World, names: Sequence[str]) -> list[MemberActor]:
    """New members named ``acct_<name>``, with a display name and a server nickname too, so
    that a test can look for every name a member shows under."""
    env = world.env
    return [
        world.guild.add_member(
            env.create_user(f"acct_{name}", global_name=f"Display {name}"), nick=f"Srv {name}"
        )
        for name in names
    ]


def identities(actor: MemberActor) -> tuple[str, ...]:
    """Everything that names a member's real account: user name, display name, server
    nickname, id."""
    member = actor.member
    assert member is not None
    names = {member.name, member.display_name, str(member.id)}
    if member.global_name:
        names.add(member.global_name)
    if member.nick:
        names.add(member.nick)
    return tuple(sorted(names))


async def start_game(
    world: World,
    roles: str,
    players: Sequence[MemberActor],
    *,
    lang: str = "en",
    **new_options: object,
) -> None:
    """``/mafia setup`` in ``lang``, a fast game (10-minute turns) in UTC (and
    ``new_options``, e.g. ``reveal=False``), every player signs up with ``/join``, the role
    list, ``/mafia start``."""
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language=lang))
    reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="fast", timezone="UTC", **new_options
        )
    )
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=roles))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))


async def until_deadline(world: World, *, before: float = 0.0) -> None:
    """Advance the virtual clock to ``before`` seconds ahead of the running turn's deadline."""
    deadline = live_game(world).record.deadline
    assert deadline is not None
    await world.env.advance_time((deadline - world.env.now()).total_seconds() - before)


async def advance_to(world: World, moment: datetime) -> None:
    """Advance the virtual clock to ``moment``."""
    await world.env.advance_time((moment - world.env.now()).total_seconds())


async def everyone_posts(world: World, actors: Sequence[MemberActor]) -> None:
    """Each living player posts in #game (R52: nobody leaves for inactivity)."""
    state = live_game(world).engine.state
    for actor in actors:
        nick = live_game(world).nick_of(actor.id)
        if nick is not None and state.alive(nick):
            reply_text(await actor.slash(slot(world, "game"), "say", text="Present."))


async def to_turn_2(world: World, actors: Sequence[MemberActor]) -> None:
    """Everyone posts on turn 1 and its deadline passes: the game is on turn 2."""
    await everyone_posts(world, actors)
    await until_deadline(world)
    assert live_game(world).engine.turn == 2


def results_header(turn: int, lang: Lang = "en") -> str:
    """How a turn's results announcement begins."""
    return t(lang, "announce.results", turn=turn)


def opening_header(turn: int, lang: Lang = "en") -> str:
    """How a turn's opening announcement begins (its first sentence, without the deadline)."""
    return t(lang, "announce.turn_open", turn=turn, deadline="", relative="").split(".")[0]


def results_of(world: World, turn: int) -> str:
    """The latest results announcement of ``turn`` in #game (the results and the opening may
    share a message)."""
    texts = channel_announcements(slot(world, "game").history())
    return next(x for x in reversed(texts) if x.startswith(results_header(turn)))


def seats_by_role(
    world: World, actors: Sequence[MemberActor]
) -> dict[str, tuple[str, MemberActor]]:
    """Role code -> (nickname, actor); for a repeated role, one of its holders."""
    by_user = {a.id: a for a in actors}
    return {p.role: (p.nick, by_user[p.user_id]) for p in live_game(world).players}


# --- the hosts' console in #host ----------------------------------------------------------------
def is_console_line(text: str) -> bool:
    """A message of the hosts' console in #host (a host command's audit line, or the night's
    account), as opposed to the bot's warnings there (closed DMs, lost permissions, stuck)."""
    if re.match(r"<@\d+>: /", text):
        return True
    return any(
        text.startswith(t(lang, "console.account.title", turn=0).split("0")[0])
        and t(lang, "console.account.title", turn=0).split("0")[1] in text
        for lang in ("en", "ru")
    )


def host_warnings(where: ChannelHandle) -> list[str]:
    """The bot's warnings in #host, without the console's audit lines and accounts."""
    return [
        text for text in (message_text(m) for m in where.history()) if not is_console_line(text)
    ]


def pistol_prompt(world: World, lang: str = "en") -> str:
    """The killed commissar's DM while his pistol window is open (R18): it says until when,
    as a Discord timestamp; the window's end is the game's deadline in the pistol phase."""
    end = live_game(world).record.deadline
    assert end is not None and live_game(world).record.phase == "pistol"
    stamp = int(end.timestamp())
    return t(lang, "announce.pistol_until", time=f"<t:{stamp}:t>", relative=f"<t:{stamp}:R>")  # type: ignore[arg-type]


def kill_boards(room: ChannelHandle, turn: int, lang: str = "en") -> list[discord.Message]:
    """The mafia's kill boards of ``turn`` in its room (there is one, edited in place)."""
    title = f"**{t(lang, 'mafia.board.title', turn=turn)}**"  # type: ignore[arg-type]
    return [m for m in room.history() if m.content.startswith(title + "\n")]


def kill_board_text(room: ChannelHandle, turn: int, lang: str = "en") -> str:
    """The one kill board of ``turn``, as it reads now."""
    [board] = kill_boards(room, turn, lang)
    return board.content


#: The writes a delivery makes: messages, DM channels, room members, the room's lock.
DELIVERY_STEPS = (
    ("POST", "/channels/*/messages"),
    ("POST", "/users/@me/channels"),
    ("PUT", "/channels/*/thread-members/*"),
    ("DELETE", "/channels/*/thread-members/*"),
    ("PATCH", "/channels/*"),
)
#: Executing the channel's webhook (interaction replies, also under /webhooks/, are spared).
WEBHOOK_STEPS = (("POST", "/webhooks/*/*"),)


class Faults:
    """Failures in SimCord's HTTP layer, the one function both transports (the bot's
    ``HTTPClient`` and the webhook adapter) call: ``simcord.http.router.dispatch``.

    ``kind`` is an HTTP status (raised as SimCord raises ``inject_error``'s, before the route
    runs: nothing stored), ``timeout`` (no answer, nothing stored) or ``lost`` (stored, then
    no answer). ``once``: each distinct request (method, path, nonce) fails the first time only;
    otherwise every matching request fails. Records every message created, with its nonce.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.kind: str | None = None
        self.steps: tuple[tuple[str, str], ...] = DELIVERY_STEPS
        self.once = True
        self.seen: set[tuple[str, str, str | None]] = set()
        self.failed: list[tuple[str, str]] = []
        self.created: list[tuple[int, str | None]] = []  # (channel id, nonce), in order
        original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            nonce = body.get("nonce") if isinstance(body, dict) else None
            fail = self._should_fail(method, path, nonce)
            if fail and self.kind not in ("timeout", "lost"):
                raise BackendError(int(str(self.kind)), 0, f"{self.kind} (injected by test)")
            if fail and self.kind == "timeout":
                raise TimeoutError("no answer (injected by test)")
            result = original(backend, method, path, **kwargs)
            if method == "POST" and isinstance(result, dict) and "channel_id" in result:
                self.created.append((int(result["channel_id"]), nonce))
            if fail:  # lost: Discord stored it, the answer never came
                raise TimeoutError("the answer was lost (injected by test)")
            return result

        monkeypatch.setattr(router, "dispatch", dispatch)

    def _should_fail(self, method: str, path: str, nonce: str | None) -> bool:
        if self.kind is None or "interaction" in path:
            return False
        if not any(m == method and fnmatch.fnmatch(path, p) for m, p in self.steps):
            return False
        if self.once:
            key = (method, path, nonce)
            if key in self.seen:
                return False
            self.seen.add(key)
        self.failed.append((method, path))
        return True

    def nonces(self) -> list[str]:
        return [
            nonce for _, nonce in self.created if nonce is not None and nonce.startswith("mafia-")
        ]
