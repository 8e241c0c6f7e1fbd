### Server set-up, permissions, delivery problems and the hosts' commands.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

setup-host_role_everyone = @everyone can't be the host role: everybody would be a host.
setup-host_role_needs_manage_guild = Only a member with the Manage Server permission can change the host role.
setup-bot_missing_permissions = I can't set up the game: my role lacks these server permissions: { $permissions }. Give them to my role in Server Settings → Roles (or give it Administrator) and run /mafia setup again.
setup-forbidden = Discord refused to let me change { $channel }. Give my role access to it, or delete it, and run /mafia setup again.
setup-done = The game is set up in { $category }: { $game } for the story and the anonymous posts, { $discussion } for open talk, { $mafia } for the mafia's room (a private thread opened for the mafia when the game starts), { $host } for the hosts. Language: { $language }. Host role: { $host_role }.
setup-created = Created: { $items }.
setup-repaired = Repaired: { $items }.
setup-unchanged = Everything was already in place.
setup-no_host_role = none set, so anyone with Manage Server can host
setup-table = Table “{ $table }”.
tables-title = { $count ->
    [one] This server has { $count } table:
   *[other] This server has { $count } tables:
}
tables-line = **{ $table }**: { $channel }; language: { $language }; host role: { $host_role }; { $game }
tables-game-none = no game
tables-game-signup = game #{ $game }, sign-up open ({ $count ->
    [one] { $count } player
   *[other] { $count } players
})
tables-game-running = game #{ $game }, turn { $turn }, { $phase }, { $alive } of { $count ->
    [one] { $count } player
   *[other] { $count } players
} alive
host-droptable_preview = Remove the table { $table } now? Its category and channels ({ $channels }) will be deleted with everything posted in them; its finished games stay in the bot's records.
host-table_dropped = The table { $table } is removed.
host-purge_preview = Delete the personal data of { $member } kept for this server? In every finished game of every table here his seat will no longer name him (the nickname, the role and what was played stay, anonymous), his sign-ups are deleted, and the hosts' log no longer names him. This cannot be undone.
host-purged = { $count ->
    [0] Nothing of { $member } was left in this server's finished games; the hosts' log no longer names him.
    [one] The personal data of { $member } is deleted: { $count } finished game no longer names him, nor does the hosts' log.
   *[other] The personal data of { $member } is deleted: { $count } finished games no longer name him, nor does the hosts' log.
}
host-purge_busy = { $member } takes part in the game at the table { $table } (in sign-up or running): purge his data once that game has ended.
audit-droptable = Forum mafia: /mafia droptable by { $user }
audit-setup = Forum mafia: /mafia setup by { $user }
channel-category = Mafia
channel-game = game
channel-discussion = discussion
channel-mafia = mafia
channel-host = host
channel-mafia_thread = mafia-game-{ $game }
channel-ghost_room = ghosts-game-{ $game }
topic-game = The game: the host's story and the players' anonymous posts. Play with slash commands: only the host posts here, and players' posts appear under their nicknames.
topic-discussion = Questions to the host and about how the game works. Your own name shows here, so talk about the game itself in #game.
topic-mafia = Each game's mafia room is a private thread here: only its members see it.
topic-ghost_room = The ghosts' room: the dead of this game talk here (with /say), the hosts and the spectators read.
topic-host = The hosts' channel.
host-display_name = Host
perm-view_channel = View Channels
perm-send_messages = Send Messages
perm-send_messages_in_threads = Send Messages in Threads
perm-create_public_threads = Create Public Threads
perm-create_private_threads = Create Private Threads
perm-embed_links = Embed Links
perm-attach_files = Attach Files
perm-add_reactions = Add Reactions
perm-read_message_history = Read Message History
perm-use_application_commands = Use Application Commands
perm-manage_channels = Manage Channels
perm-manage_roles = Manage Roles
perm-manage_webhooks = Manage Webhooks
perm-manage_threads = Manage Threads
delivery-dm_failed = I could not send a private message to player { $nick } ({ $user }): their DMs are closed. They can read it with /role and /status.
secrecy-join_refused = You cannot play in this game: you could read the mafia's room or the hosts' channel ({ $reasons }). Ask an admin to take that away, or play from another account. A host who wants to play gives up the host rights first.
secrecy-substitute_refused = { $member } cannot play: they could read the mafia's room or the hosts' channel ({ $reasons }). Choose another member, or take those permissions away first.
secrecy-reason-administrator = Administrator on this server
secrecy-reason-host = host rights: Manage Server or the host role
secrecy-reason-manage_threads = Manage Threads in { $channel }
secrecy-reason-manage_channels = Manage Channels in { $channel }
secrecy-reason-view_host = access to { $channel }
secrecy-start_refused =
    The game cannot start: these signed-up members can read the mafia's room or the hosts' channel.
    { $members }
    Take those permissions away, or ask them to /leave, then start again.
