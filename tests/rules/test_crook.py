"""R57: the Crook (Жулик), a loner who steals the day's vote: from turn 2 on, each turn he
names one other living player; at the lynch (step 3) that player's vote counts for the Crook's
own candidate, at the robbed vote's place in the arrival order (R33), listed under the robbed
player's nickname (R34). The theft is a night ability of step 2b (R21 blocks it); the
Crook wins alone (R15), cannot hunt (R26), and the commissar sees him as not mafia (R18, R25).
"""

from __future__ import annotations

from rules.announce import host_account
from rules.engine import Game
from rules.knowledge import role_card
from rules.model import HostAction, Request
from rules.roles import ROLES, Faction
from rules.setup import SetupError, validate_setup
from tests.rules.dsl import checks, deaths, lynch, play, rejected, turn

SIX = "Cr:crook Boss:boss Maf:mafioso Com:commissar Pro:prostitute Doc:doctor V1 V2"


def test_R57_the_robbed_vote_counts_for_the_crooks_candidate_under_the_robbed_nickname():
    out = play(SIX, turn(), turn("Cr steal V1", "V1 vote Boss", "Cr vote V2", "V2 vote Maf"))
    assert rejected(out, 2) == []
    # R34: V1's vote is listed under V1, for the Crook's candidate, at V1's arrival (first)
    assert lynch(out, 2) == {
        "chosen": "V2",
        "hanged": "V2",
        "votes": {"V2": ["V1", "Cr"], "Maf": ["V2"]},
        "public": "full",
    }
    assert deaths(out, 2) == [("V2", "lynch")]


def test_R57_the_theft_is_refused_on_turn_1():
    out = play(SIX, turn("Cr steal V1"))
    assert rejected(out, 1) == [(0, "no_lynch_on_turn_1")]


def test_R57_section_9_the_crook_steals_from_another_living_player_only():
    out = play(SIX, turn("Boss kill V2", "Maf kill V2"), turn("Cr steal Cr", "Cr steal V2"))
    assert rejected(out, 2) == [(0, "self_target"), (1, "dead_target")]


def test_R57_only_the_crook_steals_and_he_cannot_hunt():
    out = play(SIX, turn(), turn("V1 steal V2", "Cr hunt Boss"))
    assert rejected(out, 2) == [(0, "wrong_role"), (1, "not_town")]  # R26


def test_R57_without_a_vote_of_his_own_the_stolen_vote_is_not_counted():
    out = play(SIX, turn(), turn("Cr steal V1", "V1 vote Boss", "V2 vote Boss", "Doc vote Boss"))
    assert lynch(out, 2) == {
        "chosen": "Boss",
        "hanged": "Boss",
        "votes": {"Boss": ["V2", "Doc"]},
        "public": "full",
    }


def test_R57_R53_the_robbed_player_has_voted_and_stays_in_the_electorate():
    """R53: the robbed player sent his vote: it is no missed vote, though it is not his."""
    nicks = ["Cr", "Boss", "Maf", "Com", "Pro", "Doc", "V1", "V2"]
    game = Game.new([(n, ROLES_OF.get(n, "villager")) for n in nicks], activity_rules=True)
    for n in nicks:
        game.submit(Request(n, "post"))
    game.resolve_and_finish()
    for n in nicks:
        game.submit(Request(n, "post"))
    for n in nicks:
        assert game.submit(Request(n, "vote", target="V2" if n != "V2" else "Maf")) is None
    assert game.submit(Request("Cr", "steal", target="V1")) is None
    result = game.resolve_and_finish()
    assert game.state.players["V1"].missed_votes == 0
    assert result.lynch is not None and result.lynch.electorate == 8
    assert "V1" in result.lynch.votes["V2"]


ROLES_OF = {
    "Cr": "crook",
    "Boss": "boss",
    "Maf": "mafioso",
    "Com": "commissar",
    "Pro": "prostitute",
    "Doc": "doctor",
}


