""" "language per reader": a private reply to an interaction (its response and
followups, a refusal, a confirmation preview and its result, a button's or a select's reply)
is in the reader's language, the locale Discord tells of his client: Russian for ``ru``,
English for ``en-US``/``en-GB``, the game's language for any other (``uk``, ``de``). Public
messages (#game, the mafia's room, #host, the sign-up post) and DMs, where Discord tells no
locale, are in the game's language."""

from __future__ import annotations

import pytest
from simcord import Env, MemberActor

from bot.render import (
    render_role_card,
    resolve_preview,
    role_name,
    role_summary,
    timestamp,
)
from bot.signup import JOIN_ID
from core.i18n import Lang, t
from core.zones import said_time
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    client_locale,
    confirm_button,
    confirmed_text,
    dm_texts,
    kill_board_text,
    live_game,
    mafia_room,
    make_world,
    message_text,
    pistol_prompt,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=1 commissar=1 villager=2"
NAMES = ("ann", "ben", "cat", "dan")


def card_reply(world: World, actor: MemberActor, lang: Lang) -> str:
    """The role card ``actor`` reads in ``lang``."""
    service = bot_of(world.env).service
    card = service.card(world.guild.id, actor.id)
    game = service.game_in(world.guild.id)
    assert game is not None
    return render_role_card(lang, card, game.schedule, game.record.activity_rules)


@pytest.mark.usefixtures("russian_clients")
async def test_a_russian_game_answers_an_english_client_in_english(simcord_env: Env) -> None:
    world = make_world(simcord_env, locale="ru")
    players = add_players(world, NAMES)
    await start_game(world, ROLES, players, lang="ru")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, _com = seats["commissar"]
    game_ch = slot(world, "game")

    with client_locale(maf, "en-US"):
        assert reply_text(await maf.slash(game_ch, "role")) == card_reply(world, maf, "en")
        status = reply_text(await maf.slash(game_ch, "status"))
        header = t("en", "status.header", nick=maf_nick, role=role_name("en", "mafioso"), turn=1)
        assert status.startswith(header)
        refused = await refusal(world.env, maf.slash(game_ch, "vote", target=com_nick))
        assert refused == t("en", "refusal.no_lynch_on_turn_1")
        accepted = reply_text(await maf.slash(game_ch, "kill", target=com_nick))
        deadline = live_game(world).record.deadline
        assert deadline is not None
        until = t("en", "play.change_until", time=said_time("en", deadline, "UTC"))
        kill = t("en", "play.accepted.kill", target=com_nick, turn=1)
        assert accepted == f"{kill}\n{until}"
        said = reply_text(await maf.slash(game_ch, "say", text="Hello."))
        assert said == t("en", "say.done", channel=game_ch.mention)

    # What everybody reads is in the game's language: the mafia's room, #game, his DMs.
    board = kill_board_text(mafia_room(world), 1, "ru")
    assert f"{maf_nick} → {com_nick}" in board
    assert t("ru", "mafia.board.agreed", targets=com_nick) in board
    [card] = dm_texts(maf)
    assert card == card_reply(world, maf, "ru")
    assert any(message_text(m).startswith("Начался ход 1") for m in game_ch.history())
    await until_deadline(world)
    assert any(message_text(m).startswith("Итоги хода 1") for m in game_ch.history())
    # The others' clients are Russian: their replies are Russian.
    villager = seats["villager"][1]
    assert reply_text(await villager.slash(game_ch, "role")) == card_reply(world, villager, "ru")


async def test_an_english_game_answers_a_russian_client_in_russian(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, NAMES)
    reader = players[0]
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    game_ch = slot(world, "game")
    signup = game_ch.last_message
    assert signup is not None

    with client_locale(reader, "ru"):
        joined = reply_text(await reader.click(signup, custom_id=JOIN_ID))
        assert joined == t("ru", "signup.joined", count=1)
        for actor in players[1:]:
            reply_text(await actor.slash(game_ch, "join"))
        assert "Signed up: 4" in game_ch.history()[0].content  # the public post: English
        reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
        reply_text(await world.admin.slash(world.lobby, "mafia start"))

        assert reply_text(await reader.slash(game_ch, "role")) == card_reply(world, reader, "ru")
        other_nick = next(p.nick for p in live_game(world).players if p.user_id != reader.id)
        refused = await refusal(world.env, reader.slash(game_ch, "vote", target=other_nick))
        assert refused == t("ru", "refusal.no_lynch_on_turn_1")
        said = reply_text(await reader.slash(game_ch, "say", text="Привет."))
        assert said == t("ru", "say.done", channel=game_ch.mention)

    [card] = dm_texts(reader)
    assert card == card_reply(world, reader, "en")
    assert any(message_text(m).startswith("Turn 1 begins") for m in game_ch.history())
    # Another member's client is SimCord's en-US: English.
    other = players[1]
    assert reply_text(await other.slash(game_ch, "role")) == card_reply(world, other, "en")


