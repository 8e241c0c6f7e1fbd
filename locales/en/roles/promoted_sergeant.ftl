### The PromotedSergeant (the role coded `promoted_sergeant`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-promoted_sergeant = Cop (promoted Sergeant)
card-about-promoted_sergeant =
    The Cop is dead and you, the Sergeant, have taken his place. Each night, check one living player (/check): the host answers you alone{ $mafia ->
        [yes] : mafia or not
       *[no] , and in this game the answer is always "not mafia"
    }; if he is killed that same night, you also learn who killed him and how. If your check gets no answer, the host tells you so in the morning.
    You now carry the pistol: when you are killed ({ $causes }), you get one hour (one minute in a fast game) to shoot one living player (/shoot). If you die, you are revealed as the Sergeant.
