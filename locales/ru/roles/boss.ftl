### The Boss (the role coded `boss`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-boss = Босс
card-about-boss = Вы — босс, глава мафии. Вы знаете весь клан, и у клана есть своя закрытая комната. Днём притворяйтесь мирным жителем.
card-about-boss-with-commissar = Проверка комиссара покажет вас мафией.
card-about-boss-with-foundling = В игре есть подкидыш: когда вы погибнете, он перейдёт в мафию.
