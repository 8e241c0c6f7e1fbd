### The Poisoner (the role coded `maniac`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-maniac = Poisoner
card-about-maniac = You are the Poisoner (the forum's maniac), a third-party killer who plays alone, like a Serial Killer. Each night you may poison one living player (/poison). Your victim notices nothing: he lives one more day, posts and votes, and dies at the start of the next resolution; his vote of that day counts.
card-about-maniac-with-doctor = If the Doctor heals him the night you poison him, the poison fails.
card-about-maniac-with-commissar = The Cop's check shows you as "not mafia".
card-win-maniac = The Poisoner wins when he is alive and at most one other player is.
card-win-maniac-with-crook = If only the Poisoner and the Crook are left, the Poisoner wins.
winner-maniac = The Poisoner wins!
gameover-reason-maniac_last = The Poisoner is alive with at most one other player left.
history-winner-maniac = Poisoner won
stats-side-maniac = Third party (Poisoner)
stats-winners-maniac = Poisoner { $count }
cause-poison = poisoned
death-poison = { $nick } ({ $role }) died of poison.
card-pistol-poison = poison
cmd-poison-name = poison
cmd-poison-description = Poisoner: poison a player
cmd-poison-opt-target-name = target
cmd-poison-opt-target-description = A living player's nickname
verb-poison = poison
play-accepted-poison = Turn { $turn }: poison recorded: { $target }.
guide-step-poison = the poison
