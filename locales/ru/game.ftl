### The game itself: role cards, requests, announcements, results, sign-up, status.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

announce-done = Опубликовано в { $channel }.
role-villager = Мирный житель
card-about-villager = Вы мирный житель: найдите мафию и казните её.
role-mafioso = Мафиозо
card-about-mafioso = Вы в мафии: каждый ход договаривайтесь об убийстве в канале мафии.
role-boss = Босс
card-about-boss = Вы глава мафии; проверка комиссара покажет вас мафией. Если в игре есть Подкидыш, после вашей смерти он перейдёт в мафию.
role-troublemaker = Провокатор
card-about-troublemaker = Вы в мафии и можете подставить игрока под проверку комиссара.
role-commissar = Комиссар
card-about-commissar = Каждый ход вы проверяете одного игрока: мафия он или нет.
role-sergeant = Сержант
card-about-sergeant = Вы узнаёте проверки комиссара и заменяете его, если он погибнет.
role-doctor = Доктор
card-about-doctor = Каждый ход вы лечите одного игрока; раз за игру можете сделать смертельный укол.
role-prostitute = Путана
card-about-prostitute = Каждый ход вы блокируете действие одного игрока.
role-foundling = Подкидыш
card-about-foundling = Вы мирный житель.
role-converted_foundling = Завербованный подкидыш
card-about-converted_foundling = Вы перешли в мафию.
role-promoted_sergeant = Комиссар (повышен)
card-about-promoted_sergeant = Вы заняли место комиссара и проверяете игроков.
role-maniac = Маньяк
card-about-maniac = Вы играете сами за себя: травите по игроку за ход и переживите всех.
verb-vote = голос
verb-hunt = охота
verb-note = записка
verb-kill = убийство
verb-check = проверка
verb-heal = лечение
verb-inject = инъекция
verb-block = блок
verb-slander = подстава
verb-poison = отравление
verb-shoot = выстрел
verb-post = пост
play-accepted-vote = Ваш голос против { $target } учтён.
play-accepted-hunt = Вы охотитесь на { $target }.
play-accepted-note = Ваша записка для { $to } сохранена.
play-accepted-kill = Заявка на убийство: { $target }.
play-accepted-check = Вы проверите { $target }.
play-accepted-heal = Вы вылечите { $target }.
play-accepted-inject = Вы сделаете укол { $target }.
play-accepted-block = Вы заблокируете { $target }.
play-accepted-slander = Вы подставите { $target }.
play-accepted-poison = Вы отравите { $target }.
play-accepted-shoot = Вы стреляете в { $target }.
play-withdrawn = Отозвано: { $verbs }.
death-poison = { $nick } ({ $role }) умер от яда.
cause-poison = отравлен
death-hunt = { $nick } ({ $role }) убит на охоте.
cause-hunt = убит на охоте
death-hunt_backfire = { $nick } ({ $role }) погиб на своей охоте.
cause-hunt_backfire = погиб на своей охоте
death-mafia = { $nick } ({ $role }) убит ночью.
cause-mafia = убит ночью
death-euthanasia = { $nick } ({ $role }) умер ночью.
cause-euthanasia = умер ночью
death-lynch = { $nick } ({ $role }) казнён по решению суда.
cause-lynch = казнён
death-inactive = { $nick } ({ $role }) выбыл: ни одного поста за ход.
cause-inactive = молчал
death-missed_votes = { $nick } ({ $role }) выбыл: дважды не голосовал.
cause-missed_votes = дважды не голосовал
death-excluded = { $nick } ({ $role }) исключён ведущим.
cause-excluded = исключён
death-pistol = { $nick } ({ $role }) застрелен игроком { $by }.
cause-pistol = застрелен
cause-None = жив
method-mafia = убийство мафии
method-euthanasia = укол доктора
winner-town = Победил город!
winner-mafia = Победила мафия!
winner-maniac = Победил маньяк!
winner-draw = Никто не выжил: ничья.
winner-none = Ведущий завершил игру.
reveal-alive = { $nick }: { $role }, жив
reveal-dead = { $nick }: { $role }, { $cause } в ходу { $turn }
card-title = Вы — **{ $nick }**, { $role }.
card-verbs = Ваши команды: { $verbs }
card-team = Мафия: { $team }
card-commissar = Комиссар — { $commissar }.
card-dead = Вы мертвы: писать можно, но как призрак.
announce-turn_open = Начался ход { $turn }. Дедлайн: { $deadline } ({ $relative }).
announce-results = Итоги хода { $turn }:
announce-nobody_died = Никто не погиб.
announce-pistol_window = { $nick } может выстрелить до конца хода.
announce-note =
    Посмертная записка от { $author }:
    { $text }
