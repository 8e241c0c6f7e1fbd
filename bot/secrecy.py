"""Members whom Discord itself lets read the game's secret rooms may not play (R14, R55).

The bot never tells a player more than his role lets him know, but Discord shows the mafia's
room and the hosts' channel to some members whatever the bot does:

- Administrator sees every channel and every private thread;
- a host (Manage Server or the host role) runs ``/mafia state``, which lists every role;
- Manage Threads in #mafia reads every private thread in it, the mafia's room included
  (Manage Channels there is refused too: it edits the room's parent at will);
- anyone who can view #host reads what the hosts are told.

Each table has its own #mafia, #host and host role: the check is against the table the member
wants to play at (a host of table A may play at table B).

Such a member is refused at ``/join`` (and the Join button), again at ``/mafia start``
(permissions may change in between), and as a substitute (``/mafia replace``), privately and
with the reason. A host who wants to play
gives up his host rights for that game first: the check looks only at permissions and roles.

:func:`exposures` is the pure rule over ``discord.Permissions``; :func:`member_exposures`
reads a member's effective permissions (``channel.permissions_for``) on the guild's channels.
A private thread's readers are its members and whoever has Manage Threads on its parent, so
the check on #mafia covers the mafia's room before it exists.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Final, Literal

import attrs
import discord

from bot.context import GameContext
from bot.delivery import send_chunks, slot_channel
from bot.errors import UserError
from bot.hosts import is_host
from bot.tables import table_language
from core.i18n import Lang, t
from db.models import TableSettings

log = logging.getLogger(__name__)

Reason = Literal["administrator", "host", "manage_threads", "manage_channels", "view_host"]

#: The flags of #mafia that read (or rule) the private threads in it.
ROOM_READERS: Final[tuple[Reason, ...]] = ("manage_threads", "manage_channels")


@attrs.frozen
class Exposure:
    """One reason a member could read a secret room: ``where`` is the slot it concerns
    (``server``, ``mafia`` or ``host``)."""

    where: Literal["server", "mafia", "host"]
    reason: Reason


def exposures(
    *,
    server: discord.Permissions,
    is_host: bool,
    mafia: discord.Permissions | None,
    host: discord.Permissions | None,
) -> tuple[Exposure, ...]:
    """Why a member with these permissions could read the mafia's room or #host (empty: he
    may play). ``server`` are his guild permissions, ``mafia`` and ``host`` his effective
    permissions in those channels (None: the channel does not exist)."""
    if server.administrator:
        return (Exposure("server", "administrator"),)  # every channel and thread
    found: list[Exposure] = []
    if is_host:
        found.append(Exposure("server", "host"))  # /mafia state names every role
    if mafia is not None:
        found += [Exposure("mafia", flag) for flag in ROOM_READERS if getattr(mafia, flag)]
    if host is not None and host.view_channel:
        found.append(Exposure("host", "view_host"))
    return tuple(found)


def member_exposures(
    guild: discord.Guild, settings: TableSettings | None, member: discord.Member
) -> tuple[Exposure, ...]:
    """The thin adapter: the member's effective permissions on the guild's channels."""
    mafia = slot_channel(guild, settings, "mafia")
    host = slot_channel(guild, settings, "host")
    host_role_id = settings.host_role_id if settings is not None else None
    return exposures(
        server=member.guild_permissions,
        is_host=is_host(member, host_role_id),
        mafia=mafia.permissions_for(member) if mafia is not None else None,
        host=host.permissions_for(member) if host is not None else None,
    )


def reasons_text(
    lang: Lang, guild: discord.Guild, settings: TableSettings | None, found: Sequence[Exposure]
) -> str:
    """The reasons, in ``lang``, naming the channels as mentions."""
    names = {}
    for where in ("mafia", "host"):
        channel = slot_channel(guild, settings, where)
        names[where] = channel.mention if channel is not None else f"#{where}"
    return "; ".join(
        t(lang, f"secrecy.reason.{e.reason}", channel=names.get(e.where, "")) for e in found
    )


class CannotPlay(UserError):
    """A member who could read a secret room asks to play, or is named as a substitute
    (``member``: the host is told who): the reply says why, in the reader's language."""

    def __init__(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        found: Sequence[Exposure],
        member: discord.Member | None = None,
    ) -> None:
        super().__init__("secrecy.join_refused" if member is None else "secrecy.substitute_refused")
        self.guild = guild
        self.settings = settings
        self.found = tuple(found)
        self.member = member

    def render(self, lang: Lang) -> str:
        reasons = reasons_text(lang, self.guild, self.settings, self.found)
        if self.member is None:
            return t(lang, self.key, reasons=reasons)
        name = discord.utils.escape_markdown(self.member.display_name)
        return t(lang, self.key, member=name, reasons=reasons)


