### The Villager (the role coded `villager`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-villager = Мирный житель
card-about-villager =
    Вы — мирный житель (МЖ). Особых способностей у вас нет: ваше оружие — слово и голос. Ищите { $foes ->
        [mafia] мафию
        [mafia_maniac] мафию и маньяка
        [mafia_crook] мафию и жулика
        [mafia_maniac_crook] мафию, маньяка и жулика
        [maniac] маньяка
        [crook] жулика
       *[maniac_crook] маньяка и жулика
    } в обсуждении, задавайте вопросы тем, кого подозреваете, и объясняйте свой голос.
