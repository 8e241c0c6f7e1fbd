"""The lines a forum host posts with each turn's results: who did not vote, with the missed
votes R53 counts (so the second miss is seen coming), and the threshold with the votes cast
(R31), as the rules decide them for the public payload."""

from __future__ import annotations

from typing import Any

from rules.announce import night_announcements
from rules.engine import Game
from rules.model import HostAction, Request
from rules.names import public_order as alphabetical

# Seats deliberately out of alphabetical order: the list must not follow them.
PLAYERS = [
    ("Сова", "villager"),
    ("Ёж", "villager"),
    ("Аист", "villager"),
    ("Дрозд", "commissar"),
    ("Енот", "villager"),
    ("Барсук", "villager"),
    ("Волк", "mafioso"),
    ("Жаба", "boss"),
]
NICKS = [nick for nick, _ in PLAYERS]


def new_game(activity: bool = True) -> Game:
    return Game.new(PLAYERS, seed=1, activity_rules=activity)


def everyone_posts(game: Game) -> None:
    for p in game.state.living():
        assert game.submit(Request(by=p.nick, do="post")) is None


def results_payload(game: Game) -> dict[str, Any]:
    """Resolve the turn and return its public results payload (then close the turn)."""
    result = game.resolve()
    [results] = [a for a in night_announcements(game.state, result) if a.kind == "results"]
    game.finish_turn()
    return results.payload


def vote(game: Game, by: str, target: str) -> None:
    assert game.submit(Request(by=by, do="vote", target=target)) is None


def test_R53_nonvoters_listed_alphabetically_with_their_missed_votes() -> None:
    game = new_game()
    everyone_posts(game)
    assert results_payload(game)["nonvoters"] is None  # R3: turn 1 has no vote
    # Turn 2: everyone votes but Сова and Ёж.
    everyone_posts(game)
    for nick in ("Аист", "Дрозд", "Енот", "Барсук", "Волк", "Жаба"):
        vote(game, nick, "Волк" if nick != "Волк" else "Аист")
    payload = results_payload(game)
    assert payload["nonvoters"] == [
        {"nick": "Ёж", "missed": 1, "out": False},
        {"nick": "Сова", "missed": 1, "out": False},
    ]
    # Turn 3: Ёж misses again (removed, R53); Сова votes.
    everyone_posts(game)
    for p in game.state.living():
        if p.nick not in ("Ёж",):
            vote(game, p.nick, "Аист" if p.nick != "Аист" else "Барсук")
    payload = results_payload(game)
    assert payload["nonvoters"] == [{"nick": "Ёж", "missed": 2, "out": True}]
    assert any(d["nick"] == "Ёж" and d["cause"] == "missed_votes" for d in payload["deaths"])


def test_R31_nonvoters_without_activity_rules_carry_no_count() -> None:
    game = new_game(activity=False)
    results_payload(game)
    vote(game, "Аист", "Волк")
    payload = results_payload(game)
    expected = alphabetical(n for n in NICKS if n != "Аист")
    assert [e["nick"] for e in payload["nonvoters"]] == expected
    assert all(e["missed"] is None and not e["out"] for e in payload["nonvoters"])


def test_R54_no_nonvoters_line_when_a_vote_was_taken_away() -> None:
    """Totals only (R54): naming who did not vote would tell who did."""
    game = new_game()
    everyone_posts(game)
    results_payload(game)
    everyone_posts(game)
    assert game.host_action(HostAction(do="deprive_vote", player="Сова")) is None
    vote(game, "Аист", "Волк")
    payload = results_payload(game)
    assert payload["lynch"]["public"] == "totals"
    assert payload["nonvoters"] is None


def test_R54_a_deprived_player_is_not_a_nonvoter_nor_charged() -> None:
    game = new_game()
    everyone_posts(game)
    results_payload(game)
    everyone_posts(game)
    assert game.host_action(HostAction(do="deprive_vote", player="Сова")) is None
    results_payload(game)
    assert game.state.players["Сова"].missed_votes == 0
    assert game.state.players["Ёж"].missed_votes == 1


def test_R31_threshold_names_the_votes_cast_apart_from_the_electorate() -> None:
    game = new_game()
    everyone_posts(game)
    results_payload(game)
    everyone_posts(game)
    for nick in ("Аист", "Енот", "Барсук", "Жаба"):
        vote(game, nick, "Волк")
    payload = results_payload(game)
    assert payload["threshold"] == {"needed": 2, "electorate": 8, "cast": 4}


def test_alphabetical_order_puts_yo_with_ye_and_ignores_case() -> None:
    assert alphabetical(["Ёж", "жаба", "Енот", "Дрозд", "ель"]) == [
        "Дрозд",
        "Ёж",  # as "еж": before "ель", not after "я"
        "ель",
        "Енот",
        "жаба",
    ]
    assert alphabetical(["owl", "Heron", "ant"]) == ["ant", "Heron", "owl"]


def test_R3_R54_commands_now_for_help_with_the_hunts_opening() -> None:
    from rules.knowledge import HUNT_OPENS, NEXT_TURN, commands_now

    game = new_game()
    first = commands_now(game.state, "Сова", hunts_open=True)
    assert "vote" not in first.now and "hunt" not in first.now  # R3: turn 1
    assert set(first.later) == {("vote", NEXT_TURN), ("hunt", NEXT_TURN)}
    assert "kill" in commands_now(game.state, "Волк", hunts_open=True).now
    everyone_posts(game)
    results_payload(game)
    early = commands_now(game.state, "Сова", hunts_open=False)
    assert "vote" in early.now and early.later == (("hunt", HUNT_OPENS),)  # R4
    assert "hunt" in commands_now(game.state, "Сова", hunts_open=True).now
    assert game.host_action(HostAction(do="deprive_vote", player="Сова")) is None
    assert "vote" not in commands_now(game.state, "Сова", hunts_open=True).now  # R54
    game.resolve()  # between the deadline and the next turn: no request
    assert commands_now(game.state, "Ёж", hunts_open=True) == commands_now(
        game.state, "Ёж", hunts_open=False
    )
    assert commands_now(game.state, "Ёж", hunts_open=True).now == ()