def ensure_may_play(
    guild: discord.Guild, settings: TableSettings | None, member: discord.Member
) -> None:
    """Refuse a member who could read a secret room (``/join`` and the Join button)."""
    found = member_exposures(guild, settings, member)
    if found:
        raise CannotPlay(guild, settings, found)


async def ensure_substitute_may_play(
    ctx: GameContext, guild: discord.Guild, member: discord.Member, *, table_id: int | None = None
) -> None:
    """``/mafia replace`` seats a member too: the same rule as at ``/join``, against the
    table ``table_id`` (default: the server's first table)."""
    settings = await ctx.reads.get_table(table_id if table_id is not None else guild.id)
    found = member_exposures(guild, settings, member)
    if found:
        raise CannotPlay(guild, settings, found, member)


def exposed_members(
    guild: discord.Guild, settings: TableSettings | None, user_ids: Sequence[int]
) -> list[tuple[discord.Member, tuple[Exposure, ...]]]:
    """The signed-up members who could read a secret room now (``/mafia start``)."""
    out = []
    for user_id in user_ids:
        member = guild.get_member(user_id)
        if member is None:
            continue  # left the server: the start seats him anyway, and he reads nothing
        found = member_exposures(guild, settings, member)
        if found:
            out.append((member, found))
    return out


def exposed_report(
    lang: Lang,
    guild: discord.Guild,
    settings: TableSettings | None,
    exposed: Sequence[tuple[discord.Member, Sequence[Exposure]]],
) -> str:
    """For the hosts only: who signed up but could read a secret room, and why. Members are
    named by their server names (the hosts see the members anyway); no game nickname exists
    yet."""
    lines = [
        t(
            lang,
            "secrecy.start_member",
            member=discord.utils.escape_markdown(m.display_name),
            account=discord.utils.escape_markdown(m.name),
            reasons=reasons_text(lang, guild, settings, found),
        )
        for m, found in exposed
    ]
    return t(lang, "secrecy.start_refused", members="\n".join(lines))


class StartBlocked(UserError):
    """``/mafia start`` with signed-up members who could read a secret room: the host's
    reply names them and why."""

    def __init__(
        self,
        guild: discord.Guild,
        settings: TableSettings | None,
        exposed: Sequence[tuple[discord.Member, Sequence[Exposure]]],
    ) -> None:
        super().__init__("secrecy.start_refused")
        self.guild = guild
        self.settings = settings
        self.exposed = tuple(exposed)

    def render(self, lang: Lang) -> str:
        return exposed_report(lang, self.guild, self.settings, self.exposed)


async def ensure_may_join(
    ctx: GameContext, guild: discord.Guild, member: discord.Member, *, table_id: int | None = None
) -> None:
    """``/join`` and the Join button: while sign-up is open at the table ``table_id``
    (default: the server's first table), refuse a member who could read one of its secret
    rooms (with no sign-up open, the service's own refusal says so)."""
    key = table_id if table_id is not None else guild.id
    if await ctx.service.signup_open(key) is None:
        return
    ensure_may_play(guild, await ctx.reads.get_table(key), member)


async def ensure_secret_start(
    ctx: GameContext, guild: discord.Guild, settings: TableSettings | None
) -> None:
    """``/mafia start`` at the table ``settings``: refuse while a signed-up member could read
    one of its secret rooms, telling the hosts who and why (the reply, and its #host)."""
    signup = await ctx.service.signup_open(settings.table_id if settings is not None else guild.id)
    if signup is None:
        return  # the service refuses
    exposed = exposed_members(guild, settings, signup[1])
    if not exposed:
        return
    host = slot_channel(guild, settings, "host")
    if host is not None:
        lang = table_language(settings, guild)
        try:
            await send_chunks(host, exposed_report(lang, guild, settings, exposed))
        except discord.HTTPException:
            log.warning("guild %s: could not post to #host", guild.id, exc_info=True)
    raise StartBlocked(guild, settings, exposed)


