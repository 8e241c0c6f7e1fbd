"""`main.py replay FILE` made fast without a change of behaviour: the outcome is the
same text as before (``json.dumps(outcome, ensure_ascii=False, indent=2)`` and a newline),
written at once; `replay FILE` skips the command-line machinery, and every other command line
(help, errors, ``--``) still goes through the parser with the same answers and exit codes; the
common request is read in one step into the same request as the full path (R44: names as the
game spells them)."""

from __future__ import annotations

import enum
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import main
from rules.names import resolve_request
from rules.replay import _FastRequests, outcome_json, run_script
from rules.requests import parse_request
from tests.rules.test_scenarios import SCENARIOS, load

ROOT = Path(__file__).resolve().parents[2]


def _script_file(tmp_path: Path, scenario: Path) -> tuple[Path, dict[str, Any]]:
    script = load(scenario)["script"]
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    return path, script


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_replay_prints_the_outcome_as_json_dumps_with_indent_2(
    scenario: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, script = _script_file(tmp_path, scenario)
    assert main.main(["replay", str(path)]) == 0
    expected = json.dumps(run_script(script), ensure_ascii=False, indent=2) + "\n"
    assert capsys.readouterr().out == expected


class _CountingStream:
    """Standard output that counts its writes."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return int(self.inner.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_replay_writes_the_outcome_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One write, not one per JSON token: with PYTHONUNBUFFERED each write is a system call."""
    path, _ = _script_file(tmp_path, ROOT / "tests" / "scenarios" / "spec_example.json")
    stream = _CountingStream(sys.stdout)
    monkeypatch.setattr(sys, "stdout", stream)
    assert main.main(["replay", str(path)]) == 0
    assert stream.writes == 1
    assert capsys.readouterr().out.count("\n") > 50  # many lines, one write


class _Colour(enum.StrEnum):
    RED = "red"


_KEYS = st.one_of(st.text(max_size=6), st.integers(-5, 5), st.booleans(), st.none(), st.just(1.5))
_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from([_Colour.RED, 'ё\u2028\x00"\\', "\U0001f600"]),
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEYS, inner, max_size=4),
        st.dictionaries(st.text(max_size=4), inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_outcome_json_is_json_dumps(value: Any) -> None:
    assert outcome_json(value) == json.dumps(value, ensure_ascii=False, indent=2)


NICKS = ["Anna", "Bob", "Ёжик", "Cid Vicious"]
_NAMES = st.sampled_from([*NICKS, "anna", " Bob", "Ежик", "Nobody", "", 3, None, ["Anna"]])
_VERBS = st.sampled_from(["post", "vote", "kill", "check", "heal", "note", "shoot", "fly", 1])
_REQUESTS = st.one_of(
    st.fixed_dictionaries({"by": _NAMES, "do": _VERBS}),
    st.fixed_dictionaries({"by": _NAMES, "do": _VERBS, "target": _NAMES}),
    st.fixed_dictionaries(
        {"by": _NAMES, "do": _VERBS},
        optional={"target": _NAMES, "targets": st.lists(_NAMES, max_size=3), "text": _NAMES},
    ),
    st.lists(_NAMES, max_size=2),
)


@settings(max_examples=500, deadline=None)
@given(_REQUESTS)
def test_R44_the_quick_request_is_the_one_the_full_path_makes(item: Any) -> None:
    """The one-step reading of a request, when it answers at all, gives the request of
    `parse_request` and `resolve_request` (names spelt exactly as the game's, R44)."""
    quick = _FastRequests(NICKS).request(item)
    if quick is not None:
        assert quick == resolve_request(parse_request(item), NICKS)


def _cli(*args: str, code: str = "sys.exit(main.main(sys.argv[1:]))") -> Any:
    return subprocess.run(
        [sys.executable, "-c", f"import sys, main\n{code}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_replay_of_a_file_loads_no_command_line_machinery(tmp_path: Path) -> None:
    """`replay FILE` skips argparse and logging (their import costs more than a short
    replay), and discord, as before."""
    path, _ = _script_file(tmp_path, ROOT / "tests" / "scenarios" / "spec_example.json")
    code = (
        "status = main.main(sys.argv[1:])\n"
        "loaded = [m for m in ('argparse', 'logging', 'discord', 'aiosqlite') "
        "if m in sys.modules]\n"
        "sys.stderr.write(repr(loaded))\n"
        "sys.exit(status)"
    )
    done = _cli("replay", str(path), code=code)
    assert done.returncode == 0
    assert done.stderr == "[]"
    assert json.loads(done.stdout)["turns"]


_MISSING = "main.py replay: the following arguments are required: file (see main.py replay --help)"


@pytest.mark.parametrize(
    ("args", "status", "stdout", "stderr"),
    [
        (["replay"], 2, "", _MISSING),
        (["replay", "a", "b"], 2, "", "main.py: unrecognized arguments: b (see main.py --help)"),
        (["replay", "--help"], 0, "usage: main.py replay [-h] file", ""),
        (["replay", "-x"], 2, "", _MISSING),
        (["--help"], 0, "{replay,export,run,health,backup,migrate-store,demo}", ""),
        (["replay", "/no/such/file.json"], 2, "", "error: cannot read /no/such/file.json"),
    ],
)
def test_other_command_lines_answer_as_before(
    args: list[str], status: int, stdout: str, stderr: str
) -> None:
    done = _cli(*args)
    assert done.returncode == status
    assert stdout in done.stdout
    assert stderr in done.stderr
    if stderr:
        assert done.stderr.count("\n") == 1, done.stderr


def test_replay_after_a_double_dash_is_the_same_replay(tmp_path: Path) -> None:
    path, _ = _script_file(tmp_path, ROOT / "tests" / "scenarios" / "spec_example.json")
    plain = _cli("replay", str(path))
    dashed = _cli("replay", "--", str(path))
    assert plain.returncode == dashed.returncode == 0
    assert plain.stdout == dashed.stdout
