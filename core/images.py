"""Pictures players post under their nickname: decoded, then encoded again from the pixels
alone, so that nothing of the original file reaches #game but the picture.

A photo's metadata can name its author: the camera and its serial number, the place (GPS), the
time, the software, an embedded thumbnail, a colour profile naming a device, comments. A file
written again from its pixels carries none of them. The orientation a phone records in EXIF
is applied to the pixels first, so the picture still stands the right way up.

Input is bounded: the file's size, its pixel count (Pillow's decompression-bomb guard set to
our own limit) and, for animations, the first frame only. The work is CPU-bound: run it in a
worker thread (``asyncio.to_thread``), never on the event loop.
"""

from __future__ import annotations

import io
from typing import Final

import attrs
from PIL import Image, ImageOps, UnidentifiedImageError

#: The largest file accepted, 10 MiB (within Discord's default upload limit of a file, 20 MiB).
MAX_BYTES: Final[int] = 10 * 1024 * 1024
#: The most pixels decoded (about 40 megapixels: a large phone photo).
MAX_PIXELS: Final[int] = 40_000_000
#: The longest side of the picture posted; larger ones are scaled down.
MAX_SIDE: Final[int] = 4096
#: What players may post (Pillow's format names).
FORMATS: Final[frozenset[str]] = frozenset({"JPEG", "PNG", "GIF", "WEBP"})
#: The same, as the content types Discord reports for an attachment (checked before download).
CONTENT_TYPES: Final[frozenset[str]] = frozenset(
    {"image/jpeg", "image/png", "image/gif", "image/webp"}
)
#: What the archive shows for a post's picture (the picture itself is never kept: it is
#: deleted once shown), on its own line after the text: language-neutral.
PICTURE_MARK: Final[str] = "\U0001f5bc\ufe0f"


def archived_text(text: str, picture: bool) -> str:
    """A post's text as the archive keeps it: with the picture's mark when it had one."""
    if not picture:
        return text
    return f"{text}\n{PICTURE_MARK}" if text.strip() else PICTURE_MARK


class ImageRefused(ValueError):
    """The file cannot be posted as a picture; ``key`` is the refusal's catalogue key."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@attrs.frozen
class CleanImage:
    """A picture written again from its pixels: the bytes to upload and their file name."""

    data: bytes
    filename: str


def clean_image(data: bytes) -> CleanImage:
    """``data`` decoded and encoded again with no metadata: a JPEG stays a JPEG, anything
    else becomes a PNG (its first frame, for an animation). Raises :class:`ImageRefused`."""
    if len(data) > MAX_BYTES:
        raise ImageRefused("error.image_too_large")
    try:
        opened = Image.open(io.BytesIO(data))  # reads the header only
    except Image.DecompressionBombError:
        raise ImageRefused("error.image_too_large") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ImageRefused("error.image_format") from None
    with opened:
        if opened.format not in FORMATS:
            raise ImageRefused("error.image_format")
        width, height = opened.size
        if width * height > MAX_PIXELS:  # checked before a single pixel is decoded
            raise ImageRefused("error.image_too_large")
        fmt = opened.format
        try:
            upright = ImageOps.exif_transpose(opened)
            pixels = _pixels_only(upright)
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
            raise ImageRefused("error.image_format") from None
    if max(pixels.size) > MAX_SIDE:
        pixels.thumbnail((MAX_SIDE, MAX_SIDE))
    out = io.BytesIO()
    if fmt == "JPEG":
        pixels.convert("RGB").save(out, format="JPEG", quality=90, optimize=True)
        name = "picture.jpg"
    else:
        pixels.save(out, format="PNG", optimize=True)
        name = "picture.png"
    if out.tell() > MAX_BYTES:  # a large noisy picture: Discord would refuse the upload
        raise ImageRefused("error.image_too_large")
    return CleanImage(out.getvalue(), name)


def _pixels_only(image: Image.Image) -> Image.Image:
    """A new image holding only ``image``'s pixels: no info, EXIF, XMP, ICC profile or text
    chunks survive (they live on the source object, not in the pixel data)."""
    mode = image.mode
    if mode not in ("1", "L", "LA", "RGB", "RGBA"):
        mode = "RGBA" if "A" in mode or "transparency" in image.info else "RGB"
    converted = image.convert(mode)
    fresh = Image.new(mode, converted.size)
    fresh.paste(converted)
    return fresh
