"""What the dawn report learns from the lynch (R31-R34, R54, and the Decision of section 6 that
the lynch is decided on every vote as cast, candidates who died earlier in the resolution
included): the threshold, the player chosen and whether he was already dead, the votes not
counted and why, how a tie was broken; and what the public payload of the results says of it
(full under R34, counts only under R54). The replay format (``LynchResult.to_dict``) is
docs/REPLAY.md's: ``chosen``, ``hanged``, ``votes``, ``public``.
"""

from __future__ import annotations

import copy
from typing import Any

from rules import replay
from rules.announce import night_announcements, turn_open_announcement
from rules.engine import Game
from rules.model import HostAction, LynchResult, Request
from tests.rules.dsl import game as script
from tests.rules.dsl import turn

EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
NINE = "Com:commissar Boss:boss Maf:mafioso Tro:troublemaker V1 V2 V3 V4 V5"


def run(players: str, *turns: Any) -> Game:
    game, parsed = replay.parse_script(copy.deepcopy(script(players, *turns)))
    for number, parsed_turn in enumerate(parsed, start=1):
        replay._run_turn(game, number, parsed_turn)
    return game


def lynch_of(game: Game, n: int) -> LynchResult:
    result = game.history[n - 1].lynch
    assert result is not None
    return result


def public_lynch(game: Game, n: int) -> dict[str, Any]:
    [results] = [
        a for a in night_announcements(game.state, game.history[n - 1]) if a.kind == "results"
    ]
    view = results.payload["lynch"]
    assert isinstance(view, dict)
    return view


def test_R31_threshold_is_a_quarter_of_the_electorate_rounded_up() -> None:
    game = run(NINE, turn(), turn("V1 vote V5"))
    assert (lynch_of(game, 2).electorate, lynch_of(game, 2).threshold) == (9, 3)
    view = public_lynch(game, 2)
    assert (view["threshold"], view["electorate"]) == (3, 9)


def test_R31_R54_a_deprived_player_leaves_the_electorate_and_lowers_the_threshold() -> None:
    game = run(NINE, turn(), turn("V1 vote V3", "V2 vote V3", host=["deprive_vote V4"]))
    lynch = lynch_of(game, 2)
    assert (lynch.electorate, lynch.threshold, lynch.hanged) == (8, 2, "V3")


def test_R31_votes_for_a_candidate_dead_earlier_count_and_may_choose_him() -> None:
    # V1's hunt kills the mafioso at step 1; the votes for him still count at step 3, and
    # they are the most: the lynch chose a dead player, nobody is hanged (section 6).
    game = run(
        NINE,
        turn(),
        turn("V1 hunt Maf", "V2 vote Maf", "V3 vote V5", "Com vote Maf", "V4 vote Maf"),
    )
    lynch = lynch_of(game, 2)
    assert lynch.votes == {"Maf": ["V2", "Com", "V4"], "V5": ["V3"]}
    assert (lynch.chosen, lynch.hanged, lynch.chosen_dead) == ("Maf", None, True)
    view = public_lynch(game, 2)
    assert view["votes"] == {"Maf": ["V2", "Com", "V4"], "V5": ["V3"]}  # R34: by nickname
    assert (view["chosen"], view["hanged"], view["chosen_dead"]) == ("Maf", None, True)


def test_R31_a_dead_candidate_below_the_threshold_is_not_chosen() -> None:
    game = run(NINE, turn(), turn("V1 hunt Maf", "V2 vote Maf", "V3 vote V5", "Com vote Maf"))
    lynch = lynch_of(game, 2)
    assert lynch.votes == {"Maf": ["V2", "Com"], "V5": ["V3"]}
    assert (lynch.chosen, lynch.hanged, lynch.chosen_dead) == (None, None, False)  # 2 of 3


