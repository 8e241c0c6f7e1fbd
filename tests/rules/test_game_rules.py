"""Conformance tests for docs/REFERENCE.md sections 1-3 and 10, and the host commands (R56).

Rules of these sections with nothing the engine's replay output can show are not tested here:
- R1 (schedule, time zone): the clock lives in the app, a script has no times.
- R2 (introductions), R8/R51 (explaining votes): social rules; the bot only reminds.
- R4 (hunts from 12:00, reason `hunt_not_open`): a script has no clock, so a hunt can never
  arrive before the hunt-open time in a replay.
- R6, R7, R9, R10 (webhook identities, discussion channel, private commands, profiles):
  Discord-side.
- R47 (the host's narrative) and R50 (publication at the next dawn): Discord-side.
- R45/R46 are punished through host commands, tested here as R45/R46/R56.
Also see test_roles.py, test_hunt_lynch.py, test_deaths_notes_activity.py,
test_resolution_order.py, test_malformed.py, test_scenarios.py and test_properties.py.
"""

from __future__ import annotations

import copy

import pytest

from tests.rules.dsl import (
    ScriptError,
    after_rejected,
    checks,
    deaths,
    game,
    lynch,
    nicks,
    play,
    rejected,
    run_script,
    turn,
    turn_out,
)

FOUR = "Com:commissar Maf:mafioso V1 V2"
EIGHT = "Com:commissar Doc:doctor Pro:prostitute Boss:boss Maf:mafioso V1 V2 V3"
BIG = (
    "Com:commissar Sgt:sergeant Doc:doctor Pro:prostitute Fou:foundling Boss:boss Maf:mafioso "
    "Tro:troublemaker Man:maniac V1 V2"
)


# --- Section 1: timeline ---------------------------------------------------------------------


def test_R3_no_lynch_vote_on_turn_1():
    out = play(FOUR, turn("V1 vote Maf", "V2 vote Maf"))
    t1 = turn_out(out, 1)
    assert t1["rejected"] == [
        {"index": 0, "by": "V1", "do": "vote", "reason": "no_lynch_on_turn_1"},
        {"index": 1, "by": "V2", "do": "vote", "reason": "no_lynch_on_turn_1"},
    ]
    assert t1["lynch"] is None
    assert t1["deaths"] == []


def test_R3_role_requests_accepted_on_turn_1():
    out = play(FOUR, turn("Maf kill V1", "Com check Maf"))
    assert rejected(out, 1) == []
    assert deaths(out, 1) == [("V1", "mafia")]
    assert [c["result"] for c in checks(out, 1)] == ["mafia"]


def test_R49_no_hunt_on_turn_1():
    out = play(FOUR, turn("V1 hunt Maf"))
    assert rejected(out, 1) == [(0, "no_hunt_on_turn_1")]
    assert deaths(out, 1) == []
    assert out["winner"] is None


def test_R5_turns_are_numbered_and_lynch_exists_from_turn_2():
    out = play(EIGHT, turn(), turn(), turn())
    assert [t["turn"] for t in out["turns"]] == [1, 2, 3]
    assert lynch(out, 1) is None
    assert lynch(out, 2) == {"chosen": None, "hanged": None, "votes": {}, "public": "full"}
    assert lynch(out, 3) == {"chosen": None, "hanged": None, "votes": {}, "public": "full"}
    assert out["winner"] is None


def test_R5_output_turn_has_every_key_of_the_format():
    out = play(FOUR, turn())
    assert set(out) == {"turns", "winner"}
    t1 = turn_out(out, 1)
    assert set(t1) == {
        "turn",
        "rejected",
        "deaths",
        "checks",
        "lynch",
        "notes",
        "conversions",
        "promotions",
        "after",
        "winner",
    }
    assert set(t1["after"]) == {"rejected", "deaths"}


# --- Section 3: factions and win -------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "result"),
    [
        ("Boss", "mafia"),
        ("Maf", "mafia"),
        ("Tro", "mafia"),
        ("Man", "not_mafia"),
        ("Fou", "not_mafia"),
        ("Sgt", "not_mafia"),
        ("Doc", "not_mafia"),
        ("Pro", "not_mafia"),
        ("V1", "not_mafia"),
    ],
)
def test_R12_check_result_follows_faction(target, result):
    out = play(BIG, turn(f"Com check {target}"))
    assert checks(out, 1) == [
        {"by": "Com", "target": target, "result": result, "killed_by": None, "method": None}
    ]


