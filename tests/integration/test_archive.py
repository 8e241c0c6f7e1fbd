"""The archive of a finished game (bot/archive.py), on a real SQLite file: a game played
through the service with hostile posts, then its archive as HTML and Markdown in both
languages, and ``main.py export --format json|html|md``.

Player text is hostile input: markup, template syntax, right-to-left overrides and a
2,000-character word must come out as inert text, and the members behind the nicknames
appear only when the host chose to reveal them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import main
from bot.archive import FSI, PDI, archive_html, archive_markdown
from bot.quotes import quote_block
from core.history import FinishedGame, load_finished
from core.i18n import Lang, t
from core.service import GameService, ServiceError
from db.models import TableSettings
from db.store import SQLiteStore
from rules.replay import TOP_KEYS

GUILD = 1
HOST = 999
START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)
MEMBER = 731_000_000_000_000_001  # the first member's id: long, found only where named
LONG_WORD = "Ж" * 2000
HOSTILE = (
    "<script>alert(1)</script>",
    "<b><i",
    "</td></table>",
    "\u202eevil right-to-left",
    LONG_WORD,
    "{{ 7*7 }}",
    "{% raw %}",
)
#: Every element the archive's template writes: nothing else may appear in the page.
TEMPLATE_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "dl", "dt",
    "dd", "p", "section", "table", "thead", "tbody", "tr", "th", "td", "bdi", "div", "span",
    "ul", "li", "footer", "blockquote",
}  # fmt: skip
#: Every element the Markdown archive's own structure makes once rendered (CommonMark).
MARKDOWN_TAGS = {"h1", "h2", "h3", "p", "ul", "li", "strong", "em", "blockquote", "hr", "br"}


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


class Page(HTMLParser):
    """The tags of a page, its text, and the elements around each right-to-left override."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self.rtl_inside: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag != "meta":
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if "\u202e" in data:
            self.rtl_inside.append(list(self.open))


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    return page


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def play(
    store: SQLiteStore,
    *,
    reveal: bool = True,
    lang: str = "ru",
    zone: str = "UTC",
    kind: str = "fast",
    **hours: object,
) -> FinishedGame:
    """A four-player game to its end: hostile posts by the living on turn 1, the mafioso kills
    the commissar (who checked him and left a note), the dead commissar posts as a ghost and
    a villager talks in the pistol window, then the commissar shoots the mafioso (R18).
    ``kind`` and ``hours``: the schedule and the table's hours the host opens it with (R61)."""
    await store.save_table(TableSettings(guild_id=GUILD, name="<i>Table & co", language=lang))
    clock = FakeClock()
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, kind, zone, roles="mafioso=1 commissar=1 villager=2", seed=11,
        activity_rules=False, reveal=reveal, **hours,  # type: ignore[arg-type]
    )  # fmt: skip
    for uid in range(4):
        await service.join(GUILD, MEMBER + uid)
    live = await service.start(GUILD)
    by_role = {p.role: p.user_id for p in live.players}
    nick = {p.user_id: p.nick for p in live.players}
    maf, com, vil = by_role["mafioso"], by_role["commissar"], by_role["villager"]
    with pytest.raises(ServiceError):  # R31: refused when sent; the archive shows it
        await service.submit(GUILD, vil, {"do": "vote", "target": nick[maf]})
    for i, text in enumerate(HOSTILE):  # a living player's posts count (R52)
        assert await service.post(GUILD, (maf, vil, com)[i % 3], text) is True
    await service.submit(GUILD, maf, {"do": "kill", "target": nick[com]})
    await service.submit(GUILD, com, {"do": "check", "target": nick[maf]})
    await service.submit(GUILD, com, {"do": "note", "to": nick[vil], "text": "<u>I knew</u>"})
    clock.now += timedelta(minutes=10)
    await service.deadline_reached(live.id)
    assert (await store.require_game(live.id)).phase == "pistol"
    assert await service.post(GUILD, com, "A ghost says <hi>") is False  # R36: never counts
    await service.post(GUILD, vil, "Between turns.")  # in the pistol window
    await service.submit(GUILD, com, {"do": "shoot", "target": nick[maf]})
    return await load_finished(store, live.id)