def test_R57_R54_a_crook_deprived_of_his_vote_steals_nothing_that_counts():
    out = play(
        SIX, turn(), turn("Cr steal V1", "V1 vote Boss", "Cr vote V2", host=["deprive_vote Cr"])
    )
    assert rejected(out, 2) == [(2, "vote_deprived")]
    assert lynch(out, 2)["votes"] == {}  # totals only under R54; V1's vote was lost
    assert lynch(out, 2)["public"] == "totals"


def test_R57_R54_a_robbed_player_deprived_of_his_vote_has_nothing_to_steal():
    out = play(
        SIX, turn(), turn("Cr steal V1", "Cr vote V2", "V2 vote Boss", host=["deprive_vote V1"])
    )
    assert lynch(out, 2)["votes"] == {"V2": ["Cr"], "Boss": ["V2"]}


def test_R57_R33_the_robbed_vote_keeps_its_arrival_time_in_a_tie():
    """V1's vote arrived first; stolen for V2, it ties V2 with Boss (2 and 2); the votes for
    the tied in arrival order: V1 (V2), Maf (Boss), ...: the second names Boss."""
    out = play(
        SIX,
        turn(),
        turn("V1 vote Com", "Maf vote Boss", "Cr steal V1", "Cr vote V2", "Doc vote Boss"),
    )
    assert lynch(out, 2) == {
        "chosen": "Boss",
        "hanged": "Boss",
        "votes": {"V2": ["V1", "Cr"], "Boss": ["Maf", "Doc"]},
        "public": "full",
    }


def test_R57_R32_the_theft_stands_when_the_robbed_player_dies_in_the_night():
    out = play(
        SIX,
        turn(),
        turn("Cr steal V1", "V1 vote Boss", "Cr vote V2", "Boss kill V1", "Maf kill V1"),
    )
    assert deaths(out, 2) == [("V1", "mafia"), ("V2", "lynch")]
    assert lynch(out, 2)["votes"] == {"V2": ["V1", "Cr"]}


def test_R57_R21_the_prostitute_blocks_the_theft():
    out = play(SIX, turn(), turn("Pro block Cr", "Cr steal V1", "V1 vote Boss", "Cr vote V2"))
    assert lynch(out, 2)["votes"] == {"Boss": ["V1"], "V2": ["Cr"]}


def test_R57_R20_the_doctor_cannot_prevent_the_theft():
    out = play(SIX, turn(), turn("Doc heal V1", "Cr steal V1", "V1 vote Boss", "Cr vote V2"))
    assert lynch(out, 2)["votes"] == {"V2": ["V1", "Cr"]}


def test_R57_a_crook_killed_in_the_night_has_already_stolen_his_vote_still_counts():
    out = play(
        SIX,
        turn(),
        turn("Cr steal V1", "V1 vote Boss", "Cr vote V2", "Boss kill Cr", "Maf kill Cr"),
    )
    assert deaths(out, 2) == [("Cr", "mafia"), ("V2", "lynch")]  # 2c, then the lynch
    assert lynch(out, 2)["votes"] == {"V2": ["V1", "Cr"]}


def test_R57_a_crook_dead_at_step_1_steals_nothing():
    """A hunt kills only mafia, so the Crook dies at step 0: poisoned by the maniac."""
    out = play(
        "Cr:crook Man:maniac Boss:boss Maf:mafioso Com:commissar V1 V2 V3",
        turn("Man poison Cr"),
        turn("Cr steal V1", "V1 vote Boss", "Cr vote V2"),
    )
    assert deaths(out, 2)[0] == ("Cr", "poison")
    assert lynch(out, 2)["votes"] == {"Boss": ["V1"], "V2": ["Cr"]}  # R32: his vote counts


def test_R57_R18_R25_the_commissar_sees_the_crook_as_not_mafia_unless_slandered():
    out = play(SIX, turn("Com check Cr"))
    assert [c["result"] for c in checks(out, 1)] == ["not_mafia"]
    out = play(
        "Cr:crook Tro:troublemaker Maf:mafioso Com:commissar V1 V2 V3 V4",
        turn("Tro slander Cr", "Com check Cr"),
    )
    assert [c["result"] for c in checks(out, 1)] == ["mafia"]


