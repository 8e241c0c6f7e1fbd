"""The hosts' console in #host (R47, R56): the night's full account after each resolution,
the audit line of every host command, ``/mafia log`` paged with buttons only its invoker may
press, and ``/mafia state`` as an embed. No player reads any of it."""

from __future__ import annotations

import discord
import pytest
from simcord import Env, InteractionResult, MemberActor, SetupError

from bot.render import audit_command_name
from cogs.admin import LOG_TIMEOUT_SECONDS
from core.i18n import t
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    channel_texts,
    confirm_now,
    dm_texts,
    host_warnings,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    resolve_now,
    slot,
    start_game,
)

ROLES = "mafioso=2 prostitute=1 doctor=1 commissar=1 villager=3"


def _seats(world: World, actors: list[MemberActor]) -> dict[str, list[tuple[str, MemberActor]]]:
    by_user = {a.id: a for a in actors}
    seats: dict[str, list[tuple[str, MemberActor]]] = {}
    for p in live_game(world).players:
        seats.setdefault(p.role, []).append((p.nick, by_user[p.user_id]))
    return seats


def _buttons(result: InteractionResult) -> dict[str, tuple[str, bool]]:
    """label -> (custom id, disabled) of the buttons on a private reply."""
    assert result.response is not None
    return {
        str(c.get("label")): (str(c["custom_id"]), bool(c.get("disabled")))
        for row in result.response.components
        for c in row.get("components", [])
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_R47_the_night_is_told_in_full_in_host_and_nowhere_else(
    simcord_env: Env, lang: str
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, ROLES, actors, lang=lang)
    seats = _seats(world, actors)
    (maf_a, maf_a_actor), (maf_b, maf_b_actor) = seats["mafioso"]
    lady, lady_actor = seats["prostitute"][0]
    doc, doc_actor = seats["doctor"][0]
    com, com_actor = seats["commissar"][0]
    victim = seats["villager"][0][0]
    game_ch = slot(world, "game")
    for actor in actors:  # R52: nobody is removed for silence
        reply_text(await actor.slash(game_ch, "say", text="Hi."))
    reply_text(await maf_a_actor.slash(game_ch, "kill", target=victim))
    reply_text(await maf_b_actor.slash(game_ch, "kill", target=victim))
    reply_text(await lady_actor.slash(game_ch, "block", target=maf_b))  # R21
    reply_text(await doc_actor.slash(game_ch, "heal", target=victim))  # R20: saves him
    reply_text(await com_actor.slash(game_ch, "check", target=maf_a))  # R18
    await resolve_now(world)

    host_ch = slot(world, "host")
    [account] = [x for x in channel_texts(host_ch) if "\n" in x and doc in x]
    verb = {v: t(lang, f"verb.{v}") for v in ("kill", "block", "heal", "check")}
    # Who requested what, and its fate: the block, the heal that saved, the check and what
    # the commissar learned, the kill that failed and why.
    expected = [
        t(lang, "console.account.title", turn=1),
        t(
            lang,
            "console.request",
            by=maf_b,
            verb=verb["kill"],
            targets=victim,
            fate=t(lang, "console.fate.blocked"),
        ),
        t(
            lang,
            "console.request",
            by=lady,
            verb=verb["block"],
            targets=maf_b,
            fate=t(lang, "console.fate.done"),
        ),
        t(
            lang,
            "console.request",
            by=doc,
            verb=verb["heal"],
            targets=victim,
            fate=t(lang, "console.fate.saved", causes=t(lang, "method.mafia")),
        ),
        t(
            lang,
            "console.request",
            by=com,
            verb=verb["check"],
            targets=maf_a,
            fate=t(lang, "console.fate.mafia"),
        ),
        t(
            lang,
            "console.request_attack",
            by=maf_a,
            verb=verb["kill"],
            fate=t(lang, "console.hit.protected", target=victim, by=doc),
        ),
        t(lang, "console.no_deaths"),
    ]
    for line in expected:
        assert line in account, (line, account)
    # Nobody else reads it: not #game, not a DM, and no player can open #host.
    marker = t(lang, "console.account.title", turn=1)
    assert not any(marker in x for x in channel_texts(game_ch))
    for actor in actors:
        assert not any(marker in x for x in dm_texts(actor))
        with pytest.raises(SetupError):
            host_ch.history(viewer=actor)


async def test_R56_every_host_command_leaves_its_line_in_host(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, ROLES, actors)
    seats = _seats(world, actors)
    villager = seats["villager"][0][0]
    excluded = seats["villager"][1][0]
    host = world.admin
    substitute = world.guild.add_member(world.env.create_user("sub"))
    reply_text(await host.slash(world.lobby, "mafia extend", minutes=5))
    reply_text(await host.slash(world.lobby, "mafia pause"))
    reply_text(await host.slash(world.lobby, "mafia resume"))
    reply_text(await host.slash(world.lobby, "mafia doublekill"))
    reply_text(await host.slash(world.lobby, "mafia announce", text="The night falls."))
    reply_text(await host.slash(world.lobby, "mafia state"))
    reply_text(await host.slash(world.lobby, "mafia replace", player=villager, member=substitute))
    await confirm_now(world, "mafia exclude", player=excluded)
    by_id = {a.id: a for a in [*actors, substitute]}
    game = live_game(world)
    for seat in game.players:  # R52: nobody is removed for silence, the game goes on
        if game.engine.state.players[seat.nick].alive:
            reply_text(await by_id[seat.user_id].slash(slot(world, "game"), "say", text="Hi."))
    await resolve_now(world)
    reply_text(await host.slash(world.lobby, "mafia deprive", player=villager))
    await confirm_now(world, "mafia end")

    lines = [x for x in channel_texts(slot(world, "host")) if x.startswith(f"<@{host.id}>: /")]
    me = f"<@{host.id}>: "

    def line(sub: str, details: str = "") -> str:
        return me + audit_command_name("en", sub) + details

    for expected in (
        line("mafia setup"),
        line("mafia new"),
        line("mafia roles"),
        line("mafia start"),
        line("extend", t("en", "console.audit.minutes", minutes=5)),
        line("pause"),
        line("resume"),
        line("double_kill"),
        line("mafia announce", t("en", "console.audit.text", text="The night falls.")),
        line("mafia state"),
        line(
            "replace",
            t("en", "console.audit.player", player=villager)
            + t("en", "console.audit.member", member=f"<@{substitute.id}>"),
        ),
        line("exclude", t("en", "console.audit.player", player=excluded)),
        line("resolve", t("en", "console.audit.turn", turn=1)),
        line("deprive_vote", t("en", "console.audit.player", player=villager)),
        line("end"),
    ):
        assert expected in lines, (expected, lines)


async def test_R56_mafia_log_pages_for_its_invoker_only(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, ROLES, actors)
    host = world.admin
    for minutes in range(1, 13):  # 4 lobby commands + 12 = 16 rows: two pages of 10
        reply_text(await host.slash(world.lobby, "mafia extend", minutes=minutes))

    first = await host.slash(world.lobby, "mafia log")
    text = reply_text(first)
    assert first.response is not None and first.response.embeds
    assert t("en", "console.log.title", page=1, pages=2) in text
    newest = t("en", "console.audit.minutes", minutes=12)
    assert newest in text and t("en", "console.audit.minutes", minutes=3) in text
    assert t("en", "console.audit.minutes", minutes=2) not in text
    # Newest first: the 12-minute extension comes before the 11-minute one.
    assert text.index(newest) < text.index(t("en", "console.audit.minutes", minutes=11))
    buttons = _buttons(first)
    prev, nxt = t("en", "console.log.prev"), t("en", "console.log.next")
    assert buttons[prev][1] and not buttons[nxt][1]  # on page 1 only Next works

    # Another member cannot turn the host's pages: the log is private to its invoker (and
    # the view checks the clicker besides).
    with pytest.raises(SetupError):
        await world.player.click(first.response, custom_id=buttons[nxt][0])
    assert t("en", "console.log.title", page=1, pages=2) in message_text(first.response.message)

    await host.click(first.response, custom_id=buttons[nxt][0])
    page2 = message_text(first.response.message)
    assert t("en", "console.log.title", page=2, pages=2) in page2
    assert audit_command_name("en", "mafia setup") in page2 and newest not in page2
    await host.click(first.response, custom_id=buttons[prev][0])
    assert t("en", "console.log.title", page=1, pages=2) in message_text(first.response.message)

    # The buttons expire: after the view's timeout a click changes nothing.
    await world.env.advance_time(LOG_TIMEOUT_SECONDS + 1)
    late = await host.click(first.response, custom_id=buttons[nxt][0])
    assert not late.acknowledged
    assert t("en", "console.log.title", page=1, pages=2) in message_text(first.response.message)

    # A member who is not a host is refused (R56).
    text = await refusal(world.env, world.player.slash(slot(world, "game"), "mafia log"))
    assert text == t("en", "error.not_host_no_role")


async def test_mafia_state_is_a_private_embed_with_every_player(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, ROLES, actors)
    result = await world.admin.slash(world.lobby, "mafia state")
    text = reply_text(result)  # private
    assert result.response is not None
    embeds = result.response.embeds
    assert embeds and isinstance(embeds[0], discord.Embed)
    phase = t("en", "phase.open")
    assert t("en", "state.header", turn=1, phase=phase) == embeds[0].title
    for seat in live_game(world).players:
        assert seat.nick in text and f"<@{seat.user_id}>" in text
        assert t("en", f"role.{seat.role}") in text


async def test_a_mafia_room_that_cannot_be_opened_is_reported_in_host(simcord_env: Env) -> None:
    """The bot's warnings land in #host: here a lost permission in #mafia at the start (the
    closed DMs, lost permissions in #game and stuck deliveries: tests/e2e/test_game.py and
    test_delivery_faults.py)."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    mafia = slot(world, "mafia")
    world.env.inject_error(
        "POST",
        f"/channels/{mafia.id}/threads",
        status=403,
        code=50013,
        message="Missing Permissions",
        times=None,
    )
    reply_text(await world.admin.slash(world.lobby, "mafia new", schedule="fast", timezone="UTC"))
    for actor in actors:
        reply_text(await actor.slash(slot(world, "game"), "join"))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))
    notice = t("en", "start.mafia_access_failed", channel=mafia.mention)
    assert notice in host_warnings(slot(world, "host"))


def _log_lines(text: str) -> list[str]:
    """The audit lines of a /mafia log page (each starts with its timestamp)."""
    return [line for line in text.splitlines() if line.startswith("<t:")]


async def test_R56_mafia_log_pages_by_entry_neither_repeating_nor_skipping(
    simcord_env: Env,
) -> None:
    """Twenty lines, two pages. The /mafia log line itself (logged once page 1 is shown), and
    the commands another host runs while the pages are turned, shift nothing: page 2 starts
    right below page 1 (before: it repeated page 1's last line, and lines were skipped)."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"p{i}" for i in range(8)])
    await start_game(world, ROLES, actors)
    host = world.admin
    for minutes in range(1, 17):  # 4 lobby commands + 16 = 20 rows
        reply_text(await host.slash(world.lobby, "mafia extend", minutes=minutes))
    first = await host.slash(world.lobby, "mafia log")
    assert first.response is not None
    page1 = _log_lines(reply_text(first))
    assert len(page1) == 10
    for minutes in (100, 200, 300):  # meanwhile: three more lines
        reply_text(await host.slash(world.lobby, "mafia extend", minutes=minutes))
    buttons = _buttons(first)
    prev, nxt = t("en", "console.log.prev"), t("en", "console.log.next")
    await host.click(first.response, custom_id=buttons[nxt][0])
    text = message_text(first.response.message)
    assert t("en", "console.log.title", page=2, pages=2) in text
    page2 = _log_lines(text)
    assert len(page2) == 10 and not set(page1) & set(page2)
    rows = await bot_of(world.env).store.audit_log(guild_id=world.guild.id)
    assert len(rows) == 20 + 1 + 3  # the log command and the three extensions after it
    assert audit_command_name("en", "mafia setup") in page2[-1]
    assert t("en", "console.audit.minutes", minutes=1) in page2[5]
    await host.click(first.response, custom_id=buttons[prev][0])
    assert _log_lines(message_text(first.response.message)) == page1
