### The Crook (the role coded `crook`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-crook = Жулик
card-about-crook =
    Вы — жулик, одиночка: играете только за себя, { $mafia ->
        [yes] ни за мирных жителей, ни за мафию
       *[no] а не за мирных жителей
    }.
    Со второго хода каждый ход вы можете украсть голос на суде Линча у одного живого игрока (/украсть). На суде его голос засчитывается за того, за кого проголосовали вы сами, а в опубликованных итогах стоит под его ником, будто это он так проголосовал. Поэтому голосуйте сами: без вашего голоса украденный пропадает. У того, кто не голосовал, красть нечего.
card-about-crook-with-prostitute = Кража — ночной ход: если в эту ночь вас заблокирует путана, вы ничего не украдёте.
card-about-crook-with-maniac = Если в живых останетесь только вы и маньяк, победит маньяк.
card-about-crook-with-commissar = Проверка комиссара покажет вас «не мафия».
card-win-crook = Жулик побеждает в одиночку, если он жив, а кроме него в живых не больше одного игрока.
winner-crook = Победил жулик!
gameover-reason-crook_last = Жулик жив, и кроме него в живых не больше одного игрока.
history-winner-crook = победил жулик
stats-side-crook = Жулик
stats-winners-crook = жулик — { $count }
cmd-steal-name = украсть
cmd-steal-description = Жулик: украсть голос игрока на суде Линча
cmd-steal-opt-target-name = цель
cmd-steal-opt-target-description = Ник живого игрока
verb-steal = кража
play-accepted-steal = Ход { $turn }. Кража голоса принята: { $target }.
guide-step-steal = кража голоса
