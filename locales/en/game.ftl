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
card-about-villager =
    You are a Villager (vanilla Town). You have no power: your weapons are your posts and your vote. Find the mafia in the discussion: question the players you suspect and explain your vote.
    Town wins when no mafia and no Poisoner are left alive.
role-mafioso = Mafioso
card-about-mafioso =
    You are a Mafioso. You know the whole mafia, and you share a private room with them. By day, pass yourself off as Town.
    Each night the mafia kill one player (/kill): everyone who sends a kill request must name the same player, or nobody dies; a member who sends nothing is not counted. The mafia's room shows whom each member names right now. The host may grant the mafia a double kill: then /kill takes a second target.
    Mafia wins when the living mafia are at least as many as the living Town, and the Poisoner is dead.
role-boss = Boss
card-about-boss =
    You are the Boss, the head of the mafia. You know the whole mafia, and you share a private room with them. By day, pass yourself off as Town.
    Each night the mafia kill one player (/kill): everyone who sends a kill request must name the same player, or nobody dies; a member who sends nothing is not counted. The host may grant a double kill: then /kill takes a second target.
    Unlike a Godfather, you check as mafia to the Cop. If the game has a Foundling, he joins the mafia when you die.
    Mafia wins when the living mafia are at least as many as the living Town, and the Poisoner is dead.