def test_R57_R15_the_crook_wins_alone_with_at_most_one_other_alive():
    out = play(
        "Cr:crook Maf:mafioso V1 V2",
        turn("Maf kill V1"),
        turn("Maf kill V2", "Cr vote V2", "V2 vote Maf", "Maf vote V2"),
    )
    assert out["winner"] == "crook"
    assert out["turns"][-1]["winner"] == "crook"


def test_R15_left_alone_with_the_maniac_the_crook_loses():
    out = play(
        "Cr:crook Man:maniac Maf:mafioso Boss:boss V1 V2 V3 V4",
        turn("Boss kill V1", "Maf kill V1", host=["exclude V2", "exclude V3", "exclude V4"]),
        turn(host=["exclude Boss", "exclude Maf"]),
    )
    assert out["winner"] == "maniac"  # R15: the maniac and the Crook alone: the maniac


def test_R15_the_town_wins_only_once_no_loner_is_alive():
    players = "Cr:crook Boss:boss Maf:mafioso Com:commissar V1 V2 V3 V4"
    out = play(players, turn(host=["exclude Boss", "exclude Maf"]), turn())
    assert [t["winner"] for t in out["turns"]] == [None, None]  # no mafia, the Crook alive
    out = play(
        players,
        turn(host=["exclude Boss", "exclude Maf"]),
        turn("V1 vote Cr", "V2 vote Cr", "V3 vote Cr"),
    )
    assert deaths(out, 2) == [("Cr", "lynch")] and out["winner"] == "town"


def test_R43_R57_at_most_one_crook_and_he_counts_for_neither_side():
    assert ROLES["crook"].faction is Faction.LONER
    try:
        validate_setup(
            ["crook", "crook", "mafioso", "mafioso", "villager", "villager", "villager", "villager"]
        )
    except SetupError as exc:
        assert exc.code == "duplicate_role"
    else:
        raise AssertionError("two crooks accepted")


def test_R57_the_role_card_the_crook_reads():
    game = Game.new([("Cr", "crook"), ("Maf", "mafioso"), ("V1", "villager"), ("V2", "villager")])
    card = role_card(game.state, "Cr")
    assert (card.role, card.faction) == ("crook", "loner")
    assert "steal" in card.verbs and "hunt" not in card.verbs and card.team == ()


def test_R57_the_hosts_account_tells_what_became_of_the_theft():
    game = Game.new(
        [
            ("Cr", "crook"),
            ("Boss", "boss"),
            ("Maf", "mafioso"),
            ("V1", "villager"),
            ("V2", "villager"),
            ("V3", "villager"),
            ("V4", "villager"),
            ("V5", "villager"),
        ]
    )
    game.resolve_and_finish()
    for req in (
        Request("Cr", "steal", target="V1"),
        Request("V1", "vote", target="Boss"),
        Request("Cr", "vote", target="V2"),
    ):
        assert game.submit(req) is None
    assert game.host_action(HostAction("deprive_vote", "V5")) is None
    payload = host_account(game.state, game.resolve()).payload
    fates = {(r["by"], r["do"]): r for r in payload["requests"]}
    steal = fates[("Cr", "steal")]
    assert (steal["fate"], steal["robbed"], steal["candidate"]) == ("stolen", "V1", "V2")
    assert fates[("V1", "vote")]["fate"] == "vote_stolen"
    assert fates[("V1", "vote")]["crook"] == "Cr"
    assert payload["lynch"]["votes"] == {"V2": ["V1", "Cr"]}


def test_R57_the_theft_is_a_verb_of_turn_2_on_declared_by_the_crook():
    """The first turn of a verb is the role's declaration (the demo and the validation read
    it), so nothing outside the Crook's module knows that the theft waits for turn 2."""
    from rules.roles import verb_spec

    spec = verb_spec("steal")
    assert spec is not None and spec.from_turn == 2 and spec.too_early == "no_lynch_on_turn_1"
    for verb in ("check", "heal", "kill", "poison"):
        other = verb_spec(verb)
        assert other is not None and other.from_turn == 1
