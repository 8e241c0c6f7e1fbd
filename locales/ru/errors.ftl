### Refusals and errors: private replies to the member who asked.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

error-unexpected = Что-то пошло не так на моей стороне. Ничего не потеряно; попробуйте ещё раз чуть позже.
error-guild_only = Эта команда работает только на сервере.
error-cooldown =
    Не так быстро: попробуйте снова через { $seconds ->
        [one] { $seconds } секунду
        [few] { $seconds } секунды
       *[many] { $seconds } секунд
    }.
error-bot_missing_permissions = Мне не хватает прав: { $permissions }.
error-not_allowed = Здесь эту команду использовать нельзя.
error-bad_option = Не понимаю значение «{ $value }».
error-outdated_command = Эта команда изменилась. Перезапустите Discord (Ctrl+R), чтобы загрузить новую версию.
error-not_host = Это могут только ведущие: участники с правом «Управлять сервером» или с ролью { $role }.
error-not_host_no_role = Это могут только ведущие: участники с правом «Управлять сервером» (роль ведущего не задана).
error-not_set_up = Игровые каналы ещё не созданы: сначала ведущий должен выполнить /мафия настройка.
error-no_running_game = На этом сервере сейчас нет игры.
error-not_a_player = Вы не участвуете в текущей игре.
error-quote_not_in_game = Цитировать можно только пост из игрового канала этой игры.
error-quote_not_a_post = Цитировать можно только пост игрока или объявление ведущего.
error-image_format = Этот файл нельзя опубликовать как картинку: пришлите изображение JPEG, PNG, GIF или WebP.
error-image_too_large = Картинка слишком большая: не больше 10 МБ и 40 мегапикселей.
error-image_download = Не удалось скачать картинку из Discord: попробуйте ещё раз.
error-say_empty = Нечего публиковать: напишите текст, приложите картинку или и то и другое.
error-unknown_nick = В этой игре нет игрока с ником «{ $nick }».
error-no_signup = Запись на игру сейчас не открыта.
error-already_joined = Вы уже записались.
error-not_joined = Вы не записаны.
error-signup_full = Мест больше нет: в игре может быть не больше { $maximum ->
        [one] { $maximum } игрока
       *[other] { $maximum } игроков
    }, и все они уже записались.
error-no_wishes = В этой игре роли не заказывают: ведущий открыл запись без пожеланий.
error-unknown_wish = Роль «{ $role }» пожелать нельзя: выберите роль из списка или «Без пожелания».
error-game_exists = На сервере уже есть открытая игра: сначала завершите её.
error-wait_for_pistol = Дождитесь, пока закроется окно выстрела.
error-already_paused = Часы уже остановлены.
error-not_paused = Часы не остановлены.
error-bad_schedule = Неизвестное расписание: выберите форумное или быстрое.
error-bad_timezone = Неизвестный часовой пояс: укажите, например, Europe/Moscow или UTC.
error-bad_turn_length = Быстрый ход длится от 1 до 1440 минут.
error-bad_time = Это не время суток.
error-bad_hunt_time = Охота должна открываться до дедлайна.
error-setup-too_few_players = Слишком мало игроков: { $players }; нужно хотя бы { $minimum }.
error-setup-unknown_role = Неизвестная роль в списке: { $role }. Роли: { $known }.
error-setup-sergeant_without_commissar = Сержанту нужен комиссар.
error-setup-foundling_without_boss = Подкидышу нужен босс.
error-setup-empty_nick = Пустой ник.
error-setup-duplicate_role = Роль { $role } может быть в игре только одна (в списке { $count }).
error-setup-duplicate_nick = Два одинаковых ника ({ $nick }).
error-setup-mixed_script_nick = В нике «{ $nick }» смешаны латиница и кириллица: ник должен быть написан буквами одного алфавита.
error-setup-bad_count = Пишите список как роль=число, например mafioso=2 villager=5 («{ $count }» — не число для { $role }).
error-setup-too_many_roles =
    В списке больше { $maximum ->
        [one] { $maximum } роли
       *[other] { $maximum } ролей
    }, а в игре может быть не больше { $maximum ->
        [one] { $maximum } игрока
       *[other] { $maximum } игроков
    }.
error-setup-too_many_players = Слишком много игроков: { $players }; в игре может быть не больше { $maximum }.
error-setup-role_list_too_long =
    Список ролей слишком длинный ({ $length ->
        [one] { $length } знак
        [few] { $length } знака
       *[many] { $length } знаков
    }, можно не больше { $maximum }). Пишите его как роль=число, например mafioso=2 villager=5.
error-empty_text = Нечего публиковать: текст пустой или состоит из одних невидимых символов.
error-empty_note = В предсмертной записке должны быть слова, а эта пустая или из одних невидимых символов. Записку вы по-прежнему можете написать.
error-bad_extend =
    Срок можно сдвинуть за раз на 1–{ $maximum ->
        [one] { $maximum } минуту
        [few] { $maximum } минуты
       *[many] { $maximum } минут
    }.
