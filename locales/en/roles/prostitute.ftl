### The Prostitute (the role coded `prostitute`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-prostitute = Roleblocker
card-about-prostitute = You are the Roleblocker (the forum's Prostitute), Town. Each night, choose one player (/block): his night action does nothing that night ({ $blocks }). Your block is resolved before every other night action.
card-about-prostitute-with-commissar = A blocked Cop is only told in the morning that his check got no answer; nobody else is told anything.
card-about-prostitute-without-commissar = The player you block is told nothing.
cmd-block-name = block
cmd-block-description = Roleblocker: block a player
cmd-block-opt-target-name = target
cmd-block-opt-target-description = A living player's nickname
verb-block = block
play-accepted-block = Turn { $turn }: block recorded: { $target }.
guide-step-block = the block
