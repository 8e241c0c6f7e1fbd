"""An outbox row's messages, by its kind's record (``bot/kinds.py``, declared in
``bot/outbox_kinds.py``): its text, its embeds, its #host text; a kind nobody declared is
refused loudly (a warning, and a line that says so)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot import kinds
from bot.embeds import Post, post_text
from bot.render.common import with_dm_header
from bot.webhooks import split_message
from core.i18n import Lang, t

log = logging.getLogger(__name__)


def render_posts(lang: Lang, kind: str, payload: Mapping[str, Any]) -> list[Post]:
    """The messages of one announcement: its embeds for a kind that has them, else its text
    cut into messages."""
    found = kinds.lookup(kind)
    if found is not None and found.embeds is not None:
        return found.embeds(lang, payload)
    return [Post(content=piece) for piece in split_message(render(lang, kind, payload))]


def render_private(
    lang: Lang,
    server: str,
    game_id: int,
    kind: str,
    payload: Mapping[str, Any],
    *,
    table: str | None = None,
    text: str | None = None,
) -> list[Post]:
    """A private message's posts, the server (and ``table``) and game named first: a kind with
    embeds keeps them, the header above them; a text (``text``, else the kind's) is cut into
    pieces after the header is added, so no piece is too long."""
    found = kinds.lookup(kind)
    if text is None and found is not None and found.embeds is not None:
        posts = render_posts(lang, kind, payload)
        first = posts[0].content if posts else ""
        head = with_dm_header(lang, server, game_id, first, table=table)
        return [
            Post(content=head.rstrip(), embeds=posts[0].embeds if posts else ()),
            *posts[1:],
        ]
    body = render(lang, kind, payload) if text is None else text
    body = with_dm_header(lang, server, game_id, body, table=table)
    return [Post(content=piece) for piece in split_message(body)]


def render(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str:
    """The text of one announcement (role cards are rendered from the live state instead)."""
    found = kinds.lookup(kind)
    if found is not None and found.text is not None:
        return found.text(lang, payload)
    if found is not None and found.embeds is not None:  # the text of its embeds
        return "\n".join(post_text(post) for post in found.embeds(lang, payload))
    log.warning("no rendering for announcement kind %r", kind)
    return t(lang, "announce.unknown", kind=kind)


def render_console(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str:
    """A row for #host (audience ``host``): its own #host text (the night's account, an audit
    line, a notice of what changed on the server), else its announcement's text."""
    found = kinds.lookup(kind)
    if found is not None and found.console is not None:
        return found.console(lang, payload)
    return render(lang, kind, payload)


def render_server_notice(lang: Lang, kind: str, payload: Mapping[str, Any]) -> str | None:
    """A notice of what changed on the server (a kind marked ``server``); None for any other
    kind."""
    found = kinds.lookup(kind)
    if found is None or not found.server or found.console is None:
        return None
    return found.console(lang, payload)
