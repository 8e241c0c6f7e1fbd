### The Doctor (the role coded `doctor`, rules/roles/): its name, card, refusals, causes of death and verbs' texts.
### docs/ADDING_A_ROLE.md tells which keys a role needs (`Role.text_keys`).

role-doctor = Doctor
card-about-doctor =
    You are the Doctor, Town. Each night, heal one living player, yourself included (/heal): { $threat ->
        [mafia_maniac] that night the mafia cannot kill him and the Poisoner cannot poison him
        [mafia] that night the mafia cannot kill him
        [maniac] that night the Poisoner cannot poison him
       *[none] though in this game nobody but you attacks at night, so there is nothing to heal yet
    }. A heal never saves anyone from the lynch, a hunt or an injection{ $commissar ->
        [yes] , nor from the pistol
       *[no] {""}
    }.
    You may not heal the same player two turns running, yourself included; a turn without a heal breaks the chain.
    Once per game you may give a lethal injection instead (/inject): the target dies whatever his role. It is used up only when it kills.
refusal-injection_used = The injection is used up.
refusal-same_heal_target = You cannot heal the same player twice in a row.
cause-euthanasia = died in the night
death-euthanasia = { $nick } ({ $role }) died in the night.
card-pistol-euthanasia = an injection
cmd-heal-name = heal
cmd-heal-description = Doctor: heal a player
cmd-heal-opt-target-name = target
cmd-heal-opt-target-description = A living player's nickname
verb-heal = heal
play-accepted-heal = Turn { $turn }: heal recorded: { $target }.
cmd-inject-name = inject
cmd-inject-description = Doctor: the lethal injection
cmd-inject-opt-target-name = target
cmd-inject-opt-target-description = A living player's nickname
verb-inject = lethal injection
play-accepted-inject = Turn { $turn }: lethal injection recorded: { $target }.
method-euthanasia = the Doctor's lethal injection
guide-step-heal = the heal and the injection
