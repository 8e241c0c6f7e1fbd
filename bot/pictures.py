"""Pictures players post with ``/say`` (R6: nothing may identify the author).

The attachment is judged by what Discord says of it before a byte is downloaded (its content
type and size: :func:`attachment_refusal`), then downloaded with a bound in size and time and
written again from its pixels alone in a worker thread (:func:`fetch_picture`,
``core.images.clean_image``): no EXIF (camera, place, time), no colour profile, no comment,
and a neutral file name (``picture.jpg`` / ``picture.png``), never the uploaded one. The
original's URL, name and metadata go nowhere: only the clean bytes are kept, in the store with
the post's outbox row until it is shown (``GameStore.queue_picture_post``), then deleted.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Final

import discord

from bot.errors import UserError
from core.images import CONTENT_TYPES, MAX_BYTES, CleanImage, ImageRefused, clean_image

#: How long the download of one attachment may take.
DOWNLOAD_SECONDS: Final[float] = 30.0


def attachment_refusal(attachment: discord.Attachment) -> str | None:
    """The refusal's key for an attachment that cannot be a posted picture, judged from
    what Discord reports (nothing downloaded): not an image type we post, or too large."""
    kind = (attachment.content_type or "").split(";", 1)[0].strip().lower()
    if kind not in CONTENT_TYPES:
        return "error.image_format"
    if attachment.size > MAX_BYTES:
        return "error.image_too_large"
    return None


async def fetch_picture(attachment: discord.Attachment) -> CleanImage:
    """The attachment downloaded (at most :data:`DOWNLOAD_SECONDS`, at most ``MAX_BYTES``)
    and re-encoded from its pixels in a worker thread. Raises :class:`UserError` with the
    reason when it is refused (the file is not the picture it claimed to be, too large)."""
    refused = attachment_refusal(attachment)
    if refused is not None:
        raise UserError(refused)
    try:
        async with asyncio.timeout(DOWNLOAD_SECONDS):
            data = await attachment.read()
    except (TimeoutError, discord.HTTPException):
        raise UserError("error.image_download") from None
    if len(data) > MAX_BYTES:  # more than Discord said: refused, never decoded
        raise UserError("error.image_too_large")
    try:
        return await asyncio.to_thread(clean_image, data)
    except ImageRefused as refusal:
        raise UserError(refusal.key) from None


def picture_file(picture: tuple[str, bytes]) -> discord.File:
    """A stored picture (neutral name, clean bytes) as a file to upload: a new one for each
    attempt (an upload reads its file)."""
    name, data = picture
    return discord.File(io.BytesIO(data), filename=name)


def with_files(sig: str, names: Sequence[str]) -> str:
    """A message's signature (its text) with the names of its files: what tells an
    already-shown picture post apart from the same words without the picture."""
    return "\n".join([sig, *(f"\x00file:{name}" for name in names)]) if names else sig