role-troublemaker = Framer
card-about-troublemaker =
    You are the Framer (the forum's Troublemaker), a member of the mafia. You know the whole mafia, and you share a private room with them. By day, pass yourself off as Town.
    Each night the mafia kill one player (/kill): everyone who sends a kill request must name the same player, or nobody dies.
    You may also frame one player each night (/slander): if the Cop checks him that same night, the answer is "mafia".
    Mafia wins when the living mafia are at least as many as the living Town, and the Poisoner is dead.
role-commissar = Cop
card-about-commissar =
    You are the Cop (the forum's Commissar), Town. Each night, check one living player (/check): you alone learn whether he is mafia or not. If he is killed that same night, you also learn who killed him and how. The answer comes even if you die that night.
    You carry a pistol. When you are killed (lynch, mafia, poison, injection, a failed hunt), you get one hour (one minute in a fast game) to shoot one living player (/shoot), who dies with you.
    If the game has a Sergeant, he knows you, gets a copy of every answer, and takes over when you die.
    Town wins when no mafia and no Poisoner are left alive.
role-sergeant = Sergeant
card-about-sergeant =
    You are the Sergeant, Town. From the start you know who the Cop is, and you privately get every answer he gets. You do not check anyone yourself.
    When the Cop dies, you take his place: you check a player each night (/check) and carry his pistol.
    Town wins when no mafia and no Poisoner are left alive.
role-doctor = Doctor
card-about-doctor =
    You are the Doctor, Town. Each night, heal one living player, yourself included (/heal): that night the mafia cannot kill him and the Poisoner cannot poison him. A heal never saves anyone from the lynch, a hunt, the pistol or an injection.
    You may not heal the same player two turns running, yourself included; a turn without a heal breaks the chain.
    Once per game you may give a lethal injection instead (/inject): the target dies whatever his role. It is used up only when it kills.
    Town wins when no mafia and no Poisoner are left alive.
role-prostitute = Roleblocker
card-about-prostitute =
    You are the Roleblocker (the forum's Prostitute), Town. Each night, choose one player (/block): his night action does nothing that night (a check, a heal, an injection, a kill, a frame, a poison), and he is not told why. Your block is resolved before every other night action.
    Town wins when no mafia and no Poisoner are left alive.
role-foundling = Foundling
card-about-foundling =
    You are a Villager (vanilla Town). You have no power: your weapons are your posts and your vote. Find the mafia in the discussion: question the players you suspect and explain your vote.
    Town wins when no mafia and no Poisoner are left alive.
role-converted_foundling = Foundling (turned mafia)
card-about-converted_foundling =
    The Boss is dead and you have joined the mafia: you are the Foundling, and now mafia in every respect. You know the whole mafia and post in its room; each night the mafia kill one player (/kill), and everyone who sends a kill request must name the same player. If you die, you are revealed as the Foundling.
    Mafia wins when the living mafia are at least as many as the living Town, and the Poisoner is dead.
role-promoted_sergeant = Cop (promoted Sergeant)
card-about-promoted_sergeant =
    The Cop is dead and you, the Sergeant, have taken his place. Each night, check one living player (/check): mafia or not; if he is killed that same night, you also learn who killed him and how.
    You now carry the pistol: when you are killed, you get one hour (one minute in a fast game) to shoot one living player (/shoot). If you die, you are revealed as the Sergeant.
    Town wins when no mafia and no Poisoner are left alive.
role-maniac = Poisoner
card-about-maniac =
    You are the Poisoner (the forum's maniac), a third-party killer who plays alone, like a Serial Killer. Each night you may poison one living player (/poison). Your victim notices nothing: he lives one more day, posts and votes, and dies at the start of the next resolution; his vote of that day counts. If the Doctor heals him the night you poison him, the poison fails.
    The Cop's check shows you as "not mafia".
    You win if you are alive and at most one other player is.
role-crook = Crook
card-about-crook =
    You are the Crook, a third-party player: you play for yourself alone, neither for Town nor for the mafia.
    From turn 2 on, each turn you may steal the lynch vote of one other living player. At the lynch his vote counts for the player you voted for yourself, and the published tally lists it under his nickname, as if he had voted that way. So vote yourself: without a vote of your own, the stolen vote is simply lost. A player who has not voted has nothing to steal.
    The theft is a night ability: if the Roleblocker blocks you that night, you steal nothing. The Cop's check shows you as not mafia.
    You cannot hunt; you vote like everyone else.
    You win alone when you are alive and at most one other player is. Left alone with the Poisoner, you lose to him.
verb-vote = vote
verb-hunt = hunt
verb-note = death note
verb-kill = kill
verb-check = check
verb-heal = heal
verb-inject = lethal injection
verb-block = block
verb-slander = frame
verb-poison = poison
verb-steal = theft
verb-shoot = shot
verb-post = post
play-accepted-vote = Turn { $turn }: your vote is recorded: you are voting to lynch { $target }. Votes are counted at the deadline.
play-accepted-hunt = Turn { $turn }: your hunt is recorded: { $target }.
play-accepted-note = Your death note to { $to } is saved.
play-accepted-kill = Turn { $turn }: your kill request is recorded: { $target }.
play-accepted-check = Turn { $turn }: your check is recorded: { $target }.
play-accepted-heal = Turn { $turn }: your heal is recorded: { $target }.
play-accepted-inject = Turn { $turn }: your lethal injection is recorded: { $target }.
play-accepted-block = Turn { $turn }: your block is recorded: { $target }.
play-accepted-slander = Turn { $turn }: your frame is recorded: { $target }.
play-accepted-poison = Turn { $turn }: your poison is recorded: { $target }.
play-accepted-shoot = Turn { $turn }: your shot is recorded: { $target }. The shot is announced when the pistol window closes.
play-accepted-steal = Turn { $turn }: your theft is recorded: you will steal the lynch vote of { $target }.
play-late = Turn { $sent } closed just before your request arrived, so it counts for turn { $turn }.
play-late_refused = Turn { $sent } closed just before your request arrived: it was not counted.
play-withdrawn = Withdrawn: { $verbs }.
death-poison = { $nick } ({ $role }) died of poison.
cause-poison = poisoned
death-hunt = { $nick } ({ $role }) was hunted down and killed.
cause-hunt = killed in the hunt
death-hunt_backfire = { $nick } ({ $role }) went hunting and died.
cause-hunt_backfire = died hunting
death-mafia = { $nick } ({ $role }) was killed in the night.
cause-mafia = killed in the night
death-euthanasia = { $nick } ({ $role }) died in the night.
cause-euthanasia = died in the night
death-lynch = { $nick } ({ $role }) was lynched.
cause-lynch = lynched
death-inactive = { $nick } ({ $role }) was modkilled for inactivity: no post this turn.
cause-inactive = modkilled for inactivity
death-missed_votes = { $nick } ({ $role }) was modkilled for missing two votes.
cause-missed_votes = modkilled for missing two votes
death-excluded = { $nick } ({ $role }) was removed from the game by the host.
cause-excluded = removed by the host
death-pistol = { $nick } ({ $role }) was shot by { $by }.
cause-pistol = shot
cause-None = alive
method-mafia = a mafia kill
method-euthanasia = the Doctor's lethal injection
winner-town = Town wins!
winner-mafia = Mafia wins!
winner-maniac = The Poisoner wins!
winner-crook = The Crook wins!
winner-draw = Nobody survived: a draw.
winner-none = The host ended the game.
reveal-alive = { $nick }: { $role }, alive
reveal-dead = { $nick }: { $role }, { $cause } on turn { $turn }
gameover-reason-mafia_dead = No mafia and no third party are left alive.
gameover-reason-parity = The mafia have reached parity with Town.
gameover-reason-maniac_last = The Poisoner is alive with at most one other player left.
gameover-reason-crook_last = The Crook is alive with at most one other player left.
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
card-day = By day: post in #game under your nickname (/say, /post). From Day 2, vote in the lynch (/vote): the player with the most votes is lynched, provided he has at least a quarter of the votes of those voting. Once per game you may write a death note to one player (/note): he gets it if the mafia kill you or you are lynched.
card-hunt = The hunt (from Day 2): /hunt a player. If he is mafia, he dies; if not (Town, or the Poisoner), you die instead. Only the first hunt of a turn is carried out, and nobody learns who hunted.
card-hunt_or_ability = A hunt or your night action: one or the other each turn; sending one withdraws the other.
card-no_hunt = You cannot hunt.
card-times = Times (the game's time zone): requests are accepted until 21:00, hunts from 12:00, and the results are posted at 21:00. In a fast game a turn lasts a few minutes and hunts open halfway through it. /status shows the deadline.
card-times_forum = Times (forum schedule, { $zone } time): a turn lasts a day; requests until { $deadline }, hunts from { $hunt }, results at { $deadline }. /status shows the deadline.
card-times_fast =
    Times (fast schedule): a turn lasts { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }; hunts open halfway through, and the results come at the end of the turn. /status shows the deadline.
card-activity = Activity rules (unless the host turned them off): a player who posts nothing in #game during a turn is modkilled; a player who misses the lynch vote twice in the game is modkilled. You may skip your night action.
card-activity_off = The activity rules are off in this game: nobody is modkilled for silence or missed votes. Vote anyway.
announce-turn_open = Turn { $turn } begins. Deadline: { $deadline } ({ $relative }).
announce-results = Results of turn { $turn }
announce-nobody_died = Nobody died.
announce-pistol_window = { $nick } may shoot before the turn ends.
announce-pistol_window_until = { $nick } may shoot until { $time } ({ $relative }).
announce-note =
    A death note from { $author }:
    { $text }
announce-pistol = You were killed, but you have a pistol: one shot with /shoot while the pistol window is open.
announce-pistol_until = You were killed, but you have a pistol: one shot with /shoot, until { $time } ({ $relative }).
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
lynch-chosen_dead = The lynch chose { $nick }, who was already dead: nobody is hanged this turn.
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
check-mafia = Check: { $target } is mafia.
check-not_mafia = Check: { $target } is not mafia.
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
mafia-board-title = Mafia kill, turn { $turn }
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
announce-double_kill_this = The host allows the mafia to kill two players this night.
announce-double_kill_next = The host allows the mafia to kill two players next night.
announce-hunts_open = Hunts are open: hunt requests (/hunt) are accepted until the deadline { $deadline } ({ $relative }).
announce-last_hour = One hour to the deadline: { $deadline } ({ $relative }). Requests are accepted until then, not after.
announce-replaced = { $nick } is now played by a substitute.
announce-mafia_seat = { $nick } is now played by another member, who joins you here; the one before has left the room.
subs-standing_by = You stand by as a substitute for game { $game }. If the hosts hand you a nickname, its role card comes to you in private. Leave the list with /standby off.
subs-stood_down = You are off the substitutes' list of game { $game }.
subs-asked = The hosts are told that you ({ $nick }) ask to be replaced. Play on until they hand your nickname over.
announce-downtime = Turn { $turn }: the bot was unavailable for { $minutes } min, a tenth of the turn or more, so nobody is modkilled for inactivity and no missed vote is counted this turn.
announce-explain_votes = Explain your vote, and question the players you suspect.
pistol-placeholder = Whom do you shoot?
pistol-done = Turn { $turn }: you shot { $nick }. The shot is announced when the pistol window closes.
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
archive-mafia = The mafia's room: kill requests
archive-kill_request = { $by } → { $targets }
archive-notes = Death notes
archive-note = { $author } → { $to }: { $text }
archive-members_hidden = The host chose to keep the members behind the nicknames secret.
archive-footer = The archive of a forum mafia game, written by the bot when the game ended.
