### The Prostitute (the role coded `prostitute`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-prostitute = Путана
card-about-prostitute = Вы — путана, мирный житель. Каждую ночь выбирайте одного игрока (/блокировать): этой ночью его ролевой ход не сработает ({ $blocks }). Блок разбирается первым из ночных ходов.
card-about-prostitute-with-commissar = Заблокированный комиссар утром узнает только, что его проверка осталась без ответа; остальные не узнают ничего.
card-about-prostitute-without-commissar = Заблокированный ничего не узнает.
cmd-block-name = блокировать
cmd-block-description = Путана: заблокировать ход игрока
cmd-block-opt-target-name = цель
cmd-block-opt-target-description = Ник живого игрока
verb-block = блок
play-accepted-block = Ход { $turn }. Блок принят: { $target }.
guide-step-block = блок
