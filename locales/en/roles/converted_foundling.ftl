### The ConvertedFoundling (the role coded `converted_foundling`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-converted_foundling = Foundling (turned mafia)
card-about-converted_foundling = The Boss is dead and you have joined the mafia: you are the Foundling, and now mafia in every respect. You know the whole family and post in its room. If you die, you are revealed as the Foundling.
