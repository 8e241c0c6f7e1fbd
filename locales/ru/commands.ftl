### Slash-command names, descriptions and option choices (Discord shows them in the client's language).
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

cmd-mafia-name = мафия
cmd-mafia-description = Ведение форумной мафии на этом сервере
cmd-mafia-setup-name = настройка
cmd-mafia-setup-description = Создать или починить категорию и каналы игры, проверить права бота
cmd-mafia-setup-opt-language-name = язык
cmd-mafia-setup-opt-language-description = Язык игры на этом сервере
cmd-mafia-setup-opt-host_role-name = роль_ведущего
cmd-mafia-setup-opt-host_role-description = Роль, участники которой могут вести игру (с правом «Управлять сервером» можно всегда)
cmd-mafia-setup-opt-table-name = стол
cmd-mafia-setup-opt-table-description = Название стола: починить этот стол или создать новый (со своей категорией, каналами и игрой)
cmd-mafia-tables-name = столы
cmd-mafia-tables-description = Столы этого сервера и игра за каждым, лично вам
cmd-mafia-droptable-name = убрать_стол
cmd-mafia-droptable-description = Убрать стол вместе с его каналами (после подтверждения)
cmd-mafia-droptable-opt-table-name = стол
cmd-mafia-droptable-opt-table-description = Название стола, который нужно убрать
cmd-mafia-purge-name = стереть_данные
cmd-mafia-purge-description = Удалить личные данные участника, хранящиеся для этого сервера (после подтверждения)
cmd-mafia-purge-opt-member-name = участник
cmd-mafia-purge-opt-member-description = Участник, чьи данные удаляются (в том числе покинувший сервер)
cmd-mafia-announce-name = объявление
cmd-mafia-announce-description = Опубликовать рассказ ведущего в игровом канале
cmd-mafia-announce-opt-text-name = текст
cmd-mafia-announce-opt-text-description = Что опубликовать; длинный текст будет разбит на несколько сообщений
choice-language-ru = Русский
choice-language-en = Английский
cmd-mafia-new-name = новая
cmd-mafia-new-description = Открыть запись на новую игру в игровом канале
cmd-mafia-new-opt-schedule-name = расписание
cmd-mafia-new-opt-schedule-description = Форумное (ход в день) или быстрое (ходы по несколько минут)
cmd-mafia-new-opt-timezone-name = часовой_пояс
cmd-mafia-new-opt-timezone-description = Часовой пояс расписания, например Europe/Moscow
cmd-mafia-new-opt-preset-name = пресет
cmd-mafia-new-opt-preset-description = Пресет: сохранённый на сервере (по названию) или стандартный набор на столько игроков
cmd-mafia-new-opt-turn_minutes-name = минут_на_ход
cmd-mafia-new-opt-turn_minutes-description = Длина быстрого хода в минутах (по умолчанию 10)
cmd-mafia-new-opt-activity_rules-name = правила_активности
cmd-mafia-new-opt-activity_rules-description = Выводить из игры молчащих и не голосующих (по умолчанию да)
cmd-mafia-new-opt-reveal-name = раскрыть
cmd-mafia-new-opt-reveal-description = Назвать в конце игры участников, стоявших за никами (по умолчанию да)
cmd-mafia-new-opt-wishes-name = пожелания
cmd-mafia-new-opt-wishes-description = Игроки могут пожелать себе роль (по умолчанию нет)
cmd-mafia-new-opt-review-name = проверка
cmd-mafia-new-opt-review-description = Минуты на рассказ ведущего к итогам хода до их публикации (0 — выкл., по умолчанию)
cmd-mafia-new-opt-deadline-name = дедлайн
cmd-mafia-new-opt-deadline-description = Форумное расписание: дедлайн хода, ЧЧ:ММ (по умолчанию 21:00)
cmd-mafia-new-opt-hunts_from-name = охота_с
cmd-mafia-new-opt-hunts_from-description = Форумное расписание: охота открывается в ЧЧ:ММ, до дедлайна (по умолчанию 12:00)
cmd-mafia-new-opt-turn_days-name = дней_на_ход
cmd-mafia-new-opt-turn_days-description = Форумное расписание: сколько дней длится ход (1–7, по умолчанию 1)
cmd-mafia-new-opt-days_off-name = выходные
cmd-mafia-new-opt-days_off-description = Форумное расписание: дни недели без дедлайна, например сб вс (по умолчанию нет)
cmd-mafia-new-opt-ghost_room-name = комната_призраков
cmd-mafia-new-opt-ghost_room-description = Погибшие говорят в своей комнате, а не в игровом канале (по умолчанию выкл.)
cmd-mafia-new-opt-spectators-name = зрители
cmd-mafia-new-opt-spectators-description = Неиграющие участники могут смотреть комнату призраков через /смотреть (по умолчанию выкл.)
cmd-mafia-roles-name = роли
cmd-mafia-roles-description = Задать набор ролей игры, на которую идёт запись
cmd-mafia-roles-opt-roles-name = роли
cmd-mafia-roles-opt-roles-description = например: босс=1 мафиози=2 комиссар=1 доктор=1 мж=5
cmd-mafia-roles-opt-preset-name = пресет
cmd-mafia-roles-opt-preset-description = Пресет: сохранённый на сервере (по названию) или стандартный набор на столько игроков
cmd-mafia-roles-opt-from_wishes-name = по_пожеланиям
cmd-mafia-roles-opt-from_wishes-description = Взять роли из пожеланий игроков (остальным — мирные жители)
cmd-mafia-preset-name = пресет
cmd-mafia-preset-description = Свои наборы ролей этого сервера
cmd-mafia-preset-save-name = сохранить
cmd-mafia-preset-save-description = Сохранить набор ролей под названием (или заменить набор с таким названием)
cmd-mafia-preset-save-opt-name-name = название
cmd-mafia-preset-save-opt-name-description = Название пресета (не число: числа — стандартные пресеты)
cmd-mafia-preset-save-opt-roles-name = роли
cmd-mafia-preset-save-opt-roles-description = например: комиссар=1 жулик=1 мж=3
cmd-mafia-preset-list-name = список
cmd-mafia-preset-list-description = Пресеты этого сервера
cmd-mafia-preset-delete-name = удалить
cmd-mafia-preset-delete-description = Удалить пресет этого сервера
cmd-mafia-preset-delete-opt-name-name = название
cmd-mafia-preset-delete-opt-name-description = Какой пресет удалить
cmd-mafia-start-name = старт
cmd-mafia-start-description = Раздать роли и ники, разослать карточки, открыть первый ход
cmd-mafia-resolve-name = итоги
cmd-mafia-resolve-description = Подвести итоги текущего хода сейчас
cmd-mafia-extend-name = продлить
cmd-mafia-extend-description = Перенести дедлайн текущего хода
cmd-mafia-extend-opt-minutes-name = минуты
cmd-mafia-extend-opt-minutes-description = На сколько минут продлить
cmd-mafia-pause-name = пауза
cmd-mafia-pause-description = Остановить часы игры
cmd-mafia-resume-name = продолжить
cmd-mafia-resume-description = Снова запустить часы игры
cmd-mafia-end-name = завершить
cmd-mafia-end-description = Завершить игру сейчас и раскрыть все роли
cmd-mafia-exclude-name = исключить
cmd-mafia-exclude-description = Исключить игрока из игры
cmd-mafia-exclude-opt-player-name = игрок
cmd-mafia-exclude-opt-player-description = Ник игрока
cmd-mafia-exclude-opt-reason-name = причина
cmd-mafia-exclude-opt-reason-description = Почему (для записей ведущего)
cmd-mafia-deprive-name = лишить_голоса
cmd-mafia-deprive-description = Лишить игрока голоса на суде в этом ходу
cmd-mafia-deprive-opt-player-name = игрок
cmd-mafia-deprive-opt-player-description = Ник игрока
cmd-mafia-doublekill-name = двойное_убийство
cmd-mafia-doublekill-description = Разрешить мафии два убийства в этом ходу
cmd-join-name = записаться
cmd-join-description = Записаться на игру
cmd-leave-name = выписаться
cmd-leave-description = Отказаться от участия в записи
cmd-standby-name = замена
cmd-standby-description = Встать в список замен идущей игры (или выйти из него)
cmd-standby-opt-off-name = выйти
cmd-standby-opt-off-description = Выйти из списка замен
cmd-replaceme-name = замените_меня
cmd-replaceme-description = Попросить ведущих (тайно) передать ваш ник замене
cmd-replaceme-opt-reason-name = причина
cmd-replaceme-opt-reason-description = Почему (прочтут только ведущие)
cmd-wish-name = хочу_роль
cmd-wish-description = Пожелать себе роль, пока идёт запись (видно только вам и ведущим)
cmd-wish-opt-role-name = роль
cmd-wish-opt-role-description = Желаемая роль или «Без пожелания»
cmd-spectate-name = смотреть
cmd-spectate-description = Смотреть комнату призраков игры, в которой вы не играете (читать, но не писать)
cmd-spectate-opt-off-name = перестать
cmd-spectate-opt-off-description = Перестать смотреть
cmd-role-name = роль
cmd-role-description = Показать мою карточку роли
cmd-status-name = статус
cmd-status-description = Моя роль, мои заявки в этом ходу и дедлайн
cmd-say-name = сказать
cmd-say-description = Написать в игровой канал под моим ником
cmd-say-opt-text-name = текст
cmd-say-opt-text-description = Что написать
cmd-say-opt-image-name = картинка
cmd-say-opt-image-description = Картинка (сведения о камере, месте и времени удаляются)
cmd-vote-name = голос
cmd-vote-description = Голосовать на суде против игрока
cmd-vote-opt-target-name = цель
cmd-vote-opt-target-description = Ник живого игрока
cmd-hunt-name = охота
cmd-hunt-description = Охотиться на игрока
cmd-hunt-opt-target-name = цель
cmd-hunt-opt-target-description = Ник живого игрока
cmd-note-name = записка
cmd-note-description = Оставить предсмертную записку игроку
cmd-note-opt-to-name = кому
cmd-note-opt-to-description = Ник того, кому записка
cmd-note-opt-text-name = текст
cmd-note-opt-text-description = Текст записки
cmd-shoot-name = выстрелить
cmd-shoot-description = Убитый комиссар: выстрел из пистолета
cmd-shoot-opt-target-name = цель
cmd-shoot-opt-target-description = Ник живого игрока
choice-schedule-forum = Форумное
choice-schedule-fast = Быстрое
cmd-mafia-replace-name = заменить
cmd-mafia-replace-description = Передать ник игрока заменяющему
cmd-mafia-replace-opt-player-name = игрок
cmd-mafia-replace-opt-player-description = Ник, который передаётся
cmd-mafia-replace-opt-member-name = участник
cmd-mafia-replace-opt-member-description = Участник, который его принимает
cmd-mafia-subs-name = замены
cmd-mafia-subs-description = Кто ждёт замены и кто из игроков просит его заменить
cmd-mafia-bar-name = запрет
cmd-mafia-bar-description = Запретить участнику записываться на игры этого сервера
cmd-mafia-bar-opt-member-name = участник
cmd-mafia-bar-opt-member-description = Кому запретить
cmd-mafia-bar-opt-reason-name = причина
cmd-mafia-bar-opt-reason-description = За что (ему скажут, когда он попробует записаться)
cmd-mafia-bar-opt-days-name = дней
cmd-mafia-bar-opt-days-description = На сколько дней (пусто: пока не снимете)
cmd-mafia-unbar-name = снять_запрет
cmd-mafia-unbar-description = Снять запрет с участника
cmd-mafia-unbar-opt-member-name = участник
cmd-mafia-unbar-opt-member-description = С кого снять запрет
cmd-mafia-state-name = состояние
cmd-mafia-state-description = Полное состояние игры (видно только вам)
cmd-mafia-log-name = журнал
cmd-mafia-log-description = Журнал команд ведущих, по страницам, лично вам
cmd-post-name = пост
cmd-post-description = Написать длинный пост в игровой канал
cmd-quote-name = Цитировать
cmd-profile-name = профиль
cmd-profile-description = Мой анонимный аватар и подпись
cmd-profile-opt-avatar-name = аватар
cmd-profile-opt-avatar-description = Ссылка на картинку аватара (https://...)
cmd-profile-opt-image-name = картинка
cmd-profile-opt-image-description = Или загрузите картинку аватара
cmd-profile-opt-signature-name = подпись
cmd-profile-opt-signature-description = Строка под моими постами
cmd-players-name = игроки
cmd-players-description = Кто жив и кто погиб, по никам
cmd-rules-name = правила
cmd-rules-description = Правила игры, по страницам
cmd-rules-opt-page-name = страница
cmd-rules-opt-page-description = Какая страница (1 — первая)
cmd-help-name = помощь
cmd-help-description = Команды, которые мне доступны сейчас
# /votes and /iso (cogs/reading.py)
cmd-votes-name = голосования
cmd-votes-description = Опубликованные итоги суда Линча этой игры, по ходам
cmd-votes-opt-turn-name = ход
cmd-votes-opt-turn-description = Какой ход (если не указать — последний)
cmd-iso-name = посты
cmd-iso-description = Все посты одного ника в этой игре, по порядку
cmd-iso-opt-player-name = игрок
cmd-iso-opt-player-description = Чьи посты (живой или погибший ник)
votes-title = Суд Линча, ход { $turn } (страница { $page } из { $pages })
votes-none = В этой игре ещё не было суда Линча: итоги голосования публикуются со второго хода.
votes-no_turn = Итогов суда Линча за ход { $turn } нет: есть за ходы { $turns }.
votes-prev = Назад
votes-next = Вперёд
votes-not_yours = Листать этот список может только тот, кто его открыл; наберите /голосования сами.
iso-title = Посты: { $nick } (страница { $page } из { $pages })
iso-none = Игрок { $nick } в этой игре пока не написал ни одного поста.
iso-none_finished = Игрок { $nick } в этой игре не написал ни одного поста.
iso-post = Ход { $turn }, { $at }
iso-post_ghost = Ход { $turn }, { $at } (призрак)
iso-said = { $nick }:
iso-prev = Назад
iso-next = Вперёд
iso-not_yours = Листать этот список может только тот, кто его открыл; наберите /посты сами.
reading-finished = Игра №{ $game } окончена: то, что в ней было опубликовано.
# /history and /stats (cogs/history.py, core/stats.py)
cmd-history-name = история
cmd-history-description = Завершённые игры сервера или сводка одной игры
cmd-history-opt-game-name = игра
cmd-history-opt-game-description = Номер игры из списка /история
cmd-stats-name = статистика
cmd-stats-description = Статистика игроков на этом сервере и таблица лидеров
cmd-stats-opt-member-name = участник
cmd-stats-opt-member-description = Чья статистика (если не указать — ваша и таблица лидеров)
history-title = Завершённые игры, страница { $page } из { $pages }
history-empty = На этом сервере ещё не завершилась ни одна игра.
history-line = **{ $table }** №{ $game }: { $started } – { $ended }, { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    }, { $winner }
history-game = Игра №{ $game }, стол «{ $table }»
history-unknown = На этом сервере нет завершённой игры №{ $game }.
history-prev = Назад
history-next = Вперёд
history-not_yours = Листать этот список может только тот, кто его открыл; наберите /история сами.
history-winner-town = победили мирные жители
history-winner-mafia = победила мафия
history-winner-draw = ничья
history-winner-none = остановлена ведущим
stats-title = Статистика на этом сервере
stats-member = Участник: { $member }
stats-games =
    { $games ->
        [one] Сыграна { $games } игра
        [few] Сыграны { $games } игры
       *[many] Сыграно { $games } игр
    }, { $wins ->
        [one] { $wins } победа
        [few] { $wins } победы
       *[many] { $wins } побед
    } ({ $rate }%)
stats-survival = В живых к концу игры: { $survived } из { $games }. Казней на суде Линча: { $lynched }.
stats-deaths = Причины гибели: { $list }
stats-left = Выбыл из игр: за молчание { $inactive }, за пропуск голосований { $missed }, по замене { $replaced }.
stats-death_count =
    { $cause } — { $count ->
        [one] { $count } раз
        [few] { $count } раза
       *[many] { $count } раз
    }
stats-checks = Проверки: сделано { $checks }, с ответом { $answered }, верных { $accurate } ({ $accuracy })
stats-no_accuracy = ответов пока нет
stats-tally =
    { $games ->
        [one] { $games } игра
        [few] { $games } игры
       *[many] { $games } игр
    }, { $wins ->
        [one] { $wins } победа
        [few] { $wins } победы
       *[many] { $wins } побед
    }
stats-by_side = По сторонам (в конце игры)
stats-by_role = По ролям (при раздаче)
stats-side-town = Мирные жители
stats-side-mafia = Мафия
stats-own = Здесь учтены все ваши игры, в том числе те, где ведущий скрыл участников (их видите только вы).
stats-others = Игры, где ведущий скрыл участников, здесь не учтены.
stats-leaderboard = Таблица лидеров (победы, затем доля побед, затем число игр)
stats-leader-line = { $rank } — { $member }: { $tally } ({ $rate }%)
stats-leaderboard-empty = Пока никто не закончил игру, где участники были названы.
stats-tables = Столы
stats-table-line = **{ $table }**: { $count ->
        [one] { $count } игра
        [few] { $count } игры
       *[many] { $count } игр
    } ({ $winners })
stats-winners-town = мирные жители — { $count }
stats-winners-mafia = мафия — { $count }
stats-winners-draw = ничьих — { $count }
stats-winners-none = остановлены ведущим — { $count }
