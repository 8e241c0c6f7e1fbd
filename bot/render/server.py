"""What the bot saw happen on the server mid-game, for #host (``bot/serverlife.py``): a player
who can now read a secret room (and through what), the mafia's room repaired or an intruder
removed from it, a player back on the server, the host role deleted."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from core.i18n import Lang, t


def _role_text(item: Mapping[str, Any]) -> str:
    """A role by the name it had (a deleted role's mention shows nothing useful)."""
    name = str(item.get("name") or "")
    if not name:
        return f"<@&{item.get('role')}>"
    return "@" + discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def _channel_text(channel_id: object, where: str) -> str:
    return f"<#{channel_id}>" if channel_id else f"#{where}"


def _via_text(lang: Lang, item: Mapping[str, Any]) -> str:
    kind = str(item.get("kind"))
    channel = _channel_text(item.get("channel"), "")
    if kind == "owner":
        return t(lang, "server.via.owner")
    if kind in ("role", "host_role"):
        return t(lang, f"server.via.{kind}", role=_role_text(item))
    if kind == "role_overwrite":
        return t(lang, "server.via.role_overwrite", role=_role_text(item), channel=channel)
    return t(lang, "server.via.member_overwrite", channel=channel)


def _exposure_text(lang: Lang, item: Mapping[str, Any], *, via: bool) -> str:
    where = str(item.get("where", ""))
    text = t(
        lang,
        f"secrecy.reason.{item['reason']}",
        channel=_channel_text(item.get("channel"), where),
    )
    if not via:
        return text
    sources = [_via_text(lang, source) for source in item.get("via") or []]
    through = ", ".join(sources) if sources else t(lang, "server.via.unknown")
    return t(lang, "server.exposure", reason=text, via=through)


def _member_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    user = f"<@{payload['user']}>"
    nick = payload.get("nick")
    return t(lang, "server.player", nick=nick, user=user) if nick else user


def secret_reader_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    lines = []
    gained = payload.get("gained") or []
    lost = payload.get("lost") or []
    user = f"<@{payload['user']}>"
    if gained:
        reasons = "; ".join(_exposure_text(lang, item, via=True) for item in gained)
        lines.append(
            t(lang, "server.reader_gained", nick=payload["nick"], user=user, reasons=reasons)
        )
    if lost:
        reasons = "; ".join(_exposure_text(lang, item, via=False) for item in lost)
        lines.append(
            t(lang, "server.reader_lost", nick=payload["nick"], user=user, reasons=reasons)
        )
    return "\n".join(lines)


def room_intruder_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    done = "removed" if payload.get("removed") else "kept"
    return t(lang, f"server.room_intruder_{done}", member=_member_text(lang, payload))


def room_reopened_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    members = ", ".join(str(nick) for nick in payload.get("members") or []) or "-"
    return t(lang, "server.room_reopened", members=members)


def room_broken_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    channel = _channel_text(payload.get("channel"), "mafia")
    return t(lang, f"server.room_broken_{payload.get('why')}", channel=channel)


def player_returned_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    lines = [t(lang, "server.player_returned", member=_member_text(lang, payload))]
    room = payload.get("room")
    if room:
        lines.append(t(lang, f"server.player_returned_room_{room}"))
    return " ".join(lines)


def room_restored_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    return t(lang, "server.room_restored", member=_member_text(lang, payload))


def host_role_deleted_text(lang: Lang, payload: Mapping[str, Any]) -> str:
    return t(lang, "server.host_role_deleted", role=_role_text(payload))
