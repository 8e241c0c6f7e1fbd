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
verb-vote = голос
verb-hunt = охота
verb-note = записка
verb-shoot = выстрел
verb-post = пост
play-accepted-vote = Ход { $turn }. Голос на суде Линча принят: { $target }.
play-accepted-hunt = Ход { $turn }. Охота принята: { $target }.
play-accepted-note = Предсмертная записка сохранена: если вас убьёт мафия или казнит суд Линча, её получит игрок { $to }.
play-accepted-shoot = Ход { $turn }. Выстрел принят: { $target }. В итогах его объявят, как только отстреляются все, у кого есть право на выстрел.
play-late = Ход { $sent } закрылся за мгновение до того, как пришла ваша заявка, поэтому она засчитана в ход { $turn }.
play-late_refused = Ход { $sent } закрылся за мгновение до того, как пришла ваша заявка: она не учтена.
play-withdrawn = Отозвано: { $verbs }.
play-change_until = Изменить можно до { $time }.
death-hunt = На охоте убит игрок { $nick } ({ $role }).
cause-hunt = убийство на охоте
death-hunt_backfire = На своей же охоте погиб игрок { $nick } ({ $role }).
cause-hunt_backfire = гибель на своей охоте
death-lynch = По решению суда Линча казнён игрок { $nick } ({ $role }).
cause-lynch = казнь по суду Линча
death-inactive = Пропал без вести игрок { $nick } ({ $role }): за ход ни одного сообщения в игре.
cause-inactive = пропажа без вести
death-missed_votes = Выбывает игрок { $nick } ({ $role }): дважды не проголосовал на суде Линча.
cause-missed_votes = выбывание за два пропуска голосования
death-excluded = Исключён ведущим игрок { $nick } ({ $role }).
cause-excluded = исключение ведущим
death-pistol = Умирая, комиссар { $by } успел выстрелить: убит игрок { $nick } ({ $role }).
cause-pistol = выстрел из пистолета
cause-None = в живых
winner-town = Победили мирные жители!
winner-mafia = Победила мафия!
winner-draw = Никто не выжил: ничья.
winner-none = Ведущий завершил игру.
reveal-alive = { $nick }: { $role }, в живых
reveal-dead = { $nick }: { $role }, { $cause } на { $turn }-м ходу
gameover-reason-mafia_dead =
    В живых не осталось { $foes ->
        [mafia] ни одного мафиози
        [mafia_maniac] ни мафии, ни маньяка
        [mafia_crook] ни мафии, ни жулика
        [mafia_maniac_crook] ни мафии, ни маньяка, ни жулика
        [maniac] маньяка
        [crook] жулика
       *[maniac_crook] ни маньяка, ни жулика
    }.
gameover-reason-parity =
    Живых мафиози стало не меньше, чем живых мирных жителей{ $loners ->
        [maniac] , а маньяк мёртв
        [crook] , а жулик мёртв
        [maniac_crook] , а маньяк и жулик мертвы
       *[none] {""}
    }.
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
gameover-mafia_room = Комната мафии открыта для чтения всем игрокам: она в канале { $room }.
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
card-team = Клан: { $team }
card-commissar = Комиссар — { $commissar }.
card-dead = Вы погибли: писать в #игра по-прежнему можно, но уже как призрак.
# The parts of every role card after the role's own description (bot/render.py).
card-hunt =
    Охота (со 2-го хода): /охота на игрока. { $mafia ->
        [yes] Если он из мафии, погибает он; если нет, погибаете вы сами.
       *[no] В этой игре охотиться не на кого: кого бы вы ни выбрали, погибнете вы сами.
    } За ход состоится только первая по времени охота. Удачливого охотника не назовут; неудачливый погибает у всех на глазах, но на кого он охотился, не узнает никто.
card-hunt_or_ability = Охота или ролевой ход: в один ход только что-то одно, новая заявка отменяет другую.
card-no_hunt = Охотиться вы не можете.
card-times = Время (часовой пояс игры): заявки — до 21:00, охота — с 12:00, итоги — в 21:00. В быстрой игре ход длится несколько минут, охота — со второй половины хода. Срок хода — в /статус.
card-times_forum = Время (форумное расписание): ход длится { $days ->
        [1] сутки
        [few] { $days } дня
       *[other] { $days } дней
    }; заявки — до { $deadline }, охота — с { $hunt }{ $days ->
        [1] {""}
       *[other] {" "}последнего дня хода
    }, итоги — в { $clock }. Срок хода — в /статус.