announce-pistol = Вас убили, но вы можете выстрелить один раз: /shoot.
announce-converted = Босс погиб: теперь вы в мафии.
announce-promoted = Комиссар погиб: вы заняли его место и теперь проверяете игроков.
announce-mafia_joined = { $nick } присоединился к мафии.
announce-no_shot = { $nick } не выстрелил.
announce-unknown = (объявление: { $kind })
lynch-votes =
    { $nick }: { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    } ({ $voters })
lynch-totals =
    { $nick }: { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }
lynch-no_votes = Никто не голосовал.
lynch-hanged = Город казнил { $nick }.
lynch-nobody = Никого не казнили.
check-mafia = Проверка: { $target } — мафия.
check-not_mafia = Проверка: { $target } — не мафия.
check-killed_by = { $target } убит этой ночью: { $killers } ({ $method }).
signup-message =
    Открыта запись на новую игру (расписание: { $schedule }). В записи: { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }.
signup-join_button = Записаться
signup-leave_button = Выписаться
signup-joined =
    Вы записаны. В записи: { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }.
signup-left =
    Вы выписались. В записи: { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }.
signup-closed = Запись закрыта: игра началась.
signup-opened = Запись открыта в { $channel }.
roles-set = Роли: { $roles }.
signup-cancelled = Ведущий отменил запись на игру.
dm-header = { $server } · игра №{ $game }
status-header = Вы — { $nick }, { $role }. Ход { $turn }.
status-requests = Ваши заявки в этом ходу:
status-no_requests = В этом ходу заявок нет.
status-request = { $verb }: { $targets }
status-request_note = записка для { $to }
status-posts =
    В этом ходу у вас { $count ->
        [one] { $count } пост
        [few] { $count } поста
       *[many] { $count } постов
    } в игровом канале.
status-paused = Часы остановлены.
status-deadline = Дедлайн: { $deadline } ({ $relative }).
say-done = Опубликовано в { $channel }.
say-ghost_name = { $nick } (призрак)
mafia-agreement = Заявки на убийство в этом ходу:
mafia-agreement_line = { $nick } → { $targets }
mafia-agreement_none = пока нет
profile-done = Ваш профиль сохранён.
post-title = Пост в игровой канал
post-label = Ваш пост
status-news = Ваши личные новости:
announce-excluded = Ведущий исключил { $nick } из игры.
reminder-vote = Ход { $turn }: вы ещё не проголосовали. Каждый живой игрок обязан проголосовать до дедлайна (/голос).
reminder-post = Ход { $turn }: вы ещё ничего не написали в игровом канале. Игрок, не написавший за ход ни одного сообщения, выбывает (/сказать).
reminder-last_chance = Вы уже пропустили одно голосование: второй пропуск — и вы выбываете из игры.
announce-introduce = В первый ход нет суда Линча и охоты. Представьтесь здесь (/сказать или /пост)!
announce-explain_votes = Все объясняют свой голос и задают вопросы другим.
pistol-placeholder = В кого вы стреляете?
pistol-done = Вы выстрелили в { $nick }. Выстрел будет объявлен, когда закроется окно пистолета.
announce-mafia_left = { $nick } погиб и покидает эту комнату.
