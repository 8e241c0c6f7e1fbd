"""The game's text as Discord shows it (pure: no I/O), by audience:

- :mod:`bot.render.common`: what every audience shares (role, verb and command names,
  timestamps, the private messages' header, lists of names);
- :mod:`bot.render.players`: what a player reads in private (his role card, a check, a note,
  the pistol's prompt, a reminder) and the replies he asks for (``/help``, ``/players``);
- :mod:`bot.render.public`: what #game reads (the dawn report, the turn's opening, the shots,
  the clock's notices) and ``/votes``, ``/iso``;
- :mod:`bot.render.hosts`: what the hosts read (the night's account, the audit, ``/mafia
  state``, the resolution's preview);
- :mod:`bot.render.server`: what the bot saw happen on the server mid-game, for #host;
- :mod:`bot.render.outbox`: an outbox row's messages, by its kind's record (``bot/kinds.py``).

Times are Discord timestamps, which every reader sees in his own time zone. The names below
are the ones the rest of the bot imports from ``bot.render``.
"""

from __future__ import annotations

from bot.render.common import (
    command_name,
    describe_request,
    reply_header,
    role_name,
    role_summary,
    schedule_hours,
    timestamp,
    verb_name,
    with_dm_header,
)
from bot.render.hosts import (
    audit_command_name,
    render_audit_line,
    render_host_account,
    render_log_page,
    render_signup_state,
    render_state,
    render_state_embeds,
    resolve_preview,
)
from bot.render.outbox import (
    render,
    render_console,
    render_posts,
    render_private,
    render_server_notice,
)
from bot.render.players import render_help, render_role_card, render_roster
from bot.render.public import (
    iso_quote,
    results_posts,
    turn_open_posts,
    votes_lines,
)

__all__ = [
    "audit_command_name",
    "command_name",
    "describe_request",
    "iso_quote",
    "render",
    "render_audit_line",
    "render_console",
    "render_help",
    "render_host_account",
    "render_log_page",
    "render_posts",
    "render_private",
    "render_role_card",
    "render_roster",
    "render_server_notice",
    "render_signup_state",
    "render_state",
    "render_state_embeds",
    "reply_header",
    "resolve_preview",
    "results_posts",
    "role_name",
    "role_summary",
    "schedule_hours",
    "timestamp",
    "turn_open_posts",
    "verb_name",
    "votes_lines",
    "with_dm_header",
]
