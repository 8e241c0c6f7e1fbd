### Server set-up, permissions, delivery problems and the hosts' commands.
### Ids are the code's dotted keys with dashes: play.accepted.vote -> play-accepted-vote.

setup-host_role_everyone = @everyone не может быть ролью ведущего: ведущими стали бы все.
setup-host_role_needs_manage_guild = Сменить роль ведущего может только участник с правом «Управлять сервером».
setup-bot_missing_permissions = Не могу настроить игру: моей роли не хватает прав на сервере: { $permissions }. Выдайте их моей роли в Настройках сервера → Роли (или дайте ей права администратора) и снова выполните /мафия настройка.
setup-forbidden = Discord не дал мне изменить { $channel }. Дайте моей роли доступ к нему или удалите его и снова выполните /мафия настройка.
setup-done = Игра настроена в категории { $category }: { $game } — для рассказа ведущего и анонимных постов, { $discussion } — для открытого обсуждения, { $mafia } — для комнаты мафии (закрытая ветка, которую бот откроет для мафии, когда начнётся игра), { $host } — для ведущих. Язык: { $language }. Роль ведущего: { $host_role }.
setup-created = Создано: { $items }.
setup-repaired = Исправлено: { $items }.
setup-unchanged = Всё уже было на месте.
setup-no_host_role = не задана: вести игру может любой с правом «Управлять сервером»
setup-table = Стол «{ $table }».
tables-title = { $count ->
    [one] На этом сервере { $count } стол:
    [few] На этом сервере { $count } стола:
   *[many] На этом сервере { $count } столов:
}
tables-line = **{ $table }**: { $channel }; язык: { $language }; роль ведущего: { $host_role }; { $game }
tables-game-none = игры нет
tables-game-signup = игра №{ $game }, идёт запись ({ $count ->
    [one] записался { $count } игрок
    [few] записались { $count } игрока
   *[many] записалось { $count } игроков
})
tables-game-running = игра №{ $game }, ход { $turn }, { $phase }, в живых { $alive } из { $count }
host-droptable_preview = Убрать стол { $table } сейчас? Его категория и каналы ({ $channels }) будут удалены вместе со всем, что в них написано; завершённые игры останутся в записях бота.
host-table_dropped = Стол { $table } убран.
host-purge_preview = Удалить личные данные, которые бот хранит для этого сервера? Участник: { $member }. Во всех завершённых играх всех столов сервера его место больше не будет связано с ним (ник, роль и ходы игры останутся, но анонимно), его записи на игры будут удалены, а журнал ведущих перестанет его называть. Отменить это нельзя.
host-purged = { $count ->
    [0] Участник { $member } больше не упоминается в журнале ведущих; в завершённых играх этого сервера его данных не осталось.
    [one] Участник { $member } больше не упоминается ни в журнале ведущих, ни в { $count } завершённой игре: его личные данные удалены.
   *[other] Участник { $member } больше не упоминается ни в журнале ведущих, ни в { $count } завершённых играх: его личные данные удалены.
}
host-purge_busy = Участник { $member } сейчас в игре за столом { $table } (идёт запись или игра): удалите его данные, когда эта игра закончится.
audit-droptable = Форумная мафия: /мафия убрать_стол (участник { $user })
audit-setup = Форумная мафия: /мафия настройка (участник { $user })
channel-category = Мафия
channel-game = игра
channel-discussion = обсуждение
channel-mafia = мафия
channel-host = ведущий
channel-mafia_thread = мафия-игра-{ $game }
channel-ghost_room = призраки-игра-{ $game }
topic-game = Игра: рассказ ведущего и анонимные посты игроков. Играйте слеш-командами: здесь пишет только ведущий, посты игроков выходят под их никами.
topic-discussion = Вопросы ведущему и об устройстве игры. Здесь видно ваше имя, поэтому о самой игре пишите в #игра.
topic-mafia = Комната мафии каждой игры — закрытая ветка здесь: её видят только участники.
topic-ghost_room = Комната призраков: здесь говорят погибшие этой игры (через /сказать), читают ведущие и зрители.
topic-host = Канал ведущих.
host-display_name = Ведущий
perm-view_channel = Просматривать каналы
perm-send_messages = Отправлять сообщения
perm-send_messages_in_threads = Отправлять сообщения в ветках
perm-create_public_threads = Создавать публичные ветки
perm-create_private_threads = Создавать приватные ветки
perm-embed_links = Встраивать ссылки
perm-attach_files = Прикреплять файлы
perm-add_reactions = Добавлять реакции
perm-read_message_history = Читать историю сообщений
perm-use_application_commands = Использовать команды приложения
perm-manage_channels = Управлять каналами
perm-manage_roles = Управлять ролями
perm-manage_webhooks = Управлять вебхуками
perm-manage_threads = Управлять ветками
delivery-dm_failed = Не удалось отправить личное сообщение: у игрока закрыты личные сообщения. Игрок: { $nick } ({ $user }). Прочитать сообщение можно командами /роль и /статус.
secrecy-join_refused = Вы не можете играть в этой игре: вам видна комната мафии или канал ведущих ({ $reasons }). Попросите администратора снять эти права или играйте с другого аккаунта. Ведущий, который хочет играть, сначала отказывается от прав ведущего.
secrecy-substitute_refused = Участник { $member } не может играть: ему видна комната мафии или канал ведущих ({ $reasons }). Выберите другого участника или сначала снимите эти права.
secrecy-reason-administrator = право «Администратор» на сервере
secrecy-reason-host = права ведущего: «Управлять сервером» или роль ведущего
secrecy-reason-manage_threads = право «Управлять ветками» в { $channel }
secrecy-reason-manage_channels = право «Управлять каналами» в { $channel }
secrecy-reason-view_host = доступ к { $channel }
secrecy-start_refused =
    Игру нельзя начать: эти записавшиеся участники могут читать комнату мафии или канал ведущих.
    { $members }
    Снимите с них эти права или попросите их выписаться (/выписаться), затем начните снова.