async def test_every_published_post_is_kept_in_order_with_turn_and_ghost_mark(
    store: SQLiteStore,
) -> None:
    """Living players' posts, a ghost's (R36) and one between turns are all kept, in the
    order published, each with its nickname and turn."""
    game = await play(store)
    posts = await store.posts(game.id)
    assert [p.text for p in posts] == [*HOSTILE, "A ghost says <hi>", "Between turns."]
    assert [p.turn for p in posts] == [1] * (len(HOSTILE) + 2)
    assert [p.ghost for p in posts] == [False] * len(HOSTILE) + [True, False]
    commissar = next(p.nick for p in game.players if p.role == "commissar")
    assert posts[-2].nick == commissar
    assert game.posts == tuple(posts)
    # The replay format is unchanged: the posts are not part of the script.
    assert set(game.script) == set(TOP_KEYS)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_html_archive_shows_everything_and_player_text_only_as_text(
    store: SQLiteStore, lang: Lang
) -> None:
    game = await play(store)
    html = archive_html(game, lang)
    page = parse(html)
    text = "".join(page.text)
    # No element came from player text: only the template's own, never a script.
    assert set(page.tags) <= TEMPLATE_TAGS
    assert "script" not in page.tags and html.count("<b>") == html.count("<i>") == 0
    for hostile in HOSTILE:
        assert hostile in text  # shown as typed, as text
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "{{ 7*7 }}" in text and "{% raw %}" in text
    # R6 aside, a right-to-left override stays inside its own isolated element.
    assert page.rtl_inside and all("bdi" in inside for inside in page.rtl_inside)
    assert "overflow-wrap: anywhere" in html  # the 2,000-character word wraps
    # Self-contained and printable, light and dark, in the reader's language.
    assert f'<html lang="{lang}">' in html and '<meta charset="utf-8">' in html
    assert "@media print" in html and "prefers-color-scheme: dark" in html
    for external in ("http:", "https:", "<link", "<img", "@import", "url(", "src="):
        assert external not in html
    # Everything: every nickname, role (dealt), turn, the dawn report, the hidden part.
    for seat in game.players:
        assert seat.nick in text
        assert t(lang, f"role.{seat.role}") in text
    assert f"{t(lang, 'archive.turn')} 1" in text
    assert t(lang, "announce.results", turn=1) in text
    assert "<u>I knew</u>" in text and "<u>" not in html  # the death note (R37)
    villager = next(p.nick for p in game.players if p.role == "villager")
    # A request refused when it was sent (R31: no lynch on turn 1), with its reason.
    assert t(lang, "refusal.no_lynch_on_turn_1") in text and villager in text
    assert t(lang, "winner.town") in text and "<i>Table & co" in text
    for heading in ("checks", "mafia", "notes", "requests"):
        assert t(lang, f"archive.{heading}") in text
    # Revealed (the host chose so), but no display name is known here (an offline export):
    # the member column says so, and never shows a raw id.
    for uid in game.members.values():
        assert str(uid) not in html
    assert t(lang, "archive.member_unknown") in text


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_markdown_archive_escapes_player_text(store: SQLiteStore, lang: Lang) -> None:
    game = await play(store)
    md = archive_markdown(game, lang)
    # Rendered as a forum renders Markdown (CommonMark, raw HTML allowed): no element comes
    # from player text, which shows as typed.
    page = parse(MarkdownIt("commonmark").render(md))
    assert set(page.tags) <= MARKDOWN_TAGS
    text = "".join(page.text)
    for hostile in HOSTILE:
        assert hostile in text
    assert "<u>I knew</u>" in text and "A ghost says <hi>" in text
    # Clean to paste: no entity, only the backslashes that keep it text, and no invisible
    # mark except around the one text that holds a direction control of its own.
    assert "&lt;" not in md and "&amp;" not in md and "&gt;" not in md
    assert md.count("\\") == md.count("\\<") + md.count("\\*")
    assert md.count(FSI) == md.count(PDI) == 1
    rtl_line = next(line for line in md.splitlines() if "\u202e" in line)
    assert f"{FSI}\u202eevil right-to-left{PDI}" in rtl_line
    assert page.rtl_inside
    for seat in game.players:
        assert seat.nick in md and t(lang, f"role.{seat.role}") in md
    assert f"## {t(lang, 'archive.turn')} 1" in md