def test_R33_a_tie_broken_for_a_dead_candidate_hangs_nobody() -> None:
    """The tie is broken on the votes as cast: the second vote for the tied names the hunted
    mafioso, so nobody is hanged; Boss, tied with him, is not the runner-up who hangs."""
    game = run(
        NINE,
        turn(),
        turn(
            "V1 hunt Maf",
            "V2 vote Boss",
            "V3 vote Maf",
            "Com vote Maf",
            "V4 vote Boss",
            "V5 vote Boss",
            "Tro vote Maf",
        ),
    )
    lynch = lynch_of(game, 2)
    assert lynch.tied == ["Boss", "Maf"] and lynch.tie_voter == "V3"
    assert (lynch.chosen, lynch.hanged) == ("Maf", None)
    assert public_lynch(game, 2)["tie"] == {"tied": ["Boss", "Maf"], "by": "V3"}


def test_R32_R31_a_vote_from_outside_the_electorate_is_recorded_as_not_counted() -> None:
    game = run(NINE, turn())
    assert game.submit(Request(by="V4", do="vote", target="V3")) is None
    assert game.host_action(HostAction(do="exclude", player="V4")) is None  # not in it now
    assert game.submit(Request(by="V1", do="vote", target="V3")) is None
    result = game.resolve()
    assert result.lynch is not None
    assert result.lynch.votes == {"V3": ["V1"]} and result.lynch.uncounted == ["V4"]


def test_R33_the_tie_and_the_second_vote_are_recorded() -> None:
    game = run(EIGHT, turn(), turn("V1 vote Boss", "V2 vote Maf", "V3 vote Boss", "Com vote Maf"))
    lynch = lynch_of(game, 2)
    assert (lynch.hanged, lynch.tied, lynch.tie_voter) == ("Maf", ["Boss", "Maf"], "V2")
    assert public_lynch(game, 2)["tie"] == {"tied": ["Boss", "Maf"], "by": "V2"}


def test_R33_no_tie_recorded_when_one_candidate_leads() -> None:
    game = run(EIGHT, turn(), turn("V1 vote Boss", "V2 vote Boss", "V3 vote Maf"))
    lynch = lynch_of(game, 2)
    assert (lynch.hanged, lynch.tied, lynch.tie_voter) == ("Boss", [], None)
    assert public_lynch(game, 2)["tie"] is None


def test_R34_the_public_tally_is_sorted_by_votes_then_first_vote() -> None:
    game = run(
        NINE,
        turn(),
        turn(
            "V1 vote V5", "V2 vote Com", "V3 vote Com", "V4 vote Tro", "V5 vote Tro", "Com vote Tro"
        ),
    )
    assert list(lynch_of(game, 2).votes) == ["V5", "Com", "Tro"]  # the record: first vote order
    votes = public_lynch(game, 2)["votes"]
    assert list(votes.items()) == [
        ("Tro", ["V4", "V5", "Com"]),
        ("Com", ["V2", "V3"]),
        ("V5", ["V1"]),
    ]


def test_R54_under_totals_only_the_payload_names_no_voter() -> None:
    game = run(
        NINE,
        turn(),
        turn(
            "V1 hunt Maf",
            "V2 vote Maf",
            "V3 vote Boss",
            "V5 vote Tro",
            "Com vote Boss",
            "Tro vote Tro",
            host=["deprive_vote V4"],
        ),
    )
    view = public_lynch(game, 2)
    assert view["public"] == "totals"
    assert view["totals"] == {"Boss": 2, "Tro": 2, "Maf": 1}
    assert view["uncounted"] == 0
    assert view["tie"] == {"tied": ["Boss", "Tro"]}  # who cast the deciding vote: not said
    named = repr(view)
    for voter in ("V2", "V3", "V5", "Com"):
        assert voter not in named


def test_the_replay_output_of_a_lynch_is_the_scenarios_format() -> None:
    game = run(NINE, turn(), turn("V1 hunt Maf", "V2 vote Maf", "V3 vote V5"))
    assert set(lynch_of(game, 2).to_dict()) == {"chosen", "hanged", "votes", "public"}


def test_the_role_list_counts_the_original_roles_in_registry_order_not_seat_order() -> None:
    game = run("V1 Maf:mafioso Com:commissar V2 Doc:doctor V3 Boss:boss V4", turn())
    opening = turn_open_announcement(game.state, 1, None)
    roles = opening.payload["roles"]
    assert roles == {"villager": 4, "mafioso": 1, "boss": 1, "commissar": 1, "doctor": 1}
    assert list(roles) == ["villager", "mafioso", "boss", "commissar", "doctor"]
