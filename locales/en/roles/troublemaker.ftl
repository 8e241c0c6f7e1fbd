### The Troublemaker (the role coded `troublemaker`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-troublemaker = Framer
card-about-troublemaker = You are the Framer (the forum's Troublemaker), a member of the mafia. You know the whole family, and the family has a private room of its own. By day, pass yourself off as Town.
card-about-troublemaker-with-commissar = Each night you may also frame one player (/slander): if the Cop checks him that same night, the answer is "mafia".
card-about-troublemaker-without-commissar = You may frame a player (/slander), but in this game it does nothing: nobody checks anyone.
cmd-slander-name = slander
cmd-slander-description = Framer: frame a player for the Cop's check
cmd-slander-opt-target-name = target
cmd-slander-opt-target-description = A living player's nickname
verb-slander = frame
play-accepted-slander = Turn { $turn }: frame recorded: { $target }.
guide-step-slander = the frame
