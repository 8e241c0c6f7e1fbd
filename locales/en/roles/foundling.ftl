### The Foundling (the role coded `foundling`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-foundling = Foundling
card-about-foundling =
    You are a Villager (vanilla Town). You have no power: your weapons are your posts and your vote. Find { $foes ->
        [mafia] the mafia
        [mafia_maniac] the mafia and the Poisoner
        [mafia_crook] the mafia and the Crook
        [mafia_maniac_crook] the mafia, the Poisoner and the Crook
        [maniac] the Poisoner
        [crook] the Crook
       *[maniac_crook] the Poisoner and the Crook
    } in the discussion: question the players you suspect and explain your vote.
