"""The hosts' account of a night (R47, R56): every standing request with its fate, the heal
that saved, the block, the slander, the poison, the checks, the failed kills and why, and the
lynch with every vote. Pure: decided in rules/announce.py, the bot only renders it."""

from __future__ import annotations

from typing import Any

from rules.announce import HOST, host_account
from rules.engine import Game
from rules.model import Request

PLAYERS = [
    ("Boss", "boss"),
    ("Imp", "troublemaker"),
    ("Doc", "doctor"),
    ("Com", "commissar"),
    ("Lady", "prostitute"),
    ("Mani", "maniac"),
    ("Owl", "villager"),
    ("Kes", "villager"),
]


def _submit(game: Game, *texts: str) -> None:
    for text in texts:
        by, do, target = text.split()
        assert game.submit(Request(by=by, do=do, target=target)) is None, text


def _fates(payload: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(r["by"], r["do"]): r for r in payload["requests"]}


def _night(*texts: str) -> dict[str, Any]:
    game = Game.new(PLAYERS)
    _submit(game, *texts)
    result = game.resolve()
    account = host_account(game.state, result)
    assert account.audience == HOST and account.kind == "host_account"
    return account.payload


def test_heal_saves_block_check_and_failed_kill() -> None:
    out = _night(
        "Boss kill Owl",
        "Imp kill Owl",
        "Doc heal Owl",  # R20: saves Owl from the mafia's kill
        "Lady block Mani",  # R21: the poison does not happen
        "Mani poison Kes",
        "Com check Imp",  # R18: mafia
    )
    fates = _fates(out)
    assert fates[("Doc", "heal")]["fate"] == "saved"
    assert out["saves"] == [{"target": "Owl", "by": "Doc", "cause": "mafia"}]
    kill = fates[("Boss", "kill")]["hits"]
    assert kill == [{"target": "Owl", "fate": "protected", "protector": "Doc"}]
    assert fates[("Mani", "poison")]["fate"] == "blocked"
    assert out["blocked"] == ["Mani"]
    assert out["poisoned"] == []
    assert fates[("Com", "check")]["fate"] == "mafia"
    assert out["deaths"] == []


def test_slander_poison_kill_and_disagreement() -> None:
    out = _night(
        "Imp slander Owl",  # R25
        "Com check Owl",
        "Mani poison Kes",  # R27
        "Boss kill Lady",
        "Imp kill Owl",  # R23: the requests differ, no kill
    )
    fates = _fates(out)
    assert out["slandered"] == ["Owl"]
    assert fates[("Com", "check")] == {
        "by": "Com",
        "do": "check",
        "targets": ["Owl"],
        "fate": "mafia",
        "slandered": True,
    }
    assert out["poisoned"] == [{"target": "Kes", "by": "Mani"}]
    assert fates[("Mani", "poison")]["hits"] == [{"target": "Kes", "fate": "poisoned"}]
    assert fates[("Boss", "kill")]["hits"] == [{"target": "Lady", "fate": "disagreed"}]


def test_kill_happens_and_a_dead_commissar_is_answered() -> None:
    out = _night("Boss kill Com", "Com check Boss", "Doc heal Owl")
    fates = _fates(out)
    assert fates[("Boss", "kill")]["hits"] == [{"target": "Com", "fate": "killed"}]
    assert fates[("Com", "check")]["fate"] == "mafia"  # R39: answered, killed in 2c
    assert fates[("Doc", "heal")]["fate"] == "no_attack"
    assert out["deaths"] == [
        {"nick": "Com", "role": "commissar", "cause": "mafia", "by": ["Boss"], "excluded": False}
    ]
    assert out["pistols"] == ["Com"]  # R18


def test_the_lynch_shows_every_vote() -> None:
    game = Game.new(PLAYERS)
    game.resolve_and_finish()
    _submit(game, "Boss kill Owl", "Owl vote Boss", "Kes vote Owl", "Doc vote Boss")
    _submit(game, "Lady vote Boss", "Com vote Kes")
    result = game.resolve()
    out = host_account(game.state, result).payload
    fates = _fates(out)
    assert out["lynch"]["hanged"] == "Boss"
    # R32: Owl was of the electorate when the turn ended; his candidate Owl died first, and
    # the vote for him still counts (section 6)
    assert out["lynch"]["votes"] == {"Boss": ["Owl", "Doc", "Lady"], "Owl": ["Kes"], "Kes": ["Com"]}
    assert fates[("Kes", "vote")]["fate"] == "counted"
    assert (out["lynch"]["chosen"], out["lynch"]["chosen_dead"]) == ("Boss", False)
    assert fates[("Doc", "vote")]["fate"] == "counted"
    assert out["lynch"]["electorate"] == 8


def test_R22_a_foundling_the_mafia_named_and_the_lynch_hanged_died_of_the_lynch() -> None:
    """The hosts' account says what happened: the mafia's kill on the unconverted Foundling
    failed (R22), and he died of the lynch, which the killers voted for too; it never reads
    "kill -> Foundling: death". Likewise a hunter who voted for the player hanged."""
    game = Game.new([("Boss", "boss"), ("Maf", "mafioso"), ("Fou", "foundling"),
                     ("Com", "commissar"), ("Owl", "villager"), ("Kes", "villager"),
                     ("Yew", "villager"), ("Elm", "villager")])  # fmt: skip
    game.resolve_and_finish()
    _submit(game, "Boss kill Fou", "Maf kill Fou", "Boss vote Fou", "Maf vote Fou")
    _submit(game, "Owl vote Fou", "Kes hunt Fou", "Kes vote Fou")
    result = game.resolve()
    out = host_account(game.state, result).payload
    fates = _fates(out)
    assert [(d["nick"], d["cause"]) for d in out["deaths"]] == [
        ("Kes", "hunt_backfire"),
        ("Fou", "lynch"),
    ]
    assert fates[("Boss", "kill")]["hits"] == [
        {"target": "Fou", "fate": "immune", "protector": None}
    ]
    assert fates[("Kes", "hunt")]["hits"] == [{"target": "Fou", "fate": "backfire"}]


def test_R28_a_hunt_not_carried_out_says_why() -> None:
    """A hunter poisoned dead at step 0 did not hunt (not "another hunt came first"); a hunt
    on a player poisoned dead at step 0 met a dead man; a later hunt lost to the first."""
    game = Game.new(PLAYERS)
    _submit(game, "Mani poison Owl")
    game.resolve_and_finish()
    _submit(game, "Owl hunt Boss", "Kes hunt Imp", "Com hunt Boss")
    result = game.resolve()
    fates = _fates(host_account(game.state, result).payload)
    assert fates[("Owl", "hunt")]["fate"] == "dead"
    assert fates[("Kes", "hunt")]["hits"] == [{"target": "Imp", "fate": "killed"}]
    assert fates[("Com", "hunt")]["hits"] == [{"target": "Boss", "fate": "not_carried"}]
    game = Game.new(PLAYERS)
    _submit(game, "Mani poison Boss")
    game.resolve_and_finish()
    _submit(game, "Kes hunt Boss")
    result = game.resolve()
    fates = _fates(host_account(game.state, result).payload)
    assert fates[("Kes", "hunt")]["hits"] == [{"target": "Boss", "fate": "dead"}]
