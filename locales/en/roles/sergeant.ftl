### The Sergeant (the role coded `sergeant`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-sergeant = Sergeant
card-about-sergeant =
    You are the Sergeant, Town. From the start you know who the Cop is, and you privately get every answer he gets. You do not check anyone yourself.
    When the Cop dies, you take his place: you check a player each night (/check) and carry his pistol.
