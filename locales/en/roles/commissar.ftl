### The Commissar (the role coded `commissar`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-commissar = Cop
card-about-commissar =
    You are the Cop (the forum's Commissar), Town. Each night, check one living player (/check): the host answers you alone{ $mafia ->
        [yes] : mafia or not
       *[no] , and in this game the answer is always "not mafia"
    }. If he is killed that same night, you also learn who killed him and how. The answer comes even if you die that night.
    If your check gets no answer ({ $prostitute ->
        [yes] your target was already dead, or the Roleblocker blocked you
       *[no] your target was already dead
    }), the host tells you so in the morning.
    You carry a pistol. When you are killed ({ $causes }), you get one hour (one minute in a fast game) to shoot one living player (/shoot), who dies with you.
card-about-commissar-with-sergeant = This game has a Sergeant: he knows you, gets a copy of every answer, and takes over when you die.
cmd-check-name = check
cmd-check-description = Cop: check a player
cmd-check-opt-target-name = target
cmd-check-opt-target-description = A living player's nickname
verb-check = check
play-accepted-check = Turn { $turn }: check recorded: { $target }.
guide-step-check = the check
