"""The archive attached to a finished game: a web page, or the page zipped when weeks of posts
make it too long for the archive's limit (bot/attachments.py ARCHIVE_LIMIT, under Discord's)."""

from __future__ import annotations

import io
import zipfile

from bot.attachments import ARCHIVE_LIMIT, archive_bytes, archive_name


def test_a_short_archive_is_the_page_itself() -> None:
    page = "<!DOCTYPE html><p>Журавль</p>"
    assert archive_bytes(7, page) == (archive_name(7), page.encode("utf-8"))


def test_a_long_archive_is_zipped_under_the_limit_and_unzips_to_the_page() -> None:
    page = "<!DOCTYPE html>" + "<p>Ж пост игрока</p>\n" * (ARCHIVE_LIMIT // 20)
    assert len(page.encode("utf-8")) > ARCHIVE_LIMIT
    name, data = archive_bytes(7, page)
    assert name == "game-7.zip" and len(data) < ARCHIVE_LIMIT
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist() == [archive_name(7)]
        assert archive.read(archive_name(7)).decode("utf-8") == page
