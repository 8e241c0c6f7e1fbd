"""The end-of-game picture (core/picture.py) of real finished games: demo games played by the
real bot in SimCord into a real SQLite file, read back with ``core.history.load_finished``.

A PNG (signature, opaque RGB: readable on Discord's dark and light themes), within size
bounds for 4, 9 and 30 players and in both languages, the same bytes for the same game, and
no member in it: a game kept secret (``reveal`` false) and the same game revealed give the
same picture (the picture shows nicknames only). Synthetic data checks the limits: very long
nicknames, 60 players, 45 turns, every cause of death (docs/REFERENCE.md section 8), a game the host
ended (no winner). The pictures were also looked at (seeds 1, 3, 7 in both languages)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest
from PIL import Image

from core.history import FinishedGame, load_finished
from core.i18n import Lang
from core.picture import (
    MAX_COLS,
    MAX_ROWS,
    PictureData,
    Row,
    draw_picture,
    game_picture,
    picture_data,
)
from db.store import SQLiteStore
from sandbox.demo import DemoOptions, run_demo

PNG = b"\x89PNG\r\n\x1a\n"
CAUSES = (
    "lynch",
    "mafia",
    "poison",
    "euthanasia",
    "hunt",
    "hunt_backfire",
    "pistol",
    "inactive",
    "missed_votes",
    "excluded",
)


def finished(folder: Path, seed: int, players: int, lang: Lang, tables: int = 1) -> FinishedGame:
    """Play a demo game to its end into ``folder`` and load it as the picture reads it."""
    db = str(folder / f"demo-{seed}-{players}-{lang}-{tables}.db")
    options = DemoOptions(seed=seed, players=players, lang=lang, db=db, tables=tables)
    assert asyncio.run(run_demo(options, io.StringIO())) == 0

    async def load() -> FinishedGame:
        store = await SQLiteStore.open(db)
        try:
            latest = await store.latest_game()
            assert latest is not None
            return await load_finished(store, latest.id)
        finally:
            await store.close()

    return asyncio.run(load())


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int, int, Lang], FinishedGame]:
    cache: dict[tuple[int, int, Lang], FinishedGame] = {}
    folder = tmp_path_factory.mktemp("pictures")

    def get(seed: int, players: int, lang: Lang) -> FinishedGame:
        if (seed, players, lang) not in cache:
            cache[(seed, players, lang)] = finished(folder, seed, players, lang)
        return cache[(seed, players, lang)]

    return get


def opened(data: bytes) -> Image.Image:
    assert data.startswith(PNG)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.mode == "RGB"  # no transparency: the same on Discord's dark and light themes
    return image


@pytest.mark.parametrize(
    ("seed", "players", "lang"),
    [(1, 9, "en"), (3, 9, "ru"), (7, 4, "en"), (7, 30, "ru"), (2, 30, "en"), (3, 4, "ru")],
)
def test_a_finished_game_gives_a_png_within_bounds(
    games: Callable[[int, int, Lang], FinishedGame], seed: int, players: int, lang: Lang
) -> None:
    game = games(seed, players, lang)
    data = game_picture(game, lang)
    image = opened(data)
    assert 1000 <= image.width <= 1400
    assert 400 <= image.height <= 2000
    assert image.height <= 1.4 * image.width or players > 16
    assert len(data) < 1_000_000  # far below Discord's upload limit
    # One row per player, one column per turn, read from the game.
    shown = picture_data(game)
    assert [r.nick for r in shown.rows] == [e["nick"] for e in game.summary["roles"]]
    assert shown.turns == game.summary["turns"]
    assert shown.winner == game.winner
    # The lynch votes received are the replayed outcome's (R31), counts only (R54).
    for result in game.outcome["turns"]:
        for nick, voters in ((result.get("lynch") or {}).get("votes") or {}).items():
            assert shown.votes[(nick, result["turn"])] == len(voters)


def test_the_same_game_gives_the_same_bytes_in_each_language(
    games: Callable[[int, int, Lang], FinishedGame],
) -> None:
    game = games(3, 9, "ru")
    assert game_picture(game, "ru") == game_picture(game, "ru")
    assert game_picture(game, "en") != game_picture(game, "ru")  # the texts are translated


def test_the_picture_never_depends_on_the_members(
    games: Callable[[int, int, Lang], FinishedGame],
) -> None:
    """Revealed or kept secret, and whoever played: the same picture (nicknames only)."""
    game = games(1, 9, "en")
    assert game.record.reveal
    secret = attrs.evolve(
        game,
        record=attrs.evolve(game.record, reveal=False),
        players=tuple(attrs.evolve(p, user_id=p.user_id + 1000) for p in game.players),
        summary={
            **game.summary,
            "reveal": False,
            "roles": [
                {k: v for k, v in entry.items() if k != "member"} for entry in game.summary["roles"]
            ],
        },
    )
    assert game_picture(secret, "en") == game_picture(game, "en")


def synthetic(players: int, turns: int, *, winner: str | None = "town") -> PictureData:
    """``players`` rows, dying in turn in every cause of section 8 (one in three survives),
    with lynch votes on every turn."""
    rows = []
    for i in range(players):
        alive = i % 3 == 0
        rows.append(
            Row(
                nick=f"Player{i}" + ("-with-a-very-long-nickname" * 4 if i % 5 == 1 else ""),
                role=("villager", "mafioso", "maniac", "converted_foundling")[i % 4],
                faction=("town", "mafia", "loner", "mafia")[i % 4],
                alive=alive,
                cause=None if alive else CAUSES[i % len(CAUSES)],
                turn=None if alive else 1 + i % turns,
            )
        )
    votes = {(f"Player{i}", 1 + i % turns): 1 + i % 12 for i in range(players)}
    return PictureData(
        game_id=12,
        table="Стол с очень длинным названием " * 3,
        winner=winner,
        reason="host_ended" if winner is None else "mafia_dead",
        turns=turns,
        rows=tuple(rows),
        votes=votes,
        hanged=frozenset(),
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    ("players", "turns"), [(4, 1), (9, 3), (30, 30), (60, 45), (MAX_ROWS, MAX_COLS + 1)]
)
def test_many_players_and_turns_fit(lang: Lang, players: int, turns: int) -> None:
    image = opened(draw_picture(synthetic(players, turns), lang))
    assert 1000 <= image.width <= 1400
    assert image.height <= 2000


@pytest.mark.parametrize("winner", [None, "town", "mafia", "maniac", "draw"])
def test_every_ending_is_drawn(winner: str | None) -> None:
    """The host ending the game (no winner, R15's checks never met) has a picture too."""
    opened(draw_picture(synthetic(7, 4, winner=winner), "ru"))


def test_hostile_nicknames_are_drawn_clipped_and_never_crash() -> None:
    """Player text is hostile input: markup, bidi controls, emoji outside the font, a
    2,000-character word, an empty name; each is drawn as text, cut with an ellipsis."""
    nicks = [
        "<script>alert(1)</script>",
        "\u202eабв\u202c",
        "😀🎲",
        "Ж" * 2000,
        "",
        "a\u0301\u0301",
    ]
    data = synthetic(len(nicks), 3)
    rows = tuple(attrs.evolve(row, nick=nick) for row, nick in zip(data.rows, nicks, strict=True))
    image = opened(draw_picture(attrs.evolve(data, rows=rows, table="\u202e" + "Я" * 500), "ru"))
    assert image.width == 1200