async def test_members_are_absent_unless_the_host_chose_to_reveal_them(store: SQLiteStore) -> None:
    """/mafia new reveal: off keeps the members secret in the archive too; on, the caller's
    display names are shown."""
    game = await play(store, reveal=False)
    names = {uid: f"Member{uid}" for uid in game.members.values()}
    for lang in ("en", "ru"):
        for page in (archive_html(game, lang, names), archive_markdown(game, lang, names)):
            for uid in game.members.values():
                assert str(uid) not in page and names[uid] not in page
            assert t(lang, "archive.members_hidden") in page
    # The same game revealed (the host's choice is all that differs).
    shown = await play(store, reveal=True)
    names = {uid: f"Member {i}" for i, uid in enumerate(shown.members.values(), start=1)}
    html = archive_html(shown, "en", names)
    assert all(f"<bdi>{name}</bdi>" in html for name in names.values())
    assert not any(str(uid) in html for uid in shown.members.values())  # names, never ids


async def test_times_are_in_the_games_time_zone_and_reports_as_published(
    store: SQLiteStore,
) -> None:
    """A Moscow game reads in Moscow time (START is 06:00 UTC, 09:00 in Moscow), Discord
    timestamps of the published texts included; each dawn report is the published message
    (its title, then its headings and their lines), and a check reads "commissar → target:
    answer"."""
    game = await play(store, zone="Europe/Moscow")
    for lang in ("en", "ru"):
        html = archive_html(game, lang)
        text = "".join(parse(html).text)
        start = "10.03.2026 09:00 по Москве" if lang == "ru" else "2026-03-10 09:00 Moscow time"
        assert start in text and "Europe/Moscow" not in text
        assert "UTC" not in text and "<t:" not in html
        assert html.count('class="embed-title"') >= 1
        assert f'<div class="embed-title">{t(lang, "announce.results", turn=1)}</div>' in html
        assert f'<div class="field-name">{t(lang, "dawn.deaths")}</div>' in html
        com = next(p.nick for p in game.players if p.role == "commissar")
        maf = next(p.nick for p in game.players if p.role == "mafioso")
        check = t(
            lang, "archive.check", commissar=com, target=maf, answer=t(lang, "archive.answer.mafia")
        )
        assert check in text
        assert t(lang, "check.mafia", target=maf) not in text  # not "Lynx: Check: ..."
        md = archive_markdown(game, lang)
        assert start in md and "<t:" not in md and "Europe/Moscow" not in md


#: R61: the table's hours a Berlin host sets, and how his players read them in each language.
BERLIN_HOURS = {"deadline": "18:30", "hunts_from": "17:00", "turn_days": 2, "days_off": "сб вс"}
HOURS_READ = {
    "ru": "Часы игры: заявки — до 18:30 по Берлину, охота — с 17:00 последнего дня хода; "
    "ход длится 2 дня. Выходные: сб, вс. Срок, выпавший на выходной, переносится на "
    "следующий день, на тот же час.",
    "en": "Hours: requests until 18:30 Berlin time, hunts from 17:00 of the turn's last day; "
    "a turn lasts 2 days. Days off: Sat, Sun. A deadline falling on one moves to the next "
    "day, at the same hour.",
}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_R61_the_archive_states_the_tables_hours(store: SQLiteStore, lang: Lang) -> None:
    """A forum game keeps the hours its host set: the archive says them as the sign-up post
    and /status did, in the game's language, in the web page and in Markdown (under the
    setup, before the winner); the schedule's name alone would not tell a reader when the
    turns ended."""
    game = await play(store, lang=lang, zone="Europe/Berlin", kind="forum", **BERLIN_HOURS)
    page = parse(archive_html(game, lang))
    text = "".join(page.text)
    assert HOURS_READ[lang] in text
    assert text.index(t(lang, "archive.roles")) < text.index(HOURS_READ[lang])
    assert text.index(HOURS_READ[lang]) < text.index(t(lang, "winner.town"))
    md = archive_markdown(game, lang)
    assert f"\n\n{HOURS_READ[lang]}\n\n**{t(lang, 'winner.town')}**" in md
    assert set(parse(MarkdownIt().render(md)).tags) <= MARKDOWN_TAGS