# --- rights that change in the middle of a game (bot/serverlife.py) ---------------------------
#
# A seated player was checked when he was seated; the server changes afterwards (a role given
# or edited, an overwrite, the host role, the ownership, a moderator adding him to the room).
# The bot watches those changes (``cogs/serverlife.py``) and tells the hosts in #host what a
# living player can now read that his seat does not let him, and through what. A living
# member of the mafia reads the room anyway: the room's exposures are not his.

#: The exposures that concern the mafia's room only (allowed to its living members).
ROOM_EXPOSURES: Final[frozenset[str]] = frozenset(ROOM_READERS)

#: One exposure as stored in a notice: its reason and the channel it names (None: server).
ExposureKey = tuple[str, str]  # (where, reason)


def seat_exposures(
    guild: discord.Guild,
    settings: TableSettings | None,
    member: discord.Member,
    *,
    in_mafia: bool,
) -> tuple[Exposure, ...]:
    """What a seated living player could read beyond his seat: :func:`member_exposures`,
    less the mafia's room for a living member of the mafia (``in_mafia``)."""
    found = member_exposures(guild, settings, member)
    if in_mafia:
        found = tuple(e for e in found if not (e.where == "mafia" and e.reason in ROOM_EXPOSURES))
    return found


def exposure_key(exposure: Exposure) -> ExposureKey:
    return (exposure.where, exposure.reason)


def _role_item(kind: str, role: discord.Role, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "role": role.id, "name": role.name, **extra}


def exposure_sources(
    guild: discord.Guild,
    settings: TableSettings | None,
    member: discord.Member,
    exposure: Exposure,
) -> list[dict[str, Any]]:
    """Through what the member has ``exposure``, as notice items (plain data, rendered in
    #host by ``bot/render/server.py``): the server's ownership, a role that grants the
    permission server-wide, the table's host role, or a permission overwrite (his own, or a
    role's) in the channel concerned. Empty only if none of these explains it."""
    if guild.owner_id == member.id and exposure.reason in ("administrator", "host"):
        return [{"kind": "owner"}]
    roles = member.roles  # @everyone first
    found: list[dict[str, Any]] = []
    if exposure.reason == "administrator":
        return [_role_item("role", r) for r in roles if r.permissions.administrator]
    if exposure.reason == "host":
        found = [_role_item("role", r) for r in roles if r.permissions.manage_guild]
        host_role_id = settings.host_role_id if settings is not None else None
        held = member.get_role(host_role_id) if host_role_id is not None else None
        if held is not None:
            found.append(_role_item("host_role", held))
        return found
    flag = "view_channel" if exposure.reason == "view_host" else exposure.reason
    channel = slot_channel(guild, settings, exposure.where)
    if exposure.reason != "view_host":
        found = [_role_item("role", r) for r in roles if getattr(r.permissions, flag)]
    if channel is not None:
        held_ids = {r.id for r in roles}
        for target, overwrite in channel.overwrites.items():
            if getattr(overwrite, flag) is not True:
                continue
            if isinstance(target, discord.Role) and target.id in held_ids:
                found.append(_role_item("role_overwrite", target, channel=channel.id))
            elif not isinstance(target, discord.Role) and target.id == member.id:
                found.append({"kind": "member_overwrite", "channel": channel.id})
    return found


def exposure_items(
    guild: discord.Guild,
    settings: TableSettings | None,
    member: discord.Member,
    found: Sequence[Exposure],
) -> list[dict[str, Any]]:
    """The exposures of a notice: each with the channel it names and its sources."""
    items = []
    for exposure in found:
        channel = slot_channel(guild, settings, exposure.where)
        items.append(
            {
                "where": exposure.where,
                "reason": exposure.reason,
                "channel": channel.id if channel is not None else None,
                "via": exposure_sources(guild, settings, member, exposure),
            }
        )
    return items


def may_sit_in_room(
    guild: discord.Guild,
    settings: TableSettings | None,
    user_id: int,
    mafia_ids: set[int],
) -> bool:
    """Who may be a member of the game's mafia room: the bot, the living members of the
    game's mafia (``mafia_ids``) and the table's hosts (who read everything anyway). Anyone
    else added to it (by a moderator) is removed at once."""
    if guild.me is not None and user_id == guild.me.id:
        return True
    if user_id in mafia_ids:
        return True
    member = guild.get_member(user_id)
    host_role_id = settings.host_role_id if settings is not None else None
    return member is not None and is_host(member, host_role_id)
