### Refusals and errors: private replies to the member who asked.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

error-unexpected = Sorry, the bot hit a problem. Nothing was lost; please try again in a moment.
error-guild_only = This command works only on a server.
error-cooldown =
    Not so fast: try again in { $seconds ->
        [one] { $seconds } second
       *[other] { $seconds } seconds
    }.
error-bot_missing_permissions = I lack these permissions: { $permissions }.
error-not_allowed = You can't use this command here.
error-bad_option = I don't understand the value “{ $value }”.
error-outdated_command = This command has changed. Restart Discord (Ctrl+R) to load the new version.
error-not_host = Only hosts can do this: members with the Manage Server permission or the { $role } role.
error-not_host_no_role = Only hosts can do this: members with the Manage Server permission (no host role is set).
error-not_set_up = The game channels are not set up yet: a host must run /mafia setup first.
error-no_running_game = No game is running on this server.
error-not_a_player = You are not playing in the current game.
error-quote_not_in_game = Only a post in this game's channel can be quoted.
error-quote_not_a_post = Only a player's post in the game or the host's public announcement can be quoted, never a private reply.
error-quote_other_game = That post is from an earlier game at this table: only this game's posts can be quoted.
error-quote_gone = The post you were answering has been deleted: nothing was posted.
error-image_format = That file is not a picture that can be posted: send a JPEG, PNG, GIF or WebP image.
error-image_too_large = That picture is too large: at most 10 MB and 40 megapixels.
error-image_download = That picture could not be downloaded from Discord: try again.
error-say_empty = Nothing to post: write a text, attach a picture, or both.
error-unknown_nick = There is no player called “{ $nick }” in this game.
error-no_signup = Sign-up is not open.
error-already_joined = You have already signed up.
error-not_joined = You have not signed up.
error-signup_full = The sign-up is full: a game seats at most { $maximum } players, and that many have signed up.
error-no_wishes = This sign-up takes no role wishes: the host opened it without them.
error-unknown_wish = You cannot wish for “{ $role }”: pick a role from the list, or “No wish”.
error-game_exists = A game is already open on this server: end it first.
error-wait_for_pistol = Not yet: a dead Cop may still fire his last shot. Wait until he has shot or his time is up.
error-already_paused = The clock is already stopped.
error-not_paused = The clock is not stopped.
error-bad_schedule = Unknown schedule: choose forum or fast.
error-bad_timezone = Unknown time zone: use a name like Europe/Moscow or UTC.
error-bad_turn_length = A fast turn lasts 1 to 1440 minutes.
error-bad_time = That is not a time of day: write it as HH:MM (00:00 to 23:59), for example 18:30.
error-bad_turn_days = A forum turn lasts 1 to 7 days.
error-bad_days_off = Days off are weekdays separated by spaces: mon tue wed thu fri sat sun (or пн вт ср чт пт сб вс).
error-no_working_day = Every day of the week cannot be a day off: the turn would never end. Leave at least one day.
error-fast_hours = The deadline, the hunts' opening, the turn's days and the days off are the forum schedule's hours; a fast game counts minutes (turn_minutes). Choose the forum schedule, or leave them out.
error-bad_hunt_time = Hunts must open before the deadline.
error-setup-too_few_players = Too few players: { $players }; a game needs at least { $minimum }.
error-setup-unknown_role = There is no role called “{ $role }”. The roles: { $known }.
error-setup-sergeant_without_commissar = A Sergeant needs a Cop (commissar) in the game.
error-setup-foundling_without_boss = A foundling needs a boss.
error-setup-empty_nick = A nickname is empty.
error-setup-duplicate_role = There can be only one { $role } in a game (the list has { $count }).
error-setup-duplicate_nick = Two nicknames are the same ({ $nick }).
error-setup-mixed_script_nick = The nickname “{ $nick }” mixes Latin and Cyrillic letters; a nickname must use one alphabet.
error-setup-bad_count = Write the list as role=count, e.g. mafioso=2 cop=1 villager=5 ("{ $count }" is not a count for { $role }).
error-setup-too_many_roles =
    The role list has more than { $maximum ->
        [one] { $maximum } role
       *[other] { $maximum } roles
    }; a game seats at most { $maximum ->
        [one] { $maximum } player
       *[other] { $maximum } players
    }.
error-setup-too_many_players = Too many players: { $players }; a game seats at most { $maximum }.
error-setup-role_list_too_long =
    The role list is too long ({ $length ->
        [one] { $length } character
       *[other] { $length } characters
    }; at most { $maximum }). Write it as role=count, e.g. mafioso=2 cop=1 villager=5.
error-empty_text = Nothing to post: the text is empty or only invisible characters.
error-empty_note = A death note needs words: this one is empty or only invisible characters. Your note is still yours to write.
error-bad_extend =
    The deadline can be moved by 1 to { $maximum ->
        [one] { $maximum } minute
       *[other] { $maximum } minutes
    } at a time.
