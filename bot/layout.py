"""The game's category and channels: what ``/mafia setup`` builds or repairs, and the bot
permissions that needs.

| channel       | @everyone                                   | also                        |
|---------------|---------------------------------------------|-----------------------------|
| #game         | reads, uses slash commands; sends nothing,  | the bot posts (and its      |
|               | no threads, no reactions (R6: a real account | webhook: anonymous posts)  |
|               | never shows in the game channel)            |                             |
| #discussion   | reads and writes (R7)                       |                             |
| #mafia        | reads; sends nothing, no threads, no        | the bot also creates and    |
|               | reactions; may write in a thread he is in   | manages private threads     |
| #host         | hidden                                      | the host role (or, without  |
|               |                                             | one, the member who ran it) |

A game opened with a ghosts' room (R62) also has a channel of its own in the category, hidden
from @everyone (:func:`ghost_room_overwrites`, ``bot/ghost_room.py``), created when it is first
needed and repaired whenever it is used.

#mafia is only the parent of the mafia's room: each game's room is a private thread in it
(``bot/mafia_room.py``), never an overwrite per member. Discord sends every channel's overwrites
to every member's client, hidden channels included, so an overwrite per mafia member would tell
anyone with a modified client who the mafia are (R14).

The bot gives itself a member overwrite in every channel so that hiding a channel from
@everyone never hides it from the bot. Repair only touches the overwrites of the targets the
layout owns (@everyone, the bot, the host role, a previous host role); overwrites of anyone else
are kept, except the member overwrites in #mafia (left by older versions, which gave each mafia
member one): repair removes them.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Iterable, Mapping
from typing import Final, Literal, TypeVar

import attrs
import discord

from bot.errors import UserError
from core.i18n import LANGUAGES, Lang, as_lang, t
from db.models import TableSettings

log = logging.getLogger(__name__)
_T = TypeVar("_T")

Slot = Literal["game", "discussion", "mafia", "host"]
SLOTS: Final[tuple[Slot, ...]] = ("game", "discussion", "mafia", "host")

Overwrite = discord.PermissionOverwrite

EVERYONE: Final[Mapping[Slot, Overwrite]] = {
    "game": Overwrite(
        view_channel=True,
        read_message_history=True,
        use_application_commands=True,
        send_messages=False,
        send_messages_in_threads=False,
        create_public_threads=False,
        create_private_threads=False,
        add_reactions=False,
    ),
    "discussion": Overwrite(view_channel=True, read_message_history=True, send_messages=True),
    # R14: the parent of the mafia's private thread. Everyone may see it (it holds nothing);
    # writing in a thread is allowed so that the thread's members can talk there.
    "mafia": Overwrite(
        view_channel=True,
        read_message_history=True,
        send_messages=False,
        send_messages_in_threads=True,
        create_public_threads=False,
        create_private_threads=False,
        add_reactions=False,
    ),
    "host": Overwrite(view_channel=False),
}
BOT: Final[Overwrite] = Overwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
)
BOT_GAME: Final[Overwrite] = Overwrite(**{**dict(BOT), "manage_webhooks": True})
#: The bot in #mafia: it opens each game's private thread, adds and removes its members,
#: unarchives it and posts in it.
BOT_MAFIA: Final[Overwrite] = Overwrite(
    **{
        **dict(BOT),
        "create_private_threads": True,
        "send_messages_in_threads": True,
        "manage_threads": True,
    }
)
#: What a host gets in #host.
MEMBER_ACCESS: Final[Overwrite] = Overwrite(
    view_channel=True, read_message_history=True, send_messages=True
)

#: The ghosts' room of a game (R62, ``bot/ghost_room.py``): a channel of the table's category,
#: hidden from @everyone; the bot posts the dead's words there through its webhook, under their
#: nicknames (R6: a real account never shows); a host reads and writes (:data:`MEMBER_ACCESS`);
#: each dead player and spectator gets :data:`GHOST_READER`: he reads, and writes only through
#: ``/say``. Unlike the mafia's room, who is in it is no secret: the dead are public.
GHOST_EVERYONE: Final[Overwrite] = Overwrite(view_channel=False)
GHOST_READER: Final[Overwrite] = Overwrite(
    view_channel=True,
    read_message_history=True,
    send_messages=False,
    send_messages_in_threads=False,
    create_public_threads=False,
    create_private_threads=False,
    add_reactions=False,
)

#: The bot's own needs besides the overwrites it sets (which it must hold itself: Discord only
#: lets a bot allow or deny permissions it has).
OPERATIONAL: Final[discord.Permissions] = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    manage_channels=True,
    manage_roles=True,
    manage_webhooks=True,
)


def _flags(overwrites: Iterable[Overwrite]) -> set[str]:
    names: set[str] = set()
    for overwrite in overwrites:
        names.update(name for name, value in overwrite if value is not None)
    return names


def _required_permissions() -> discord.Permissions:
    names = {name for name, value in OPERATIONAL if value}
    names |= _flags([*EVERYONE.values(), BOT, BOT_GAME, BOT_MAFIA, MEMBER_ACCESS, GHOST_READER])
    return discord.Permissions(**dict.fromkeys(names, True))


#: Guild permissions the bot needs (give its role these, or Administrator).
REQUIRED_BOT_PERMISSIONS: Final[discord.Permissions] = _required_permissions()
#: What the invite link asks for: the required permissions, and Change Nickname, which lets
#: the bot show as the host in the game's language ("Ведущий") instead of its application's
#: name. The game works without it (it is not checked).
INVITE_PERMISSIONS: Final[discord.Permissions] = discord.Permissions(
    REQUIRED_BOT_PERMISSIONS.value | discord.Permissions(change_nickname=True).value
)


def missing_bot_permissions(have: discord.Permissions) -> list[str]:
    """Permission flags from :data:`REQUIRED_BOT_PERMISSIONS` that ``have`` lacks, in Discord's
    order. Administrator implies everything."""
    if have.administrator:
        return []
    return [
        _ALIASES.get(name, name)
        for name, needed in REQUIRED_BOT_PERMISSIONS
        if needed and not getattr(have, name)
    ]


#: discord.py iterates some flags under their old names; show the names Discord shows.
_ALIASES: Final[Mapping[str, str]] = {"read_messages": "view_channel"}


def channel_name(lang: Lang, slot: Slot) -> str:
    return t(lang, f"channel.{slot}")


def _known_names(key: str) -> set[str]:
    return {t(lang, key).casefold() for lang in LANGUAGES}


@attrs.define
class LayoutReport:
    category: discord.CategoryChannel
    channels: dict[Slot, discord.TextChannel]
    created: list[str] = attrs.Factory(list)
    repaired: list[str] = attrs.Factory(list)

    def settings(self, base: TableSettings) -> TableSettings:
        return attrs.evolve(
            base,
            category_id=self.category.id,
            game_channel_id=self.channels["game"].id,
            discussion_channel_id=self.channels["discussion"].id,
            mafia_channel_id=self.channels["mafia"].id,
            host_channel_id=self.channels["host"].id,
        )

    def summary(
        self,
        lang: Lang,
        host_role: discord.Role | None,
        *,
        game: Lang | None = None,
        table: str = "",
    ) -> str:
        """``/mafia setup``'s reply in ``lang`` (the reader's): the table (``table``, its name,
        when it has one), its channels, the game's language (``game``, default ``lang``), and
        what was built or repaired."""
        lines = [t(lang, "setup.table", table=table)] if table else []
        lines += [
            t(
                lang,
                "setup.done",
                category=self.category.name,
                game=self.channels["game"].mention,
                discussion=self.channels["discussion"].mention,
                mafia=self.channels["mafia"].mention,
                host=self.channels["host"].mention,
                language=t(lang, f"choice.language.{game or lang}"),
                host_role=host_role.mention if host_role else t(lang, "setup.no_host_role"),
            )
        ]
        if self.created:
            lines.append(t(lang, "setup.created", items=", ".join(self.created)))
        if self.repaired:
            lines.append(t(lang, "setup.repaired", items=", ".join(self.repaired)))
        if not self.created and not self.repaired:
            lines.append(t(lang, "setup.unchanged"))
        return "\n".join(lines)


Target = discord.Role | discord.Member | discord.Object


def desired_overwrites(
    slot: Slot,
    guild: discord.Guild,
    host_role: discord.Role | None,
    invoker: discord.Member,
) -> dict[Target, Overwrite]:
    """The overwrites the layout owns in ``slot``'s channel."""
    bot = BOT_GAME if slot == "game" else BOT_MAFIA if slot == "mafia" else BOT
    wanted: dict[Target, Overwrite] = {guild.default_role: EVERYONE[slot], guild.me: bot}
    if slot == "host":
        wanted[host_role if host_role is not None else invoker] = MEMBER_ACCESS
    return wanted


