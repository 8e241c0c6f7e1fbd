"""Delivering the game's outbox: every announcement the service queued, rendered in its table's
language and sent where its audience is, in the channels of the game's table, and the players'
posts under their nicknames.

An outbox row's payload is ``{"kind", "audience", "payload"}`` (``rules/announce.py``). A row is
marked sent only after Discord accepted it (delivery is at least once), with the id of the last
message it posted. A private message that Discord refuses (closed DMs) is reported plainly in
#host, without its text, and still marked sent: the player reads his card and his news with
``/role`` and ``/status``. Nothing public ever names a Discord user: nicknames only.

The parts, and the kinds:

- :mod:`bot.delivery.worker` (:class:`Delivery`): claims the rows under leases, hands each
  table's rows to one worker that keeps each destination's order, tries again with a backoff,
  tells the hosts when a destination is stuck or broken;
- :mod:`bot.delivery.router`: audience -> channel (#game, the mafia's room, #host, a player's
  DMs, their ids kept in the store), and the hosts' notices (#host, else in private);
- :mod:`bot.delivery.sender`: nonces, the duplicate check after a failed attempt, the bot's
  messages and the webhook's, rows committed together sharing messages;
- :mod:`bot.delivery.leases`: the rows this process claims, under leases renewed as it sends;
- :mod:`bot.delivery.port`: a row as its kind's hooks see it, and their narrow port;
- :mod:`bot.delivery.outcomes`: what became of a row, and of a player's post for its author;
- ``bot/kinds.py``: a kind's record (its audience, its text, a view, files, hooks before and
  after the send, a delivery of its own), every kind declared once in ``bot/outbox_kinds.py``;
  the hooks are written in the kind's own module (the pistol's menu in ``bot/pistol.py``, the
  mafia room's members in ``bot/mafia_room.py``, a player's post in
  :mod:`bot.delivery.player_posts`); the texts in ``bot/render/``, by audience.
"""

from __future__ import annotations

from bot.delivery.outcomes import POST_NO_WEBHOOK, POST_SHOWN
from bot.delivery.router import send_chunks, slot_channel
from bot.delivery.sender import NO_MENTIONS, global_rate_trace, nonce_of, signature
from bot.delivery.worker import RETRY_FIRST_SECONDS, STUCK_NOTICE_SECONDS, WORKERS, Delivery

__all__ = [
    "NO_MENTIONS",
    "POST_NO_WEBHOOK",
    "POST_SHOWN",
    "RETRY_FIRST_SECONDS",
    "STUCK_NOTICE_SECONDS",
    "WORKERS",
    "Delivery",
    "global_rate_trace",
    "nonce_of",
    "send_chunks",
    "signature",
    "slot_channel",
]