secrecy-start_member = - { $member } (@{ $account }): { $reasons }
server-player = игрок { $nick } ({ $user })
server-exposure = { $reason } (через { $via })
server-reader_gained = Игрок { $nick } ({ $user }) теперь видит больше, чем позволяет его место в игре: { $reasons }. Снимите эти права или передайте ник другому участнику командой /мафия заменить.
server-reader_lost = Игрок { $nick } ({ $user }) больше не видит: { $reasons }.
server-via-owner = владение сервером
server-via-role = роль { $role }
server-via-host_role = роль ведущего этого стола { $role }
server-via-role_overwrite = особые права для { $role } в { $channel }
server-via-member_overwrite = особые права лично для него в { $channel }
server-via-unknown = права на сервере
server-room_intruder_removed = В комнату мафии добавили участника, который не входит в живую мафию этой игры и не ведёт её: { $member }. Я сразу удалил его оттуда; то, что он успел прочитать, уже не вернуть.
server-room_intruder_kept = В комнату мафии добавили участника, который не входит в живую мафию этой игры и не ведёт её: { $member }. Удалить его я не смог (нужно право «Управлять ветками» в #мафия): удалите его из ветки вручную.
server-ghost_intruder_removed = Участник { $member } получил доступ к комнате призраков, хотя не погиб в этой игре, не зритель и не ведущий. Я сразу убрал этот доступ; прочитанное им раньше уже не отменить.
server-ghost_intruder_kept = Участник { $member } может читать комнату призраков, хотя не погиб в этой игре, не зритель и не ведущий, а убрать доступ я не смог (мне нужно право «Управлять ролями» в этом канале). Уберите его вручную.
server-room_restored = Живого члена мафии не оказалось в комнате мафии, я вернул его туда: { $member }.
server-room_reopened = Комнату мафии удалили: я открыл её заново с живыми членами мафии ({ $members }). Всё, что было написано в старой комнате, потеряно.
server-room_broken_no_parent = Канал мафии удалён, а с ним и комната мафии. Запустите /мафия настройка, чтобы восстановить каналы; при следующей проверке комната откроется заново с живыми членами мафии.
server-room_broken_forbidden = Комната мафии пропала, а открыть её заново в { $channel } я не могу: у моей роли там нет прав на ветки. Запустите /мафия настройка, чтобы починить каналы.
server-player_returned = Вернулся на сервер: { $member }.
server-player_returned_room_added = Я вернул его в комнату мафии.
server-player_returned_room_failed = Вернуть его в комнату мафии я не смог (нужны права «Отправлять сообщения в ветках» и «Управлять ветками» в #мафия).
server-host_role_deleted = Роль ведущего этого стола ({ $role }) удалена. Пока новая не задана командой /мафия настройка роль_ведущего:, команды ведущего доступны только участникам с правом «Управлять сервером».
start-done =
    Игра началась: { $players ->
        [one] { $players } игрок
        [few] { $players } игрока
       *[many] { $players } игроков
    } ({ $roles }). Ход 1 закончится { $deadline }.
host-extended = Новый дедлайн: { $deadline }.
host-paused = Часы остановлены.
host-resumed = Часы снова идут; дедлайн: { $deadline }.
host-ended = Игра завершена; все роли раскрыты в игровом канале.
host-excluded = Игрок { $nick } исключён.
host-deprived = Игрок { $nick } лишён голоса в этом ходу.
host-double_kill = У мафии два убийства в этом ходу.
host-resolve_preview =
    Подвести итоги хода { $turn } сейчас? Заявки: { $requests }. В живых { $alive ->
        [one] { $alive } игрок
        [few] { $alive } игрока
       *[many] { $alive } игроков
    }; ещё не проголосовали: { $not_voted }; ещё не писали: { $not_posted }.
host-resolve_preview_turn_1 =
    Подвести итоги хода { $turn } сейчас? Заявки: { $requests }. В живых { $alive ->
        [one] { $alive } игрок
        [few] { $alive } игрока
       *[many] { $alive } игроков
    }; ещё не писали: { $not_posted }. Голосования в первый ход нет.
host-resolve_preview_pistol = Не ждать больше выстрелов хода { $turn }? Ещё могут выстрелить: { $pistols }.
host-resolve_preview_removed = Выбудут из игры, если подвести итоги сейчас (если не погибнут раньше): { $players }.
host-resolve_preview_nobody_removed = За неактивность никто не выбудет.
host-resolve_preview_not_voted = Ещё не проголосовали: { $players }.
host-removal_inactive = { $nick } (пропал без вести: ни одного сообщения за ход)
host-removal_missed_votes = { $nick } (второй пропуск голосования)
host-and_more = и ещё { $count }
host-resolved_turn = Итоги хода { $turn } подведены.
confirm-button = Подтвердить
confirm-cancel_button = Отмена
confirm-working = Подтверждено.
confirm-cancelled = Отменено: ничего не изменилось.
host-signup_cancelled = Запись на игру отменена.
host-end_preview = Закончить игру №{ $game } сейчас (ход { $turn })? Все роли будут раскрыты в игровом канале.
host-cancel_signup_preview =
    Отменить запись на игру №{ $game } (в записи: { $count ->
        [one] { $count } игрок
        [few] { $count } игрока
       *[many] { $count } игроков
    })?
host-exclude_preview = Исключить игрока сейчас? Ник: { $nick }. Исключение и роль будут объявлены сразу.
host-exclude_reason = Причина: { $reason }
host-player_left = Игрок { $nick } ({ $user }) покинул сервер. Передайте ник замене командой /мафия заменить.
host-replaced = Ник { $nick } передан новому игроку; карточка роли отправлена.
host-replace_asked = Игрок { $nick } просит замену. Кто ждёт замены: /мафия замены; передать ник: /мафия заменить.
host-replace_asked_reason = Игрок { $nick } просит замену: { $reason } Кто ждёт замены: /мафия замены; передать ник: /мафия заменить.
host-barred = Участник { $member } не может записываться на игры этого сервера, пока вы не снимете запрет (/мафия снять_запрет).
host-barred_until = Участник { $member } не может записываться на игры этого сервера до { $until }.
host-unbarred = Участник { $member } снова может записываться.
subs-standing_title = **Ждут замены** (в порядке записи):
subs-standing_line = { $rank } — { $member }
subs-standing_none = никого
subs-asked_title = **Просят их заменить:**
subs-asked_line = { $nick }
subs-asked_reason = { $nick }: { $reason }
subs-asked_none = никто
state-header = Ход { $turn }, этап: { $phase }.
phase-open = приём заявок
phase-pistol = ждём выстрела убитого комиссара
phase-over = игра окончена
state-alive =
    { $nick }: { $role }, { $user }, { $posts ->
        [one] { $posts } пост
        [few] { $posts } поста
       *[many] { $posts } постов
    }, заявки: { $requests }
state-dead = { $nick }: { $role }, { $user }, вне игры ({ $cause })
state-wish = пожелание: { $role }
state-no_wish = без пожелания
state-signup =
    Игра №{ $game }: идёт запись, { $count ->
        [one] { $count } участник
        [few] { $count } участника
       *[many] { $count } участников
    }.
state-signup_line = { $user }: { $wish }
delivery-forbidden = Не могу писать в { $channel }: моей роли не хватает там прав: { $permissions }. Ничего не потеряно: объявление ждёт и уйдёт, когда права вернутся (/мафия настройка чинит каналы).
delivery-missing_game = Игровой канал { $channel } удалён: объявления игры и посты игроков ждут, ничего не потеряно. Выполните /мафия настройка, чтобы пересоздать его; тогда всё выйдет туда по порядку.
delivery-missing_mafia = Канал мафии { $channel } удалён: новости для комнаты мафии ждут, ничего не потеряно. Выполните /мафия настройка, чтобы пересоздать его; комната откроется снова, и новости выйдут по порядку.
delivery-ghosts_broken = Не могу открыть комнату призраков этой игры или писать в неё (мне нужны права «Управлять каналами», «Управлять ролями» и «Управлять вебхуками» в категории стола). Ничего не потеряно: посты призраков и их доступ ждут и уйдут, когда права вернутся.
delivery-missing_host = Канал ведущих { $channel } удалён: ночные сводки и строки команд ведущих ждут, ничего не потеряно. Выполните /мафия настройка, чтобы пересоздать его; тогда они выйдут туда по порядку.
delivery-told_in_private = Пишу вам в личные сообщения, потому что не могу писать в канал ведущих этого стола.
delivery-no_webhook = Не удалось опубликовать пост игрока в { $channel }: я не могу писать там под никами (моей роли не хватает права «Управлять вебхуками», а мой вебхук удалён). Выдайте моей роли это право в канале (/мафия настройка чинит канал); игроку сказано написать снова после этого.
delivery-stuck =
    Discord уже { $minutes ->
        [one] { $minutes } минуту
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    } не принимает объявления этой игры. Ничего не потеряно: я продолжаю попытки, и они выйдут по порядку, как только Discord их примет.
start-bot_missing_permissions = Не могу начать игру: моей роли не хватает прав на сервере: { $permissions }. Выдайте их моей роли в Настройках сервера → Роли и снова выполните /мафия старт.
start-mafia_room_missing_permissions = Не могу начать игру: мне не хватает прав в { $channel }, где открывается комната мафии (закрытая ветка): { $permissions }. Выдайте их моей роли (или выполните /мафия настройка, чтобы починить канал) и снова выполните /мафия старт.
start-mafia_access_failed = Внимание: не удалось открыть комнату мафии в { $channel } (там не хватает прав). Выполните /мафия настройка, чтобы починить каналы; я открою её снова со следующей новостью для мафии.
### The hosts' console in #host: the night's account, the audit lines, /mafia log and /mafia state.
console-account-title = **Ход { $turn }: полный отчёт для ведущих**
console-requests = Заявки:
console-no_requests = Заявок не было.
console-request = - { $by }: { $verb } → { $targets }: { $fate }
console-request_attack = - { $by }: { $verb } → { $fate }
console-fate-dead = не исполнено: отправитель уже мёртв
console-fate-blocked = не исполнено: блок путаны
console-fate-role = не исполнено: у отправителя уже другая роль
console-fate-none = ответа нет
console-fate-dead_before = ответа нет: комиссар или проверяемый был мёртв к началу ночи
console-fate-mafia = ответ: мафия
console-fate-not_mafia = ответ: не мафия
console-fate-slandered = (клевета баламута)
console-fate-saved = спасение от: { $causes }
console-fate-no_attack = нападения не было
console-fate-done = исполнено
console-fate-counted = засчитано
console-fate-deprived = не засчитано: ведущий лишил голоса
console-fate-candidate_dead = не засчитано: кандидат погиб раньше
console-fate-not_counted = не засчитано
console-fate-stolen = кража голоса: { $robbed } → { $candidate }
console-fate-nothing_to_steal = красть нечего: не голосовал игрок { $robbed }
console-fate-no_own_vote = голос пропал (жулик сам не голосовал): { $robbed }
console-fate-vote_stolen = кража (жулик { $crook }), засчитано за: { $candidate }
console-fate-vote_lost = кража (жулик { $crook }): голос пропал, жулик сам не голосовал
console-fate-no_lynch_today = в первый ход суда Линча нет
console-hit-killed = { $target }: смерть
console-hit-poisoned = { $target }: яд, смерть при следующих итогах
console-hit-dead = { $target }: уже не в игре
console-hit-immune = { $target }: неуязвимость
console-hit-protected = { $target }: под защитой (лечение: { $by })
console-hit-stand_in = { $target }: удар принял другой — { $by }
console-hit-spared = { $target }: пощада, теперь в мафии
console-hit-disagreed = { $target }: убийства нет, заявки мафии расходятся
console-hit-backfire = { $target }: не мафия, охотник погиб
console-hit-not_carried = { $target }: охота не состоялась, раньше была другая
console-deaths = Смерти:
console-no_deaths = Никто не погиб.
console-death = - { $nick } ({ $role }): { $cause }
console-death_by = - { $nick } ({ $role }): { $cause }; кто: { $killers }
console-lynch =
    Суд Линча, { $electorate ->
        [one] { $electorate } голосующий
       *[other] { $electorate } голосующих
    }:
console-tally = - { $nick }: { $count ->
        [one] { $count } голос
        [few] { $count } голоса
       *[many] { $count } голосов
    } ({ $voters })
console-no_votes = - засчитанных голосов нет
console-hanged = Казнь: { $nick }
console-not_hanged = Казни нет.
console-chosen_dead = Суд Линча выбрал уже погибшего игрока — { $nick }: никто не казнён.
console-deprived = Без права голоса: { $players }
console-pistols = Право выстрела: { $players }
console-audit = { $user }: { $command }{ $details }
console-audit-minutes = , на { $minutes ->
        [one] { $minutes } минуту
        [few] { $minutes } минуты
       *[many] { $minutes } минут
    }
console-audit-player = , игрок { $player }
console-audit-reason = , причина: { $reason }
console-audit-turn = , ход { $turn }
console-audit-pistol = , ждём выстрела
console-audit-member = , новый участник: { $member }
console-audit-signup = , набор отменён
console-audit-text = : «{ $text }»
console-log-title = Журнал ведущих, страница { $page } из { $pages }
console-log-empty = Журнал пуст.
console-downtime = Ход { $turn }: бот не мог вести эту игру { $minutes } мин. ({ $percent }% хода: бот не работал или Discord не отвечал).
console-downtime_excused = Это не меньше десятой части хода: никто не выбыл за неактивность, пропуски голосования не засчитаны.
console-downtime_counted = Это меньше десятой части хода: неактивность и пропуски голосования засчитаны как обычно.
console-log-prev = Назад
console-log-next = Вперёд
console-log-not_yours = Листать этот журнал может только открывший его ведущий; выполните /мафия журнал сами.
console-state-players = Игроки: { $count }
console-state-spectators = Смотрят комнату призраков: { $count }

## Свои пресеты сервера (/mafia preset)
preset-saved = Пресет «{ $name }» сохранён: { $roles }.
preset-replaced = Пресет «{ $name }» заменён: { $roles }.
preset-deleted = Пресет «{ $name }» удалён.
preset-list_title = Пресеты этого сервера ({ $count } из { $maximum }):
preset-line = **{ $name }** (игроков: { $players }): { $roles }
preset-none = Пока нет ни одного: сохраните пресет командой /мафия пресет сохранить.
preset-builtin = Стандартный, игроков: { $players }
## Комната призраков (R62)
ghosts-opened = Погибшие будут говорить в своей комнате, а не в игровом канале.
ghosts-opened_spectators = Погибшие будут говорить в своей комнате, а не в игровом канале; неиграющие участники могут смотреть её через /смотреть.
