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
verb-vote = vote
verb-hunt = hunt
verb-note = death note
verb-shoot = shot
verb-post = post
play-accepted-vote = Turn { $turn }: vote recorded, you are voting to lynch { $target }.
play-accepted-hunt = Turn { $turn }: hunt recorded: { $target }.
play-accepted-note = Your death note is saved: if the mafia kills you or you are lynched, { $to } gets it.
play-accepted-shoot = Turn { $turn }: shot recorded: { $target }. It will be announced once everyone who may shoot has shot or run out of time.
play-late = Turn { $sent } closed just before your request arrived, so it counts for turn { $turn }.
play-late_refused = Turn { $sent } closed just before your request arrived: it was not counted.
play-withdrawn = Withdrawn: { $verbs }.
play-change_until = You can change it until { $time }.
death-hunt = { $nick } ({ $role }) was hunted down and killed.
cause-hunt = killed in the hunt
death-hunt_backfire = { $nick } ({ $role }) went hunting and died.
cause-hunt_backfire = died hunting
death-lynch = { $nick } ({ $role }) was lynched.
cause-lynch = lynched
death-inactive = { $nick } ({ $role }) was modkilled for inactivity: no post this turn.
cause-inactive = modkilled for inactivity
death-missed_votes = { $nick } ({ $role }) was modkilled for missing two votes.
cause-missed_votes = modkilled for missing two votes
death-excluded = { $nick } ({ $role }) was removed from the game by the host.
cause-excluded = removed by the host
death-pistol = As he died, the Cop { $by } fired his pistol: { $nick } ({ $role }) is dead.
cause-pistol = shot
cause-None = alive
winner-town = Town wins!
winner-mafia = Mafia wins!
winner-draw = Nobody survived: a draw.
winner-none = The host ended the game.
reveal-alive = { $nick }: { $role }, alive
reveal-dead = { $nick }: { $role }, { $cause } on turn { $turn }
gameover-reason-mafia_dead =
    { $foes ->
        [mafia] Every mafioso is dead.
        [mafia_maniac] The mafia and the Poisoner are all dead.
        [mafia_crook] The mafia and the Crook are all dead.
        [mafia_maniac_crook] The mafia, the Poisoner and the Crook are all dead.
        [maniac] The Poisoner is dead.
        [crook] The Crook is dead.
       *[maniac_crook] Both the Poisoner and the Crook are dead.
    }
gameover-reason-parity =
    The mafia have reached parity with Town{ $loners ->
        [maniac] {" "}and the Poisoner is dead
        [crook] {" "}and the Crook is dead
        [maniac_crook] {" "}and both the Poisoner and the Crook are dead
       *[none] {""}
    }.
gameover-reason-all_dead = Nobody is left alive.
gameover-reason-host_ended = The host ended the game: nobody wins.
gameover-reason-unknown = The game is over.
gameover-length =
    The game lasted { $turns ->
        [one] { $turns } turn
       *[other] { $turns } turns
    }.
gameover-dates = Started { $started }, ended { $ended }.
gameover-mafia_room = The mafia's room is now open for every player to read, in { $room }.
gameover-roles = Roles and fates
gameover-changed = { $role } → { $final }
gameover-member = played by { $member }
gameover-hidden = The host chose to keep the members behind the nicknames secret.
gameover-reveal-yes = At the end of the game, the members behind the nicknames will be named.
gameover-reveal-no = The members behind the nicknames stay secret, even after the game.
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
card-team = Your mafia team: { $team }
card-commissar = Your Cop is { $commissar }.
card-dead = You are dead. You may still post, as a ghost.
# The parts of every role card after the role's own description (bot/render.py).
card-hunt =
    Hunt (from Day 2): /hunt a player. { $mafia ->
        [yes] If he is mafia, he dies; if not, you do.
       *[no] In this game there is nobody worth hunting: whoever you pick, you die yourself.
    } Only a turn's first hunt is carried out. A successful hunter stays unknown; a failed hunter's death is announced to everyone, but never whom he hunted.