secrecy-start_member = - { $member } (@{ $account }): { $reasons }
server-player = player { $nick } ({ $user })
server-exposure = { $reason } (through { $via })
server-reader_gained = Player { $nick } ({ $user }) can now read more than their seat allows: { $reasons }. Take it away, or give the nickname to another member with /mafia replace.
server-reader_lost = Player { $nick } ({ $user }) can no longer read: { $reasons }.
server-via-owner = the server's ownership
server-via-role = the role { $role }
server-via-host_role = the table's host role { $role }
server-via-role_overwrite = a permission overwrite for { $role } in { $channel }
server-via-member_overwrite = a permission overwrite for them in { $channel }
server-via-unknown = the server's permissions
server-room_intruder_removed = Someone added { $member } to the mafia's room, though they are neither a living member of this game's mafia nor a host. I removed them at once; what they read there before is not undone.
server-room_intruder_kept = Someone added { $member } to the mafia's room, though they are neither a living member of this game's mafia nor a host, and I could not remove them (I need Manage Threads in #mafia). Remove them from the thread by hand.
server-ghost_intruder_removed = { $member } could read the ghosts' room, though they are neither dead in this game, a spectator nor a host. I removed that access at once; what they read there before is not undone.
server-ghost_intruder_kept = { $member } can read the ghosts' room, though they are neither dead in this game, a spectator nor a host, and I could not take that access away (I need Manage Roles there). Remove it by hand.
server-room_restored = A living member of the mafia, { $member }, was no longer in the mafia's room: I added them back.
server-room_reopened = The mafia's room was deleted: I opened it again with the living mafia ({ $members }). What was written in the old room is lost.
server-room_broken_no_parent = The mafia's channel is gone, and the mafia's room with it. Run /mafia setup to rebuild the channels; the room opens again with the living mafia at the next check.
server-room_broken_forbidden = The mafia's room is gone and I cannot open it again in { $channel }: my role lacks the thread permissions there. Run /mafia setup to repair the channels.
server-player_returned = Back on the server: { $member }.
server-player_returned_room_added = I added them back to the mafia's room.
server-player_returned_room_failed = I could not add them back to the mafia's room (I need Send Messages in Threads and Manage Threads in #mafia).
server-host_role_deleted = The host role of this table ({ $role }) was deleted. Until a new one is set with /mafia setup host_role:, only members with Manage Server can run the host commands.
start-done =
    The game has started with { $players ->
        [one] { $players } player
       *[other] { $players } players
    } ({ $roles }). Turn 1 ends { $deadline }.
host-extended = The deadline is now { $deadline }.
host-paused = The clock is stopped.
host-resumed = The clock runs again; the deadline is { $deadline }.
host-ended = The game is over; every role is revealed in the game channel.
host-excluded = { $nick } is excluded.
host-deprived = { $nick } has no vote this turn.
host-double_kill = The mafia has two kills this turn.
host-resolve_preview =
    Resolve turn { $turn } now? Requests in: { $requests }. { $alive ->
        [one] { $alive } living player
       *[other] { $alive } living players
    }; not voted yet: { $not_voted }; no post yet: { $not_posted }.
host-resolve_preview_turn_1 =
    Resolve turn { $turn } now? Requests in: { $requests }. { $alive ->
        [one] { $alive } living player
       *[other] { $alive } living players
    }; no post yet: { $not_posted }. Turn 1 has no lynch vote.
host-resolve_preview_pistol = Stop waiting for the last shots of turn { $turn } now? Still allowed to shoot: { $pistols }.
host-resolve_preview_removed = Would leave the game if resolved now (unless they die otherwise first): { $players }.
host-resolve_preview_nobody_removed = Nobody would leave the game for inactivity.
host-resolve_preview_not_voted = Not voted yet: { $players }.
host-removal_inactive = { $nick } (no post this turn)
host-removal_missed_votes = { $nick } (second missed vote)
host-and_more = and { $count } more
host-resolved_turn = Turn { $turn } is resolved.
confirm-button = Confirm
confirm-cancel_button = Cancel
confirm-working = Confirmed.
confirm-cancelled = Cancelled: nothing was changed.
host-signup_cancelled = The sign-up is cancelled.
host-end_preview = End game #{ $game } now (turn { $turn })? Every role will be revealed in the game channel.
host-cancel_signup_preview =
    Cancel the sign-up of game #{ $game } ({ $count ->
        [one] { $count } player
       *[other] { $count } players
    } signed up)?
