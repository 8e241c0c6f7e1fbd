"""The language of a simulated member's Discord client, which SimCord cannot set.

Discord sends the locale of the member's client with every interaction, and the bot answers
privately in it (``bot/replies.py reader_language``). SimCord 3.2.1 writes ``"locale": "en-US"``
into every interaction it dispatches (``simcord.interactions.base_payload``); an actor has no
option for another locale. :func:`client_locales` wraps that function for a while, so chosen
users' interactions carry another locale. ``simcord.actors`` looks ``base_payload`` up on the
module at each call, so the wrapper takes effect for every actor.

The demo (``sandbox/demo/``) plays with clients in the game's language; the end-to-end
tests use it through ``tests/e2e/helpers.py client_locale``. Not public SimCord API: this is the
one place a SimCord upgrade can break it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import simcord.interactions

from core.i18n import Lang

#: A Discord client locale that reads each catalogue.
LOCALE_OF: dict[Lang, str] = {"ru": "ru", "en": "en-US"}

#: The key of :func:`client_locales`' mapping for every user not named in it.
EVERYONE: None = None


@contextmanager
def client_locales(locales: Mapping[int | None, str]) -> Iterator[None]:
    """Within the block, an interaction of user id ``u`` carries the client locale
    ``locales[u]`` (``locales[EVERYONE]`` for a user not in it; SimCord's ``en-US`` if neither).

    ``locales`` is read at each interaction, so a test may add users to a dict it passed in.
    Blocks nest: the inner one wins for the users it names.
    """
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        user_id = kwargs.get("user_id")
        locale = locales.get(user_id, locales.get(EVERYONE)) if user_id is not None else None
        if locale is not None:
            payload["locale"] = locale
        return record, payload

    simcord.interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord.interactions.base_payload = original
