### The ConvertedFoundling (the role coded `converted_foundling`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-converted_foundling = Завербованный подкидыш
card-about-converted_foundling = Босс погиб, и вы перешли в мафию: вы подкидыш, а теперь мафиози во всём. Вы знаете весь клан и пишете в его комнате. Если вы погибнете, вас объявят подкидышем.
