### The game itself: role cards, requests, announcements, results, sign-up, status.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

announce-done = Опубликовано в { $channel }.
review-opened = Итоги каждого хода сначала придут черновиком в канал ведущих: { $minutes ->
        [one] { $minutes } минута
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    } на то, чтобы дописать рассказ и опубликовать; потом они выйдут как есть.
review-draft = **Черновик: итоги хода { $turn }.** Допишите рассказ и опубликуйте; иначе итоги выйдут как есть в { $until } ({ $relative }). Следующий ход откроется после публикации.
review-in_mafia_room = *(в комнате мафии)*
review-button-story = Добавить рассказ
review-button-publish = Опубликовать
review-modal-title = Рассказ к ходу { $turn }
review-modal-label = Рассказ, который выйдет над итогами
review-story_saved = Рассказ к ходу { $turn } сохранён: он выйдет над итогами. Его можно править до публикации.
review-published = Итоги хода { $turn } опубликованы.
review-status = Ведущий готовит итоги хода: следующий ход откроется после их публикации (не позже { $until }).
role-villager = Мирный житель
card-about-villager = Вы мирный житель: найдите мафию и казните её.
role-mafioso = Мафиози
card-about-mafioso = Вы в мафии: каждый ход договаривайтесь об убийстве в канале мафии.
role-boss = Босс
card-about-boss = Вы глава мафии; проверка комиссара покажет вас мафией. Если в игре есть Подкидыш, после вашей смерти он перейдёт в мафию.
role-troublemaker = Баламут
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
role-promoted_sergeant = Комиссар (бывший сержант)
card-about-promoted_sergeant = Вы заняли место комиссара и проверяете игроков.
role-maniac = Маньяк
card-about-maniac = Вы играете сами за себя: травите по игроку за ход и переживите всех.
verb-vote = голос
verb-hunt = охота
verb-note = записка
verb-kill = убийство
verb-check = проверка
verb-heal = лечение
verb-inject = укол
verb-block = блок
verb-slander = подстава
verb-poison = отравление
verb-shoot = выстрел
verb-post = пост
play-accepted-vote = Голос учтён: { $target }.
play-accepted-hunt = Охота: ваша цель — { $target }.
play-accepted-note = Записка сохранена. Кому: { $to }.
play-accepted-kill = Заявка на убийство: { $target }.
play-accepted-check = Проверка назначена: { $target }.
play-accepted-heal = Лечение назначено: { $target }.
play-accepted-inject = Укол назначен: { $target }.
play-accepted-block = Блок назначен: { $target }.
play-accepted-slander = Подстава назначена: { $target }.
play-accepted-poison = Отравление назначено: { $target }.
play-accepted-shoot = Выстрел: { $target }.
play-withdrawn = Отозвано: { $verbs }.
death-poison = Отравлен игрок { $nick } ({ $role }).
cause-poison = отравление
death-hunt = На охоте убит игрок { $nick } ({ $role }).
cause-hunt = убийство на охоте
death-hunt_backfire = На своей же охоте погиб игрок { $nick } ({ $role }).
cause-hunt_backfire = гибель на своей охоте
death-mafia = Ночью убит игрок { $nick } ({ $role }).
cause-mafia = ночное убийство
death-euthanasia = Ночью умер игрок { $nick } ({ $role }).
cause-euthanasia = смерть ночью
death-lynch = По решению суда Линча казнён игрок { $nick } ({ $role }).
cause-lynch = казнь по суду Линча
death-inactive = Выбывает игрок { $nick } ({ $role }): ни одного поста за ход.
cause-inactive = выбывание за молчание
death-missed_votes = Выбывает игрок { $nick } ({ $role }): два пропущенных голосования.
cause-missed_votes = выбывание за два пропуска голосования
death-excluded = Исключён ведущим игрок { $nick } ({ $role }).
cause-excluded = исключение ведущим
death-pistol = Застрелен игрок { $nick } ({ $role }). Кто стрелял: { $by }.
cause-pistol = выстрел из пистолета
cause-None = в живых
method-mafia = убийство мафии
method-euthanasia = укол доктора
winner-town = Победил город!
winner-mafia = Победила мафия!
winner-maniac = Победил маньяк!
winner-draw = Никто не выжил: ничья.
winner-none = Ведущий завершил игру.
reveal-alive = { $nick }: { $role }, в живых
reveal-dead = { $nick }: { $role }, { $cause } на { $turn }-м ходу
gameover-reason-mafia_dead = В живых не осталось ни мафии, ни маньяка.
gameover-reason-parity = Живых мафиози не меньше, чем живых горожан.
gameover-reason-maniac_last = Маньяк жив, и кроме него в живых не больше одного игрока.
gameover-reason-all_dead = В живых не осталось никого.
gameover-reason-host_ended = Ведущий завершил игру, победителя нет.
gameover-reason-unknown = Игра окончена.
gameover-length =
    Игра длилась { $turns ->
        [one] { $turns } ход
        [few] { $turns } хода
       *[many] { $turns } ходов
    }.
