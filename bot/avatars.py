"""R10: which links a player may give as the avatar of his anonymous posts.

A webhook avatar is any image Discord can fetch, so a player could wear another member's face
(his Discord avatar or banner, linked from Discord's CDN) and frame him. Refused, each with its
reason (a catalogue key under ``error.``):

- ``bad_avatar``: not a link at all (no host, spaces, control or non-ASCII characters);
- ``avatar_not_https``: plain ``http://`` (or any other scheme): Discord's own links are
  https, and an http image can be swapped on the way;
- ``avatar_discord_profile``: a user's or member's avatar or banner on Discord's CDN
  (``cdn.discordapp.com`` and its media proxy ``media.discordapp.net``): ``/avatars/``,
  ``/banners/``, ``/embed/avatars/`` (the default avatars), ``/guilds/<id>/users/<id>/avatars/``
  and ``/guilds/<id>/users/<id>/banners/`` (per-server profiles). The path is compared after
  decoding percent-escapes, without repeated slashes or dot segments and in lower case, as
  the CDN resolves it.

An uploaded image (``/profile image:``) is an attachment (``/attachments/...``) and stays
allowed: the player sent that file himself.
"""

from __future__ import annotations

import posixpath
import re
from typing import Final
from urllib.parse import unquote, urlsplit

#: Discord's CDN and its media proxy, which serve the same paths.
DISCORD_CDN_HOSTS: Final[frozenset[str]] = frozenset({"cdn.discordapp.com", "media.discordapp.net"})
_PROFILE_PATH: Final[re.Pattern[str]] = re.compile(
    r"^/(?:avatars|banners|embed/avatars|guilds/[^/]+/users/[^/]+/(?:avatars|banners))(?:/|$)"
)


def avatar_refusal(url: str) -> str | None:
    """The catalogue key of the reason ``url`` may not be an avatar, or None if it may."""
    if not (url.isascii() and url.isprintable()) or " " in url:
        return "error.bad_avatar"
    try:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").rstrip(".")
    except ValueError:  # e.g. a malformed IPv6 host
        return "error.bad_avatar"
    if parts.scheme.lower() not in ("https", "http") or not host:
        return "error.bad_avatar"
    if parts.scheme.lower() != "https":
        return "error.avatar_not_https"
    if host in DISCORD_CDN_HOSTS:
        path = unquote(parts.path)
        path = posixpath.normpath(re.sub(r"/{2,}", "/", path.replace("\\", "/"))).lower()
        if _PROFILE_PATH.match(path):
            return "error.avatar_discord_profile"
    return None


def usable_avatar(url: str | None) -> str | None:
    """The stored avatar a post may wear: None for one these rules now refuse (saved before
    they existed), so a post never shows another member's face."""
    return url if url is not None and avatar_refusal(url) is None else None


__all__ = ["DISCORD_CDN_HOSTS", "avatar_refusal", "usable_avatar"]
