"""The end-of-game payload (rules.announce.game_over_announcement): the winner and why (R15),
every nickname's original and final role (R19, R22) and fate, the turns played, and the
members behind the nicknames only when the service passes them (the host's reveal choice).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from rules.announce import Ending, final_announcements, game_over_announcement
from rules.engine import Game
from rules.replay import _run_turn, parse_script
from tests.rules.dsl import game, turn

FOUR = "Com:commissar Maf:mafioso V1 V2"


def finished(players: str, *turns: dict[str, Any]) -> Game:
    """The engine after the script's turns (later turns ignored once someone won)."""
    engine, parsed = parse_script(copy.deepcopy(game(players, *turns)))
    for number, parsed_turn in enumerate(parsed, start=1):
        if engine.winner is not None:
            break
        _run_turn(engine, number, parsed_turn)
    return engine


def entry(payload: dict[str, Any], nick: str) -> dict[str, Any]:
    return next(p for p in payload["roles"] if p["nick"] == nick)


def test_R15_town_wins_because_no_mafia_is_left() -> None:
    engine = finished(FOUR, turn(), turn("V1 vote Maf", "V2 vote Maf"))
    payload = game_over_announcement(engine.state, engine.winner).payload
    assert (payload["winner"], payload["reason"], payload["turns"]) == ("town", "mafia_dead", 2)
    assert entry(payload, "Maf") == {
        "nick": "Maf",
        "role": "mafioso",
        "final_role": None,
        "alive": False,
        "cause": "lynch",
        "turn": 2,
    }
    assert entry(payload, "V1")["alive"] is True and entry(payload, "V1")["cause"] is None


def test_R15_mafia_wins_at_parity() -> None:
    engine = finished(FOUR, turn("Maf kill V1"), turn("Maf kill V2"))
    payload = game_over_announcement(engine.state, engine.winner).payload
    assert (payload["winner"], payload["reason"], payload["turns"]) == ("mafia", "parity", 2)
    assert entry(payload, "V2")["cause"] == "mafia" and entry(payload, "V2")["turn"] == 2


def test_R15_maniac_and_draw_have_their_reasons() -> None:
    engine = finished("Man:maniac Maf:mafioso V1 V2", turn("Maf kill V1", "Man poison V2"), turn())
    assert game_over_announcement(engine.state, engine.winner).payload["reason"] == "maniac_last"
    engine = finished(
        "Man:maniac Maf:mafioso V1 V2",
        turn("Man poison V1", "Maf kill V2"),
        turn("Man vote Maf", "V1 vote Maf", "Maf kill Man"),
    )
    payload = game_over_announcement(engine.state, engine.winner).payload
    assert (payload["winner"], payload["reason"]) == ("draw", "all_dead")


def test_the_host_ending_the_game_has_no_winner_and_says_so() -> None:
    engine = finished(FOUR, turn("Maf kill V1"))
    payload = game_over_announcement(engine.state, None).payload
    assert (payload["winner"], payload["reason"], payload["turns"]) == (None, "host_ended", 2)


def test_R22_R19_converted_foundling_and_promoted_sergeant_show_both_roles() -> None:
    players = "Com:commissar Sgt:sergeant Fou:foundling Boss:boss Maf:mafioso V1 V2 V3"
    engine = finished(
        players,
        turn("Boss kill Com", "Maf kill Com"),  # R19: the Sergeant is promoted
        turn("V1 hunt Boss", "Maf kill V3", *(f"{v} vote Maf" for v in ("V2", "V3", "Sgt", "Fou"))),
        turn(*(f"{v} vote Fou" for v in ("V1", "V2", "Sgt"))),  # R22: converted, then lynched
    )
    payload = game_over_announcement(engine.state, engine.winner).payload
    assert payload["winner"] == "town"
    assert entry(payload, "Fou")["role"] == "foundling"
    assert entry(payload, "Fou")["final_role"] == "converted_foundling"
    assert entry(payload, "Sgt")["role"] == "sergeant"
    assert entry(payload, "Sgt")["final_role"] == "promoted_sergeant"
    assert entry(payload, "V2")["final_role"] is None


def test_members_are_named_only_when_the_service_passes_them() -> None:
    engine = finished(FOUR, turn(), turn("V1 vote Maf", "V2 vote Maf"))
    hidden = game_over_announcement(engine.state, engine.winner).payload
    assert hidden["reveal"] is False
    assert not any("member" in p for p in hidden["roles"])
    ending = Ending(
        members={"Com": 11, "Maf": 12, "V1": 13, "V2": 14},
        started="2026-01-01T00:00:00+00:00",
        ended="2026-01-01T00:20:00+00:00",
    )
    named = game_over_announcement(engine.state, engine.winner, ending).payload
    assert named["reveal"] is True
    assert {p["nick"]: p["member"] for p in named["roles"]} == ending.members
    assert (named["started"], named["ended"]) == (ending.started, ending.ended)
    assert json.loads(json.dumps(named)) == named  # plain JSON: it goes to the outbox


def test_the_winning_resolution_carries_the_ending() -> None:
    """final_announcements passes the service's ending to the game-over payload."""
    engine, parsed = parse_script(
        copy.deepcopy(game(FOUR, turn(), turn("V1 vote Maf", "V2 vote Maf")))
    )
    _run_turn(engine, 1, parsed[0])
    for request in parsed[1].requests:
        assert engine.submit(request) is None
    engine.resolve()
    result = engine.finish_turn()
    over = final_announcements(engine.state, result, Ending(members={"V1": 5}))[-1]
    assert over.kind == "game_over" and entry(over.payload, "V1")["member"] == 5
