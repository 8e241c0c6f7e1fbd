"""Malformed scripts (docs/REPLAY.md): `run_script` raises ScriptError naming the problem, and
`python main.py replay` exits 2 with a single line on standard error.

A request the rules refuse is not malformed (it is reported under `rejected`); these are
scripts that do not follow the format: unknown nicknames, roles, verbs or host commands, an
unknown key anywhere (docs/REPLAY.md: no comment keys either), an invalid setup (docs/REFERENCE.md
section 10), two players with the same name or a name mixing Latin and Cyrillic letters
(docs/REFERENCE.md R44, the exact rule), wrong types, missing fields, bad JSON.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.rules.dsl import ScriptError, run_script

ROOT = Path(__file__).resolve().parents[2]

BASE: dict[str, Any] = {
    "seed": 3,
    "players": [
        {"nick": "Com", "role": "commissar"},
        {"nick": "Maf", "role": "mafioso"},
        {"nick": "V1", "role": "villager"},
        {"nick": "V2", "role": "villager"},
    ],
    "turns": [],
}


def with_turns(*turns: dict[str, Any]) -> dict[str, Any]:
    script = copy.deepcopy(BASE)
    script["turns"] = list(turns)
    return script


def with_players(*players: tuple[Any, Any]) -> dict[str, Any]:
    script = copy.deepcopy(BASE)
    script["players"] = [{"nick": n, "role": r} for n, r in players]
    return script


def with_key(key: str, value: Any) -> dict[str, Any]:
    script = copy.deepcopy(BASE)
    script[key] = value
    return script


def req(**fields: Any) -> dict[str, Any]:
    return {"requests": [fields]}


# (id, script, what the error message must contain: the problem named, and where)
MALFORMED: list[tuple[str, Any, str]] = [
    ("unknown_nick_sender", with_turns(req(by="Zed", do="check", target="Maf")), "Zed"),
    ("unknown_nick_target", with_turns(req(by="Com", do="check", target="Zed")), "Zed"),
    ("unknown_nick_note_to", with_turns(req(by="V1", do="note", to="Zed", text="x")), "Zed"),
    (
        "unknown_nick_in_targets",
        with_turns(
            {
                "host": [{"do": "double_kill"}],
                "requests": [{"by": "Maf", "do": "kill", "targets": ["V1", "Zed"]}],
            }
        ),
        "Zed",
    ),
    ("unknown_nick_host", with_turns({"host": [{"do": "exclude", "player": "Zed"}]}), "Zed"),
    (
        "unknown_nick_deprive",
        with_turns({"host": [{"do": "deprive_vote", "player": "Zed"}]}),
        "Zed",
    ),
    (
        "unknown_nick_shooter",
        with_turns({"after": [{"by": "Zed", "do": "shoot", "target": "Maf"}]}),
        "Zed",
    ),
    (
        "unknown_nick_shot",
        with_turns({"after": [{"by": "Com", "do": "shoot", "target": "Zed"}]}),
        "Zed",
    ),
    (
        "unknown_role",
        with_players(("Com", "wizard"), ("Maf", "mafioso"), ("V1", "villager"), ("V2", "villager")),
        "wizard",
    ),
    ("unknown_verb", with_turns(req(by="V1", do="fly", target="Maf")), "fly"),
    (
        "unknown_host_command",
        with_turns({"host": [{"do": "resurrect", "player": "V1"}]}),
        "resurrect",
    ),
    (
        "duplicate_nick",
        with_players(
            ("Maf", "mafioso"), ("V1", "villager"), ("V1", "villager"), ("V2", "villager")
        ),
        "V1",
    ),
    (
        "setup_too_few_mafia",
        with_players(
            ("Maf", "mafioso"),
            ("V1", "villager"),
            ("V2", "villager"),
            ("V3", "villager"),
            ("V4", "villager"),
        ),
        "1 mafia for 5 players; at least 2 needed (R24)",
    ),
    (
        "setup_mafia_not_below_town",
        with_players(("Boss", "boss"), ("Maf", "mafioso"), ("V1", "villager"), ("V2", "villager")),
        "2 mafia against 2 town",
    ),
    (
        "setup_foundling_without_boss",
        with_players(
            ("Fou", "foundling"), ("Maf", "mafioso"), ("V1", "villager"), ("V2", "villager")
        ),
        "a foundling needs a boss",
    ),
    (
        "setup_sergeant_without_commissar",
        with_players(
            ("Sgt", "sergeant"), ("Maf", "mafioso"), ("V1", "villager"), ("V2", "villager")
        ),
        "a sergeant needs a commissar",
    ),
    (
        "setup_two_commissars",
        with_players(
            ("C1", "commissar"), ("C2", "commissar"), ("Maf", "mafioso"), ("V1", "villager")
        ),
        "at most one commissar per game, got 2",
    ),
    ("setup_no_players", with_key("players", []), "'players' must be a non-empty list"),
    ("seed_not_integer", with_key("seed", "seven"), "seed"),
    ("activity_rules_not_boolean", with_key("activity_rules", "yes"), "activity_rules"),
    ("players_not_a_list", with_key("players", {"Com": "commissar"}), "players"),
    ("turns_not_a_list", with_key("turns", {"requests": []}), "turns"),
    (
        "turn_not_an_object",
        with_turns(["V1 vote Maf"]),  # type: ignore[arg-type]
        "turn 1: must be an object",
    ),
    ("requests_not_a_list", with_turns({"requests": {"by": "V1", "do": "post"}}), "requests"),
    (
        "target_not_a_string",
        with_turns(req(by="Com", do="check", target=5)),
        "turn 1, requests[0]: 'check' needs 'target' (a nickname)",
    ),
    ("target_missing", with_turns(req(by="Com", do="check")), "target"),
    (
        "targets_not_a_list",
        with_turns(
            {
                "host": [{"do": "double_kill"}],
                "requests": [{"by": "Maf", "do": "kill", "targets": "V1,V2"}],
            }
        ),
        "targets",
    ),
    (
        "targets_three_players",
        with_turns(
            {
                "host": [{"do": "double_kill"}],
                "requests": [{"by": "Maf", "do": "kill", "targets": ["V1", "V2", "Com"]}],
            }
        ),
        "targets",
    ),
    ("note_without_text", with_turns(req(by="V1", do="note", to="V2")), "text"),
    (
        "note_text_not_a_string",
        with_turns(req(by="V1", do="note", to="V2", text=7)),
        "turn 1, requests[0]: 'note' needs 'text' (a string)",
    ),
    (
        "request_without_sender",
        with_turns(req(do="check", target="Maf")),
        "turn 1, requests[0]: 'by' must be a nickname",
    ),
    (
        "request_without_verb",
        with_turns(req(by="Com", target="Maf")),
        "turn 1, requests[0]: unknown verb None",
    ),
    ("player_without_role", with_key("players", [{"nick": "Com"}, *BASE["players"][1:]]), "role"),
    (
        "nick_not_a_string",
        with_key("players", [{"nick": 1, "role": "commissar"}, *BASE["players"][1:]]),
        "players[0]: 'nick' must be a non-empty string",
    ),
    ("missing_players", {"turns": []}, "players"),
    ("script_not_an_object", [BASE], "the script must be a JSON object"),
    # docs/REPLAY.md: an unknown key anywhere is malformed, and the message names it and where
    ("unknown_top_level_key", with_key("description", "a comment"), "'description'"),
    (
        "unknown_player_key",
        with_key(
            "players", [*BASE["players"][:2], {"nik": "V1", "role": "villager"}, BASE["players"][3]]
        ),
        "players[2]: unknown key 'nik'",
    ),
    (
        "extra_player_key",
        with_key(
            "players", [{"nick": "Com", "role": "commissar", "team": "town"}, *BASE["players"][1:]]
        ),
        "players[0]: unknown key 'team'",
    ),
    (
        "turn_comment_key",
        with_turns({"comment": "night one", "requests": []}),
        "turn 1: unknown key 'comment'",
    ),
    (
        "turn_description_key",
        with_turns({}, {"description": "x"}),
        "turn 2: unknown key 'description'",
    ),
    (
        "request_unknown_key",
        with_turns({}, {}, req(by="Com", do="check", target="Maf", why="hunch")),
        "turn 3, requests[0]: unknown key 'why'",
    ),
    (
        "request_key_of_another_verb",
        with_turns(req(by="Com", do="check", target="Maf", to="V1")),
        "turn 1, requests[0]",
    ),
    (
        "after_unknown_key",
        with_turns({"after": [{"by": "Com", "do": "shoot", "target": "Maf", "note": "x"}]}),
        "turn 1, after[0]: unknown key 'note'",
    ),
    (
        "host_unknown_key",
        with_turns({"host": [{"do": "exclude", "player": "V1", "reason": "spam"}]}),
        "turn 1, host[0]: unknown key 'reason'",
    ),
    (
        "host_double_kill_with_player",
        with_turns({"host": [{"do": "double_kill", "player": "V1"}]}),
        "turn 1, host[0]",
    ),
    # docs/REFERENCE.md R44, the exact rule: same name, mixed alphabets, an invisible name
    (
        "duplicate_nick_case",
        with_players(
            ("Com", "commissar"), ("Maf", "mafioso"), ("V1", "villager"), ("v1", "villager")
        ),
        "players[3]",
    ),
    (
        "duplicate_nick_zero_width_space",
        with_players(
            ("Com", "commissar"), ("Maf", "mafioso"), ("V1", "villager"), (" V\u200b1 ", "villager")
        ),
        "players[3]: nickname ' V\\u200b1 ' is the same name as players[2] 'V1'",
    ),
    (
        "mixed_script_nick",
        with_players(
            ("Com", "commissar"), ("Maf", "mafioso"), ("V1", "villager"), ("Аnna", "villager")
        ),
        "players[3]: nickname 'Аnna'",
    ),
    (
        "invisible_nick",
        with_players(
            ("Com", "commissar"),
            ("Maf", "mafioso"),
            ("V1", "villager"),
            ("\u200b\u00ad", "villager"),
        ),
        "players[3]",
    ),
]


@pytest.mark.parametrize(
    ("script", "word"), [(s, w) for _, s, w in MALFORMED], ids=[i for i, _, _ in MALFORMED]
)
def test_malformed_script_raises_script_error(script: Any, word: str):
    with pytest.raises(ScriptError) as info:
        run_script(copy.deepcopy(script))
    assert word in str(info.value)


def test_valid_base_script_runs():
    assert run_script(copy.deepcopy(BASE)) == {"turns": [], "winner": None}


def test_refused_request_is_not_a_script_error():
    out = run_script(with_turns(req(by="V1", do="vote", target="Maf")))
    assert out["turns"][0]["rejected"][0]["reason"] == "no_lynch_on_turn_1"


def test_R18_shoot_among_requests_is_a_refusal_not_a_malformation():
    # docs/REPLAY.md: a known verb in the wrong section is an ordinary refusal in the outcome
    out = run_script(with_turns(req(by="Com", do="shoot", target="Maf")))
    assert out["turns"][0]["rejected"] == [
        {"index": 0, "by": "Com", "do": "shoot", "reason": "no_pistol"}
    ]


def test_request_other_than_shoot_in_after_is_refused_as_closed():
    # `after` comes after the deadline: a known verb there is a refusal, not a malformation
    out = run_script(with_turns({"after": [{"by": "Com", "do": "vote", "target": "Maf"}]}))
    assert out["turns"][0]["after"] == {
        "rejected": [{"index": 0, "by": "Com", "do": "vote", "reason": "request_closed"}],
        "deaths": [],
    }


# --- REFERENCE.md R44: names in a script are matched under the exact rule -------------------------


def test_R44_script_names_resolve_to_the_players_canonical_nickname():
    out = run_script(
        with_turns(
            {
                "requests": [
                    {"by": " maf ", "do": "kill", "target": "c\u200bom"},
                    {"by": "COM", "do": "check", "target": "M\u00adAF"},
                    {"by": "com", "do": "note", "to": "\u3000v1", "text": "hi"},
                ]
            },
            {
                "host": [{"do": "deprive_vote", "player": "V\u200b2"}],
                "requests": [{"by": "v2", "do": "vote", "target": "maf"}],
            },
        )
    )
    first, second = out["turns"]
    assert first["deaths"] == [
        {"player": "Com", "role": "commissar", "cause": "mafia", "by": ["Maf"]}
    ]
    assert [(c["by"], c["target"]) for c in first["checks"]] == [("Com", "Maf")]
    assert first["notes"] == [{"from": "Com", "to": "V1", "text": "hi"}]
    assert second["rejected"] == [{"index": 0, "by": "V2", "do": "vote", "reason": "vote_deprived"}]


def test_R44_script_with_a_name_that_matches_nobody_is_malformed():
    with pytest.raises(ScriptError, match=r"turn 1, requests\[0\]: unknown nickname 'V 1'"):
        run_script(with_turns(req(by="Com", do="check", target="V 1")))


# --- through the command line ------------------------------------------------------------------


def replay(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", "replay", "-"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_one_line_error(proc: subprocess.CompletedProcess[str], word: str | None) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert err, "an error line on stderr"
    assert "\n" not in err, f"one line expected, got: {proc.stderr!r}"
    assert "Traceback" not in err
    if word is not None:
        assert word in err


CLI_CASES = [
    "unknown_nick_sender",
    "unknown_role",
    "unknown_verb",
    "unknown_host_command",
    "duplicate_nick",
    "setup_too_few_mafia",
    "seed_not_integer",
    "targets_three_players",
    "unknown_top_level_key",
    "unknown_player_key",
    "turn_comment_key",
    "request_unknown_key",
    "host_unknown_key",
    "duplicate_nick_zero_width_space",
    "mixed_script_nick",
]


@pytest.mark.parametrize("case", CLI_CASES)
def test_cli_malformed_script_exits_2_with_one_line(case: str):
    _, script, word = next(m for m in MALFORMED if m[0] == case)
    assert_one_line_error(replay(json.dumps(script)), word)


@pytest.mark.parametrize("text", ["{not json", "", '{"players": [1, 2'])
def test_cli_bad_json_exits_2_with_one_line(text: str):
    assert_one_line_error(replay(text), None)


def test_cli_valid_script_exits_0_with_json():
    proc = replay(json.dumps(BASE))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"turns": [], "winner": None}
