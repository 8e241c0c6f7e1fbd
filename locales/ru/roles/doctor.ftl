### The Doctor (the role coded `doctor`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-doctor = Доктор
card-about-doctor =
    Вы — доктор, мирный житель. Каждую ночь лечите одного живого игрока, можно и себя (/лечить): { $threat ->
        [mafia_maniac] этой ночью его не убьёт мафия и не отравит маньяк
        [mafia] этой ночью его не убьёт мафия
        [maniac] этой ночью его не отравит маньяк
       *[none] правда, в этой игре ночью никто, кроме вас, не нападает, так что лечить пока не от чего
    }. От суда Линча, охоты и укола лечение не спасает{ $commissar ->
        [yes] , от пистолета тоже
       *[no] {""}
    }.
    Нельзя лечить одного и того же игрока два хода подряд, даже себя; ход без лечения прерывает эту цепочку.
    Один раз за игру вместо лечения можно сделать смертельный укол (/укол): цель погибает, кем бы она ни была. Укол считается сделанным, только когда он убил.
refusal-injection_used = Смертельный укол уже сделан.
refusal-same_heal_target = Нельзя лечить одного игрока два хода подряд.
cause-euthanasia = смерть ночью
death-euthanasia = Ночью умер игрок { $nick } ({ $role }).
card-pistol-euthanasia = укол
cmd-heal-name = лечить
cmd-heal-description = Доктор: лечить игрока
cmd-heal-opt-target-name = цель
cmd-heal-opt-target-description = Ник живого игрока
verb-heal = лечение
play-accepted-heal = Ход { $turn }. Лечение принято: { $target }.
cmd-inject-name = укол
cmd-inject-description = Доктор: смертельный укол
cmd-inject-opt-target-name = цель
cmd-inject-opt-target-description = Ник живого игрока
verb-inject = укол
play-accepted-inject = Ход { $turn }. Смертельный укол принят: { $target }.
method-euthanasia = смертельный укол доктора
guide-step-heal = лечение и укол
