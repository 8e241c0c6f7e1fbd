### The game itself: role cards, requests, announcements, results, sign-up, status.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

announce-done = Posted in { $channel }.
review-opened = Each turn's results will first come to #host as a draft: { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    } to add your story and publish, then they go out as they are.
review-draft = **Draft: the results of turn { $turn }.** Add your story and publish; otherwise they go out as they are at { $until } ({ $relative }). The next turn opens when they are published.
review-in_mafia_room = *(in the mafia's room)*
review-button-story = Add story
review-button-publish = Publish
review-modal-title = Your story for turn { $turn }
review-modal-label = The story, posted above the results
review-story_saved = Story saved for turn { $turn }: it will be posted above the results. You can edit it until you publish.
review-published = The results of turn { $turn } are published.
review-status = The host is writing up the results: the next turn opens when they are published (at the latest { $until }).
role-villager = Villager
card-about-villager = You are a peaceful villager: find the mafia and lynch it.
role-mafioso = Mafioso
card-about-mafioso = You are in the mafia: agree on a kill every turn in the mafia channel.
role-boss = Boss
card-about-boss = You lead the mafia; the commissar's check shows you as mafia. If the game has a Foundling, the Foundling joins the mafia when you die.
role-troublemaker = Troublemaker
card-about-troublemaker = You are in the mafia and can make a player look like mafia to the commissar.
role-commissar = Commissar
card-about-commissar = You check one player a turn: mafia or not.
role-sergeant = Sergeant
card-about-sergeant = You learn the commissar's checks and take over the checks if the commissar dies.
role-doctor = Doctor
card-about-doctor = You heal one player a turn; once a game you may give a lethal injection.
role-prostitute = Prostitute
card-about-prostitute = You block one player's action a turn.
role-foundling = Foundling
card-about-foundling = You are a peaceful villager.
role-converted_foundling = Converted foundling
card-about-converted_foundling = You have joined the mafia.
role-promoted_sergeant = Commissar (promoted)
card-about-promoted_sergeant = You have taken over the commissar's checks.
role-maniac = Maniac
card-about-maniac = You play alone: poison one player a turn and outlive everybody.
verb-vote = vote
verb-hunt = hunt
verb-note = death note
verb-kill = kill
verb-check = check
verb-heal = heal
verb-inject = injection
verb-block = block
verb-slander = slander
verb-poison = poison
verb-shoot = shot
verb-post = post
play-accepted-vote = Your vote against { $target } is counted.
play-accepted-hunt = You are hunting { $target }.
play-accepted-note = Your death note to { $to } is kept.
play-accepted-kill = Kill request: { $target }.
play-accepted-check = You will check { $target }.
play-accepted-heal = You will heal { $target }.
play-accepted-inject = You will inject { $target }.
play-accepted-block = You will block { $target }.
play-accepted-slander = You will slander { $target }.
play-accepted-poison = You will poison { $target }.
play-accepted-shoot = You shoot { $target }.
play-withdrawn = Withdrawn: { $verbs }.
death-poison = { $nick } ({ $role }) died of poison.
cause-poison = poisoned
death-hunt = { $nick } ({ $role }) was killed in the hunt.
cause-hunt = killed in the hunt
death-hunt_backfire = { $nick } ({ $role }) died in their own hunt.
cause-hunt_backfire = died in their own hunt
death-mafia = { $nick } ({ $role }) was killed in the night.
cause-mafia = killed in the night
death-euthanasia = { $nick } ({ $role }) died in the night.
cause-euthanasia = died in the night
death-lynch = { $nick } ({ $role }) was lynched.
cause-lynch = lynched
death-inactive = { $nick } ({ $role }) left the game: no post this turn.
cause-inactive = inactive
death-missed_votes = { $nick } ({ $role }) left the game: missed two votes.
cause-missed_votes = missed two votes
death-excluded = { $nick } ({ $role }) was excluded by the host.
cause-excluded = excluded
death-pistol = { $nick } ({ $role }) was shot by { $by }.
cause-pistol = shot
cause-None = alive
method-mafia = the mafia's kill
method-euthanasia = the doctor's injection
winner-town = The town wins!
winner-mafia = The mafia wins!
winner-maniac = The maniac wins!
winner-draw = Nobody survived: a draw.
winner-none = The host ended the game.
reveal-alive = { $nick }: { $role }, alive
reveal-dead = { $nick }: { $role }, { $cause } on turn { $turn }
gameover-reason-mafia_dead = No mafia and no maniac are left alive.
gameover-reason-parity = The living mafia are as many as the living town, or more.
gameover-reason-maniac_last = The maniac is alive with at most one other player.
gameover-reason-all_dead = Nobody is left alive.
gameover-reason-host_ended = The host ended the game: nobody wins.
gameover-reason-unknown = The game is over.
gameover-length =
    The game lasted { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }.
gameover-dates = Started { $started }, ended { $ended }.
gameover-roles = Roles and fates
gameover-changed = { $role } → { $final }
gameover-member = played by { $member }
gameover-hidden = The host chose to keep the members behind the nicknames secret.
gameover-reveal-yes = At the end of the game, the members behind the nicknames will be named.
gameover-reveal-no = The members behind the nicknames stay secret, also after the game.
picture-game = Game #{ $game }, { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }
picture-turn = Turn
picture-votes = lynch votes received
picture-more = … and { $count ->
        [one] { $count } more player
       *[other] { $count } more players
    }
picture-mark-lynch = lynched
picture-mark-mafia = mafia's kill
picture-mark-poison = poison or injection
picture-mark-hunt = hunt
picture-mark-pistol = pistol shot
picture-mark-inactive = inactivity
picture-mark-excluded = excluded by the host
picture-mark-other = other
picture-failed = The end-of-game picture of game #{ $game } could not be drawn: the final announcement went out without it.
card-title = You are **{ $nick }**, { $role }.
card-verbs = Your commands: { $verbs }
card-team = The mafia: { $team }
card-commissar = The commissar is { $commissar }.
card-dead = You are dead: you may still post as a ghost.
announce-turn_open = Turn { $turn } begins. Deadline: { $deadline } ({ $relative }).
announce-results = Results of turn { $turn }
announce-nobody_died = Nobody died.
announce-pistol_window = { $nick } may shoot before the turn ends.
announce-note =
    A death note from { $author }:
    { $text }
announce-pistol = You were killed, but you may fire your pistol once: /shoot.
announce-converted = The boss is dead: you now belong to the mafia.
announce-promoted = The commissar is dead: you take over and check players now.
announce-mafia_joined = { $nick } has joined the mafia.
announce-no_shot = { $nick } did not shoot.
announce-unknown = (an announcement: { $kind })
lynch-votes =
    { $nick }: { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } ({ $voters })
lynch-totals =
    { $nick }: { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    }
lynch-no_votes = Nobody voted.
lynch-hanged = The town lynched { $nick }.
lynch-nobody = Nobody was lynched.
dawn-deaths = Deaths
dawn-lynch = Lynch
dawn-votes = Votes
dawn-needed =
    Needed to lynch: { $needed } of { $electorate } { $electorate ->
        [one] vote
       *[other] votes
    } (a quarter of those who vote this turn).
dawn-below = Nobody reached the number of votes needed: { $needed }.
dawn-none_counted = No vote was counted.
dawn-uncounted = Votes not counted
dawn-dropped =
    { $nick }: { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } not counted, this player died before the lynch ({ $voters }).
dawn-dropped_totals =
    { $nick }: { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } not counted, this player died before the lynch.
dawn-not_electorate = Not counted, without a vote this turn: { $voters }.
dawn-not_electorate_totals =
    { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } from players without a vote this turn not counted.
dawn-tie =
    Tie at { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    }: { $tied }. The second vote cast for one of them decides: it came from { $by } and named { $hanged }.
dawn-tie_totals =
    Tie at { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    }: { $tied }. The second vote cast for one of them decides: it named { $hanged }.
dawn-pistols = Pistols
dawn-living = Living players ({ $count })
dawn-roles = Roles in this game
check-mafia = Check: { $target } is in the mafia.
check-not_mafia = Check: { $target } is not in the mafia.
check-killed_by = { $target } was killed tonight by { $killers } ({ $method }).
signup-message =
    Sign-up for a new game is open ({ $schedule } schedule). Signed up: { $count ->
        [one] { $count } player
       *[other] { $count } players
    }.
signup-join_button = Join
signup-leave_button = Leave
signup-joined =
    You are signed up. Signed up: { $count ->
        [one] { $count } player
       *[other] { $count } players
    }.
signup-left =
    You are no longer signed up. Signed up: { $count ->
        [one] { $count } player
       *[other] { $count } players
    }.
signup-closed = Sign-up is closed: the game has started.
signup-opened = Sign-up is open in { $channel }.
roles-set = Roles: { $roles }.
signup-cancelled = Sign-up was cancelled by the host.
dm-header = { $server } · game #{ $game }
dm-header_table = { $server } · { $table } · game #{ $game }
reply-header = { $table } · game #{ $game }
status-header = You are { $nick }, { $role }. Turn { $turn }.
status-requests = Your requests this turn:
status-no_requests = No requests this turn.
status-request = { $verb }: { $targets }
status-request_note = death note to { $to }
status-posts =
    This turn you have { $count ->
        [one] { $count } post
       *[other] { $count } posts
    } in the game channel.
status-paused = The clock is stopped.
status-deadline = Deadline: { $deadline } ({ $relative }).
say-done = Posted in { $channel }.
say-ghost_name = { $nick } (ghost)
mafia-agreement = Kill requests this turn:
mafia-agreement_line = { $nick } → { $targets }
mafia-agreement_none = none yet
profile-done = Your profile is saved.
post-title = A post in the game channel
post-label = Your post
# The message command "Quote" (cogs/quote.py)
quote-head = Quoting **{ $nick }** · [to the post]({ $link })
quote-host = Host
quote-title = Reply to { $nick }
quote-label = Your reply
status-news = Your private news:
# /players, /rules, /help
players-living =
    Alive: { $count ->
        [one] { $count } player
       *[other] { $count } players
    }
players-dead =
    Dead: { $count ->
        [0] nobody yet
        [one] { $count } ghost
       *[other] { $count } ghosts
    }
help-header = Your commands now:
rules-page = Page { $page } of { $pages }.
rules-next = Next: { $command }
announce-excluded = The host has removed { $nick } from the game.
reminder-vote = Turn { $turn }: you have not voted yet. Every living player must vote before the deadline (/vote).
reminder-post = Turn { $turn }: you have not posted in the game channel yet. A player who posts nothing during a turn leaves the game (/say).
reminder-last_chance = You have already missed one vote: missing a second one removes you from the game.
announce-introduce = Turn 1 has no lynch and no hunts. Introduce yourselves here (/say or /post)!
announce-clock_extended = The host has moved the deadline: { $deadline } ({ $relative }).
announce-clock_paused =
    The host has paused the clock. Time left: { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.
announce-clock_resumed = The clock is running again. Deadline: { $deadline } ({ $relative }).
announce-double_kill_this = The host allows the mafia to kill two players this night.
announce-double_kill_next = The host allows the mafia to kill two players next night.
announce-hunts_open = Hunts are open: hunt requests (/hunt) are accepted until the deadline { $deadline } ({ $relative }).
announce-last_hour = One hour to the deadline: { $deadline } ({ $relative }). Requests are accepted until then, not after.
announce-replaced = { $nick } is now played by a substitute.
announce-explain_votes = Everyone: explain your vote, and ask the others about theirs.
pistol-placeholder = Whom do you shoot?
pistol-done = You shot { $nick }. The shot is announced when the pistol window closes.
announce-mafia_left = { $nick } is dead and leaves this room.
# The archive of a finished game (bot/archive.py): a web page and its Markdown twin.
archive-title = { $table }: game #{ $game }
archive-table = Table
archive-no_table = an unknown table
archive-game = Game
archive-started = Started
archive-ended = Ended
archive-schedule = Schedule
archive-roles = Roles
archive-players = Players
archive-nick = Nickname
archive-member = Member
archive-role = Role dealt
archive-final_role = Final role
archive-fate = Fate
archive-alive = alive
archive-died = { $cause } on turn { $turn }
archive-turn = Turn
archive-posts = Posts in #game
archive-no_posts = Nobody posted in #game this turn.
archive-ghost = ghost
archive-dawn = Dawn report
archive-hidden = Hidden during the game
archive-requests = Requests and their fate
archive-refused = Refused requests
archive-refused_line = { $by }: { $verb } → { $targets }, refused: { $reason }
archive-checks = The commissar's checks
archive-check = { $commissar }: { $text }
archive-mafia = The mafia's room: kill requests
archive-kill_request = { $by } → { $targets }
archive-notes = Death notes
archive-note = { $author } → { $to }: { $text }
archive-members_hidden = The host chose to keep the members behind the nicknames secret.
archive-footer = The archive of a forum mafia game, written by the bot when the game ended.