card-times_fast =
    Время (быстрое расписание): ход длится { $minutes ->
        [one] { $minutes } минуту
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    }, охота открывается с середины хода, итоги — в конце хода. Срок хода — в /статус.
hours-forum = Часы игры: заявки — до { $deadline }, охота — с { $hunt }{ $days ->
        [1] {""}
       *[other] {" "}последнего дня хода
    }; ход длится { $days ->
        [1] сутки
        [few] { $days } дня
       *[other] { $days } дней
    }.
hours-days_off = Выходные: { $days }. Срок, выпавший на выходной, переносится на следующий день, на тот же час.
weekday-mon = пн
weekday-tue = вт
weekday-wed = ср
weekday-thu = чт
weekday-fri = пт
weekday-sat = сб
weekday-sun = вс
card-activity_off = Правила активности в этой игре отключены: за молчание и пропуск голосования из игры не выводят. Голосовать всё равно нужно.
card-kill = Каждую ночь мафия убивает одного игрока (/убить): все, кто подал заявку, должны назвать одного и того же игрока, иначе убийства не будет; кто заявку не подал, не в счёт. В комнате клана видно, кого сейчас называет каждый. Если погибшие станут подсказывать живым, кто есть кто, ведущий может дать мафии двойное убийство: тогда в /убить указывают и вторую цель.
card-win-town =
    Мирные жители побеждают, когда в живых не остаётся { $foes ->
        [mafia] ни одного мафиози
        [mafia_maniac] ни мафии, ни маньяка
        [mafia_crook] ни мафии, ни жулика
        [mafia_maniac_crook] ни мафии, ни маньяка, ни жулика
        [maniac] маньяка
        [crook] жулика
       *[maniac_crook] ни маньяка, ни жулика
    }.
card-win-mafia =
    Мафия побеждает, когда живых мафиози становится не меньше, чем живых мирных жителей{ $loners ->
        [maniac] , а маньяк мёртв
        [crook] , а жулик мёртв
        [maniac_crook] , а маньяк и жулик мертвы
       *[none] {""}
    }.
card-pistol-lynch = суд Линча
card-pistol-hunt_backfire = неудачная охота
card-clan_member = { $nick } ({ $role })
card-rules = Как писать в игре, голосовать и до какого часа, что будет за молчание — всё это общее для всех, в { $rules }.
announce-turn_open = Начался ход { $turn }. Дедлайн: { $deadline } ({ $relative }).
announce-results = Итоги хода { $turn }
announce-nobody_died = Никто не погиб.
announce-pistol_window = Игрок { $nick } ещё может выстрелить из пистолета, до конца хода.
announce-pistol_window_until = Игрок { $nick } ещё может выстрелить из пистолета, до { $time } ({ $relative }).
announce-note =
    Предсмертная записка вам, её оставил игрок { $author }:
    { $text }
announce-pistol = Вас убили, но у вас есть пистолет: вы можете выстрелить в одного живого игрока командой /выстрелить до конца хода.
announce-pistol_until = Вас убили, но у вас есть пистолет: вы можете выстрелить в одного живого игрока командой /выстрелить до { $time } ({ $relative }).
announce-deprived = Ведущий лишил вас голоса на ход { $turn }: в суде Линча этого хода вы не голосуете, а уже поданный голос снят.
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
lynch-chosen_dead = Больше всего голосов набрал игрок { $nick }, но он погиб раньше, чем его успели казнить (см. ниже): в этот ход никто не казнён.
dawn-deaths = Погибшие
dawn-lynch = Суд Линча
dawn-votes = Голоса
dawn-needed =
    Для казни нужно: { $needed } из { $electorate } { $electorate ->
        [one] голоса
       *[other] голосов
    } (четверть голосующих в этот ход).
dawn-threshold =
    Порог: { $needed ->
        [one] { $needed } голос
        [few] { $needed } голоса
       *[many] { $needed } голосов
    } (¼ от { $electorate } { $electorate ->
        [one] голосующего
       *[other] голосующих
    }), { $cast ->
        [one] подан
       *[other] подано
    } { $cast }.
dawn-nonvoters = Не проголосовали
dawn-nonvoter = { $nick }
dawn-nonvoter_missed = { $nick } ({ $missed }-й пропуск)
dawn-nonvoter_out = { $nick } ({ $missed }-й — выбывает)
dawn-below = Никто не набрал нужного числа голосов: { $needed }.
dawn-none_counted = Ни один голос не учтён.
dawn-uncounted = Неучтённые голоса
dawn-dropped =
    { $nick }: { $count ->
        [one] не учтён { $count } голос
        [few] не учтены { $count } голоса
       *[many] не учтено { $count } голосов
    }, этот игрок погиб до суда Линча ({ $voters }).
