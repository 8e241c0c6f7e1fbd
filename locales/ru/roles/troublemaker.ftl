### The Troublemaker (the role coded `troublemaker`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-troublemaker = Баламут
card-about-troublemaker = Вы — баламут, член мафии. Вы знаете весь клан, и у клана есть своя закрытая комната. Днём притворяйтесь мирным жителем.
card-about-troublemaker-with-commissar = Каждую ночь вы можете оклеветать одного игрока (/оклеветать): если комиссар проверит его этой же ночью, он увидит «мафия».
card-about-troublemaker-without-commissar = Оклеветать игрока (/оклеветать) вы можете, но в этой игре это ничего не даст: проверять игроков некому.
cmd-slander-name = оклеветать
cmd-slander-description = Баламут: оклеветать игрока перед комиссаром
cmd-slander-opt-target-name = цель
cmd-slander-opt-target-description = Ник живого игрока
verb-slander = клевета
play-accepted-slander = Ход { $turn }. Клевета принята: { $target }.
guide-step-slander = клевета