def is_member_target(target: Target) -> bool:
    """An overwrite for one member (not a role)."""
    if isinstance(target, discord.Object):
        return target.type is discord.Member
    return isinstance(target, discord.Member)


def merge_overwrites(
    existing: Mapping[Target, Overwrite],
    wanted: Mapping[Target, Overwrite],
    owned_ids: set[int],
    *,
    drop_members: bool = False,
) -> dict[Target, Overwrite]:
    """``wanted`` plus every existing overwrite whose target the layout does not own (with
    ``drop_members``, member overwrites are not kept either)."""
    merged: dict[Target, Overwrite] = {
        target: overwrite
        for target, overwrite in existing.items()
        if target.id not in owned_ids and not (drop_members and is_member_target(target))
    }
    merged.update(wanted)
    return merged


def _same_overwrites(a: Mapping[Target, Overwrite], b: Mapping[Target, Overwrite]) -> bool:
    def key(m: Mapping[Target, Overwrite]) -> dict[int, tuple[int, int]]:
        return {
            target.id: (overwrite.pair()[0].value, overwrite.pair()[1].value)
            for target, overwrite in m.items()
        }

    return key(a) == key(b)


def _find_category(
    guild: discord.Guild, previous: TableSettings | None, name: str, taken: set[int]
) -> discord.CategoryChannel | None:
    """The table's category: by its stored id, else by name: a named table's own name, the
    first table's default name ("Mafia"/"Мафия") otherwise; never a category of another table
    (``taken``)."""
    if previous is not None and previous.category_id is not None:
        found = guild.get_channel(previous.category_id)
        if isinstance(found, discord.CategoryChannel):
            return found
    names = {name.casefold()} if name else _known_names("channel.category")
    return next(
        (c for c in guild.categories if c.name.casefold() in names and c.id not in taken), None
    )