def test_R13_replay_is_deterministic():
    script = game(
        BIG,
        turn("Maf kill V1", "Boss kill V1", "Com check Tro", "Man poison V2", "Doc heal V2"),
        turn("V2 vote Tro", "Pro vote Tro", "Sgt vote Tro", "Fou hunt Maf"),
        seed=1234,
    )
    first = run_script(copy.deepcopy(script))
    second = run_script(copy.deepcopy(script))
    assert first == second


def test_R14_mafia_cannot_target_known_member():
    out = play(BIG, turn("Maf kill Boss", "Boss kill Tro", "Tro kill Maf"))
    assert rejected(out, 1) == [
        (0, "own_mafia_target"),
        (1, "own_mafia_target"),
        (2, "own_mafia_target"),
    ]
    assert deaths(out, 1) == []


def test_R14_foundling_is_not_a_known_member():
    out = play(BIG, turn("Maf kill Fou"))
    assert rejected(out, 1) == []  # R55: refusing would reveal the Foundling
    assert deaths(out, 1) == []  # R22: the kill silently fails


def test_R15_town_wins_when_no_mafia_and_no_maniac():
    out = play(FOUR, turn(), turn("V1 vote Maf", "V2 vote Maf"))
    assert deaths(out, 2) == [("Maf", "lynch")]
    assert turn_out(out, 1)["winner"] is None
    assert turn_out(out, 2)["winner"] == "town"
    assert out["winner"] == "town"


def test_R15_town_does_not_win_while_maniac_alive():
    players = "Com:commissar M1:mafioso M2:mafioso Man:maniac V1 V2 V3"
    out = play(
        players,
        turn(),
        turn("V1 hunt M2", "V2 vote M1", "V3 vote M1", "Com vote M1"),
        turn("Com vote Man", "V1 vote Man", "V2 vote Man"),
    )
    assert deaths(out, 2) == [("M2", "hunt"), ("M1", "lynch")]
    assert turn_out(out, 2)["winner"] is None
    assert deaths(out, 3) == [("Man", "lynch")]
    assert out["winner"] == "town"


def test_R15_mafia_wins_at_parity_and_later_turns_are_ignored():
    out = play(FOUR, turn("Maf kill V1"), turn("Maf kill V2"), turn("Maf kill Com"))
    assert turn_out(out, 1)["winner"] is None
    assert deaths(out, 2) == [("V2", "mafia")]
    assert turn_out(out, 2)["winner"] == "mafia"
    assert len(out["turns"]) == 2
    assert out["winner"] == "mafia"


def test_R15_mafia_cannot_win_while_maniac_alive():
    players = "M1:mafioso M2:mafioso Man:maniac Com:commissar V1 V2 V3"
    out = play(
        players,
        turn("M1 kill V1"),
        turn("M1 kill V2", "M1 vote V3", "M2 vote V3", "Man vote V3"),
    )
    assert deaths(out, 2) == [("V2", "mafia"), ("V3", "lynch")]
    # alive: M1 M2 Man Com -> mafia 2 >= town 1, but the maniac lives with 3 others
    assert turn_out(out, 2)["winner"] is None
    assert out["winner"] is None


def test_R15_maniac_wins_when_at_most_one_other_alive():
    out = play("Man:maniac Maf:mafioso V1 V2", turn("Maf kill V1", "Man poison V2"), turn())
    assert turn_out(out, 1)["winner"] is None
    assert deaths(out, 2) == [("V2", "poison")]
    assert out["winner"] == "maniac"


def test_R15_draw_when_nobody_is_alive():
    out = play(
        "Man:maniac Maf:mafioso V1 V2",
        turn("Man poison V1", "Maf kill V2"),
        turn("Man vote Maf", "V1 vote Maf", "Maf kill Man"),
    )
    assert deaths(out, 2) == [("V1", "poison"), ("Man", "mafia"), ("Maf", "lynch")]
    assert out["winner"] == "draw"


def test_R15_win_check_runs_even_when_nobody_died():
    # The game cannot start won (section 10), and a turn without deaths changes nothing.
    out = play(FOUR, turn(), turn())
    assert [t["winner"] for t in out["turns"]] == [None, None]
    assert out["winner"] is None


def test_R16_villager_may_hunt_but_has_no_ability():
    out = play(
        FOUR,
        turn("V1 check Maf", "V1 kill Com", "V1 heal V2"),
        turn("V1 hunt Maf"),
    )
    assert rejected(out, 1) == [(0, "wrong_role"), (1, "wrong_role"), (2, "wrong_role")]
    assert checks(out, 1) == []
    assert deaths(out, 2) == [("Maf", "hunt")]
    assert out["winner"] == "town"