dawn-dropped_totals =
    { $nick }: { $count ->
        [one] не учтён { $count } голос
        [few] не учтены { $count } голоса
       *[many] не учтено { $count } голосов
    }, этот игрок погиб до суда Линча.
dawn-not_electorate = Не учтены голоса игроков без права голоса в этот ход: { $voters }.
dawn-not_electorate_totals =
    { $count ->
        [one] Не учтён { $count } голос игрока
        [few] Не учтены { $count } голоса игроков
       *[many] Не учтено { $count } голосов игроков
    } без права голоса в этот ход.
dawn-dead_voters = Засчитаны и голоса погибших в этот ход ({ $voters }): голосовали они ещё днём, до ночи.
dawn-dead_voters_totals =
    { $count ->
        [one] Засчитан и { $count } голос игрока, погибшего
        [few] Засчитаны и { $count } голоса игроков, погибших
       *[many] Засчитано и { $count } голосов игроков, погибших
    } в этот ход: голосовали они ещё днём, до ночи.
dawn-tie =
    Ничья, у каждого { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }: { $tied }. Решает второй по времени голос, поданный за одного из них. Его подал игрок { $by }, и казнён игрок { $hanged }.
dawn-tie_totals =
    Ничья, у каждого { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    }: { $tied }. Решает второй по времени голос, поданный за одного из них: казнён игрок { $hanged }.
dawn-pistols = Пистолеты
dawn-living = Живые игроки ({ $count })
dawn-roles = Роли в этой игре
check-mafia = Проверка: { $target } — мафия.
check-not_mafia = Проверка: { $target } — не мафия.
check-killed_by = Игрок { $target } этой ночью убит; убийца — { $killers } ({ $method }).
check-none = Ход { $turn }. Проверка: { $target } — этой ночью ответа нет.
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
signup-wishes_hint = Роль можно пожелать в меню ниже или командой { $command }: пожелание видно только вам и ведущим, до начала игры его можно изменить или отменить.
signup-wishes = Пожелания: { $tally }.
signup-wishes_none = Пожеланий пока нет.
signup-wish_item = { $role } — { $count }
signup-no_wish_item = без пожелания — { $count }
signup-wish_placeholder = Пожелать роль (видно только вам)
signup-wish_none_option = Без пожелания
signup-wishes_opened = Игроки могут пожелать себе роль. Команда { $command } с параметром { $option } возьмёт роли из пожеланий (остальным — мирные жители).
wish-set = Ваше пожелание — { $role }. Его знаете только вы и ведущие; до начала игры его можно изменить или отменить. Если исполнить его нельзя (такой роли нет в наборе или желающих больше, чем мест), роль выпадет по жребию, и никто не узнает, чьё пожелание не исполнилось.
wish-withdrawn = Пожелание отменено: роль вам выпадет по жребию.
status-signed_up = Вы записаны на игру №{ $game }; запись ещё идёт.
status-wish = Ваше пожелание: { $role }.
status-no_wish = Вы не пожелали роль.
signup-opened = Запись открыта в { $channel }.
roles-set = Роли: { $roles }.
# A role in a role list: "Мирный житель — 5", one of a kind by its name only.
roles-count = { $role } — { $count }
signup-cancelled = Ведущий отменил запись на игру.
dm-header = { $server } · игра №{ $game }
dm-header_table = { $server } · { $table } · игра №{ $game }
reply-header = { $table } · игра №{ $game }
status-header = Вы — { $nick }, { $role }. Ход { $turn }.
status-roles = Роли в этой игре: { $roles }.
status-requests = Ваши заявки в этом ходу:
status-no_requests = В этом ходу заявок нет.
status-request = { $verb }: { $targets }
status-request_note = предсмертная записка, адресат: { $to }
status-posts =
    В этом ходу у вас { $count ->
        [one] { $count } пост
        [few] { $count } поста
       *[many] { $count } постов
    } в игровом канале.