@pytest.mark.parametrize(
    ("game", "locale", "expected"),
    [("ru", "uk", "ru"), ("en", "uk", "en"), ("ru", "de", "ru"), ("ru", "en-GB", "en")],
)
async def test_a_client_without_a_catalogue_reads_the_games_language(
    simcord_env: Env, game: Lang, locale: str, expected: Lang
) -> None:
    world = make_world(simcord_env, locale="ru" if game == "ru" else None)
    players = add_players(world, NAMES)
    await start_game(world, ROLES, players, lang=game)
    seats = seats_by_role(world, players)
    com_nick, _com = seats["commissar"]
    game_ch = slot(world, "game")
    reader = seats["villager"][1]

    with client_locale(reader, locale):
        card = reply_text(await reader.slash(game_ch, "role"))
        assert card == card_reply(world, reader, expected)
        refused = await refusal(world.env, reader.slash(game_ch, "vote", target=com_nick))
        assert refused == t(expected, "refusal.no_lynch_on_turn_1")


async def test_a_russian_host_runs_an_english_game_in_russian(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    players = add_players(world, NAMES)
    host = world.admin

    with client_locale(host, "ru"):
        text = reply_text(await host.slash(world.lobby, "mafia setup", language="en"))
        assert text.startswith("Игра настроена в категории")
        assert f"Язык: {t('ru', 'choice.language.en')}." in text  # the game's, in Russian
        game_ch = slot(world, "game")
        assert game_ch.name == t("en", "channel.game")  # the game's language
        opened = reply_text(await host.slash(world.lobby, "mafia new", schedule="fast"))
        assert opened == "\n".join(  # with the reveal choice (/mafia new reveal)
            [t("ru", "signup.opened", channel=game_ch.mention), t("ru", "gameover.reveal.yes")]
        )
        for actor in players:
            reply_text(await actor.slash(game_ch, "join"))
        reply_text(await host.slash(world.lobby, "mafia roles", roles=ROLES))
        started = reply_text(await host.slash(world.lobby, "mafia start"))
        live = live_game(world)
        assert live.record.deadline is not None
        assert started == t(
            "ru",
            "start.done",
            players=4,
            roles=role_summary("ru", [p.role for p in live.players]),
            deadline=timestamp(live.record.deadline),
        )
        # The game itself is English: its nicknames and the mafia's room.
        assert all(p.nick.isascii() for p in live.players)
        assert mafia_room(world).name == t("en", "channel.mafia_thread", game=live.id)

        preview = await host.slash(world.lobby, "mafia resolve")
        assert reply_text(preview) == resolve_preview("ru", live_game(world))
        assert preview.response is not None
        labels = [c.get("label") for row in preview.response.components for c in row["components"]]
        assert labels == [t("ru", "confirm.button"), t("ru", "confirm.cancel_button")]
        clicked = await host.click(preview.response, custom_id=confirm_button(preview))
        assert confirmed_text(clicked) == t("ru", "host.resolved_turn", turn=1)

    # The results are public: English.
    assert any(message_text(m).startswith("Results of turn 1") for m in game_ch.history())


async def test_R18_the_pistol_menu_in_a_dm_answers_in_the_readers_language(
    simcord_env: Env,
) -> None:
    """The menu is a DM (the game's language); picking from it is an interaction, whose reply
    follows the client."""
    world = make_world(simcord_env)
    players = add_players(world, NAMES)
    await start_game(world, ROLES, players, lang="en")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    game_ch = slot(world, "game")
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hi."))
    reply_text(await maf.slash(game_ch, "kill", target=com_nick))
    await until_deadline(world)
    dm = com.user.dm_channel
    assert dm is not None
    prompt = dm.history()[-1]
    assert dm_texts(com)[-1] == pistol_prompt(world)

    with client_locale(com, "ru"):
        custom_id = f"mafia:pistol:{live_game(world).id}"
        picked = await com.user.select(prompt, [maf_nick], custom_id=custom_id)
        assert reply_text(picked) == t("ru", "pistol.done", nick=maf_nick, turn=1)


async def test_setup_answers_a_client_without_a_catalogue_in_the_language_it_was_given(
    simcord_env: Env,
) -> None:
    """Before ``/mafia setup`` saves the game's language, its reply and its refusals take the
    one just chosen as the game's (``Refusal.in_lang``)."""
    world = make_world(simcord_env)  # an English server
    with client_locale(world.admin, "uk"):
        refused = await refusal(
            world.env,
            world.admin.slash(
                world.lobby, "mafia setup", language="ru", host_role=world.guild.default_role
            ),
        )
        assert refused == t("ru", "setup.host_role_everyone")
        text = reply_text(await world.admin.slash(world.lobby, "mafia setup", language="ru"))
        assert text.startswith("Игра настроена в категории")