gameover-dates = Начало: { $started }, конец: { $ended }.
gameover-roles = Роли и судьбы
gameover-changed = { $role } → { $final }
gameover-member = участник: { $member }
gameover-hidden = Ведущий решил не раскрывать, кто стоял за никами.
gameover-reveal-yes = В конце игры будет раскрыто, кто стоял за каждым ником.
gameover-reveal-no = Кто стоит за никами, останется тайной и после игры.
picture-game = Игра №{ $game }, { $turns ->
        [one] { $turns } ход
        [few] { $turns } хода
       *[many] { $turns } ходов
    }
picture-turn = Ход
picture-votes = голоса против игрока на суде
picture-more = … и ещё { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }
picture-mark-lynch = казнь по суду Линча
picture-mark-mafia = убийство мафией
picture-mark-poison = яд или смертельный укол
picture-mark-hunt = охота
picture-mark-pistol = выстрел из пистолета
picture-mark-inactive = выбывание за неактивность
picture-mark-excluded = исключение ведущим
picture-mark-other = другое
picture-failed = Не удалось нарисовать итоговую картинку игры №{ $game }: финальное объявление ушло без неё.
card-title = Вы — **{ $nick }**, { $role }.
card-verbs = Ваши команды: { $verbs }
card-team = Мафия: { $team }
card-commissar = Комиссар — { $commissar }.
card-dead = Вы мертвы: писать можно, но как призрак.
announce-turn_open = Начался ход { $turn }. Дедлайн: { $deadline } ({ $relative }).
announce-results = Итоги хода { $turn }
announce-nobody_died = Никто не погиб.
announce-pistol_window = До конца хода может выстрелить игрок { $nick }.
announce-note =
    Посмертная записка. Автор: { $author }.
    { $text }
announce-pistol = Вас убили, но вы можете выстрелить один раз: /выстрелить.
announce-converted = Босс погиб: теперь вы в мафии.
announce-promoted = Комиссар погиб: вы заняли его место и теперь проверяете игроков.
announce-mafia_joined = В мафии новый игрок: { $nick }.
announce-no_shot = Выстрела не было: игрок { $nick } не воспользовался пистолетом.
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
lynch-hanged = Итог суда Линча: казнён игрок { $nick }.
lynch-nobody = Итог суда Линча: никто не казнён.
dawn-deaths = Погибшие
dawn-lynch = Суд Линча
dawn-votes = Голоса
dawn-needed =
    Для казни нужно: { $needed } из { $electorate } { $electorate ->
        [one] голоса
       *[other] голосов
    } (четверть голосующих в этот ход).
dawn-below = Никто не набрал нужного числа голосов: { $needed }.
dawn-none_counted = Ни один голос не учтён.
dawn-uncounted = Неучтённые голоса
dawn-dropped =
    { $nick }: не учтено { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }, этот игрок погиб до суда Линча ({ $voters }).
dawn-dropped_totals =
    { $nick }: не учтено { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }, этот игрок погиб до суда Линча.
dawn-not_electorate = Не учтены голоса игроков без права голоса в этот ход: { $voters }.
dawn-not_electorate_totals =
    Не учтено голосов от игроков без права голоса в этот ход: { $count }.
dawn-tie =
    Ничья, у каждого { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }: { $tied }. Решает второй голос, поданный за кого-то из них. Его подал игрок { $by }, кандидат — { $hanged }.
dawn-tie_totals =
    Ничья, у каждого { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }: { $tied }. Решает второй голос, поданный за кого-то из них: кандидат — { $hanged }.
