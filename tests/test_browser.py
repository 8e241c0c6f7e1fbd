"""The headless browser harness (tests/browser.py) on a small hostile page written here: the
rendered text reads back, markup that arrived as text stays text (and never runs), a page's
own script runs, the colour scheme is emulated, and a full-page screenshot is a real PNG of
the whole page. Also: without Chromium the harness fails loudly, or skips when told to."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tests import browser as harness
from tests.browser import Browser, BrowserError

#: What a hostile post looks like once escaped (as the archive's Jinja2 autoescaping writes
#: it): markup shown as text, not run. The page's own script proves JavaScript runs at all.
HOSTILE = '<script>window.pwned = 1</script><b>bold?</b> <img src=x onerror="pwned=2">'
PAGE = f"""<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Архив</title>
<style>
  body {{ margin: 0; background: #ffffff; color: #111111; font: 16px sans-serif;
         overflow-wrap: anywhere; }}
  @media (prefers-color-scheme: dark) {{ body {{ background: #111111; color: #eeeeee; }} }}
  .tall {{ height: 2400px; }}
</style></head>
<body>
<h1>Игра №7</h1>
<p id="post">{HOSTILE.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")}</p>
<p>\u202eRTL mark\u202c and a long word: {"Ж" * 300}</p>
<div class="tall"></div>
<p>The end</p>
<script>document.body.dataset.ran = "yes";</script>
</body></html>
"""


@pytest.fixture
def page_url(tmp_path: Path) -> str:
    path = tmp_path / "hostile.html"
    path.write_text(PAGE, encoding="utf-8")
    return path.as_uri()


async def test_the_rendered_text_reads_back_and_markup_sent_as_text_stays_text(
    browser: Browser, page_url: str
) -> None:
    page = await browser.open(page_url)
    text = await page.text()
    assert "Игра №7" in text and "The end" in text
    assert HOSTILE in text  # shown to the reader as the characters typed
    assert await page.evaluate("document.getElementById('post').children.length") == 0
    assert await page.evaluate("typeof window.pwned") == "undefined"  # nothing of it ran
    assert await page.evaluate("document.body.dataset.ran") == "yes"  # the page's script did
    assert await page.evaluate("document.title") == "Архив"
    assert await page.evaluate("1 + 2") == 3
    with pytest.raises(BrowserError, match="boom"):
        await page.evaluate("(() => { throw new Error('boom'); })()")
    await page.close()


async def test_full_page_screenshots_in_the_light_and_dark_schemes(
    browser: Browser, page_url: str, tmp_path: Path
) -> None:
    page = await browser.open(page_url, viewport=(800, 600))
    shots = {}
    for scheme in ("light", "dark"):
        await page.color_scheme(scheme)
        matches = await page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        assert matches is True
        path = await page.screenshot(tmp_path / f"{scheme}.png")
        assert path.stat().st_size > 0
        with Image.open(path) as image:
            assert image.format == "PNG"
            assert image.width == 800
            assert image.height > 2400  # the whole page, not the 600-pixel viewport
            shots[scheme] = image.convert("RGB").getpixel((790, image.height - 5))
    assert shots["light"] == (255, 255, 255)
    assert shots["dark"] == (17, 17, 17)
    viewport = await page.screenshot(tmp_path / "viewport.png", full_page=False)
    with Image.open(viewport) as image:
        assert image.size == (800, 600)


async def test_a_missing_page_is_an_error(browser: Browser, tmp_path: Path) -> None:
    page = await browser.new_page()
    with pytest.raises(BrowserError, match="cannot open"):
        await page.goto((tmp_path / "nowhere.html").as_uri())


def test_without_chromium_the_test_fails_saying_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(harness, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.delenv("MAFIA_SKIP_BROWSER", raising=False)
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install .*chromium"):
        harness.require_chromium()
    monkeypatch.setenv("MAFIA_SKIP_BROWSER", "1")
    with pytest.raises(pytest.skip.Exception, match="MAFIA_SKIP_BROWSER"):
        harness.require_chromium()