card-hunt_or_ability = A hunt or your night action: one or the other each turn; sending one withdraws the other.
card-no_hunt = You cannot hunt.
card-times = Times (the game's time zone): requests are accepted until 21:00, hunts from 12:00, and the results are posted at 21:00. In a fast game a turn lasts a few minutes and hunts open halfway through it. /status shows the deadline.
card-times_forum = Times (forum schedule): a turn lasts { $days ->
        [1] a day
       *[other] { $days } days
    }; requests until { $deadline }, hunts from { $hunt }{ $days ->
        [1] {""}
       *[other] {" "}of the turn's last day
    }, results at { $clock }. /status shows the deadline.
card-times_fast =
    Times (fast schedule): a turn lasts { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }; hunts open halfway through, and the results come at the end of the turn. /status shows the deadline.
hours-forum = Hours: requests until { $deadline }, hunts from { $hunt }{ $days ->
        [1] {""}
       *[other] {" "}of the turn's last day
    }; a turn lasts { $days ->
        [1] a day
       *[other] { $days } days
    }.
hours-days_off = Days off: { $days }. A deadline falling on one moves to the next day, at the same hour.
weekday-mon = Mon
weekday-tue = Tue
weekday-wed = Wed
weekday-thu = Thu
weekday-fri = Fri
weekday-sat = Sat
weekday-sun = Sun
card-activity_off = The activity rules are off in this game: nobody is modkilled for silence or missed votes. Vote anyway.
card-kill = Each night the mafia kill one player (/kill): everyone who sends a kill request must name the same player, or nobody dies; a member who sends nothing is not counted. The family's room shows whom each member names right now. If the dead start hinting to the living who is who, the host may grant the mafia a double kill: then /kill takes a second target.
card-win-town =
    Town wins when { $foes ->
        [mafia] every mafioso is dead
        [mafia_maniac] the mafia and the Poisoner are all dead
        [mafia_crook] the mafia and the Crook are all dead
        [mafia_maniac_crook] the mafia, the Poisoner and the Crook are all dead
        [maniac] the Poisoner is dead
        [crook] the Crook is dead
       *[maniac_crook] both the Poisoner and the Crook are dead
    }.
card-win-mafia =
    The mafia win when the living mafia are at least as many as the living Town{ $loners ->
        [maniac] {" "}and the Poisoner is dead
        [crook] {" "}and the Crook is dead
        [maniac_crook] {" "}and both the Poisoner and the Crook are dead
       *[none] {""}
    }.
card-pistol-lynch = the lynch
card-pistol-hunt_backfire = a failed hunt
card-clan_member = { $nick } ({ $role })
card-rules = How to post, vote and by when, and what silence costs, is the same for everyone: see { $rules }.
announce-turn_open = Turn { $turn } begins. Deadline: { $deadline } ({ $relative }).
announce-results = Results of turn { $turn }
announce-nobody_died = Nobody died.
announce-pistol_window = { $nick } may fire a last shot until the turn ends.
announce-pistol_window_until = { $nick } may fire a last shot until { $time } ({ $relative }).
announce-note =
    A death note from { $author }:
    { $text }
announce-pistol = You were killed, but you have a pistol: you may shoot one living player with /shoot until the turn ends.
announce-pistol_until = You were killed, but you have a pistol: you may shoot one living player with /shoot until { $time } ({ $relative }).
announce-deprived = The host has taken away your vote for turn { $turn }: you cannot vote in this lynch, and a vote you already sent is withdrawn.
announce-converted = The Boss is dead: you have joined the mafia.
announce-promoted = The Cop is dead: you are the Cop now, and check a player each turn.
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
lynch-hanged = Lynched: { $nick }.
lynch-nobody = Nobody was lynched.
lynch-chosen_dead = The town voted to lynch { $nick }, but he died before he could be hanged (see below): nobody is lynched this turn.
dawn-deaths = Deaths
dawn-lynch = Lynch
dawn-votes = Votes
dawn-needed =
    Needed to lynch: { $needed } of { $electorate } { $electorate ->
        [one] vote
       *[other] votes
    } (a quarter of those who vote this turn).
dawn-threshold =
    Threshold: { $needed ->
        [one] { $needed } vote
       *[other] { $needed } votes
    } (¼ of { $electorate } { $electorate ->
        [one] voter
       *[other] voters
    }), { $cast } cast.
dawn-nonvoters = Did not vote
dawn-nonvoter = { $nick }
dawn-nonvoter_missed = { $nick } ({ $missed ->
        [1] 1st
        [2] 2nd
        [3] 3rd
       *[other] { $missed }th
    } missed vote)
dawn-nonvoter_out = { $nick } ({ $missed ->
        [1] 1st
        [2] 2nd
        [3] 3rd
       *[other] { $missed }th
    } missed vote: out)
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
dawn-not_electorate = Not counted (no vote this turn): { $voters }.
dawn-not_electorate_totals =
    { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } from players without a vote this turn not counted.
dawn-dead_voters = The votes of players who died this turn ({ $voters }) still count: they voted by day, before the night.
dawn-dead_voters_totals =
    { $count ->
        [one] { $count } vote
       *[other] { $count } votes
    } of players who died this turn still count: they voted by day, before the night.
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
check-mafia = Check: { $target } is mafia.
check-not_mafia = Check: { $target } is not mafia.
check-killed_by = { $target } was killed tonight by { $killers } ({ $method }).
check-none = Turn { $turn }: your check on { $target } got no answer last night.
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
signup-wishes_hint = Wish for a role in the menu below or with { $command }: only you and the hosts see your wish, and you can change or withdraw it until the game starts.
signup-wishes = Role wishes: { $tally }.
signup-wishes_none = No role wishes yet.
signup-wish_item = { $role } — { $count }
signup-no_wish_item = no wish — { $count }
signup-wish_placeholder = Wish for a role (only you see it)
signup-wish_none_option = No wish
signup-wishes_opened = Players may wish for a role. { $command } with { $option } adopts the wishes as the role list (Villagers for the rest).
wish-set = Your wish: { $role }. Only you and the hosts know it; you can change or withdraw it until the game starts. If it cannot be granted (the role is not in the setup, or more players wished for it than it has places), your role is dealt at random, and nobody learns whose wish was not granted.
wish-withdrawn = Wish withdrawn: your role will be dealt at random.
status-signed_up = You are signed up for game #{ $game }; sign-up is still open.
status-wish = Your wish: { $role }.
status-no_wish = You have not wished for a role.
signup-opened = Sign-up is open in { $channel }.
roles-set = Roles: { $roles }.
# A role in a role list: "Villager ×5", one of a kind by its name only.
roles-count = { $role } ×{ $count }
signup-cancelled = Sign-up was cancelled by the host.
dm-header = { $server } · game #{ $game }
dm-header_table = { $server } · { $table } · game #{ $game }
reply-header = { $table } · game #{ $game }
status-header = You are { $nick }, { $role }. Turn { $turn }.
status-roles = Roles in this game: { $roles }.
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
say-no_webhook = Your post was not published: I cannot post under nicknames in { $channel } (a permission of mine is missing there). The hosts have been told; post it again once they have fixed it.
say-waiting = Discord has not accepted your post yet. It is saved and will appear in { $channel } as soon as Discord takes it, once and in order: do not post it again.
say-shown_late = Your post is now shown in { $channel }.
say-ghost_name = { $nick } (ghost)
mafia-board-title = The mafia's choice, turn { $turn }
mafia-board-waiting = No request yet: { $players }
mafia-board-double = Two kills tonight: each of you names two, and the pairs must match.
mafia-board-agreed = Agreed: { $targets }
mafia-board-split = The requests differ: no kill
mafia-board-none = No requests: no kill
mafia-agreement_line = { $nick } → { $targets }
profile-done = Your profile is saved.
post-title = A post in the game channel
post-label = Your post
# The message command "Quote" (cogs/quote.py)
quote-head = Quoting **{ $nick }** — [to the post]({ $link })
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
        [one] { $count } player
       *[other] { $count } players
    }