status-paused = Часы остановлены.
status-deadline = Дедлайн: { $deadline } ({ $relative }).
say-done = Опубликовано в { $channel }.
say-no_webhook = Пост не опубликован: я не могу писать под никами в { $channel } (там не хватает моих прав). Ведущим сообщено; напишите снова, когда они это исправят.
say-waiting = Discord пока не принял ваш пост. Он сохранён и появится в { $channel }, как только Discord его примет, один раз и по порядку: не отправляйте его повторно.
say-shown_late = Ваш пост теперь опубликован в { $channel }.
say-ghost_name = { $nick } (призрак)
mafia-board-title = Выбор мафии, ход { $turn }
mafia-board-waiting = Ещё без заявки: { $players }
mafia-board-double = Этой ночью у мафии два убийства: каждый называет двоих, и пары должны совпасть.
mafia-board-agreed = Согласовано: { $targets }
mafia-board-split = Заявки расходятся: убийства не будет
mafia-board-none = Заявок нет: убийства не будет
mafia-agreement_line = { $nick } → { $targets }
profile-done = Ваш профиль сохранён.
post-title = Пост в игровой канал
post-label = Ваш пост
# Команда сообщения «Цитировать» (cogs/quote.py)
quote-head = Цитата: **{ $nick }** — [к посту]({ $link })
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
    { $count ->
        [0] Погибших пока нет
        [one] Погиб { $count } игрок
        [few] Погибли { $count } игрока
       *[many] Погибли { $count } игроков
    }
help-header = Ваши команды сейчас:
help-later = Позже:
help-quote = `{ $name }` (правый клик по посту в #игра, затем Приложения → { $name }): ответить на этот пост, процитировав его.
help-from_turn_2 = со второго хода (в первый ход нет ни суда Линча, ни охоты)
help-from_time = откроется в { $time } ({ $relative })
# The players' guide as /rules shows it during a game (core/cast_text.py): the order of a turn's results.
guide-order = { $steps }.
guide-step-delayed = яд прошлой ночи
guide-step-hunt = охота
guide-step-lynch = суд Линча
guide-step-inactivity = выбывание за неактивность
rules-page = Страница { $page } из { $pages }.
rules-next = Дальше: { $command }
announce-excluded = Решение ведущего: игрок { $nick } исключён из игры.
reminder-vote = Ход { $turn }: вы ещё не проголосовали. Каждый живой игрок обязан проголосовать до дедлайна (/голос).
reminder-post = Ход { $turn }: вы ещё ничего не написали в игровом канале. Кто за ход не напишет ни одного сообщения, пропадает без вести и выбывает (/сказать).
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
announce-mafia_seat = За ник { $nick } теперь играет другой участник, он здесь с вами; прежний из комнаты вышел.
subs-standing_by = Вы в списке замен игры { $game }. Если ведущие передадут вам ник, карточка роли придёт вам в личные сообщения. Выйти из списка: /замена выйти.
subs-stood_down = Вы вышли из списка замен игры { $game }.
subs-asked = Ведущим передано, что вы ({ $nick }) просите замену. Играйте дальше, пока ник не передадут.
announce-downtime = Ход { $turn }: ведущий был недоступен { $minutes } мин. — не меньше десятой части хода. Поэтому в этом ходу никто не выбывает за неактивность и пропуск голосования не засчитывается.
announce-explain_votes = Объясните свой голос и задавайте вопросы тем, кого подозреваете.
pistol-placeholder = В кого вы стреляете?
pistol-done = Ход { $turn }. Выстрел принят: { $nick }. В итогах его объявят, как только отстреляются все, у кого есть право на выстрел.
announce-mafia_left = Погиб игрок { $nick } и покидает эту комнату.
announce-ghost_joined = Игрок { $nick } входит в комнату призраков.
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
archive-member_unknown = имя неизвестно
archive-replacements = Замены
archive-replacement = { $nick } (ход { $turns })
archive-member_then = { $before }, с хода { $turn } { $after }
archive-wish = Пожелание
archive-no_wish = без пожелания
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
archive-story = Рассказ ведущего
archive-unpublished = Ведущий ещё не опубликовал итоги этого хода.
archive-hidden = Что было скрыто во время игры
archive-requests = Заявки и что с ними стало
archive-refused = Отклонённые заявки
archive-refused_line = { $by }: { $verb } → { $targets }, отказ: { $reason }
archive-checks = Проверки комиссара
archive-check = { $commissar } → { $target }: { $answer }.
archive-answer-mafia = мафия
archive-answer-not_mafia = не мафия
archive-answer-none = ответа нет
archive-mafia = Комната мафии: заявки на убийство
archive-kill_request = { $by } → { $targets }
archive-notes = Предсмертные записки
archive-note = { $author } → { $to }: { $text }
archive-members_hidden = Ведущий решил не раскрывать, кто стоял за никами.
archive-footer = Архив игры в форумную мафию, составленный ведущим по окончании игры.

## Зрители комнаты призраков (R62)
ghosts-watching = Вы смотрите комнату призраков: { $room }. Её можно читать, но не писать в ней; стать запасным в этой игре вы больше не сможете. Чтобы перестать, наберите /смотреть с параметром «перестать».
ghosts-room_soon = она откроется с первой смертью
ghosts-stopped = Вы больше не смотрите комнату призраков.
ghosts-the_room = комнате призраков
