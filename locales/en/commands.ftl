### Slash-command names, descriptions and option choices (Discord shows them in the client's language).
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

cmd-mafia-name = mafia
cmd-mafia-description = Host the forum mafia game on this server
cmd-mafia-setup-name = setup
cmd-mafia-setup-description = Build or repair the game's category and channels, and check the bot's permissions
cmd-mafia-setup-opt-language-name = language
cmd-mafia-setup-opt-language-description = Language of the game on this server
cmd-mafia-setup-opt-host_role-name = host_role
cmd-mafia-setup-opt-host_role-description = Role whose members may host (Manage Server may always host)
cmd-mafia-setup-opt-table-name = table
cmd-mafia-setup-opt-table-description = A table's name: repairs that table, or builds a new one (its own category, channels and game)
cmd-mafia-tables-name = tables
cmd-mafia-tables-description = The server's tables and the game at each, privately
cmd-mafia-droptable-name = droptable
cmd-mafia-droptable-description = Remove a table and its channels (after a confirmation)
cmd-mafia-droptable-opt-table-name = table
cmd-mafia-droptable-opt-table-description = The name of the table to remove
cmd-mafia-purge-name = purge
cmd-mafia-purge-description = Delete a member's personal data kept for this server (after a confirmation)
cmd-mafia-purge-opt-member-name = member
cmd-mafia-purge-opt-member-description = The member whose data is deleted (also one who left the server)
cmd-mafia-announce-name = announce
cmd-mafia-announce-description = Post the host's story in the game channel
cmd-mafia-announce-opt-text-name = text
cmd-mafia-announce-opt-text-description = What to post; long texts are split into several messages
choice-language-ru = Russian
choice-language-en = English
cmd-mafia-new-name = new
cmd-mafia-new-description = Open sign-up for a new game in the game channel
cmd-mafia-new-opt-schedule-name = schedule
cmd-mafia-new-opt-schedule-description = Forum (one turn a day) or fast (turns of a few minutes)
cmd-mafia-new-opt-timezone-name = timezone
cmd-mafia-new-opt-timezone-description = Time zone of the schedule, e.g. Europe/Moscow
cmd-mafia-new-opt-preset-name = preset
cmd-mafia-new-opt-preset-description = A preset: one of this server's by its name, or the standard role list for a number of players
cmd-mafia-new-opt-turn_minutes-name = turn_minutes
cmd-mafia-new-opt-turn_minutes-description = Length of a fast turn in minutes (default 10)
cmd-mafia-new-opt-activity_rules-name = activity_rules
cmd-mafia-new-opt-activity_rules-description = Remove players who do not post or vote (default on)
cmd-mafia-new-opt-reveal-name = reveal
cmd-mafia-new-opt-reveal-description = Name the members behind the nicknames when the game ends (default on)
cmd-mafia-new-opt-wishes-name = wishes
cmd-mafia-new-opt-wishes-description = Players may wish for a role (default off)
cmd-mafia-new-opt-review-name = review
cmd-mafia-new-opt-review-description = Minutes the host has to add his story to each turn's results before they go out (0: off, default)
cmd-mafia-new-opt-deadline-name = deadline
cmd-mafia-new-opt-deadline-description = Forum schedule: the turn's deadline, HH:MM (default 21:00)
cmd-mafia-new-opt-hunts_from-name = hunts_from
cmd-mafia-new-opt-hunts_from-description = Forum schedule: hunts open at HH:MM, before the deadline (default 12:00)
cmd-mafia-new-opt-turn_days-name = turn_days
cmd-mafia-new-opt-turn_days-description = Forum schedule: a turn lasts this many days (1-7, default 1)
cmd-mafia-new-opt-days_off-name = days_off
cmd-mafia-new-opt-days_off-description = Forum schedule: weekdays without a deadline, e.g. sat sun (default none)
cmd-mafia-new-opt-ghost_room-name = ghost_room
cmd-mafia-new-opt-ghost_room-description = The dead talk in their own room instead of the game channel (default: off)
cmd-mafia-new-opt-spectators-name = spectators
cmd-mafia-new-opt-spectators-description = Members who do not play may watch the ghosts' room with /spectate (default: off)
cmd-mafia-roles-name = roles
cmd-mafia-roles-description = Set the role list of the game in sign-up
cmd-mafia-roles-opt-roles-name = roles
cmd-mafia-roles-opt-roles-description = e.g. boss=1 mafioso=2 cop=1 doctor=1 villager=5
cmd-mafia-roles-opt-preset-name = preset
cmd-mafia-roles-opt-preset-description = A preset: one of this server's by its name, or the standard role list for a number of players
cmd-mafia-roles-opt-from_wishes-name = from_wishes
cmd-mafia-roles-opt-from_wishes-description = Take the roles the players wished for (Villagers for the rest)
cmd-mafia-preset-name = preset
cmd-mafia-preset-description = This server's own named role lists
cmd-mafia-preset-save-name = save
cmd-mafia-preset-save-description = Save a named role list for this server (or replace the one of that name)
cmd-mafia-preset-save-opt-name-name = name
cmd-mafia-preset-save-opt-name-description = The preset's name (not a number: numbers are the standard presets)
cmd-mafia-preset-save-opt-roles-name = roles
cmd-mafia-preset-save-opt-roles-description = e.g. boss=1 mafioso=2 commissar=1 doctor=1 villager=5
cmd-mafia-preset-list-name = list
cmd-mafia-preset-list-description = This server's presets
cmd-mafia-preset-delete-name = delete
cmd-mafia-preset-delete-description = Delete one of this server's presets
cmd-mafia-preset-delete-opt-name-name = name
cmd-mafia-preset-delete-opt-name-description = The preset to delete
cmd-mafia-start-name = start
cmd-mafia-start-description = Deal roles and nicknames, send role cards, open turn 1
cmd-mafia-resolve-name = resolve
cmd-mafia-resolve-description = Resolve the current turn now
cmd-mafia-extend-name = extend
cmd-mafia-extend-description = Move the deadline of the current turn
cmd-mafia-extend-opt-minutes-name = minutes
cmd-mafia-extend-opt-minutes-description = How many minutes to add
cmd-mafia-pause-name = pause
cmd-mafia-pause-description = Stop the game clock
cmd-mafia-resume-name = resume
cmd-mafia-resume-description = Restart the game clock
cmd-mafia-end-name = end
cmd-mafia-end-description = End the game now and reveal every role
cmd-mafia-exclude-name = exclude
cmd-mafia-exclude-description = Remove a player from the game
cmd-mafia-exclude-opt-player-name = player
cmd-mafia-exclude-opt-player-description = The player's nickname
cmd-mafia-exclude-opt-reason-name = reason
cmd-mafia-exclude-opt-reason-description = Why (kept in the host's records)
cmd-mafia-deprive-name = deprive
cmd-mafia-deprive-description = Take a player's lynch vote for this turn
cmd-mafia-deprive-opt-player-name = player
cmd-mafia-deprive-opt-player-description = The player's nickname
cmd-mafia-doublekill-name = doublekill
cmd-mafia-doublekill-description = Grant the mafia two kills this turn
cmd-join-name = join
cmd-join-description = Sign up for the game
cmd-leave-name = leave
cmd-leave-description = Withdraw from the sign-up
cmd-standby-name = standby
cmd-standby-description = Stand by as a substitute for the running game (or leave the list)
cmd-standby-opt-off-name = off
cmd-standby-opt-off-description = Leave the substitutes' list
cmd-replaceme-name = replaceme
cmd-replaceme-description = Ask the hosts, privately, to hand your nickname to a substitute
cmd-replaceme-opt-reason-name = reason
cmd-replaceme-opt-reason-description = Why (only the hosts read it)
cmd-wish-name = wish
cmd-wish-description = Wish for a role while sign-up is open (only you and the hosts see it)
cmd-wish-opt-role-name = role
cmd-wish-opt-role-description = The role you wish for, or “No wish”
cmd-spectate-name = spectate
cmd-spectate-description = Watch the ghosts' room of a game you do not play in (you read, you do not write)
cmd-spectate-opt-off-name = off
cmd-spectate-opt-off-description = Stop watching
cmd-role-name = role
cmd-role-description = Show my role card again
cmd-status-name = status
cmd-status-description = My role, my requests this turn and the deadline
cmd-say-name = say
cmd-say-description = Post in the game channel under my nickname
cmd-say-opt-text-name = text
cmd-say-opt-text-description = What to post
cmd-say-opt-image-name = image
cmd-say-opt-image-description = A picture to post (its camera, place and time are removed)
cmd-vote-name = vote
cmd-vote-description = Vote to lynch a player
cmd-vote-opt-target-name = target
cmd-vote-opt-target-description = A living player's nickname
cmd-hunt-name = hunt
cmd-hunt-description = Hunt a player
cmd-hunt-opt-target-name = target
cmd-hunt-opt-target-description = A living player's nickname
cmd-note-name = note
cmd-note-description = Leave a death note for a player
cmd-note-opt-to-name = to
cmd-note-opt-to-description = The nickname of whom it is for
cmd-note-opt-text-name = text
cmd-note-opt-text-description = The note
cmd-shoot-name = shoot
cmd-shoot-description = Dead Cop: fire your pistol
cmd-shoot-opt-target-name = target
cmd-shoot-opt-target-description = A living player's nickname
choice-schedule-forum = Forum
choice-schedule-fast = Fast
cmd-mafia-replace-name = replace
cmd-mafia-replace-description = A substitute takes over a player's nickname
cmd-mafia-replace-opt-player-name = player
cmd-mafia-replace-opt-player-description = The nickname to hand over
cmd-mafia-replace-opt-member-name = member
cmd-mafia-replace-opt-member-description = The member who takes it over
cmd-mafia-subs-name = subs
cmd-mafia-subs-description = The substitutes standing by and the players who asked to be replaced
cmd-mafia-bar-name = bar
cmd-mafia-bar-description = Bar a member from signing up at this server's tables
cmd-mafia-bar-opt-member-name = member
cmd-mafia-bar-opt-member-description = The member to bar
cmd-mafia-bar-opt-reason-name = reason
cmd-mafia-bar-opt-reason-description = Why (he is told when he tries to sign up)
cmd-mafia-bar-opt-days-name = days
cmd-mafia-bar-opt-days-description = For how many days (leave empty: until you lift it)
cmd-mafia-unbar-name = unbar
cmd-mafia-unbar-description = Lift a member's bar
cmd-mafia-unbar-opt-member-name = member
cmd-mafia-unbar-opt-member-description = The barred member
cmd-mafia-state-name = state
cmd-mafia-state-description = The full state of the game, privately
cmd-mafia-log-name = log
cmd-mafia-log-description = The audit log of host commands, paged, privately
cmd-post-name = post
cmd-post-description = Write a long post for the game channel
cmd-quote-name = Quote
cmd-profile-name = profile
cmd-profile-description = My anonymous avatar and signature
cmd-profile-opt-avatar-name = avatar
cmd-profile-opt-avatar-description = Avatar image URL (https://...)
cmd-profile-opt-image-name = image
cmd-profile-opt-image-description = Or upload the avatar image
cmd-profile-opt-signature-name = signature
cmd-profile-opt-signature-description = A line added under my posts
cmd-players-name = players
cmd-players-description = Who is alive and who died, by nickname
cmd-rules-name = rules
cmd-rules-description = The rules of the game, page by page
cmd-rules-opt-page-name = page
cmd-rules-opt-page-description = Which page (1 is the first)
cmd-help-name = help
cmd-help-description = The commands I may use now
# /votes and /iso (cogs/reading.py)
cmd-votes-name = votes
cmd-votes-description = The published lynch tallies of this game, turn by turn
cmd-votes-opt-turn-name = turn
cmd-votes-opt-turn-description = Which turn (the latest if left out)
cmd-iso-name = iso
cmd-iso-description = One nickname's posts in this game, in order
cmd-iso-opt-player-name = player
cmd-iso-opt-player-description = Whose posts (a living or dead nickname)
votes-title = Lynch, turn { $turn } (page { $page } of { $pages })
votes-none = This game has had no lynch yet: tallies are published from turn 2.
votes-no_turn = No lynch tally for turn { $turn }: there are tallies for turns { $turns }.
votes-prev = Previous
votes-next = Next
votes-not_yours = Only the member who opened this list can turn its pages; run /votes yourself.
iso-title = Posts by { $nick } (page { $page } of { $pages })
iso-none = { $nick } has not posted in this game yet.
iso-none_finished = { $nick } did not post in that game.
iso-post = Turn { $turn }, { $at }
iso-post_ghost = Turn { $turn }, { $at } (as a ghost)
iso-said = { $nick } wrote:
iso-prev = Previous
iso-next = Next
iso-not_yours = Only the member who opened this list can turn its pages; run /iso yourself.
reading-finished = Game #{ $game }, finished: what was published in it.
# /history and /stats (cogs/history.py, core/stats.py)
cmd-history-name = history
cmd-history-description = The server's finished games, or one game's summary
cmd-history-opt-game-name = game
cmd-history-opt-game-description = A game's number, as /history lists it
cmd-stats-name = stats
cmd-stats-description = Player statistics on this server, and the leaderboard
cmd-stats-opt-member-name = member
cmd-stats-opt-member-description = Whose statistics (your own and the leaderboard if left out)
history-title = Finished games, page { $page } of { $pages }
history-empty = No game has finished on this server yet.
history-line = **{ $table }** #{ $game }: { $started } – { $ended }, { $count ->
        [one] { $count } player
       *[other] { $count } players
    }, { $winner }
history-game = Game #{ $game } at { $table }
history-unknown = There is no finished game #{ $game } on this server.
history-prev = Previous
history-next = Next
history-not_yours = Only the member who opened this list can turn its pages; run /history yourself.
history-winner-town = Town won
history-winner-mafia = Mafia won
history-winner-draw = a draw
history-winner-none = ended by the host
stats-title = Statistics on this server
stats-member = Member: { $member }
stats-games =
    { $games ->
        [one] { $games } game
       *[other] { $games } games
    } played, { $wins ->
        [one] { $wins } win
       *[other] { $wins } wins
    } ({ $rate }%)
stats-survival = Alive at the end: { $survived } of { $games }. Lynched: { $lynched }.
stats-deaths = Died by: { $list }
stats-left = Left games: { $inactive } for silence, { $missed } for missed votes, { $replaced } by replacement.
stats-death_count =
    { $cause } ({ $count ->
        [one] once
       *[other] { $count } times
    })
stats-checks = Checks: { $checks } made, { $answered } answered, { $accurate } accurate ({ $accuracy })
stats-no_accuracy = no answer yet
stats-tally =
    { $games ->
        [one] { $games } game
       *[other] { $games } games
    }, { $wins ->
        [one] { $wins } win
       *[other] { $wins } wins
    }
stats-by_side = By side (at the end)
stats-by_role = By role (dealt)
stats-side-town = Town
stats-side-mafia = Mafia
stats-own = Your own games all count, those whose members the host kept secret too (only you see them).
stats-others = Games whose members the host kept secret are not counted here.
stats-leaderboard = Leaderboard (wins, then win rate, then games)
stats-leader-line = { $rank } — { $member }: { $tally } ({ $rate }%)
stats-leaderboard-empty = Nobody has finished a game whose members were named yet.
stats-tables = Tables
stats-table-line = **{ $table }**: { $count ->
        [one] { $count } game
       *[other] { $count } games
    } ({ $winners })
stats-winners-town = Town { $count }
stats-winners-mafia = Mafia { $count }
stats-winners-draw = draws { $count }
stats-winners-none = ended by the host { $count }
