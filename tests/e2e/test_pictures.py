"""``/say`` with a picture (R6: nothing may identify the author; R52: it counts as a post).

A phone photo carries its camera, serial number, place (GPS) and time in EXIF, and its file
name often more ("IMG_20261130_anna_home.jpg"). The bot downloads it, writes it again from its
pixels alone (``core/images.py``), and posts it through #game's webhook under the nickname,
as ``picture.jpg``: the file read back from #game carries no EXIF, and neither the original
name, its URL nor any of its metadata appears in #game or the archive. Like a text post it
goes through the outbox, exactly once: its clean bytes wait in the store (surviving a restart)
until it is shown, and are deleted then. A file that is not a picture, or too large, is
refused privately with the reason before it is downloaded, in the reader's language.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image
from simcord import ChannelHandle, Env, MemberActor
from simcord.http.client import FakeHTTPClient

from bot.delivery import RETRY_FIRST_SECONDS, STUCK_NOTICE_SECONDS
from core.i18n import Lang, t
from core.images import MAX_BYTES, PICTURE_MARK
from tests.core.test_images import CAMERA, SERIAL, jpeg_with_exif
from tests.e2e.helpers import (
    WEBHOOK_STEPS,
    Faults,
    Restart,
    World,
    add_players,
    bot_of,
    live_game,
    make_world,
    refusal,
    reply_text,
    slot,
    start_game,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 villager=3"
#: What the phone named the photo: it names the author, and must never be seen.
ORIGINAL_NAME = "IMG_20261130_anna_home.jpg"
SECRETS = (CAMERA, SERIAL, "SecretCam", "PhoneOS", "2026:11:30", "taken at home")


async def game_with_players(env: Env) -> tuple[World, list[MemberActor], ChannelHandle]:
    world = make_world(env)
    players = add_players(world, ("amy", "bob", "cid", "dee"))
    await start_game(world, ROLES, players)
    return world, players, slot(world, "game")


def picture_posts(env: Env, game_ch: ChannelHandle) -> list[tuple[str, str, list[Any]]]:
    """The webhook's messages in #game: (username, text, attachments)."""
    return [
        (m.author.name, m.content, list(m.attachments))
        for m in game_ch.history()
        if m.webhook_id is not None
    ]


def cdn_bytes(env: Env, attachment: Any) -> bytes:
    data = env.backend.cdn.get(attachment.url)
    assert data is not None
    return bytes(data)


async def kept_pictures(world: World) -> list[int]:
    """The outbox rows whose picture the store still keeps."""
    store = bot_of(world.env).store
    rows = await store.outbox(live_game(world).id)
    return [row.id for row in rows if await store.post_picture(row.id) is not None]


def assert_clean_jpeg(data: bytes) -> None:
    for secret in SECRETS:
        assert secret.encode() not in data
    with Image.open(io.BytesIO(data)) as shown:
        assert shown.format == "JPEG"
        assert dict(shown.getexif()) == {}
        assert "exif" not in shown.info and "comment" not in shown.info
        assert shown.size == (20, 40)  # the phone's orientation applied to the pixels