host-exclude_preview = Exclude { $nick } now? The exclusion and the role are announced at once.
host-exclude_reason = Reason: { $reason }
host-player_left = Player { $nick } ({ $user }) has left the server. Give the nickname to a substitute with /mafia replace.
host-replaced = { $nick } has a new player; the role card is on its way.
host-replace_asked = { $nick } asks to be replaced. The substitutes standing by: /mafia subs; hand the nickname over with /mafia replace.
host-replace_asked_reason = { $nick } asks to be replaced: { $reason } The substitutes standing by: /mafia subs; hand the nickname over with /mafia replace.
host-barred = { $member } may not sign up at this server's tables until you lift the bar (/mafia unbar).
host-barred_until = { $member } may not sign up at this server's tables until { $until }.
host-unbarred = { $member } may sign up again.
subs-standing_title = **Substitutes standing by** (in order of standing by):
subs-standing_line = { $rank } — { $member }
subs-standing_none = nobody
subs-asked_title = **Players who asked to be replaced:**
subs-asked_line = { $nick }
subs-asked_reason = { $nick }: { $reason }
subs-asked_none = none
state-header = Turn { $turn }, phase: { $phase }.
phase-open = requests open
phase-pistol = waiting for a last shot
phase-over = game over
state-alive =
    { $nick }: { $role }, { $user }, { $posts ->
        [one] { $posts } post
       *[other] { $posts } posts
    }, requests: { $requests }
state-dead = { $nick }: { $role }, { $user }, dead ({ $cause })
state-wish = wished for: { $role }
state-no_wish = no wish
state-signup =
    Game #{ $game }: sign-up open, { $count ->
        [one] { $count } member
       *[other] { $count } members
    } signed up.
state-signup_line = { $user }: { $wish }
delivery-forbidden = I cannot post in { $channel }: my role lacks { $permissions } there. Nothing is lost: the announcement waits and goes out once the permission is back (/mafia setup repairs the channels).
delivery-missing_game = The game channel { $channel } is gone (deleted): the game's announcements and the players' posts wait, and nothing is lost. Run /mafia setup to rebuild it; everything then goes out there in order.
delivery-missing_mafia = The mafia channel { $channel } is gone (deleted): the news for the mafia's room waits, and nothing is lost. Run /mafia setup to rebuild it; the room is opened again and the news goes out in order.
delivery-ghosts_broken = I cannot open or post in the ghosts' room of this game (I need Manage Channels, Manage Roles and Manage Webhooks in the table's category). Nothing is lost: the ghosts' posts and their access wait, and go out once the permissions are back.
delivery-missing_host = The hosts' channel { $channel } is gone (deleted): the night's accounts and the host command lines wait, and nothing is lost. Run /mafia setup to rebuild it; they are then posted there in order.
delivery-told_in_private = You are told in private because I cannot post in this table's hosts' channel.
delivery-no_webhook = A player's post could not be published in { $channel }: I cannot post under nicknames there (my role lacks Manage Webhooks, and my webhook is gone). Give my role Manage Webhooks there (/mafia setup repairs the channel); the player was told to post again afterwards.
delivery-stuck =
    Discord keeps failing to take this game's announcements (for { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } now). Nothing is lost: I keep trying, and they go out in order as soon as Discord accepts them.