help-header = Your commands now:
help-later = Later:
help-quote = `{ $name }` (right-click a post in #game, then Apps → { $name }): answer that post, quoting it.
help-from_turn_2 = from turn 2 (turn 1 has no lynch and no hunt)
help-from_time = opens at { $time } ({ $relative })
# The players' guide as /rules shows it during a game (core/cast_text.py): the order of a turn's results.
guide-order = { $steps }.
guide-step-delayed = last night's poison
guide-step-hunt = the hunt
guide-step-lynch = the lynch
guide-step-inactivity = modkills
rules-page = Page { $page } of { $pages }.
rules-next = Next: { $command }
announce-excluded = The host has removed { $nick } from the game.
reminder-vote = Turn { $turn }: you have not voted yet. Every living player must vote before the deadline (/vote).
reminder-post = Turn { $turn }: you have not posted in #game yet. A player who posts nothing during a turn is modkilled for inactivity (/say).
reminder-last_chance = You have already missed one vote: miss a second and you are modkilled.
announce-introduce = Day 1 has no lynch and no hunts. Introduce yourselves here (/say or /post)!
announce-clock_extended = The host has moved the deadline: { $deadline } ({ $relative }).
announce-clock_paused =
    The host has paused the clock. Time left: { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.
announce-clock_resumed = The clock is running again. Deadline: { $deadline } ({ $relative }).
announce-double_kill_this = The host allows the mafia to kill two players tonight.
announce-double_kill_next = The host allows the mafia to kill two players next night.
announce-hunts_open = Hunts are open: hunt requests (/hunt) are accepted until the deadline { $deadline } ({ $relative }).
announce-last_hour = One hour to the deadline: { $deadline } ({ $relative }). Requests are accepted until then, not after.
announce-replaced = { $nick } is now played by a substitute.
announce-mafia_seat = { $nick } is now played by another member, who joins you here; the one before has left the room.
subs-standing_by = You stand by as a substitute for game { $game }. If the hosts hand you a nickname, its role card comes to you in private. Leave the list with /standby off.
subs-stood_down = You are off the substitutes' list of game { $game }.
subs-asked = The hosts are told that you ({ $nick }) ask to be replaced. Play on until they hand your nickname over.
announce-downtime = Turn { $turn }: the host was unavailable for { $minutes } min, a tenth of the turn or more, so nobody is modkilled for inactivity and no missed vote is counted this turn.
announce-explain_votes = Explain your vote, and question the players you suspect.
pistol-placeholder = Whom do you shoot?
pistol-done = Turn { $turn }: shot recorded: { $nick }. It will be announced once everyone who may shoot has shot or run out of time.
announce-mafia_left = { $nick } is dead and leaves this room.
announce-ghost_joined = { $nick } has died and joins the ghosts' room.
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
archive-member_unknown = name unknown
archive-replacements = Substitutes
archive-replacement = { $nick } (turn { $turns })
archive-member_then = { $before }, then { $after } from turn { $turn }
archive-wish = Wished for
archive-no_wish = no wish
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
archive-story = The host's story
archive-unpublished = The host has not published the results of this turn yet.
archive-hidden = Hidden during the game
archive-requests = Requests and their fate
archive-refused = Refused requests
archive-refused_line = { $by }: { $verb } → { $targets }, refused: { $reason }
archive-checks = The Cop's checks
archive-check = { $commissar } → { $target }: { $answer }.
archive-answer-mafia = mafia
archive-answer-not_mafia = not mafia
archive-answer-none = no answer
archive-mafia = The mafia's room: kill requests
archive-kill_request = { $by } → { $targets }
archive-notes = Death notes
archive-note = { $author } → { $to }: { $text }
archive-members_hidden = The host chose to keep the members behind the nicknames secret.
archive-footer = The archive of a forum mafia game, written by the host when the game ended.

## The ghosts' room's spectators (R62)
ghosts-watching = You are watching the ghosts' room: { $room }. You read it and do not write in it; you can no longer stand by as a substitute for this game. /spectate off stops.
ghosts-room_soon = it opens with the first death
ghosts-stopped = You no longer watch the ghosts' room.
ghosts-the_room = the ghosts' room
