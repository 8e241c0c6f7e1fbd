"""The end-of-game picture attached to the final announcement in #game: a PNG named
after the game, on the announcement's first message only, in the table's language; sent once
even when Discord's answer to that message was lost (the retry finds the message and sends
neither it nor its file again); and a picture that cannot be drawn never holds the
announcement back: it goes out without the file and the hosts are told in #host."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from PIL import Image
from simcord import Env

import core.picture
from bot.attachments import archive_name, picture_name
from bot.delivery import RETRY_FIRST_SECONDS
from core.i18n import Lang, t
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    confirm_now,
    live_game,
    make_world,
    message_text,
    reply_text,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=1 doctor=1 villager=2"


async def lynch_the_mafioso(world: World, lang: Lang) -> int:
    """Turn 1 passes, on turn 2 the town lynches the mafioso (R15: the town wins); the game's
    id."""
    players = add_players(world, ["p1", "p2", "p3", "p4"])
    await start_game(world, ROLES, players, lang=lang, activity_rules=False)
    game_id = live_game(world).id
    seats = seats_by_role(world, players)
    await until_deadline(world)
    mafioso = seats["mafioso"][0]
    for _nick, actor in seats.values():
        target = mafioso if actor is not seats["mafioso"][1] else seats["doctor"][0]
        reply_text(await actor.slash(slot(world, "game"), "vote", target=target))
    await until_deadline(world)
    return game_id


def the_end(world: World, head: str) -> list[discord.Message]:
    """The messages of the final announcement (from the one starting with ``head``)."""
    messages = list(slot(world, "game").history())
    start = next(i for i, m in enumerate(messages) if message_text(m).startswith(head))
    return messages[start:]


async def png_of(attachment: discord.Attachment) -> Image.Image:
    data = await attachment.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_final_announcement_carries_the_picture(simcord_env: Env, lang: Lang) -> None:
    world = make_world(simcord_env)
    game_id = await lynch_the_mafioso(world, lang)
    end = the_end(world, t(lang, "winner.town"))
    first, rest = end[0], end[1:]
    assert [a.filename for a in first.attachments] == [picture_name(game_id), archive_name(game_id)]
    assert all(not m.attachments for m in rest)
    image = await png_of(first.attachments[0])
    assert image.format == "PNG" and image.mode == "RGB"  # opaque: both Discord themes
    # The archive: a web page of the whole game, the members named by their display names
    # (the host revealed them), every nickname present.
    page = (await first.attachments[1].read()).decode("utf-8")
    assert page.startswith("<!DOCTYPE html>") and t(lang, "winner.town") in page
    guild = bot_of(simcord_env).get_guild(world.guild.id)
    assert guild is not None
    seated = [m for m in guild.members if m.display_name.startswith("Srv p")]
    assert len(seated) == 4
    for member in seated:
        assert f"<bdi>{member.display_name}</bdi>" in page and str(member.id) not in page
    assert 1000 <= image.width <= 1400 and 400 <= image.height <= 2400
    # Nothing else of the game carried a file.
    others = [m for m in slot(world, "game").history() if m.attachments and m.id != first.id]
    assert others == []


async def test_a_game_the_host_ended_has_its_picture(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    players = add_players(world, ["h1", "h2", "h3", "h4"])
    await start_game(world, ROLES, players, activity_rules=False, reveal=False)
    game_id = live_game(world).id
    assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    end = the_end(world, t("en", "winner.none"))
    names = [a.filename for a in end[0].attachments]
    assert names == [picture_name(game_id), archive_name(game_id)]
    await png_of(end[0].attachments[0])


@pytest.mark.parametrize("kind", ["lost", "500"])
async def test_a_failed_send_sends_the_picture_once(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The announcement with its file fails once: a 500 (nothing stored: the retry sends both)
    or a lost answer (Discord stored it: the retry reads #game, finds the message and sends
    neither it nor the file again). Either way #game shows it once, with one file."""
    from simcord import BackendError
    from simcord.http import router

    world = make_world(simcord_env)
    original = router.dispatch
    lost: list[str] = []

    def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        if kwargs.get("files") and not lost and kind == "500":
            lost.append(path)
            raise BackendError(500, 0, "500 (injected by test)")
        result = original(backend, method, path, **kwargs)
        if kwargs.get("files") and not lost:
            lost.append(path)
            raise TimeoutError("the answer was lost (injected by test)")
        return result

    monkeypatch.setattr(router, "dispatch", dispatch)
    game_id = await lynch_the_mafioso(world, "en")
    assert lost  # the announcement with its file failed once
    store = bot_of(simcord_env).store
    for _ in range(10):
        if not await store.pending_outbox():
            break
        await simcord_env.advance_time(RETRY_FIRST_SECONDS)
    assert not await store.pending_outbox()
    head = t("en", "winner.town")
    announced = [m for m in slot(world, "game").history() if message_text(m).startswith(head)]
    assert len(announced) == 1
    files = [a for m in slot(world, "game").history() for a in m.attachments]
    assert [a.filename for a in files] == [picture_name(game_id), archive_name(game_id)]


async def test_a_picture_that_fails_does_not_hold_the_announcement(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: object) -> bytes:
        raise RuntimeError("no picture today (injected by test)")

    monkeypatch.setattr(core.picture, "draw_picture", broken)
    world = make_world(simcord_env)
    game_id = await lynch_the_mafioso(world, "en")
    end = the_end(world, t("en", "winner.town"))
    assert all(not m.attachments for m in end)
    hosts = [message_text(m) for m in slot(world, "host").history()]
    assert hosts.count(t("en", "picture.failed", game=game_id)) == 1
    assert not await bot_of(simcord_env).store.pending_outbox()
    assert "could not build the end-of-game files" in caplog.text
