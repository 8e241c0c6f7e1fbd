### The Boss (the role coded `boss`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-boss = Boss
card-about-boss = You are the Boss, the head of the mafia. You know the whole family, and the family has a private room of its own. By day, pass yourself off as Town.
card-about-boss-with-commissar = Unlike a Godfather, you check as mafia to the Cop.
card-about-boss-with-foundling = This game has a Foundling: when you die, he joins the mafia.