dawn-pistols = Пистолеты
dawn-living = Живые игроки ({ $count })
dawn-roles = Роли в этой игре
check-mafia = Проверка: { $target } — мафия.
check-not_mafia = Проверка: { $target } — не мафия.
check-killed_by = Этой ночью убит игрок { $target }. Кто убил: { $killers } ({ $method }).
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
dm-header_table = { $server } · { $table } · игра №{ $game }
reply-header = { $table } · игра №{ $game }
status-header = Вы — { $nick }, { $role }. Ход { $turn }.
status-requests = Ваши заявки в этом ходу:
status-no_requests = В этом ходу заявок нет.
status-request = { $verb }: { $targets }
status-request_note = записка, кому: { $to }
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
# Команда сообщения «Цитировать» (cogs/quote.py)
quote-head = Цитата: **{ $nick }** · [к посту]({ $link })
quote-host = Ведущий
quote-title = Ответ: { $nick }
quote-label = Ваш ответ
status-news = Ваши личные новости:
# /игроки, /правила, /помощь
players-living =
    В живых: { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }
players-dead =
    Погибли: { $count ->
        [0] пока никто
        [one] { $count } призрак
        [few] { $count } призрака
       *[many] { $count } призраков
    }
help-header = Ваши команды сейчас:
rules-page = Страница { $page } из { $pages }.
rules-next = Дальше: { $command }
announce-excluded = Решение ведущего: игрок { $nick } исключён из игры.
reminder-vote = Ход { $turn }: вы ещё не проголосовали. Каждый живой игрок обязан проголосовать до дедлайна (/голос).
reminder-post = Ход { $turn }: вы ещё ничего не написали в игровом канале. Игрок, не написавший за ход ни одного сообщения, выбывает (/сказать).
reminder-last_chance = Вы уже пропустили одно голосование: второй пропуск — и вы выбываете из игры.
announce-introduce = В первый ход нет суда Линча и охоты. Представьтесь здесь (/сказать или /пост)!
announce-clock_extended = Ведущий перенёс дедлайн: { $deadline } ({ $relative }).
announce-clock_paused =
    Ведущий остановил часы. Осталось: { $minutes ->
        [one] { $minutes } минута
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    }.
announce-clock_resumed = Часы снова идут. Дедлайн: { $deadline } ({ $relative }).
announce-double_kill_this = Ведущий разрешил мафии этой ночью убить двоих.
announce-double_kill_next = Ведущий разрешил мафии следующей ночью убить двоих.
announce-hunts_open = Охота открыта: заявки на охоту (/охота) принимаются до дедлайна { $deadline } ({ $relative }).
announce-last_hour = До дедлайна остался час: { $deadline } ({ $relative }). Заявки принимаются до этого времени, не позже.
announce-replaced = За ник { $nick } теперь играет другой участник.
announce-explain_votes = Все объясняют свой голос и задают вопросы другим.
pistol-placeholder = В кого вы стреляете?
pistol-done = Ваш выстрел: { $nick }. Он будет объявлен, когда закроется окно пистолета.
announce-mafia_left = Погиб игрок { $nick } и покидает эту комнату.
# The archive of a finished game (bot/archive.py): a web page and its Markdown twin.
archive-title = { $table }: игра № { $game }
archive-table = Стол
archive-no_table = неизвестный стол
archive-game = Игра
archive-started = Начало
archive-ended = Конец
archive-schedule = Расписание
archive-roles = Роли
archive-players = Игроки
archive-nick = Ник
archive-member = Участник
archive-role = Роль при раздаче
archive-final_role = Роль в конце игры
archive-fate = Судьба
archive-alive = в живых
archive-died = { $cause } на { $turn }-м ходу
archive-turn = Ход
archive-posts = Сообщения в канале #игра
archive-no_posts = В этот ход в канале #игра никто не писал.
archive-ghost = призрак
archive-dawn = Итоги хода
archive-hidden = Что было скрыто во время игры
archive-requests = Заявки и что с ними стало
archive-refused = Отклонённые заявки
archive-refused_line = { $by }: { $verb } → { $targets }, отказ: { $reason }
archive-checks = Проверки комиссара
archive-check = { $commissar }: { $text }
archive-mafia = Комната мафии: заявки на убийство
archive-kill_request = { $by } → { $targets }
archive-notes = Предсмертные записки
archive-note = { $author } → { $to }: { $text }
archive-members_hidden = Ведущий решил не раскрывать, кто стоял за никами.
archive-footer = Архив игры в форумную мафию, составленный ботом по окончании игры.