refusal-game_over = Игра окончена.
refusal-request_closed = Заявки сейчас не принимаются: дождитесь следующего хода.
error-review_pending = Ведущий готовит итоги хода: следующий ход откроется, когда они будут опубликованы.
error-review_published = Эти итоги уже опубликованы.
error-bad_review = Время на проверку итогов — от 0 до { $maximum } минут.
refusal-dead_sender = Вы погибли, а погибшие заявок не подают.
refusal-dead_target = Этот игрок мёртв.
refusal-wrong_role = Вашей роли это недоступно.
refusal-not_town = Это могут только мирные жители.
refusal-no_lynch_on_turn_1 = В первый ход суда Линча нет.
refusal-no_hunt_on_turn_1 = В первый ход охоты нет.
refusal-hunt_not_open = Охота ещё не открыта.
refusal-hunt_opens_at = Охота ещё не открыта: она откроется в <t:{ $opens }:t> (<t:{ $opens }:R>).
refusal-vote_deprived = Ведущий лишил вас голоса в этом ходу.
refusal-self_target = Нельзя выбрать себя.
refusal-own_mafia_target = Нельзя выбрать члена мафии.
refusal-double_kill_not_granted = В этом ходу у мафии одно убийство.
refusal-same_targets = Выберите двух разных игроков.
refusal-injection_used = Смертельный укол уже сделан.
refusal-same_heal_target = Нельзя лечить одного игрока два хода подряд.
refusal-note_already_sent = Вы уже написали предсмертную записку.
refusal-no_pistol = У вас нет пистолета.
refusal-already_dead = Этот игрок уже мёртв.
refusal-already_deprived = Этот игрок уже лишён голоса в этом ходу.
refusal-already_granted = Двойное убийство в этом ходу уже разрешено.
error-turn_already_resolved = Итоги хода { $turn } уже подведены: ничего не изменилось.
error-game_changed = Пока я обрабатывал вашу команду, игра изменилась, и ничего не записано. Отправьте её ещё раз.
error-confirmation_expired = Это подтверждение устарело: выполните команду ещё раз.
error-already_playing = Этот участник уже играет в этой игре.
error-bot_cannot_play = Бот не может играть.
error-standby_playing = Вы играете в этой игре, а игроки в замены не записываются. Если хотите выйти, попросите ведущих командой /замените_меня.
error-standby_replaced = Вас уже заменили в этой игре, и вернуться в неё нельзя, даже заменой.
error-not_standing_by = Вас нет в списке замен этой игры.
error-replaceme_dead = Ваш персонаж погиб, передавать уже нечего.
error-no_substitutes = В списке замен никого нет. Укажите участника в поле «участник» или подождите, пока кто-нибудь запишется командой /замена.
error-replace_seat_changed = Ник { $nick } только что передан другой командой, ничего не изменено. Посмотрите /мафия состояние и /мафия замены, прежде чем менять снова.
error-replace_dead = Игрок { $nick } погиб, а заменить можно только живого.
error-replace_replaced = Этого участника уже заменили в этой игре, вернуться в неё он не может.
error-replace_left_list = Первый в списке замен только что из него вышел, ничего не изменено. Повторите команду, и ник получит следующий.
error-barred = Ведущие запретили вам записываться на игры этого сервера. Причина: { $reason }
error-barred_until = Ведущие запретили вам записываться на игры этого сервера до { $until }. Причина: { $reason }
error-not_barred = У этого участника нет запрета.
error-bad_bar_days = Запрет даётся на срок от 1 до { $maximum } дней; оставьте срок пустым, чтобы запрет действовал, пока вы его не снимете.
error-bad_avatar = Аватар должен быть ссылкой https:// на картинку.
error-avatar_not_https = Аватар должен быть ссылкой https://: простые ссылки http:// не принимаются (картинку по дороге может подменить кто угодно).
error-avatar_discord_profile = Это аватар или баннер участника Discord: ваши анонимные посты не могут носить лицо реального участника. Загрузите картинку через параметр «картинка» или дайте ссылку на другую.
error-profile_empty = Укажите аватар, подпись или и то и другое.
error-setup-too_few_mafia =
    Мало мафии: { $mafia } на { $players ->
        [one] { $players } игрока
       *[other] { $players } игроков
    }; нужно хотя бы { $need } (четверть игроков).
error-setup-too_many_mafia =
    Слишком много мафии: { $mafia } против { $town ->
        [one] { $town } мирного жителя
       *[other] { $town } мирных жителей
    }; мафия победила бы до начала игры.
error-setup-too_many_loners =
    Без мафии одиночек должно быть меньше, чем мирных: { $loners } против { $town ->
        [one] { $town } мирного
       *[other] { $town } мирных
    }.
error-setup-count_mismatch =
    { $players ->
        [one] Записался { $players } игрок
        [few] Записались { $players } игрока
       *[many] Записалось { $players } игроков
    }, а в списке { $roles ->
        [one] { $roles } роль
        [few] { $roles } роли
       *[many] { $roles } ролей
    }: измените список (/мафия роли) или дождитесь игроков.
error-wrong_channel = Игровые команды работают в каналах игры: используйте их в { $channel }.
error-which_table = На этом сервере несколько столов: используйте команду в каналах нужного стола ({ $tables }).
error-no_table = Стола «{ $name }» на этом сервере нет.
error-table_busy = За столом { $table } идёт игра или запись: сначала закончите её командой /мафия завершить в каналах этого стола.
error-table_name_taken = Стол «{ $name }» на этом сервере уже есть.
