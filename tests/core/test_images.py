"""Pictures posted under a nickname keep nothing of the original file but the picture: no
camera, place, time, software, thumbnail, colour profile or text (R6: nothing may identify the
author), the right way up, and bounded input is refused with a reason."""

from __future__ import annotations

import io

import pytest
from PIL import Image, PngImagePlugin

from core.images import MAX_BYTES, ImageRefused, clean_image

CAMERA = "SecretCam Model X"
SERIAL = "SN-0042-PRIVATE"


def jpeg_with_exif(width: int = 40, height: int = 20) -> bytes:
    image = Image.new("RGB", (width, height), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # Make
    exif[0x0110] = CAMERA  # Model
    exif[0x0132] = "2026:11:30 21:14:03"  # DateTime
    exif[0x0131] = "PhoneOS 9"  # Software
    exif[0x0112] = 6  # Orientation: rotate 90 degrees clockwise to show
    exif[0xA431] = SERIAL  # BodySerialNumber
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = "N", (55.0, 45.0, 21.0)  # Moscow
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif, comment=b"taken at home")
    return out.getvalue()


def test_R6_a_photo_loses_camera_place_time_and_comment_and_stands_upright() -> None:
    original = jpeg_with_exif()
    assert CAMERA.encode() in original and SERIAL.encode() in original
    clean = clean_image(original)
    assert clean.filename == "picture.jpg"
    for secret in (CAMERA, SERIAL, "SecretCam", "PhoneOS", "2026:11:30", "taken at home"):
        assert secret.encode() not in clean.data
    with Image.open(io.BytesIO(clean.data)) as shown:
        assert shown.format == "JPEG"
        assert dict(shown.getexif()) == {}
        assert "exif" not in shown.info and "comment" not in shown.info
        assert shown.size == (20, 40)  # the orientation was applied to the pixels


def test_R6_a_png_loses_its_text_chunks_and_colour_profile_and_keeps_transparency() -> None:
    image = Image.new("RGBA", (16, 16), (0, 0, 255, 128))
    info = PngImagePlugin.PngInfo()
    info.add_text("Author", "member_01 real name")
    info.add_itxt("Comment", "written on my laptop")
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info, icc_profile=b"fake-icc-profile-naming-a-device")
    clean = clean_image(out.getvalue())
    assert clean.filename == "picture.png"
    for secret in (b"member_01", b"laptop", b"fake-icc"):
        assert secret not in clean.data
    with Image.open(io.BytesIO(clean.data)) as shown:
        assert shown.mode == "RGBA" and shown.getpixel((0, 0)) == (0, 0, 255, 128)
        assert "icc_profile" not in shown.info and "Author" not in shown.info


def test_an_animation_posts_its_first_frame() -> None:
    frames = [Image.new("P", (8, 8), colour) for colour in (1, 2, 3)]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], comment=b"hi")
    clean = clean_image(out.getvalue())
    with Image.open(io.BytesIO(clean.data)) as shown:
        assert shown.format == "PNG" and getattr(shown, "n_frames", 1) == 1


def test_a_large_picture_is_scaled_down() -> None:
    out = io.BytesIO()
    Image.new("L", (5000, 100)).save(out, format="PNG")
    with Image.open(io.BytesIO(clean_image(out.getvalue()).data)) as shown:
        assert max(shown.size) == 4096


@pytest.mark.parametrize(
    ("data", "key"),
    [
        (b"not a picture at all", "error.image_format"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "error.image_format"),
        (b"\x00" * (MAX_BYTES + 1), "error.image_too_large"),
    ],
)
def test_what_is_not_a_picture_or_too_large_is_refused_with_the_reason(
    data: bytes, key: str
) -> None:
    with pytest.raises(ImageRefused) as refused:
        clean_image(data)
    assert refused.value.key == key


def test_a_pixel_bomb_is_refused_before_it_is_decoded() -> None:
    out = io.BytesIO()
    Image.new("1", (10_000, 5_000)).save(out, format="PNG")  # 50 Mpx in a few kilobytes
    assert len(out.getvalue()) < 100_000
    with pytest.raises(ImageRefused) as refused:
        clean_image(out.getvalue())
    assert refused.value.key == "error.image_too_large"


def test_a_bmp_is_not_a_format_players_post() -> None:
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, format="BMP")
    with pytest.raises(ImageRefused) as refused:
        clean_image(out.getvalue())
    assert refused.value.key == "error.image_format"


def test_the_largest_picture_is_within_discords_upload_limit() -> None:
    """The limit a picture is refused at is within the upload limit Discord documents (cited
    in sandbox/contract/limits.py): what is accepted can be uploaded again."""
    from sandbox.contract import LIMITS

    assert (LIMITS["file.size"].high or 0) >= MAX_BYTES


def test_a_picture_too_large_once_written_again_is_refused_rather_than_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Noise compresses badly: a small lossy WebP of it, written again as a PNG from its
    pixels, can pass the upload limit, and Discord would refuse the upload; it is refused here
    with the reason instead (the limit lowered so that the picture stays small)."""
    import core.images

    out = io.BytesIO()
    Image.effect_noise((300, 300), 100).convert("RGB").save(out, format="WEBP", quality=60)
    monkeypatch.setattr(core.images, "MAX_BYTES", 4 * len(out.getvalue()))
    with pytest.raises(ImageRefused) as refused:
        clean_image(out.getvalue())
    assert refused.value.key == "error.image_too_large"
    monkeypatch.setattr(core.images, "MAX_BYTES", 100 * len(out.getvalue()))
    assert clean_image(out.getvalue()).filename == "picture.png"