async def test_R61_a_fast_game_has_no_hours_and_a_default_forum_game_the_originals(
    store: SQLiteStore, tmp_path: Path
) -> None:
    """The fast schedule has no hours (the setup names it); a forum game opened without
    hours reads the original's: requests until 21:00, hunts from 12:00, a turn a day."""
    fast = await play(store, lang="en")
    assert "Hours:" not in archive_markdown(fast, "en")
    assert "Hours:" not in "".join(parse(archive_html(fast, "en")).text)
    other = await SQLiteStore.open(tmp_path / "forum.db")
    try:
        forum = await play(other, lang="ru", zone="Europe/Moscow", kind="forum")
    finally:
        await other.close()
    hours = (
        "Часы игры: заявки — до 21:00 по Москве, охота — с 12:00; ход длится сутки.",
        "Hours: requests until 21:00 Moscow time, hunts from 12:00; a turn lasts a day.",
    )
    assert hours[0] in archive_markdown(forum, "ru")
    assert hours[1] in "".join(parse(archive_html(forum, "en")).text)
    assert "Выходные" not in archive_markdown(forum, "ru")


async def test_a_game_the_host_ended_has_no_dawn_report_for_its_last_turn(
    store: SQLiteStore,
) -> None:
    """/mafia end stops the turn before its deadline: the archive shows its posts and the
    mafia's request, and no results that were never published."""
    clock = FakeClock()
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 commissar=1 villager=2", seed=11,
        activity_rules=False,
    )  # fmt: skip
    for uid in range(4):
        await service.join(GUILD, MEMBER + uid)
    live = await service.start(GUILD)
    by_role = {p.role: p.user_id for p in live.players}
    com_nick = next(p.nick for p in live.players if p.role == "commissar")
    await service.post(GUILD, by_role["villager"], "Hello <all>")
    await service.submit(GUILD, by_role["mafioso"], {"do": "kill", "target": com_nick})
    await service.end(GUILD, HOST)
    game = await load_finished(store, live.id)
    for lang in ("en", "ru"):
        text = "".join(parse(archive_html(game, lang)).text)
        assert "Hello <all>" in text and t(lang, "winner.none") in text
        assert t(lang, "archive.mafia") in text and com_nick in text
        assert t(lang, "announce.results", turn=1) not in text
        assert t(lang, "archive.dawn") not in text


async def _finished_file(path: Path) -> int:
    async with await SQLiteStore.open(path) as store:
        return (await play(store, lang="ru")).id


