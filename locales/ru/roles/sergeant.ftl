### The Sergeant (the role coded `sergeant`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-sergeant = Сержант
card-about-sergeant =
    Вы — сержант, мирный житель. С начала игры вы знаете комиссара и лично получаете каждый ответ, который получает он. Сами вы не проверяете.
    Когда комиссар погибнет, вы займёте его место: будете каждую ночь проверять игрока (/проверить) и получите его пистолет.
