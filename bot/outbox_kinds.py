"""Every outbox kind, declared once: whom it is for, how it is rendered (in the reader's language,
``bot/render/``) and what it adds to its delivery (``bot/kinds.py`` :class:`OutboxKind`).

A kind the store can enqueue (``rules/announce.py``, ``core/``, ``bot/serverlife.py``) and that
is not here is refused loudly when delivered (a warning, and a line that says so);
``tests/bot/test_outbox_kinds.py`` checks that none is missing. Read by ``bot.kinds.load``
only: nothing registers a kind from elsewhere.
"""

from __future__ import annotations

from typing import Final

from bot.attachments import announcement_files
from bot.delivery.player_posts import deliver_post
from bot.endgame import game_over_embeds, game_over_text
from bot.ghost_room import INTRUDER_NOTICE, intruder_text, joined_text, let_in_dead, watch
from bot.kinds import PLAYER, OutboxKind
from bot.mafia_room import close_room, follow_seat, let_in, let_out, link_room
from bot.pistol import prompt_menu
from bot.render import hosts, players, public, server
from bot.render.common import keyed
from bot.review import draft_buttons, draft_posts, story_posts
from bot.serverlife import READER_NOTICE
from core.ghosts import JOINED_KIND, WATCH_KIND
from core.review import DRAFT_KIND, STORY_KIND
from core.service import POST_KIND
from rules.announce import GHOSTS, HOST, MAFIA, PUBLIC

#: #game: the game's announcements (R15, R18, R31-R36, R56, R59, R60) and the players' posts.
_PUBLIC: Final = (
    # The dawn report and the next turn's opening, committed together, share a message
    # where Discord's limits allow (bot/delivery/sender.py, coalesce).
    OutboxKind("results", PUBLIC, embeds=public.results_posts, joins=True),
    OutboxKind("turn_open", PUBLIC, embeds=public.turn_open_posts, joins=True),
    # R15: the winner and why, every role and fate; the text: the same facts as lines
    OutboxKind(
        "game_over",
        PUBLIC,
        text=game_over_text,
        embeds=game_over_embeds,
        files=announcement_files,
        prepare=link_room,
        after=(close_room,),
    ),
    OutboxKind("excluded", PUBLIC, text=public.excluded_text),  # R56, with the role (R35)
    OutboxKind("shot", PUBLIC, text=public.render_death),  # R18
    OutboxKind("no_shot", PUBLIC, text=keyed("announce.no_shot", "nick")),
    *(
        OutboxKind(kind, PUBLIC, text=public.deadline_notice(kind))
        for kind in public.DEADLINE_NOTICES  # R4, R56: a deadline named
    ),
    OutboxKind("clock_paused", PUBLIC, text=public.clock_paused_text),
    # the nickname only: never a member, never the role
    OutboxKind("replaced", PUBLIC, text=keyed("announce.replaced", "nick")),
    # R59, with the results of the turn it excused
    OutboxKind("downtime", PUBLIC, text=keyed("announce.downtime", "turn", "minutes")),
    OutboxKind(STORY_KIND, PUBLIC, embeds=story_posts),  # the host's story, above the results
    # A player's post through the webhook, under his nickname (R6; a ghost's in his room).
    OutboxKind(POST_KIND, PUBLIC, deliver=deliver_post),
)

#: The mafia's room (R22, R36, R60): its members let in before their welcome, out after.
_MAFIA: Final = (
    OutboxKind(
        "mafia_joined", MAFIA, text=keyed("announce.mafia_joined", "nick"), before=(let_in,)
    ),
    OutboxKind(
        "mafia_seat", MAFIA, text=keyed("announce.mafia_seat", "nick"), before=(follow_seat,)
    ),
    OutboxKind("mafia_left", MAFIA, text=keyed("announce.mafia_left", "nick"), after=(let_out,)),
    OutboxKind("double_kill", MAFIA, text=players.double_kill_text),  # R36
)

#: One player's DMs, the server and game named first.
_PLAYERS: Final = (
    OutboxKind("role_card", PLAYER, private=players.role_card_private),  # from the live state
    OutboxKind("check", PLAYER, text=players.check_text),
    # R21, R39: one text whatever the cause (a block, a dead candidate), never which.
    OutboxKind("check_none", PLAYER, text=keyed("check.none", "turn", "target")),
    OutboxKind("note", PLAYER, text=players.note_text),  # R37
    OutboxKind("pistol", PLAYER, text=players.pistol_text, view=prompt_menu),  # R18: a menu
    OutboxKind("deprived", PLAYER, text=players.deprived_text),  # R54
    OutboxKind("converted", PLAYER, text=keyed("announce.converted")),  # R22
    OutboxKind("promoted", PLAYER, text=keyed("announce.promoted")),  # R19
    OutboxKind("reminder", PLAYER, text=players.reminder_text),  # R31, R52, R53
)

#: #host: the hosts' console (R47, R56, R59, R60) and the held results' draft.
_HOSTS: Final = (
    OutboxKind("host_account", HOST, console=hosts.render_host_account),  # R47
    OutboxKind("audit", HOST, console=hosts.audit_text),
    OutboxKind("downtime_host", HOST, text=hosts.downtime_host_text),  # R59
    OutboxKind("replace_asked", HOST, text=hosts.replace_asked_text),  # R60
    OutboxKind(DRAFT_KIND, HOST, embeds=draft_posts, view=draft_buttons),
)

#: #host: what the bot saw happen on the server mid-game (``bot/serverlife.py``).
_SERVER: Final = (
    OutboxKind(READER_NOTICE, HOST, console=server.secret_reader_text, server=True),
    OutboxKind("room_intruder", HOST, console=server.room_intruder_text, server=True),
    OutboxKind("room_restored", HOST, console=server.room_restored_text, server=True),
    OutboxKind("room_reopened", HOST, console=server.room_reopened_text, server=True),
    OutboxKind("room_broken", HOST, console=server.room_broken_text, server=True),
    OutboxKind("player_returned", HOST, console=server.player_returned_text, server=True),
    OutboxKind("host_role_deleted", HOST, console=server.host_role_deleted_text, server=True),
    OutboxKind(INTRUDER_NOTICE, HOST, console=intruder_text, server=True),  # R62
)

#: The ghosts' room (R62): the dead let in as their death is published; a spectator's access.
_GHOSTS: Final = (
    OutboxKind(JOINED_KIND, GHOSTS, text=joined_text, before=(let_in_dead,)),
    OutboxKind(WATCH_KIND, GHOSTS, deliver=watch),  # nothing posted
)

OUTBOX_KINDS: Final[tuple[OutboxKind, ...]] = (
    *_PUBLIC,
    *_MAFIA,
    *_PLAYERS,
    *_HOSTS,
    *_SERVER,
    *_GHOSTS,
)