# --- Section 10: setup --------------------------------------------------------------------


def _raw(players: str) -> dict:
    from tests.rules.dsl import parse_players

    return {"players": parse_players(players), "turns": []}


@pytest.mark.parametrize(
    "players",
    [
        "Maf:mafioso V1 V2 V3 V4",  # 5 players need 2 mafia
        "Maf:mafioso V1 V2 V3 V4 V5 V6 V7",  # 8 players need 2 mafia
        "V1 V2 V3 V4",  # no mafia at all
    ],
)
def test_R24_mafia_below_a_quarter_is_invalid(players):
    with pytest.raises(ScriptError):
        run_script(_raw(players))


@pytest.mark.parametrize(
    "players",
    [
        "Maf:mafioso V1 V2 V3",  # 4 players, 1 mafia
        "M1:mafioso M2:mafioso V1 V2 V3 V4 V5 V6",  # 8 players, 2 mafia
        "Boss:boss Fou:foundling V1",  # foundling counts as town at the start
        "Man:maniac Maf:mafioso V1 V2",  # the maniac is neither town nor mafia
    ],
)
def test_R24_R43_valid_setups_run(players):
    out = run_script(_raw(players))
    assert out == {"turns": [], "winner": None}


@pytest.mark.parametrize(
    ("players", "why"),
    [
        ("Boss:boss Maf:mafioso V1 V2", "mafia not below town"),
        ("Man:maniac Maf:mafioso V1", "maniac is not town"),
        ("Fou:foundling Maf:mafioso V1 V2", "foundling without boss"),
        ("Sgt:sergeant Maf:mafioso V1 V2", "sergeant without commissar"),
        ("D1:doctor D2:doctor M1:mafioso M2:mafioso V1 V2 V3 V4", "two doctors"),
        ("B1:boss B2:boss V1 V2 V3 V4 V5 V6", "two bosses"),
        ("C1:commissar C2:commissar Maf:mafioso V1", "two commissars"),
        ("P1:prostitute P2:prostitute Maf:mafioso V1", "two prostitutes"),
        ("T1:troublemaker T2:troublemaker V1 V2 V3 V4 V5 V6", "two troublemakers"),
        ("N1:maniac N2:maniac M1:mafioso M2:mafioso V1 V2 V3 V4", "two maniacs"),
        ("Com:commissar S1:sergeant S2:sergeant M1:mafioso M2:mafioso V1 V2 V3", "two sgts"),
        ("Boss:boss F1:foundling F2:foundling M1:mafioso V1 V2 V3", "two foundlings"),
        ("Maf:mafioso V1", "two players cannot have mafia below town"),
    ],
)
def test_R43_invalid_setup_is_a_script_error(players, why):
    with pytest.raises(ScriptError):
        run_script(_raw(players))


def test_R43_R57_the_crook_is_a_role_a_script_may_name():
    out = run_script(_raw("Cr:crook Maf:mafioso V1 V2"))
    assert out["turns"] == [] and out["winner"] is None


def test_R44_duplicate_nickname_is_a_script_error():
    script = {
        "players": [
            {"nick": "Anna", "role": "mafioso"},
            {"nick": "Anna", "role": "villager"},
            {"nick": "Bob", "role": "villager"},
            {"nick": "Cid", "role": "villager"},
        ],
        "turns": [],
    }
    with pytest.raises(ScriptError, match="Anna"):
        run_script(script)


def test_R44_nicknames_differing_only_in_case_are_duplicates():
    script = {
        "players": [
            {"nick": "Anna", "role": "mafioso"},
            {"nick": "ANNA", "role": "villager"},
            {"nick": "Bob", "role": "villager"},
            {"nick": "Cid", "role": "villager"},
        ],
        "turns": [],
    }
    with pytest.raises(ScriptError):
        run_script(script)


def test_R44_nicknames_equal_after_unicode_normalisation_are_duplicates():
    script = {
        "players": [
            {"nick": "Anna", "role": "mafioso"},
            {"nick": "\uff21nna", "role": "villager"},  # fullwidth A: NFKC gives "Anna"
            {"nick": "Bob", "role": "villager"},
            {"nick": "Cid", "role": "villager"},
        ],
        "turns": [],
    }
    with pytest.raises(ScriptError):
        run_script(script)