def test_export_cli_writes_json_html_and_markdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``main.py export --format json|html|md [--lang]``: json (the default) stays the replay
    format; html and md are the archive, in the table's language unless --lang says."""
    db = str(tmp_path / "game.db")
    game_id = asyncio.run(_finished_file(Path(db)))
    assert main.main(["export", "--db", db]) == 0
    default = capsys.readouterr().out
    assert main.main(["export", "--db", db, "--format", "json", str(game_id)]) == 0
    assert capsys.readouterr().out == default  # json stays the replay format
    assert set(json.loads(default)) == set(TOP_KEYS)
    assert main.main(["export", "--db", db, "--format", "html"]) == 0
    html = capsys.readouterr().out
    assert '<html lang="ru">' in html  # the table's language by default
    assert main.main(["export", "--db", db, "--format", "html", "--lang", "en"]) == 0
    assert '<html lang="en">' in capsys.readouterr().out
    assert main.main(["export", "--db", db, "--format", "md", "--lang", "en"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# ") and "\\<script>" in md
    # Only a finished game has an archive.
    assert main.main(["export", "--db", db, "--format", "html", "99"]) == 2
    assert "no game 99" in capsys.readouterr().err


STORY_1 = "Ночь выдалась холодной. <script>alert('ведущий')</script> **тишина**\n# не заголовок"
STORY_2 = "The town woke up angry & <b>sure</b>."


async def play_reviewed(
    store: SQLiteStore, *, publish_last: bool = True
) -> tuple[GameService, int]:
    """A reviewed game (``/mafia new review:30``, core/review.py): the mafioso kills a villager
    on turn 1, the host writes a story (hostile markup in it) and publishes; on turn 2 the town
    lynches the mafioso (the game ends), and the last results wait for the host's story too."""
    await store.save_table(TableSettings(guild_id=GUILD, name="Review", language="ru"))
    clock = FakeClock()
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 villager=3", seed=5,
        activity_rules=False, review=30,
    )  # fmt: skip
    for uid in range(4):
        await service.join(GUILD, MEMBER + uid)
    live = await service.start(GUILD)
    game_id = live.id
    seats = {p.user_id: p for p in live.players}
    maf = next(uid for uid, p in seats.items() if p.role == "mafioso")
    town = [uid for uid, p in seats.items() if p.role == "villager"]
    await service.post(GUILD, maf, "Good morning.")
    await service.submit(GUILD, maf, {"do": "kill", "target": seats[town[0]].nick})
    clock.now += timedelta(minutes=10)
    await service.deadline_reached(game_id)
    await service.set_story(game_id, 1, STORY_1)
    clock.now += timedelta(minutes=5)
    assert await service.publish(game_id, 1)
    for uid in town[1:]:
        await service.submit(GUILD, uid, {"do": "vote", "target": seats[maf].nick})
    clock.now = (await store.require_game(game_id)).deadline or clock.now
    await service.deadline_reached(game_id)
    assert (await store.require_game(game_id)).status == "finished"
    if publish_last:
        await service.set_story(game_id, 2, STORY_2)
        assert await service.publish(game_id, 2)
    return service, game_id


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_R47_the_archive_shows_the_hosts_story_above_each_turns_results(
    store: SQLiteStore, lang: Lang
) -> None:
    """Each turn's results as published, under the host's story (his text, escaped, shown
    as his); a turn whose results still wait for the host shows none of them."""
    _service, game_id = await play_reviewed(store, publish_last=False)
    pending = await load_finished(store, game_id)
    assert pending.unpublished == {2} and set(pending.stories) == {1}
    text = "".join(parse(archive_html(pending, lang)).text)
    assert t(lang, "announce.results", turn=1) in text
    assert t(lang, "announce.results", turn=2) not in text
    assert t(lang, "archive.unpublished") in text

    await _service.set_story(game_id, 2, STORY_2)
    assert await _service.publish(game_id, 2)
    game = await load_finished(store, game_id)
    assert dict(game.stories) == {1: STORY_1, 2: STORY_2} and not game.unpublished
    html = archive_html(game, lang)
    page = parse(html)
    text = "".join(page.text)
    assert set(page.tags) <= TEMPLATE_TAGS and "script" not in page.tags
    assert "<b>" not in html and "&lt;b&gt;sure&lt;/b&gt;" in html
    for number, story in ((1, STORY_1), (2, STORY_2)):
        results = text.index(t(lang, "announce.results", turn=number))
        at = text.index(story)  # as he wrote it, line breaks and all
        assert text.index(f"{t(lang, 'archive.turn')} {number}") < at < results
        assert text.count(story) == 1
    assert text.count(t(lang, "archive.story")) == 2
    assert t(lang, "archive.unpublished") not in text

    md = archive_markdown(game, lang)
    rendered = parse(MarkdownIt("commonmark").render(md))
    assert set(rendered.tags) <= MARKDOWN_TAGS  # no script, no bold: his text as written
    assert STORY_2 in "".join(rendered.text)
    assert "\\*\\*тишина\\*\\*" in md and "\n# не" not in md and "> \\# не заголовок" in md
    assert md.index(f"### {t(lang, 'archive.story')}") < md.index(t(lang, "archive.dawn"))


async def test_R18_R55_a_shot_held_in_review_is_not_known_before_publication(
    store: SQLiteStore,
) -> None:
    """The mafia kill the commissar, who shoots the mafioso in his window (R18): the game is
    over in the store, the whole turn waits for the host's one publication (core/review.py).
    Until he publishes, the mafioso's card and the roster read as they were public before
    the turn: neither the night's death nor the shot is known."""
    await store.save_table(TableSettings(guild_id=GUILD, name="Pistol", language="en"))
    clock = FakeClock()
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 commissar=1 villager=2", seed=11,
        activity_rules=False, review=30,
    )  # fmt: skip
    for uid in range(4):
        await service.join(GUILD, MEMBER + uid)
    live = await service.start(GUILD)
    by = {p.role: p.user_id for p in live.players}
    nick = {p.user_id: p.nick for p in live.players}
    maf, com = by["mafioso"], by["commissar"]
    await service.submit(GUILD, maf, {"do": "kill", "target": nick[com]})
    clock.now += timedelta(minutes=10)
    await service.deadline_reached(live.id)
    await service.submit(GUILD, com, {"do": "shoot", "target": nick[maf]})
    assert (await store.require_game(live.id)).status == "finished"
    game, _nick, card = await service.card_now(GUILD, maf)
    assert card.alive and game.review is not None
    assert game.public_state.alive(nick[com])  # the night waits with the shot
    assert await service.publish(live.id, 1)
    assert await service.held_game(GUILD) is None
    with pytest.raises(ServiceError):
        await service.card_now(GUILD, maf)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_archive_pastes_into_a_forum_quotes_as_quotes(
    store: SQLiteStore, lang: Lang
) -> None:
    """Issue 31: what the host posts on his forum after the game. A post made with the Quote
    command is a quote naming the quoted nickname (no Discord link: it means nothing
    there), then the reply; nicknames carry no invisible marks, nothing is an entity; the
    web page shows the quote as a quote too."""
    clock = FakeClock()
    service = GameService(store, clock)
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=1 commissar=1 villager=2", seed=11,
        activity_rules=False,
    )  # fmt: skip
    for uid in range(4):
        await service.join(GUILD, MEMBER + uid)
    live = await service.start(GUILD)
    first, second = live.players[0], live.players[1]
    said = "Not so fast & *loud*.\nWho was it?"
    await service.post(GUILD, first.user_id, said)
    link = "https://discord.com/channels/1/2/3"
    block = quote_block(lang, first.nick, link, said)
    await service.post(GUILD, second.user_id, f"{block}\n\nYou, <maybe>.")
    await service.end(GUILD, HOST)
    game = await load_finished(store, live.id)

    md = archive_markdown(game, lang)
    assert f"> **{first.nick}:**  \n> Not so fast & \\*loud\\*." in md
    assert "discord.com" not in md and t(lang, "quote.head", nick="", link="")[:5] not in md
    assert FSI not in md and PDI not in md and "&amp;" not in md and "&lt;" not in md
    page = parse(MarkdownIt("commonmark").render(md))
    assert "blockquote" in page.tags and set(page.tags) <= MARKDOWN_TAGS
    text = "".join(page.text)
    assert "You, <maybe>." in text and "Not so fast & *loud*." in text

    html = archive_html(game, lang)
    assert "discord.com" not in html and '<blockquote class="quote">' in html
    quoted = html.split('<blockquote class="quote">')[1].split("</blockquote>")[0]
    assert first.nick in quoted and "Not so fast &amp; *loud*." in quoted
    assert "You, &lt;maybe&gt;." not in quoted
