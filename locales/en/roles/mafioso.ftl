### The Mafioso (the role coded `mafioso`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-mafioso = Mafioso
card-about-mafioso = You are a Mafioso. You know the whole family, and the family has a private room of its own. By day, pass yourself off as Town.
refusal-double_kill_not_granted = The mafia has one kill this turn.
refusal-same_targets = Choose two different players.
cause-mafia = killed in the night
death-mafia = { $nick } ({ $role }) was killed in the night.
card-pistol-mafia = the mafia
cmd-kill-name = kill
cmd-kill-description = Mafia: request the kill
cmd-kill-opt-target-name = target
cmd-kill-opt-target-description = A living player's nickname
cmd-kill-opt-second-name = second
cmd-kill-opt-second-description = The second target (only with the double kill)
verb-kill = kill
play-accepted-kill = Turn { $turn }: kill request recorded: { $target }.
method-mafia = a mafia kill
guide-step-kill = the mafia's kill