def _find_channel(
    guild: discord.Guild,
    category: discord.CategoryChannel,
    slot: Slot,
    previous: TableSettings | None,
) -> discord.TextChannel | None:
    previous_id = getattr(previous, f"{slot}_channel_id", None) if previous else None
    if previous_id is not None:
        found = guild.get_channel(previous_id)
        if isinstance(found, discord.TextChannel):
            return found
    names = _known_names(f"channel.{slot}")
    return next((c for c in category.text_channels if c.name.casefold() in names), None)


async def build_or_repair(
    guild: discord.Guild,
    *,
    lang: Lang,
    host_role: discord.Role | None,
    invoker: discord.Member,
    previous: TableSettings | None,
    name: str = "",
    taken: set[int] | None = None,
) -> LayoutReport:
    """Create what is missing and fix what drifted; returns what was done. ``name``: a named
    table's (its category is called so); ``taken``: the ids of the other tables' categories
    and channels, never adopted."""
    taken = taken or set()
    reason = t(lang, "audit.setup", user=str(invoker))
    owned_ids = {guild.default_role.id, guild.me.id}
    if host_role is not None:
        owned_ids.add(host_role.id)
    if previous is not None and previous.host_role_id is not None:
        owned_ids.add(previous.host_role_id)

    created: list[str] = []
    repaired: list[str] = []
    category = _find_category(guild, previous, name, taken)
    if category is None:
        title = name or t(lang, "channel.category")
        category = await _guard(title, guild.create_category(title, reason=reason))
        created.append(category.name)

    channels: dict[Slot, discord.TextChannel] = {}
    for slot in SLOTS:
        wanted = desired_overwrites(slot, guild, host_role, invoker)
        channel = _find_channel(guild, category, slot, previous)
        if channel is None:
            name = channel_name(lang, slot)
            channel = await _guard(
                name,
                guild.create_text_channel(
                    name,
                    category=category,
                    overwrites=wanted,
                    topic=t(lang, f"topic.{slot}"),
                    reason=reason,
                ),
            )
            created.append(channel.mention)
        else:
            # R14: a member overwrite in #mafia (older versions) names a mafia member.
            merged = merge_overwrites(
                channel.overwrites, wanted, owned_ids, drop_members=slot == "mafia"
            )
            moved = channel.category_id != category.id
            if moved or not _same_overwrites(channel.overwrites, merged):
                log.info("repairing #%s in guild %s", channel.name, guild.id)
                edited = await _guard(
                    channel.name,
                    channel.edit(category=category, overwrites=merged, reason=reason),
                )
                if isinstance(edited, discord.TextChannel):
                    channel = edited
                repaired.append(channel.mention)
        channels[slot] = channel
    return LayoutReport(category=category, channels=channels, created=created, repaired=repaired)


