"""The archive of a finished game read in a real browser (headless Chromium, tests/browser.py),
in both languages: what a reader sees is every nickname, role and turn, and hostile player text
shown as text (no script runs, no markup from a post, nothing wider than the window).

Screenshots (light and dark) are written to ``MAFIA_ARTIFACTS`` if set, else the test's temporary
folder, to be looked at (the archive is checked by looking at it).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.archive import archive_html
from core.history import load_finished
from core.i18n import Lang, t
from db.store import SQLiteStore
from tests.browser import Browser
from tests.integration.test_archive import (
    BERLIN_HOURS,
    HOSTILE,
    HOURS_READ,
    LONG_WORD,
    STORY_1,
    STORY_2,
    play,
    play_reviewed,
)


def _artifacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("MAFIA_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_archive_reads_right_in_a_browser(
    tmp_path: Path, browser: Browser, lang: Lang
) -> None:
    store = await SQLiteStore.open(tmp_path / "game.db")
    try:
        game = await play(store, lang=lang)
    finally:
        await store.close()
    page_file = tmp_path / f"archive-{lang}.html"
    page_file.write_text(archive_html(game, lang), encoding="utf-8")
    page = await browser.open(page_file.as_uri())

    text = await page.text()
    for seat in game.players:  # every nickname and role, as the reader sees them
        assert seat.nick in text
        assert t(lang, f"role.{seat.role}") in text
    for turn in range(1, len(game.outcome["turns"]) + 1):
        assert f"{t(lang, 'archive.turn')} {turn}" in text
    assert t(lang, "winner.town") in text
    # Hostile player text is shown as typed (the RTL override aside: it is a control
    # character, kept inside its own isolate) and none of it became markup or code.
    for hostile in HOSTILE:
        assert hostile.replace("\u202e", "") in text.replace("\u202e", "")
    assert await page.evaluate("document.scripts.length") == 0
    assert await page.evaluate("document.querySelectorAll('b, i, u, td table').length") == 0
    # The 2,000-character word wraps: nothing is wider than the window.
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        "the page scrolls sideways"
    )
    assert LONG_WORD[:50] in text

    folder = _artifacts(tmp_path)
    for scheme in ("light", "dark"):
        await page.color_scheme(scheme)
        shot = await page.screenshot(folder / f"archive-{lang}-{scheme}.png")
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    # The dark theme really changes the page: its background is dark.
    background = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in background[background.index("(") + 1 : -1].split(",")[:3]]
    assert sum(channels) < 3 * 80, background


#: An iPhone's window, in CSS pixels.
PHONE = (390, 844)


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_the_archive_reads_on_a_phone(tmp_path: Path, browser: Browser, lang: Lang) -> None:
    """At 390 px, light and dark: nothing scrolls sideways, and every player's nickname, role
    and fate are on the screen (the table becomes one card per nickname); members by display
    name only, never an id; the dawn report as it was published (its title and headings)."""
    store = await SQLiteStore.open(tmp_path / "game.db")
    try:
        game = await play(store, lang=lang)
    finally:
        await store.close()
    names = {uid: f"Участник {i}" for i, uid in enumerate(game.members.values(), start=1)}
    page_file = tmp_path / f"archive-{lang}-phone.html"
    page_file.write_text(archive_html(game, lang, names), encoding="utf-8")
    page = await browser.open(page_file.as_uri(), viewport=PHONE)
    folder = _artifacts(tmp_path)
    for scheme in ("light", "dark"):
        await page.color_scheme(scheme)
        assert await page.evaluate("window.innerWidth") == PHONE[0]
        assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
            f"the page scrolls sideways ({scheme})"
        )
        # Every cell of the players table lies inside the window: role and fate included.
        outside = await page.evaluate(
            """[...document.querySelectorAll('table.players td')]
                .filter(td => td.offsetParent !== null)
                .filter(td => { const r = td.getBoundingClientRect();
                                return r.left < 0 || r.right > window.innerWidth + 0.5; })
                .map(td => td.className + ': ' + td.innerText)"""
        )
        assert outside == [], outside
        for cls in ("role", "fate"):
            shown = await page.evaluate(
                f"""[...document.querySelectorAll('table.players td.{cls}')]
                    .filter(td => td.offsetParent !== null && td.getBoundingClientRect().width > 0)
                    .length"""
            )
            assert shown == len(game.players), (cls, shown)
        await page.screenshot(folder / f"archive-{lang}-phone-{scheme}.png")
    text = await page.text()
    for seat in game.players:
        assert seat.nick in text and t(lang, f"role.{seat.role}") in text
    for name in names.values():
        assert name in text
    assert not any(str(uid) in text for uid in game.members.values())
    assert t(lang, "announce.results", turn=1) in text and t(lang, "dawn.deaths") in text


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_R61_the_table_s_hours_read_under_the_setup_on_a_phone(
    tmp_path: Path, browser: Browser, lang: Lang
) -> None:
    """A forum game with its host's hours: on a phone, the hours read whole in the game's
    language between the setup and the winner, wrapped inside the window."""
    store = await SQLiteStore.open(tmp_path / "game.db")
    try:
        game = await play(store, lang=lang, zone="Europe/Berlin", kind="forum", **BERLIN_HOURS)
    finally:
        await store.close()
    page_file = tmp_path / f"archive-{lang}-hours.html"
    page_file.write_text(archive_html(game, lang), encoding="utf-8")
    page = await browser.open(page_file.as_uri(), viewport=PHONE)
    shown = await page.evaluate(
        """(() => { const p = document.querySelector('p.hours'), r = p.getBoundingClientRect();
            return {text: p.innerText, left: r.left, right: r.right, top: r.top,
                    setup: document.querySelector('dl.setup').getBoundingClientRect().bottom,
                    winner: document.querySelector('.winner').getBoundingClientRect().top}; })()"""
    )
    assert shown["text"] == HOURS_READ[lang]
    assert shown["setup"] <= shown["top"] < shown["winner"]
    assert shown["left"] >= 0 and shown["right"] <= PHONE[0]
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    await page.screenshot(_artifacts(tmp_path) / f"archive-{lang}-hours.png")


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_R47_the_hosts_story_reads_as_his_text_above_the_results(
    tmp_path: Path, browser: Browser, lang: Lang
) -> None:
    """A reviewed game (core/review.py): each turn's story, as the host published it, under
    its own heading above that turn's results; his markup shown as typed, never run."""
    store = await SQLiteStore.open(tmp_path / "game.db")
    try:
        _service, game_id = await play_reviewed(store)
        game = await load_finished(store, game_id)
    finally:
        await store.close()
    page_file = tmp_path / f"archive-{lang}-story.html"
    page_file.write_text(archive_html(game, lang), encoding="utf-8")
    page = await browser.open(page_file.as_uri())
    assert await page.evaluate("document.scripts.length") == 0
    assert await page.evaluate("document.querySelectorAll('b, i').length") == 0
    stories = await page.evaluate("[...document.querySelectorAll('.story')].map(e => e.innerText)")
    assert [s.strip() for s in stories] == [STORY_1, STORY_2]  # line breaks kept
    # Each story lies above its turn's results, below the turn's heading.
    order = await page.evaluate(
        """[...document.querySelectorAll('section.turn')].map(sec => {
            const story = sec.querySelector('.story'), dawn = sec.querySelector('.message');
            return story.getBoundingClientRect().top < dawn.getBoundingClientRect().top; })"""
    )
    assert order == [True, True]
    for scheme in ("light", "dark"):
        await page.color_scheme(scheme)
        await page.screenshot(_artifacts(tmp_path) / f"archive-{lang}-story-{scheme}.png")
