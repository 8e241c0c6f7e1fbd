"""Every rule ID of docs/REFERENCE.md has a test named after it, or a stated reason why the replay
output cannot show it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

RULE_IDS = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    12,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    25,
    26,
    27,
    28,
    29,
    30,
    31,
    32,
    33,
    34,
    35,
    36,
    37,
    39,
    40,
    41,
    42,
    43,
    44,
    45,
    46,
    47,
    49,
    50,
    51,
    52,
    53,
    54,
    55,
    56,
    57,
    58,
    59,
    60,
    61,
    62,
    63,
]

#: R1 and R4 (the forum clock's arithmetic, rules/schedule.py) are tested in
#: test_schedule_and_knowledge.py.
NOT_IN_THE_ENGINE = {
    2: "introductions on turn 1: social, the bot only prompts",
    6: "webhook identities in the game channel: Discord-side",
    7: "questions in the discussion channel: Discord-side",
    8: "explaining one's vote after the lynch: social",
    9: "requests sent privately (slash commands): Discord-side",
    10: "avatar and signature: Discord-side",
    47: "the host's narrative posts: Discord-side",
    50: "results announced at the next dawn: the app's publication",
    51: "explaining one's vote, asking questions: social",
    60: "substitutes: who plays a nickname, not what it does (tests/e2e/test_substitutes.py)",
    62: "the ghosts' room: a channel and its readers (tests/e2e/test_ghost_room.py)",
    63: "reliability: the server's stats and bars (tests/db/test_substitutes.py, e2e)",
}


def rule_ids_in_test_names() -> set[int]:
    found: set[int] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found.update(int(m) for m in re.findall(r"R(\d+)(?=_)", node.name))
    return found


def test_every_rule_is_tested_or_explained():
    tested = rule_ids_in_test_names()
    missing = [r for r in RULE_IDS if r not in tested and r not in NOT_IN_THE_ENGINE]
    assert missing == [], f"rules without a test: {missing}"


def test_explained_rules_are_really_untested():
    assert not set(NOT_IN_THE_ENGINE) & rule_ids_in_test_names()
