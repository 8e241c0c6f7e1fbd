"""The state snapshot (`rules.snapshot`) that a restart loads instead of the full log:
for random games (the generators of test_properties), the state rebuilt from the
whole log equals the state restored from the snapshot of any closed turn with only the later
log entries replayed on top, and a snapshot that does not fit is refused (the caller then
replays the full log: the log stays the truth).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import Game, LogItem, RebuildError, rebuild
from rules.model import HostAction, Phase
from rules.requests import parse_request
from rules.snapshot import SnapshotError, state_from_dict, state_to_dict
from tests.rules.test_properties import PROPERTY_SETTINGS, scripts


class Played:
    """A script played through the engine the way the service does: only accepted entries
    are logged; a snapshot (through JSON, as stored) after every closed turn."""

    def __init__(self, script: dict[str, Any]) -> None:
        self.players = [(p["nick"], p["role"]) for p in script["players"]]
        self.seed = int(script["seed"])
        self.activity = bool(script["activity_rules"])
        self.game = Game.new(self.players, seed=self.seed, activity_rules=self.activity)
        self.log: list[LogItem] = []
        self.resolved: list[int] = []
        self.windows: list[int] = []
        self.snapshots: dict[int, dict[str, Any]] = {}

    def _submit(self, turn: int, section: str, raw: dict[str, Any]) -> None:
        if self.game.submit(parse_request(raw)) is None:
            self.log.append((turn, section, raw))

    def play(self, script: dict[str, Any], stop: str) -> None:
        """Play every turn; the last one stops ``open`` (requests in, not resolved),
        ``window`` (resolved, window open if a commissar may shoot) or ``closed``."""
        turns = script["turns"]
        for number, t in enumerate(turns, start=1):
            if self.game.winner is not None:
                return
            last = number == len(turns)
            for raw in t.get("host", []):
                if self.game.host_action(HostAction.from_dict(raw)) is None:
                    self.log.append((number, "host", raw))
            for raw in t["requests"]:
                self._submit(number, "requests", raw)
            if self.game.phase is not Phase.OPEN or (last and stop == "open"):
                return
            self.game.resolve()
            self.windows.append(number)
            for raw in t.get("after", []):
                self._submit(number, "after", raw)
            if last and stop == "window" and self.game.state.pistols:
                return
            self.game.finish_turn()
            self.resolved.append(number)
            if self.game.winner is None:
                stored = json.loads(json.dumps(state_to_dict(self.game.state)))
                self.snapshots[self.game.turn] = stored

    def rebuilt(self, snapshot_turn: int | None = None) -> Game:
        snapshot = None if snapshot_turn is None else self.snapshots[snapshot_turn]
        first = snapshot_turn or 1
        return rebuild(
            self.players,
            self.seed,
            self.activity,
            [item for item in self.log if item[0] >= first],
            self.resolved,
            [t for t in self.windows if t not in self.resolved],
            snapshot=snapshot,
        )


@PROPERTY_SETTINGS
@given(script=scripts(max_turns=8), stop=st.sampled_from(["open", "window", "closed"]))
def test_snapshot_plus_the_later_log_equals_the_full_log(script: dict[str, Any], stop: str):
    played = Played(script)
    played.play(script, stop)
    if played.game.winner is not None:
        return  # a finished game is never loaded again
    full = played.rebuilt()
    assert full.state == played.game.state
    for turn in played.snapshots:
        restored = played.rebuilt(turn)
        assert restored.state == full.state, f"snapshot of turn {turn}"


@PROPERTY_SETTINGS
@given(script=scripts(max_turns=6))
def test_a_snapshot_is_deterministic_and_round_trips(script: dict[str, Any]):
    played = Played(script)
    played.play(script, "closed")
    for snapshot in played.snapshots.values():
        state = state_from_dict(snapshot)
        assert state_to_dict(state) == snapshot
        assert json.dumps(state_to_dict(state)) == json.dumps(
            state_to_dict(state_from_dict(snapshot))
        )


def _two_turns() -> Played:
    script = {
        "seed": 7,
        "activity_rules": False,
        "players": [
            {"nick": n, "role": r}
            for n, r in [
                ("A", "boss"),
                ("B", "villager"),
                ("C", "villager"),
                ("D", "doctor"),
                ("E", "villager"),
                ("F", "commissar"),
                ("G", "mafioso"),
                ("H", "villager"),
            ]
        ],
        "turns": [
            {"requests": [{"by": "A", "do": "kill", "target": "B"}]},
            {"requests": [{"by": "C", "do": "vote", "target": "A"}]},
        ],
    }
    played = Played(script)
    played.play(script, "open")
    return played


def test_a_snapshot_of_another_format_or_setup_is_refused():
    played = _two_turns()
    snapshot = played.snapshots[2]
    with pytest.raises(SnapshotError):
        state_from_dict({**snapshot, "format": snapshot["format"] + 1})
    with pytest.raises(SnapshotError):
        state_from_dict({**snapshot, "players": [{"nick": "A"}]})
    with pytest.raises(SnapshotError):  # another seating than the stored players
        rebuild(played.players[::-1], played.seed, False, [], [1], snapshot=snapshot)


def test_a_log_entry_before_the_snapshot_turn_is_refused():
    played = _two_turns()
    with pytest.raises(RebuildError):
        rebuild(played.players, played.seed, False, played.log, [1], snapshot=played.snapshots[2])


def test_a_turn_being_resolved_has_no_snapshot():
    played = _two_turns()
    played.game.resolve()
    with pytest.raises(SnapshotError):
        state_to_dict(played.game.state)