refusal-game_over = The game is over.
refusal-request_closed = Requests are closed right now: wait for the next turn.
error-review_pending = The host is writing up the results: the next turn opens when they are published.
error-review_published = These results are already published.
error-bad_review = The review time is 0 to { $maximum } minutes.
error-preset_name_empty = A preset needs a name.
error-preset_name_too_long = A preset's name is at most { $maximum } characters.
error-preset_name_number = A preset's name cannot be a number: numbers name the standard presets.
error-presets_full = This server keeps at most { $maximum } presets: delete one first (/mafia preset delete).
error-unknown_preset = There is no preset “{ $name }” on this server: /mafia preset list shows them, or give a number of players.
error-spectators_need_ghost_room = Spectators watch the ghosts' room: open the game with ghost_room as well.
error-no_ghost_room = This game has no ghosts' room.
error-no_spectators = This game's ghosts' room takes no spectators.
error-spectate_player = You play in this game: the ghosts' room opens to you when you die.
error-spectate_standby = You stand by as a substitute for this game, so you cannot watch its ghosts' room.
error-already_spectating = You are watching the ghosts' room already.
error-not_spectating = You are not watching the ghosts' room.
error-substitute_watched = That member watches or has watched this game's ghosts' room: he knows what the dead know, so he cannot take a seat in it.
error-end_in_review = The end of game #{ $game } is still waiting for your review in #host: publish it first (or it goes out as it is at <t:{ $until }:t>), then open the new sign-up. A table holds one game at a time.
error-review_no_clock = The results of turn { $turn } are waiting for your review in #host: the next turn has no clock until they are published (by you, or as they are at <t:{ $until }:t>). Extend, pause or resume it then.
error-window_no_clock = A killed commissar may still shoot, and the results of turn { $turn } wait for your review with his shot: moving the clock now would tell #game of his death before the results do. End his last hour with /mafia resolve, or let it run out at <t:{ $until }:t>; the draft follows.
refusal-dead_sender = You are dead: the dead cannot do that.
refusal-dead_target = That player is dead.
refusal-wrong_role = Your role cannot do that.
refusal-not_town = Only town players can do that.
refusal-no_lynch_on_turn_1 = There is no lynch on turn 1.
refusal-no_hunt_on_turn_1 = There is no hunt on turn 1.
refusal-hunt_not_open = The hunt is not open yet.
refusal-hunt_opens_at = The hunt is not open yet: it opens at <t:{ $opens }:t> (<t:{ $opens }:R>).
refusal-vote_deprived = The host took your vote for this turn.
refusal-self_target = You cannot choose yourself.
refusal-own_mafia_target = You cannot choose a member of the mafia.
refusal-note_already_sent = You have already written your death note.
refusal-no_pistol = You have no pistol.
refusal-already_dead = That player is already dead.
refusal-already_deprived = That player already has no vote this turn.
refusal-already_granted = The double kill is already granted this turn.
error-turn_already_resolved = Turn { $turn } is already resolved: nothing was changed.
error-game_changed = The game changed while I was handling your command, and nothing was recorded. Please send it again.
error-confirmation_expired = This confirmation has expired: run the command again.
error-already_playing = That member already plays in this game.
error-bot_cannot_play = A bot cannot play.
error-standby_playing = You play in this game: a player does not stand by. To leave it, ask the hosts with /replaceme.
error-standby_replaced = You were replaced in this game and cannot come back into it, not as a substitute either.
error-not_standing_by = You are not on this game's substitutes' list.
error-replaceme_dead = Your character is dead: there is nothing left to hand over.
error-no_substitutes = Nobody stands by as a substitute. Name a member with the member option, or wait for one to use /standby.
error-replace_seat_changed = { $nick } has just been handed over by another command; nothing was changed. See /mafia state and /mafia subs before replacing again.
error-replace_dead = { $nick } is dead: only a living player is replaced.
error-replace_replaced = That member was replaced in this game and cannot come back into it.
error-replace_left_list = The first substitute left the list just now; nothing was changed. Run the command again for the next one.
error-barred = The hosts have barred you from signing up at this server's tables. Their reason: { $reason }
error-barred_until = The hosts have barred you from signing up at this server's tables until { $until }. Their reason: { $reason }
error-not_barred = That member is not barred.
error-bad_bar_days = A bar lasts from 1 to { $maximum } days; leave the days empty for a bar until you lift it.
error-bad_avatar = The avatar must be an https:// link to an image.
error-avatar_not_https = The avatar must be an https:// link: a plain http:// link is not accepted (anyone on the way could swap the picture).
error-avatar_discord_profile = This link is a Discord member's own avatar or banner: your anonymous posts may not wear a real member's face. Upload a picture with the image option, or link one from elsewhere.
error-profile_empty = Give an avatar, a signature, or both.
error-setup-too_few_mafia =
    Too few mafia: { $mafia } for { $players ->
        [one] { $players } player
       *[other] { $players } players
    }; the game needs at least { $need } (a quarter of the players).
error-setup-too_many_mafia = Too many mafia: { $mafia } against { $town } town; the mafia would win before the game begins.
error-setup-too_many_loners = Without mafia the loners must be fewer than the town: { $loners } against { $town } town.
error-setup-count_mismatch =
    { $players ->
        [one] { $players } player
       *[other] { $players } players
    } signed up but the role list has { $roles ->
        [one] { $roles } role
       *[other] { $roles } roles
    }: change the list (/mafia roles) or wait for more players.
error-wrong_channel = Game commands work in the game's channels: use them in { $channel }.
error-which_table = This server has several tables: use the command in the channels of the table you mean ({ $tables }).
error-no_table = No table is called “{ $name }” on this server.
error-table_busy = The table { $table } has a game: end it with /mafia end in its channels before removing the table.
error-table_name_taken = Another table of this server is already called “{ $name }”.
