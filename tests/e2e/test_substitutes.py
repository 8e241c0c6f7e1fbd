"""Substitutes (R60) and bars (R63) end to end, the real bot in SimCord: members stand by, a
player asks to be replaced (#host is told), the host replaces a mafioso by the first substitute
(the room, the card, the requests and the note move; the replaced member can do nothing more in
the game, nor come back), #game names no member; two replacements at once make one; a restart
between the commit and the delivery still moves the room; a barred member cannot join; every
refusal private, in English and Russian."""

from __future__ import annotations

import attrs
import pytest
from simcord import Env, MemberActor

from bot.archive import archive_markdown
from core.history import load_finished
from core.i18n import Lang, t
from core.quoting import quote_player_line
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    at_once,
    bot_of,
    channel_texts,
    client_locale,
    confirm_now,
    dm_texts,
    live_game,
    mafia_room,
    make_world,
    refusal,
    reply_text,
    seats_by_role,
    slot,
    start_game,
)

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"


def thread_members(env: Env, room_id: int) -> set[int]:
    return set(env.backend.get_channel(room_id).thread_members)


def substitute(world: World, name: str) -> MemberActor:
    return world.guild.add_member(world.env.create_user(f"acct_{name}"), nick=f"Srv {name}")


async def test_R60_a_mafioso_hands_his_nickname_to_the_first_substitute(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    vil_nick, _vil = seats["villager"]
    com_nick, _com = seats["commissar"]
    first, second = substitute(world, "sue"), substitute(world, "sam")

    # R60: members who do not play stand by, in order; a player does not.
    assert t("en", "subs.standing_by", game=live_game(world).id) == reply_text(
        await first.slash(game_ch, "standby")
    )
    reply_text(await second.slash(game_ch, "standby"))
    assert await refusal(env, maf.slash(game_ch, "standby")) == t("en", "error.standby_playing")

    # The mafioso's requests of the turn and his death note, then his request to leave.
    reply_text(await maf.slash(game_ch, "kill", target=vil_nick))
    reply_text(await maf.slash(game_ch, "note", to=com_nick, text="It was the doctor."))
    asked = reply_text(await maf.slash(game_ch, "replaceme", reason="moving house **today**"))
    assert asked == t("en", "subs.asked", nick=maf_nick)
    told = t(
        "en",
        "host.replace_asked_reason",
        nick=maf_nick,
        reason=quote_player_line("moving house **today**"),
    )
    assert told in channel_texts(slot(world, "host"))
    assert not any(maf_nick in x and "moving" in x for x in channel_texts(game_ch))

    subs = reply_text(await world.admin.slash(world.lobby, "mafia subs"))
    assert subs.index(f"<@{first.id}>") < subs.index(f"<@{second.id}>")
    assert maf_nick in subs

    room = mafia_room(world)
    assert maf.id in thread_members(env, room.id)
    done = reply_text(await world.admin.slash(world.lobby, "mafia replace", player=maf_nick))
    assert done == t("en", "host.replaced", nick=maf_nick)

    # The seat, the room and the card moved to the first substitute, at once.
    game = live_game(world)
    assert game.user_of(maf_nick) == first.id and game.nick_of(maf.id) is None
    assert first.id in thread_members(env, room.id)
    assert maf.id not in thread_members(env, room.id)
    assert any(f"**{maf_nick}**" in x for x in dm_texts(first))  # his role card
    assert t("en", "announce.mafia_seat", nick=maf_nick) in channel_texts(room)
    # #game: the nickname has another player; no member is named.
    notice = t("en", "announce.replaced", nick=maf_nick)
    public = channel_texts(game_ch)
    assert notice in public
    for who in (maf, first, second):
        for name in (who.user.name, str(who.id), who.member.display_name):  # type: ignore[union-attr]
            assert not any(name in x for x in public), name
    # The turn's request and the note stand under the nickname; he may change them.
    status = reply_text(await first.slash(game_ch, "status"))
    assert vil_nick in status
    note_again = await refusal(env, first.slash(game_ch, "note", to=com_nick, text="Again."))
    assert note_again
    reply_text(await first.slash(game_ch, "kill", target=com_nick))

    # The replaced member: a non-player from now on, who cannot come back.
    assert await refusal(env, maf.slash(game_ch, "say", text="Still here?")) == t(
        "en", "error.not_a_player"
    )
    assert await refusal(env, maf.slash(game_ch, "kill", target=com_nick)) == t(
        "en", "error.not_a_player"
    )
    assert await refusal(env, maf.slash(game_ch, "standby")) == t("en", "error.standby_replaced")
    back = await refusal(
        env, world.admin.slash(world.lobby, "mafia replace", player=vil_nick, member=maf)
    )
    assert back == t("en", "error.replace_replaced", nick=vil_nick)
    assert live_game(world).user_of(vil_nick) != maf.id

    # The list and the requests: the first substitute is seated, the request is done.
    subs = reply_text(await world.admin.slash(world.lobby, "mafia subs"))
    assert f"<@{first.id}>" not in subs and f"<@{second.id}>" in subs
    assert maf_nick not in subs
    stored = await bot_of(env).store.replacements(game.id)
    assert [(r.nick, r.old_user_id, r.new_user_id) for r in stored] == [
        (maf_nick, maf.id, first.id)
    ]
    # His data waits for the end of the game he may not come back into.
    busy = await refusal(env, world.admin.slash(world.lobby, "mafia purge", member=maf))
    assert busy.startswith(t("en", "host.purge_busy", member=f"<@{maf.id}>", table="X")[:30])


async def test_R60_two_replacements_of_one_player_at_once_make_one(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("eve", "fay", "gus", "hal"))
    await start_game(world, ROLES, players)
    vil_nick, _vil = seats_by_role(world, players)["villager"]
    first, second = substitute(world, "sue"), substitute(world, "sam")
    results = await at_once(
        env,
        lambda: world.admin.slash(world.lobby, "mafia replace", player=vil_nick, member=first),
        lambda: world.admin.slash(world.lobby, "mafia replace", player=vil_nick, member=second),
    )
    replies = sorted(reply_text(r) for r in results)
    _ = env.errors  # the refusal reached the tree's error handler: expected
    assert replies == sorted(
        [
            t("en", "host.replaced", nick=vil_nick),
            t("en", "error.replace_seat_changed", nick=vil_nick),
        ]
    )
    game = live_game(world)
    assert len(await bot_of(env).store.replacements(game.id)) == 1
    notice = t("en", "announce.replaced", nick=vil_nick)
    assert channel_texts(slot(world, "game")).count(notice) == 1


async def test_R60_a_restart_between_the_commit_and_the_delivery_still_moves_the_room(
    simcord_env: Env, restart: Restart, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("ivy", "jon", "kim", "lou"))
    await start_game(world, ROLES, players)
    maf_nick, maf = seats_by_role(world, players)["mafioso"]
    sub = substitute(world, "sue")
    reply_text(await sub.slash(slot(world, "game"), "standby"))
    room = mafia_room(world)
    old = bot_of(env)

    async def crashed(game_id: int | None = None) -> None:
        return None  # the process dies between the commit and the first send

    monkeypatch.setattr(old.context.delivery, "deliver", crashed)
    monkeypatch.setattr(old.context.delivery, "deliver_game", crashed)
    reply_text(await world.admin.slash(world.lobby, "mafia replace", player=maf_nick))
    assert maf.id in thread_members(env, room.id)  # nothing delivered yet

    new = await restart()

    assert live_game(world).user_of(maf_nick) == sub.id
    assert sub.id in thread_members(env, room.id)
    assert maf.id not in thread_members(env, room.id)
    assert any(f"**{maf_nick}**" in x for x in dm_texts(sub))
    notice = t("en", "announce.replaced", nick=maf_nick)
    assert channel_texts(slot(world, "game")).count(notice) == 1
    assert not await new.store.pending_outbox(live_game(world).id)
    assert await refusal(env, maf.slash(slot(world, "game"), "say", text="Hi")) == t(
        "en", "error.not_a_player"
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R60_R63_refusals_are_private_and_in_the_readers_language(
    simcord_env: Env, lang: Lang
) -> None:
    env = simcord_env
    world = make_world(env, locale="ru" if lang == "ru" else None)
    players = add_players(world, ("max", "ned", "oli", "pam"))
    await start_game(world, ROLES, players, lang=lang)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    vil_nick, vil = seats["villager"]
    stranger = substitute(world, "zed")
    with client_locale(None, lang):
        assert await refusal(env, stranger.slash(game_ch, "standby", off=True)) == t(
            lang, "error.not_standing_by"
        )
        assert await refusal(env, stranger.slash(game_ch, "replaceme")) == t(
            lang, "error.not_a_player"
        )
        assert await refusal(env, vil.slash(game_ch, "standby")) == t(lang, "error.standby_playing")
        nobody = await refusal(
            env, world.admin.slash(world.lobby, "mafia replace", player=vil_nick)
        )
        assert nobody == t(lang, "error.no_substitutes")
        # R63: a bar for two days, then the member tries to sign up for the next game.
        barred = reply_text(
            await world.admin.slash(
                world.lobby, "mafia bar", member=stranger, reason="no-show", days=2
            )
        )
        assert f"<@{stranger.id}>" in barred
        why = await refusal(env, stranger.slash(game_ch, "standby"))
        assert why.startswith(t(lang, "error.barred_until", reason="", until="")[:20])
        assert quote_player_line("no-show") in why
        assert await refusal(env, world.admin.slash(world.lobby, "mafia unbar", member=vil)) == t(
            lang, "error.not_barred"
        )
        reply_text(await world.admin.slash(world.lobby, "mafia unbar", member=stranger))
        reply_text(await stranger.slash(game_ch, "standby"))
    log = [a.command for a in await bot_of(env).store.audit_log(guild_id=world.guild.id)]
    assert "bar" in log and "unbar" in log


async def test_R63_a_barred_member_cannot_join_until_the_bar_ends(simcord_env: Env) -> None:
    env = simcord_env
    world = make_world(env)
    member = substitute(world, "rex")
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    reply_text(
        await world.admin.slash(world.lobby, "mafia bar", member=member, reason="rude", days=1)
    )
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    game_ch = slot(world, "game")
    why = await refusal(env, member.slash(game_ch, "join"))
    assert quote_player_line("rude") in why and "<t:" in why
    await env.advance_time(24 * 3600 + 1)  # the bar ends by the clock
    reply_text(await member.slash(game_ch, "join"))


async def test_R60_R63_the_stats_history_and_archive_tell_the_replacement(
    simcord_env: Env,
) -> None:
    """The replaced member's stats count a replacement, not a game; the game counts for the
    member who plays the nickname at the end; /history names the members behind the nickname
    in order (the members are revealed), and the archive too."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("qua", "rob", "sol", "tim"))
    await start_game(world, ROLES, players)
    vil_nick, vil = seats_by_role(world, players)["villager"]
    sub = substitute(world, "sue")
    reply_text(await sub.slash(slot(world, "game"), "standby"))
    reply_text(await world.admin.slash(world.lobby, "mafia replace", player=vil_nick))
    game_id = live_game(world).id
    await confirm_now(world, "mafia end")

    left = reply_text(await vil.slash(world.lobby, "stats"))
    assert t("en", "stats.left", inactive=0, missed=0, replaced=1) in left
    assert t("en", "stats.games", games=0, wins=0, rate=0) in left
    played = reply_text(await sub.slash(world.lobby, "stats"))
    assert t("en", "stats.games", games=1, wins=0, rate=0) in played
    assert t("en", "stats.left", inactive=0, missed=0, replaced=0) in played

    shown = reply_text(await world.player.slash(world.lobby, "history", game=game_id))
    handed = t("en", "archive.replacement", nick=vil_nick, turns="1")
    assert f"{handed}: <@{vil.id}> → <@{sub.id}>" in shown

    finished = await load_finished(bot_of(env).store, game_id)
    names = {vil.id: "Qxv one", sub.id: "Qxs two"}
    page = archive_markdown(finished, "en", names)
    assert t("en", "archive.member_then", before="Qxv one", after="Qxs two", turn=1) in page
    hidden = attrs.evolve(finished, record=attrs.evolve(finished.record, reveal=False))
    assert "Qxv" not in archive_markdown(hidden, "en", names)
    assert handed in archive_markdown(hidden, "en", names)  # that it changed hands is public


async def test_R60_a_substitute_who_left_the_server_is_skipped(simcord_env: Env) -> None:
    """The first member standing by leaves the server: he is off the list, and the next one
    takes the nickname."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("uma", "vic", "wes", "xan"))
    await start_game(world, ROLES, players)
    vil_nick, _vil = seats_by_role(world, players)["villager"]
    gone, next_one = substitute(world, "sue"), substitute(world, "sam")
    reply_text(await gone.slash(slot(world, "game"), "standby"))
    reply_text(await next_one.slash(slot(world, "game"), "standby"))
    world.guild.remove_member(gone)
    await env.settle()
    game = live_game(world)
    assert await bot_of(env).store.substitutes(game.id) == [next_one.id]
    reply_text(await world.admin.slash(world.lobby, "mafia replace", player=vil_nick))
    assert live_game(world).user_of(vil_nick) == next_one.id


async def test_R60_mafia_subs_with_long_reasons_fits_discords_messages(simcord_env: Env) -> None:
    """Every player asks with the longest reason: /mafia subs answers in several private
    messages (each within Discord's limit, which the contract layer checks), all of them."""
    env = simcord_env
    world = make_world(env)
    players = add_players(world, ("yan", "zoe", "abe", "bea"))
    await start_game(world, ROLES, players)
    for n, actor in enumerate(players):
        reply_text(await actor.slash(slot(world, "game"), "replaceme", reason=f"{n}" * 500))
    result = await world.admin.slash(world.lobby, "mafia subs")
    texts = [reply_text(result), *(m.content for m in result.followups)]
    assert len(texts) >= 2 and all(len(x) <= 2000 for x in texts)
    joined = "\n".join(texts)
    for n in range(4):
        assert f"{n}" * 400 in joined.replace("\n", "")
