### The Crook (the role coded `crook`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-crook = Crook
card-about-crook =
    You are the Crook, a third-party player: you play for yourself alone, { $mafia ->
        [yes] neither for Town nor for the mafia
       *[no] not for Town
    }.
    From turn 2 on, each turn you may steal the lynch vote of one other living player (/steal). At the lynch his vote counts for the player you voted for yourself, and the published tally lists it under his nickname, as if he had voted that way. So vote yourself: without a vote of your own, the stolen vote is simply lost. A player who has not voted has nothing to steal.
card-about-crook-with-prostitute = The theft is a night action: if the Roleblocker blocks you that night, you steal nothing.
card-about-crook-with-maniac = If only you and the Poisoner are left, the Poisoner wins.
card-about-crook-with-commissar = The Cop's check shows you as "not mafia".
card-win-crook = The Crook wins alone when he is alive and at most one other player is.
winner-crook = The Crook wins!
gameover-reason-crook_last = The Crook is alive with at most one other player left.
history-winner-crook = Crook won
stats-side-crook = Third party (Crook)
stats-winners-crook = Crook { $count }
cmd-steal-name = steal
cmd-steal-description = Crook: steal a player's lynch vote
cmd-steal-opt-target-name = target
cmd-steal-opt-target-description = A living player's nickname
verb-steal = theft
play-accepted-steal = Turn { $turn }: theft recorded: you will steal the lynch vote of { $target }.
guide-step-steal = the theft