# --- Host commands (R45/R46 punishments, R36 double kill, R56) ------------------------------


def test_R45_R46_deprived_player_cannot_vote_that_turn():
    out = play(EIGHT, turn(), turn("V1 vote Maf", host=["deprive_vote V1"]), turn("V1 vote Maf"))
    assert rejected(out, 2) == [(0, "vote_deprived")]
    assert lynch(out, 2) == {"chosen": None, "hanged": None, "votes": {}, "public": "totals"}
    assert rejected(out, 3) == []  # only for that turn
    assert lynch(out, 3) == {
        "chosen": None,
        "hanged": None,
        "votes": {"Maf": ["V1"]},
        "public": "full",
    }


def test_R45_R46_excluded_player_leaves_at_start_of_turn():
    out = play(EIGHT, turn("Maf kill V1", "Maf note Boss: bye", host=["exclude Maf"]))
    t1 = turn_out(out, 1)
    assert t1["deaths"] == [{"player": "Maf", "role": "mafioso", "cause": "excluded", "by": []}]
    assert rejected(out, 1) == [(0, "dead_sender"), (1, "dead_sender")]
    assert t1["notes"] == []


def test_R56_exclusion_of_commissar_promotes_sergeant_at_once():
    players = "Com:commissar Sgt:sergeant Boss:boss Maf:mafioso V1 V2 V3 V4"
    out = play(players, turn("Sgt check Maf", host=["exclude Com"]))
    assert deaths(out, 1) == [("Com", "excluded")]
    assert nicks(turn_out(out, 1)["promotions"]) == ["Sgt"]
    assert rejected(out, 1) == []
    assert checks(out, 1) == [
        {"by": "Sgt", "target": "Maf", "result": "mafia", "killed_by": None, "method": None}
    ]


def test_R56_exclusion_can_end_the_game():
    out = play(FOUR, turn(), turn(host=["exclude Maf"]), turn("V1 vote V2"))
    assert turn_out(out, 2)["deaths"] == [
        {"player": "Maf", "role": "mafioso", "cause": "excluded", "by": []}
    ]
    assert turn_out(out, 2)["winner"] == "town"
    assert len(out["turns"]) == 2
    assert out["winner"] == "town"


def test_R56_nothing_is_accepted_once_an_exclusion_ended_the_game():
    out = play(FOUR, turn(), turn("V1 vote V2", "V2 vote V1", "V1 hunt V2", host=["exclude Maf"]))
    t2 = turn_out(out, 2)
    assert t2["winner"] == "town"
    assert deaths(out, 2) == [("Maf", "excluded")]
    assert rejected(out, 2) == [(0, "game_over"), (1, "game_over"), (2, "game_over")]


def test_R56_double_kill_lets_the_mafia_kill_two():
    out = play(EIGHT, turn("Boss kill V1,V2", "Maf kill V1,V2", host=["double_kill"]))
    assert sorted(deaths(out, 1)) == [("V1", "mafia"), ("V2", "mafia")]
    for d in turn_out(out, 1)["deaths"]:
        assert sorted(d["by"]) == ["Boss", "Maf"]


# --- R55: refusals leak nothing ---------------------------------------------------------------


def test_R55_refusal_of_a_heal_is_judged_on_requests_only():
    # The heal of V1 at turn 1 was blocked; refusing it again at turn 2 reveals nothing about
    # the block, because it is judged on the doctor's own requests (R20).
    out = play(EIGHT, turn("Pro block Doc", "Doc heal V1"), turn("Doc heal V1"))
    assert rejected(out, 2) == [(0, "same_heal_target")]


def test_R55_kill_on_foundling_is_not_refused():
    out = play(BIG, turn("Boss kill Fou", "Maf kill Fou"))
    assert turn_out(out, 1)["rejected"] == []
    assert deaths(out, 1) == []


def test_R18_in_after_any_verb_but_shoot_is_an_ordinary_refusal():
    """docs/REPLAY.md: `after` holds the pistol's shots only; a vote, a kill, a note or a post
    there is refused like any request out of its time, never silently accepted."""
    out = play(
        FOUR,
        turn("Maf kill V1"),
        turn(after=["V2 post", "V2 vote Maf", "Maf kill V2", "V2 note Com: late", "V2 post"]),
    )
    assert after_rejected(out, 2) == [
        (0, "request_closed"),
        (1, "request_closed"),
        (2, "request_closed"),
        (3, "request_closed"),
        (4, "request_closed"),
    ]
