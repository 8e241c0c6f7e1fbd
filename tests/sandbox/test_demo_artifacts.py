"""``main.py demo --artifacts DIR``: after the games, DIR holds each game's archive
(a web page and Markdown), its end-of-game picture and the server's stats, and the stats agree
with the games stored in the demo's database."""

from __future__ import annotations

import asyncio
import io
import re
from collections import Counter
from pathlib import Path

import pytest

from core.i18n import Lang, t
from db.store import SQLiteStore
from main import build_parser
from sandbox.demo import DemoOptions, run_demo

PNG = b"\x89PNG\r\n\x1a\n"
#: The first line of a member's block in stats.md.
MEMBER_LINE = {
    lang: re.escape(t(lang, "stats.member", member="@MEMBER")).replace("MEMBER", r"member_\d+")
    for lang in ("en", "ru")
}


async def _seats(db: Path) -> tuple[list[int], dict[int, list[str]], Counter[int]]:
    """The finished games, each game's nicknames, and how many games each member played."""
    store = await SQLiteStore.open(db, read_only=True)
    try:
        games = [g.id for g in await store.list_games(status="finished")]
        nicks: dict[int, list[str]] = {}
        played: Counter[int] = Counter()
        for game_id in games:
            seats = await store.players(game_id)
            nicks[game_id] = [p.nick for p in seats]
            played.update(p.user_id for p in seats)
        return games, nicks, played
    finally:
        await store.close()


@pytest.mark.parametrize(("lang", "tables"), [("ru", 2), ("en", 1)])
def test_the_demo_leaves_its_archives_pictures_and_stats(
    tmp_path: Path, lang: Lang, tables: int
) -> None:
    folder, db = tmp_path / "artifacts", tmp_path / "demo.db"
    options = DemoOptions(
        players=7, seed=4, lang=lang, tables=tables, db=str(db), artifacts=str(folder)
    )
    out = io.StringIO()
    assert asyncio.run(run_demo(options, out)) == 0
    assert out.getvalue().splitlines()[-1].startswith("winner")  # the transcript is unchanged

    games, nicks, played = asyncio.run(_seats(db))
    assert len(games) == tables
    for game_id in games:
        page = (folder / f"game-{game_id}.html").read_text(encoding="utf-8")
        markdown = (folder / f"game-{game_id}.md").read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in page
        for nick in nicks[game_id]:
            assert nick in page and nick in markdown
        picture = (folder / f"game-{game_id}.png").read_bytes()
        assert picture.startswith(PNG) and len(picture) > 10_000
    stats = (folder / "stats.md").read_text(encoding="utf-8")
    assert "<@" not in stats  # mentions written as names: a file has no Discord
    # Every member's games, as /stats counts them, equal his seats stored (the demo reveals
    # its members, so all of them count): the block of each member names his games first.
    lines = stats.splitlines()
    heads = [i for i, line in enumerate(lines) if re.fullmatch(MEMBER_LINE[lang], line)]
    counted = []
    for i in heads:
        for n in range(1, 31):
            head = t(lang, "stats.games", games=n, wins=0, rate=0).split(",")[0]
            if lines[i + 1].startswith(head + ","):
                counted.append(n)
                break
    assert sorted(counted) == sorted(played.values())
    assert t(lang, "stats.member", member="@member_01") in stats


def test_the_artifacts_option_is_on_the_command_line() -> None:
    args = build_parser().parse_args(["demo", "--artifacts", "out"])
    assert args.artifacts == "out"
