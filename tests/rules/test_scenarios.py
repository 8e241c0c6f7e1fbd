"""Golden scenarios: tests/scenarios/NAME.json holds {"description", "script", "expected"}.

Each `expected` was derived by hand from docs/REFERENCE.md and docs/REPLAY.md, never by running the
engine. Two things are normalised before comparing, because docs/REPLAY.md does not fix them:
- `conversions` and `promotions` entries are compared by the player's nickname only (the
  files list nicknames; the engine may give objects such as {"player": ..., ...});
- where several players caused one death (`by`), the files list them in arrival order of their
  requests, and every scenario is written so that this is also the players' setup order.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.rules.dsl import nicks, run_script

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIR = ROOT / "tests" / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def normalise(output: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(output)
    for t in out.get("turns", []):
        t["conversions"] = nicks(t.get("conversions", []))
        t["promotions"] = nicks(t.get("promotions", []))
    return out


def assert_same(actual: dict[str, Any], expected: dict[str, Any]) -> None:
    actual = normalise(actual)
    # compare turn by turn first, for a readable failure
    for i, (a, e) in enumerate(zip(actual["turns"], expected["turns"], strict=False), start=1):
        assert a == e, f"turn {i} differs"
    assert len(actual["turns"]) == len(expected["turns"]), "number of turns differs"
    assert actual == expected


def test_there_are_enough_scenarios():
    assert len(SCENARIOS) >= 15


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path):
    data = load(path)
    assert set(data) >= {"script", "expected"}
    assert_same(run_script(copy.deepcopy(data["script"])), data["expected"])


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "main.py", "replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", ["spec_example", "foundling_converted_at_step_0"])
def test_scenario_through_cli_stdin(name: str):
    data = load(SCENARIO_DIR / f"{name}.json")
    proc = run_cli("-", stdin=json.dumps(data["script"]))  # FILE "-" is standard input
    assert proc.returncode == 0, proc.stderr
    assert_same(json.loads(proc.stdout), data["expected"])


def test_scenario_through_cli_path(tmp_path: Path):
    data = load(SCENARIO_DIR / "pistol_delays_win_check.json")
    script = tmp_path / "script.json"
    script.write_text(json.dumps(data["script"]), encoding="utf-8")
    proc = run_cli(str(script))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert_same(json.loads(proc.stdout), data["expected"])
