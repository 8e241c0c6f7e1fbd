### The Poisoner (the role coded `maniac`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-maniac = Маньяк
card-about-maniac = Вы — маньяк-отравитель, одиночка: вы играете сами за себя. Каждую ночь вы можете отравить одного живого игрока (/отравить). Отравленный ничего не заметит: он проживёт ещё день, будет писать и голосовать и умрёт в начале следующих итогов; его голос в тот день учитывается.
card-about-maniac-with-doctor = Если доктор вылечит его в ночь отравления, яд не подействует.
card-about-maniac-with-commissar = Проверка комиссара покажет вас «не мафия».
card-win-maniac = Маньяк побеждает, если он жив, а кроме него в живых не больше одного игрока.
card-win-maniac-with-crook = Если в живых останутся только маньяк и жулик, победит маньяк.
winner-maniac = Победил маньяк!
gameover-reason-maniac_last = Маньяк жив, и кроме него в живых не больше одного игрока.
history-winner-maniac = победил маньяк
stats-side-maniac = Маньяк
stats-winners-maniac = маньяк — { $count }
cause-poison = отравление
death-poison = Отравлен игрок { $nick } ({ $role }).
card-pistol-poison = яд
cmd-poison-name = отравить
cmd-poison-description = Маньяк: отравить игрока
cmd-poison-opt-target-name = цель
cmd-poison-opt-target-description = Ник живого игрока
verb-poison = отравление
play-accepted-poison = Ход { $turn }. Отравление принято: { $target }.
guide-step-poison = отравление