async def test_R6_R52_a_photo_is_posted_under_the_nickname_without_its_metadata_once(
    simcord_env: Env,
) -> None:
    env = simcord_env
    world, players, game_ch = await game_with_players(env)
    game = live_game(world)
    nick = game.nick_of(players[0].id)
    photo = jpeg_with_exif()
    assert CAMERA.encode() in photo  # the upload does carry them

    result = await players[0].slash(
        game_ch, "say", text="Look what I found.", image=(ORIGINAL_NAME, photo)
    )
    assert reply_text(result) == t("en", "say.done", channel=game_ch.mention)
    [(username, text, [attachment])] = picture_posts(env, game_ch)
    assert (username, text) == (nick, "Look what I found.")
    assert attachment.filename == "picture.jpg"  # neutral, never the phone's name
    assert_clean_jpeg(cdn_bytes(env, attachment))

    # A picture alone, no text: one message, the file only.
    result = await players[1].slash(game_ch, "say", image=("DSC0042.JPG", photo))
    assert reply_text(result) == t("en", "say.done", channel=game_ch.mention)
    [_, (second, empty, [alone])] = picture_posts(env, game_ch)
    assert (second, empty, alone.filename) == (game.nick_of(players[1].id), "", "picture.jpg")
    assert_clean_jpeg(cdn_bytes(env, alone))

    # Nothing of the original anywhere in #game: name, URL, metadata.
    for message in game_ch.history():
        seen = " ".join(
            [message.content, *(a.filename for a in message.attachments)]
            + [a.url for a in message.attachments]
        )
        assert "IMG_2026" not in seen and "DSC0042" not in seen and CAMERA not in seen
    # R52: each counts as a post; the archive marks the picture; the bytes are gone.
    state = live_game(world).engine.state
    assert state.posts.get(nick) == 1 and state.posts.get(game.nick_of(players[1].id)) == 1
    store = bot_of(env).store
    assert [p.text for p in await store.posts(game.id)] == [
        f"Look what I found.\n{PICTURE_MARK}",
        PICTURE_MARK,
    ]
    assert await kept_pictures(world) == []


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs the bot downloads from (SimCord's CDN), in order."""
    read: list[str] = []
    original = FakeHTTPClient.get_from_cdn

    async def get_from_cdn(self: FakeHTTPClient, url: str) -> bytes:
        read.append(url)
        return await original(self, url)

    monkeypatch.setattr(FakeHTTPClient, "get_from_cdn", get_from_cdn)
    return read


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.usefixtures("clients_in")
async def test_R6_a_file_that_is_not_a_picture_or_too_large_is_refused_privately(
    simcord_env: Env, lang: Lang, downloads: list[str]
) -> None:
    """Refused with the reason, in the reader's language: judged by what Discord says of the
    file (its type, its size) before it is downloaded, or once downloaded if it only claimed
    to be a picture; nothing is posted, queued or counted. Neither a text nor a picture:
    refused too."""
    env = simcord_env
    world, players, game_ch = await game_with_players(env)
    author = players[0]
    cases = [  # the file, the refusal, whether it was downloaded to find out
        (("notes.txt", b"my secret plan"), "error.image_format", False),
        (("huge.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * MAX_BYTES), "error.image_too_large", False),
        (("fake.jpg", b"not a jpeg at all"), "error.image_format", True),
    ]
    for upload, key, downloaded in cases:
        before = len(downloads)
        text = await refusal(env, author.slash(game_ch, "say", text="Hi", image=upload))
        assert text == t(lang, key)
        assert len(downloads) == before + downloaded
    assert await refusal(env, author.slash(game_ch, "say")) == t(lang, "error.say_empty")
    assert picture_posts(env, game_ch) == []
    store = bot_of(env).store
    game = live_game(world)
    assert not [row for row in await store.outbox(game.id) if row.kind == "post"]
    assert game.engine.state.posts.get(game.nick_of(author.id), 0) == 0


async def test_a_picture_post_waiting_for_discord_survives_a_restart_and_shows_once(
    simcord_env: Env, faults: Faults, restart: Restart
) -> None:
    """Discord refuses the webhook while the post is queued: the author is told it waits,
    the bot stops; the new bot posts it, with its picture, once, counts it (R52), and
    deletes the stored bytes."""
    env = simcord_env
    world, players, game_ch = await game_with_players(env)
    nick = live_game(world).nick_of(players[0].id)
    faults.kind, faults.once, faults.steps = "503", False, WEBHOOK_STEPS
    result = await players[0].slash(
        game_ch, "say", text="Still here?", image=("a.jpg", jpeg_with_exif())
    )
    assert reply_text(result) == t("en", "say.waiting", channel=game_ch.mention)
    assert picture_posts(env, game_ch) == []
    assert len(await kept_pictures(world)) == 1  # the clean bytes wait in the store

    faults.kind = None
    await restart()
    await env.advance_time(RETRY_FIRST_SECONDS)
    [(username, text, [attachment])] = picture_posts(env, game_ch)
    assert (username, text, attachment.filename) == (nick, "Still here?", "picture.jpg")
    assert_clean_jpeg(cdn_bytes(env, attachment))
    assert live_game(world).engine.state.posts.get(nick) == 1
    assert await kept_pictures(world) == []
    await env.advance_time(STUCK_NOTICE_SECONDS)  # the retries find nothing left to send
    assert len(picture_posts(env, game_ch)) == 1


async def test_a_picture_post_shown_but_unconfirmed_before_a_restart_is_not_posted_again(
    simcord_env: Env, faults: Faults, restart: Restart
) -> None:
    """Discord stored the picture post but its answer was lost, and #game could not be read
    to find it, so the author was told it waits; the bot stops. The new bot reads #game,
    recognises the post by its nickname, text and picture, and does not send it again."""
    env = simcord_env
    world, players, game_ch = await game_with_players(env)
    nick = live_game(world).nick_of(players[0].id)
    faults.kind, faults.once = "lost", False
    faults.steps = (*WEBHOOK_STEPS, ("GET", "/channels/*/messages"))
    result = await players[0].slash(game_ch, "say", image=("b.jpg", jpeg_with_exif()))
    assert reply_text(result) == t("en", "say.waiting", channel=game_ch.mention)
    assert len(picture_posts(env, game_ch)) >= 1  # shown, unconfirmed
    shown_before = len(picture_posts(env, game_ch))

    faults.kind = None
    await restart()
    await env.advance_time(STUCK_NOTICE_SECONDS)
    posts = picture_posts(env, game_ch)
    assert len(posts) == shown_before
    assert live_game(world).engine.state.posts.get(nick) == 1
    assert await kept_pictures(world) == []


async def test_a_picture_post_the_bot_cannot_make_under_a_nickname_keeps_no_bytes(
    simcord_env: Env, faults: Faults
) -> None:
    """The bot lost its webhook in #game and may not make another: the author reads that his
    post was not published (he posts it again after the repair), nothing is shown or counted
    (R52), and the store keeps nothing of his picture."""
    env = simcord_env
    world, players, game_ch = await game_with_players(env)
    nick = live_game(world).nick_of(players[0].id)
    reply_text(await players[0].slash(game_ch, "say", text="Hello."))  # the webhook exists
    [hook_id] = {m.webhook_id for m in game_ch.history() if m.webhook_id is not None}
    env.backend.delete_webhook(hook_id)
    await env.settle()
    faults.kind, faults.once = "403", False  # Missing Permissions: Manage Webhooks
    faults.steps = (
        ("GET", f"/channels/{game_ch.id}/webhooks"),
        ("POST", f"/channels/{game_ch.id}/webhooks"),
    )
    result = await players[0].slash(game_ch, "say", image=("c.jpg", jpeg_with_exif()))
    assert reply_text(result) == t("en", "say.no_webhook", channel=game_ch.mention)
    assert [m.attachments for m in game_ch.history() if m.attachments] == []
    assert live_game(world).engine.state.posts.get(nick) == 1  # the first post only
    assert await kept_pictures(world) == []
    assert not await bot_of(env).store.pending_outbox(live_game(world).id)
