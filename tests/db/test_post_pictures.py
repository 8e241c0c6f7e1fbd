"""The picture of a player's post in the store, on both engines: queued with its outbox row
in one transaction, read back byte for byte (also after the store is reopened, as after a
restart), and deleted once the post was shown (privacy, size), or with its game."""

from __future__ import annotations

from db.interface import GameStore
from db.models import OutboxItem
from tests.db.conftest import raw_rows, running_game

POST = {
    "kind": "post",
    "audience": "public",
    "payload": {"nick": "Fox", "text": "", "picture": True},
}
DATA = bytes(range(256)) * 40  # every byte value, NUL included


async def test_a_picture_is_kept_with_its_post_until_it_is_shown(
    store: GameStore, target: str
) -> None:
    game_id = await running_game(store)
    item = OutboxItem(kind="post", payload=POST)
    row_id = await store.queue_picture_post(game_id, 1, item, "picture.jpg", DATA)
    [pending] = await store.pending_outbox(game_id)
    assert (pending.id, pending.kind, pending.payload) == (row_id, "post", POST)
    assert await store.post_picture(row_id) == ("picture.jpg", DATA)
    assert await store.drop_post_pictures() == 0  # its row is not sent: kept

    record = await store.publish_post(row_id, game_id, 1, "Fox", "", message_id=5)
    assert record is not None
    assert await store.post_picture(row_id) == ("picture.jpg", DATA)  # until dropped
    assert await store.drop_post_pictures(row_id) == 1
    assert await store.post_picture(row_id) is None
    assert await raw_rows(target, "SELECT outbox_id FROM post_pictures") == []


async def test_the_pictures_of_rows_already_sent_are_swept(store: GameStore, target: str) -> None:
    """A crash between showing a post and deleting its picture leaves bytes nobody reads:
    the next sweep deletes them, and never a picture still waiting."""
    game_id = await running_game(store)
    item = OutboxItem(kind="post", payload=POST)
    shown = await store.queue_picture_post(game_id, 1, item, "picture.png", b"shown")
    waiting = await store.queue_picture_post(game_id, 1, item, "picture.png", b"waiting")
    assert await store.mark_sent(shown)
    assert await store.drop_post_pictures() == 1
    assert await store.post_picture(shown) is None
    assert await store.post_picture(waiting) == ("picture.png", b"waiting")
    rows = await raw_rows(target, "SELECT outbox_id FROM post_pictures")
    assert rows == [(waiting,)]
