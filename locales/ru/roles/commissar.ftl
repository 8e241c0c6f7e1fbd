### The Commissar (the role coded `commissar`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-commissar = Комиссар
card-about-commissar =
    Вы — комиссар, мирный житель. Каждую ночь проверяйте одного живого игрока (/проверить): ведущий лично вам ответит{ $mafia ->
        [yes] , мафия он или нет
       *[no] , но в этой игре ответ всегда будет «не мафия»
    }. Если проверенного убьют этой же ночью, вы узнаете и кто его убил, и как. Ответ придёт, даже если этой ночью убьют вас.
    Если проверка останется без ответа ({ $prostitute ->
        [yes] проверяемый к ночи уже мёртв или вас заблокировала путана
       *[no] проверяемый к ночи уже мёртв
    }), утром ведущий скажет вам об этом.
    У вас есть пистолет: если вас убьют ({ $causes }), у вас будет час (в быстрой игре — минута), чтобы выстрелить в одного живого игрока (/выстрелить), и он погибнет вместе с вами.
card-about-commissar-with-sergeant = В игре есть сержант: он знает вас, получает копию каждого ответа и займёт ваше место, если вы погибнете.
cmd-check-name = проверить
cmd-check-description = Комиссар: проверить игрока
cmd-check-opt-target-name = цель
cmd-check-opt-target-description = Ник живого игрока
verb-check = проверка
play-accepted-check = Ход { $turn }. Проверка принята: { $target }.
guide-step-check = проверка
