"""The mafia's kill board (R23, R36): the decision the night's kill takes, shown while the
mafia plot; in alphabetical order; only their own requests and members."""

from __future__ import annotations

from rules.engine import Game
from rules.killboard import AGREED, NONE, SPLIT, agreed_kill, kill_board
from rules.model import HostAction, Request

PLAYERS = [
    ("Сорока", "mafioso"),
    ("Соловей", "boss"),
    ("Заяц", "mafioso"),
    ("Синица", "villager"),
    ("Полёвка", "villager"),
    ("Ёж", "doctor"),
    ("Аист", "villager"),
    ("Барсук", "villager"),
    ("Волк", "villager"),
    ("Дрозд", "commissar"),
]


def kill(game: Game, by: str, *targets: str) -> None:
    req = (
        Request(by=by, do="kill", target=targets[0])
        if len(targets) == 1
        else Request(by=by, do="kill", targets=tuple(targets))
    )
    assert game.submit(req) is None


def test_R23_no_requests_no_kill() -> None:
    board = kill_board(Game.new(PLAYERS).state)
    assert (board.status, board.requests) == (NONE, ())
    assert board.waiting == ("Заяц", "Соловей", "Сорока")  # alphabetical, not by seat


def test_R23_a_split_shows_as_split_and_the_night_kills_nobody() -> None:
    game = Game.new(PLAYERS)
    kill(game, "Соловей", "Синица")
    kill(game, "Заяц", "Синица")
    kill(game, "Сорока", "Полёвка")
    board = kill_board(game.state)
    assert board.status == SPLIT and board.targets == ()
    assert board.requests == (
        ("Заяц", ("Синица",)),
        ("Соловей", ("Синица",)),
        ("Сорока", ("Полёвка",)),
    )
    assert board.waiting == ()
    result = game.resolve()
    assert not [d for d in result.deaths if d.cause == "mafia"]  # the same decision


def test_R23_agreed_even_with_a_silent_member_and_the_night_kills_him() -> None:
    game = Game.new(PLAYERS)
    kill(game, "Соловей", "Синица")
    kill(game, "Заяц", "Синица")
    board = kill_board(game.state)
    assert (board.status, board.targets, board.waiting) == (AGREED, ("Синица",), ("Сорока",))
    result = game.resolve()
    assert [d.player for d in result.deaths if d.cause == "mafia"] == ["Синица"]


def test_R36_double_kill_needs_the_same_two_in_any_order() -> None:
    game = Game.new(PLAYERS)
    assert game.host_action(HostAction(do="double_kill")) is None
    kill(game, "Соловей", "Синица", "Аист")
    kill(game, "Заяц", "Аист", "Синица")
    board = kill_board(game.state)
    assert board.double and board.status == AGREED and board.targets == ("Аист", "Синица")
    kill(game, "Сорока", "Аист")
    assert kill_board(game.state).status == SPLIT


def test_R23_a_dead_members_request_no_longer_counts() -> None:
    game = Game.new(PLAYERS)
    kill(game, "Сорока", "Полёвка")
    kill(game, "Заяц", "Синица")
    assert kill_board(game.state).status == SPLIT
    assert game.host_action(HostAction(do="exclude", player="Сорока")) is None
    board = kill_board(game.state)
    assert board.status == AGREED and board.targets == ("Синица",)
    assert "Сорока" not in board.waiting


def test_agreed_kill() -> None:
    assert agreed_kill([]) is None
    assert agreed_kill([frozenset({"A"}), frozenset({"A"})]) == frozenset({"A"})
    assert agreed_kill([frozenset({"A"}), frozenset({"B"})]) is None
