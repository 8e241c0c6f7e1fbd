### The Mafioso (the role coded `mafioso`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-mafioso = Мафиози
card-about-mafioso = Вы — мафиози. Вы знаете весь клан, и у клана есть своя закрытая комната. Днём притворяйтесь мирным жителем.
refusal-double_kill_not_granted = В этом ходу у мафии одно убийство.
refusal-same_targets = Выберите двух разных игроков.
cause-mafia = ночное убийство
death-mafia = Ночью убит игрок { $nick } ({ $role }).
card-pistol-mafia = мафия
cmd-kill-name = убить
cmd-kill-description = Мафия: заявка на убийство
cmd-kill-opt-target-name = цель
cmd-kill-opt-target-description = Ник живого игрока
cmd-kill-opt-second-name = вторая_цель
cmd-kill-opt-second-description = Вторая цель (только при двойном убийстве)
verb-kill = убийство
play-accepted-kill = Ход { $turn }. Заявка на убийство принята: { $target }.
method-mafia = убийство мафией
guide-step-kill = убийство мафии