async def remove_table_channels(
    guild: discord.Guild, table: TableSettings, *, invoker: discord.Member
) -> None:
    """``/mafia droptable``: delete the table's four channels (the mafia's rooms, threads of
    #mafia, go with them), its games' ghosts' rooms (R62) and its category (a channel of
    anyone else's in it is kept: Discord leaves it without a category). Channels already gone
    are skipped."""
    reason = t(as_lang(table.language) or "en", "audit.droptable", user=str(invoker))
    for slot in SLOTS:
        channel_id = getattr(table, f"{slot}_channel_id")
        found = guild.get_channel(channel_id) if channel_id is not None else None
        if found is not None:
            await _delete(found, reason)
    category = guild.get_channel(table.category_id) if table.category_id is not None else None
    if isinstance(category, discord.CategoryChannel):
        for room in [c for c in category.text_channels if is_ghost_room_name(c.name)]:
            await _delete(room, reason)  # the ghosts' rooms of its games (R62) are the bot's
        await _delete(category, reason)


def is_ghost_room_name(name: str) -> bool:
    """A game's ghosts' room by its name (``channel.ghost_room`` in either language)."""
    for lang in LANGUAGES:
        pattern = re.escape(t(lang, "channel.ghost_room", game=0)).replace("0", r"\d+")
        if re.fullmatch(pattern, name):
            return True
    return False


async def _delete(channel: discord.abc.GuildChannel, reason: str) -> None:
    with contextlib.suppress(discord.NotFound):  # gone meanwhile
        await _guard(channel.name, channel.delete(reason=reason))


async def _guard(name: str, call: Awaitable[_T]) -> _T:
    """Await a channel call; a Forbidden becomes a reply naming the channel."""
    try:
        return await call
    except discord.Forbidden as error:
        log.warning("forbidden while setting up %s: %s", name, error)
        raise UserError("setup.forbidden", channel=name) from error


async def name_the_bot(guild: discord.Guild, name: str) -> bool:
    """Show the bot on the server as the host in the game's language (its server nickname),
    where it may change it; without Change Nickname it keeps its application's name."""
    me = guild.me
    if me.nick == name:
        return True
    if not me.guild_permissions.change_nickname:
        return False
    try:
        await me.edit(nick=name)
    except discord.HTTPException:
        log.warning("guild %s: could not set the bot's nickname", guild.id, exc_info=True)
        return False
    return True


def ghost_room_overwrites(
    guild: discord.Guild, host: discord.Role | discord.Member | discord.Object | None
) -> dict[Target, Overwrite]:
    """The overwrites the layout owns in a ghosts' room: @everyone hidden, the bot posting
    (its webhook too), the hosts (the table's host role, else the game's host) reading and
    writing. The readers' member overwrites are the room's own (``bot/ghost_room.py``)."""
    wanted: dict[Target, Overwrite] = {
        guild.default_role: GHOST_EVERYONE,
        guild.me: BOT_GAME,
    }
    if host is not None:
        wanted[host] = MEMBER_ACCESS
    return wanted


def overwrites_differ(
    existing: Mapping[Target, Overwrite], wanted: Mapping[Target, Overwrite]
) -> bool:
    """Whether any of ``wanted`` is missing or different in ``existing``."""
    have = {target.id: overwrite.pair() for target, overwrite in existing.items()}
    return any(have.get(target.id) != overwrite.pair() for target, overwrite in wanted.items())
