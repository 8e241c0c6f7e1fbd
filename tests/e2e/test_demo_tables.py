"""``main.py demo --tables N``: N games at once on one simulated server, each at its own table
(``/mafia setup table:``), on one virtual clock. Each table's ``#game`` is printed with its name
and nothing of one game shows at another table; the last lines name each table's winner; a
demo stopped part-way and run again on the same database resumes every table to the same
ending; one table is exactly the single-table demo."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from core.i18n import Lang, t
from main import build_parser
from sandbox.demo import TABLE_NAMES, DemoOptions, run_demo

LINE = re.compile(r"^\[(?P<table>[^\]#]+) #(?P<channel>[^\]]+)\] (?P<text>.*)$")
WINNER = re.compile(r"^winner\[(?P<table>[^\]]+)\]: (?P<winner>town|mafia|maniac|draw)$")


def play(options: DemoOptions) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = asyncio.run(run_demo(options, out))
    return code, out.getvalue().splitlines()


def by_table(lines: list[str]) -> dict[str, list[str]]:
    """The printed lines of each table's #game (every line is labelled with its table)."""
    tables: dict[str, list[str]] = {}
    for line in lines:
        found = LINE.match(line)
        if found:
            tables.setdefault(found["table"], []).append(found["text"])
    return tables


def authors(texts: list[str], lang: Lang) -> set[str]:
    """The nicknames that posted in a #game (webhook posts: ``Nick: text``)."""
    host = t(lang, "host.display_name")
    return {
        text.split(": ", 1)[0]
        for text in texts
        if ": " in text and not text.startswith(" ") and text.split(": ", 1)[0] != host
    }


@pytest.mark.parametrize(("tables", "lang"), [(3, "en"), (5, "ru")])
def test_several_tables_play_at_once_each_in_its_own_game_channel(tables: int, lang: Lang) -> None:
    code, lines = play(DemoOptions(seed=4, players=6, lang=lang, tables=tables))
    assert code == 0, lines[-8:]
    names = TABLE_NAMES[lang][:tables]
    winners = [WINNER.match(line) for line in lines[-tables:]]
    assert all(winners), lines[-tables:]
    assert [w["table"] for w in winners if w] == list(names)
    printed = by_table(lines[:-tables])
    assert set(printed) == set(names)  # every line of #game says whose table it is
    unlabelled = [line for line in lines[:-tables] if not LINE.match(line)]
    assert unlabelled == []
    posters = {name: authors(texts, lang) for name, texts in printed.items()}
    for name, texts in printed.items():
        # Each table's game ends in its own #game, with its own winner (R15).
        ending = next(w["winner"] for w in winners if w and w["table"] == name)
        host = t(lang, "host.display_name")
        assert f"{host}: {t(lang, f'winner.{ending}')}" in texts
        # Its players are its own: six members each, seats never shared between tables.
        members = set(re.findall(r"@member_(\d+)", "\n".join(texts)))
        assert len(members) == 6, (name, members)
        for other, other_texts in printed.items():
            if other == name:
                continue
            assert not members & set(re.findall(r"@member_(\d+)", "\n".join(other_texts)))
        assert posters[name], name
    # One virtual clock: every table's turn 1 opened with the same deadline.
    first_deadlines = {
        next(line for line in texts if "2026-01-01" in line) for texts in printed.values()
    }
    assert len(first_deadlines) == 1, first_deadlines
    again = play(DemoOptions(seed=4, players=6, lang=lang, tables=tables))
    assert again == (code, lines)  # deterministic, several tables included


def test_a_stopped_multi_table_demo_resumes_every_table(tmp_path: Path) -> None:
    """Stopped after the first turn (the turn cap), run again on the same database: every
    table's game continues where it was and ends as an uninterrupted run ends (the store is
    the truth across restarts, table by table)."""
    db = str(tmp_path / "demo.db")
    whole = play(DemoOptions(seed=5, players=6, tables=2))
    stopped = play(DemoOptions(seed=5, players=6, tables=2, db=db, turn_cap=1))
    assert stopped[0] == 1 and stopped[1][-2:] == ["winner[Main]: none", "winner[Newcomers]: none"]
    resumed = play(DemoOptions(seed=5, players=6, tables=2, db=db))
    assert resumed[0] == 0
    assert sum("-- resuming game" in line for line in resumed[1]) == 2
    assert resumed[1][-2:] == whole[1][-2:]


def test_one_table_is_the_single_table_demo() -> None:
    one = play(DemoOptions(seed=3, players=8, tables=1))
    default = play(DemoOptions(seed=3, players=8))
    assert one == default
    assert one[1][-1].startswith("winner: ") and not any(LINE.match(x) for x in one[1])


def test_the_command_line_takes_tables_from_one_to_ten() -> None:
    parser = build_parser()
    assert parser.parse_args(["demo", "--tables", "4"]).tables == 4
    assert parser.parse_args(["demo"]).tables == 1
    for bad in ("0", "11", "x"):
        with pytest.raises(SystemExit):
            parser.parse_args(["demo", "--tables", bad])