start-bot_missing_permissions = I cannot start the game: my role lacks these server permissions: { $permissions }. Give them to my role in Server Settings → Roles, then run /mafia start again.
start-mafia_room_missing_permissions = I cannot start the game: I lack these permissions in { $channel }, where the mafia's room (a private thread) is opened: { $permissions }. Give them to my role (or run /mafia setup to repair the channel), then run /mafia start again.
start-mafia_access_failed = Warning: I could not open the mafia's room in { $channel } (a permission is missing there). Run /mafia setup to repair the channels; I will open it again with the next news for the mafia.
### The hosts' console in #host: the night's account, the audit lines, /mafia log and /mafia state.
console-account-title = **Turn { $turn }: the full account (hosts only)**
console-requests = Requests:
console-no_requests = No requests.
console-request = - { $by }: { $verb } → { $targets }: { $fate }
console-request_attack = - { $by }: { $verb } → { $fate }
console-fate-dead = not carried out, the sender was dead
console-fate-blocked = blocked
console-fate-role = not carried out, the sender no longer had that role
console-fate-none = no answer
console-fate-dead_before = no answer: the Cop or his target was dead at nightfall
console-fate-mafia = answer: mafia
console-fate-not_mafia = answer: not mafia
console-fate-slandered = (framed)
console-fate-saved = saved from: { $causes }
console-fate-no_attack = nobody was attacked
console-fate-done = done
console-fate-counted = counted
console-fate-deprived = not counted: the voter was deprived of the vote
console-fate-candidate_dead = not counted: the candidate died first
console-fate-not_counted = not counted
console-fate-stolen = { $robbed }'s vote counted for { $candidate }
console-fate-nothing_to_steal = nothing stolen: { $robbed } cast no vote
console-fate-no_own_vote = { $robbed }'s vote lost: the crook cast no vote of his own
console-fate-vote_stolen = stolen by { $crook }: counted for { $candidate }
console-fate-vote_lost = stolen by { $crook } and lost (the crook cast no vote)
console-fate-no_lynch_today = no lynch on turn 1
console-hit-killed = { $target }: killed
console-hit-poisoned = { $target }: poisoned, dies at the next resolution
console-hit-dead = { $target }: already dead
console-hit-immune = { $target }: immune
console-hit-protected = { $target }: protected (healer: { $by })
console-hit-stand_in = { $target }: taken in his place by { $by }
console-hit-spared = { $target }: spared, now in the mafia
console-hit-disagreed = { $target }: no kill, the mafia's requests differ
console-hit-backfire = { $target }: not mafia, the hunter died
console-hit-not_carried = { $target }: not carried out, another hunt came first
console-deaths = Deaths:
console-no_deaths = Nobody died.
console-death = - { $nick } ({ $role }): { $cause }
console-death_by = - { $nick } ({ $role }): { $cause }; by: { $killers }
console-lynch = Lynch, { $electorate ->
        [one] { $electorate } voter
       *[other] { $electorate } voters
    }:
console-tally = - { $nick }: { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } ({ $voters })
console-no_votes = - no votes counted
console-hanged = Lynched: { $nick }
console-not_hanged = Nobody was lynched.
console-chosen_dead = The lynch chose { $nick }, already dead: nobody was lynched.
console-deprived = Deprived of the vote: { $players }
console-pistols = May shoot: { $players }
console-audit = { $user }: { $command }{ $details }
console-audit-minutes = , { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }
console-audit-player = , player { $player }
console-audit-reason = , reason: { $reason }
console-audit-turn = , turn { $turn }
console-audit-pistol = , waiting for a last shot
console-audit-member = , new member: { $member }
console-audit-signup = , sign-up cancelled
console-audit-text = : “{ $text }”
console-log-title = Audit log, page { $page } of { $pages }
console-log-empty = The audit log is empty.
console-downtime = Turn { $turn }: the bot could not serve this game for { $minutes } min ({ $percent }% of the turn: it was not running, or Discord did not answer it).
console-downtime_excused = That is a tenth of the turn or more: nobody was removed for inactivity and no missed vote was counted.
console-downtime_counted = That is less than a tenth of the turn: inactivity and missed votes counted as usual.
console-log-prev = Previous
console-log-next = Next
console-log-not_yours = Only the host who opened this log can turn its pages; run /mafia log yourself.
console-state-players = Players: { $count }
console-state-spectators = Watching the ghosts' room: { $count }

## The server's own presets (/mafia preset)
preset-saved = Preset “{ $name }” saved: { $roles }.
preset-replaced = Preset “{ $name }” replaced: { $roles }.
preset-deleted = Preset “{ $name }” deleted.
preset-list_title = This server's presets ({ $count } of { $maximum }):
preset-line = **{ $name }** ({ $players } players): { $roles }
preset-none = None yet: save one with /mafia preset save.
preset-builtin = Standard, { $players } players
## The ghosts' room (R62)
ghosts-opened = The dead will talk in their own room, not in the game channel.
ghosts-opened_spectators = The dead will talk in their own room, not in the game channel; members who do not play may watch it with /spectate.
