"""`main.py replay` against the floor of reading and writing the same JSON.

    python -m bench.replay_bench [--runs 11]

Two scripts, generated deterministically: 40 players for 30 turns and for 300 turns. Every
turn every player posts and (from turn 2) votes, and every role acts; the doctor guesses the
mafia's target each night, so the game lasts the whole script and the outcome has a result
for every turn (votes scattered over 39 candidates stay under R31's threshold).

The floor is one interpreter that reads the script and writes its outcome as
`python -c "import json, sys; json.dump(json.load(open(F)), sys.stdout)"` does (start-up, the
script read and parsed, the outcome read and written). Both commands run as subprocesses of
the same interpreter (``sys.executable``), each a few times first so that the .pyc files are
warm, then alternately; the figure is the median of ``--runs`` runs each. Standard output goes
to a temporary file. ``PYTHONDONTWRITEBYTECODE`` is removed from the environment of both (it
would make `main.py` compile its modules on every run). Each size is measured twice: with
standard output buffered, and with ``PYTHONUNBUFFERED=1`` as this machine's environment sets
it, where every small write of the floor's `json.dump` is a system call (`main.py replay`
writes its outcome at once).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules.setup import assign_nicknames, preset

GOAL = 1.5
ROOT = Path(__file__).resolve().parent.parent
FLOOR = (
    "import json, sys; json.load(open(sys.argv[1], encoding='utf-8')); "
    "json.dump(json.load(open(sys.argv[2], encoding='utf-8')), sys.stdout)"
)
MAFIA = ("boss", "mafioso", "troublemaker")


def quiet_turn(rng: random.Random, players: list[tuple[str, str]], turn: int) -> list[Any]:
    """One turn of requests in which nobody dies: the mafia's target is the doctor's patient
    (a new one every turn, R20), the maniac poisons him too, nobody hunts."""
    nicks = [n for n, _ in players]
    town = [n for n, r in players if r not in MAFIA]
    patient = town[turn % len(town)]
    reqs: list[dict[str, Any]] = []
    for nick, role in players:
        others = [n for n in nicks if n != nick]
        reqs.append({"by": nick, "do": "post"})
        if turn > 1:
            reqs.append({"by": nick, "do": "vote", "target": rng.choice(others)})
        if role in MAFIA:
            reqs.append({"by": nick, "do": "kill", "target": patient})
        if role == "doctor":
            reqs.append({"by": nick, "do": "heal", "target": patient})
        elif role == "maniac":
            reqs.append({"by": nick, "do": "poison", "target": patient})
        elif role == "commissar":
            reqs.append({"by": nick, "do": "check", "target": rng.choice(others)})
        elif role == "troublemaker":
            reqs.append({"by": nick, "do": "slander", "target": rng.choice(others)})
        elif role == "prostitute":
            blocked = rng.choice([n for n, r in players if r in ("villager", "commissar")])
            reqs.append({"by": nick, "do": "block", "target": blocked})
    if turn % 10 == 0:  # a second vote replaces the first; a hunt (refused unless town, R26)
        reqs.append({"by": nicks[0], "do": "vote", "target": nicks[1]})
        reqs.append({"by": nicks[1], "do": "hunt", "target": nicks[2]})
    return reqs


def quiet_script(n_turns: int, n_players: int = 40, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    roles = preset(n_players)
    players = list(zip(assign_nicknames(n_players, seed), roles, strict=True))
    return {
        "seed": seed,
        "activity_rules": True,
        "players": [{"nick": n, "role": r} for n, r in players],
        "turns": [{"requests": quiet_turn(rng, players, t + 1)} for t in range(n_turns)],
    }


def _env(unbuffered: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONUNBUFFERED", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


def _time(argv: list[str], out: Path, env: dict[str, str]) -> float:
    with out.open("wb") as sink:
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=sink, check=True, cwd=ROOT, env=env)
        return time.perf_counter() - t0


def measure(
    script: Path, outcome: Path, runs: int, unbuffered: bool, warm: int = 3
) -> tuple[float, float]:
    """Median wall time of the floor and of `main.py replay` (seconds)."""
    floor = [sys.executable, "-c", FLOOR, str(script), str(outcome)]
    replay = [sys.executable, "main.py", "replay", str(script)]
    sink = outcome.with_suffix(".out")
    env = _env(unbuffered)
    for _ in range(warm):
        _time(floor, sink, env)
        _time(replay, sink, env)
    floors: list[float] = []
    replays: list[float] = []
    for _ in range(runs):
        floors.append(_time(floor, sink, env))
        replays.append(_time(replay, sink, env))
    return statistics.median(floors), statistics.median(replays)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_bench")
    parser.add_argument("--runs", type=int, default=11, help="runs of each command (default 11)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for n_turns in (30, 300):
            script = Path(tmp) / f"script{n_turns}.json"
            script.write_text(json.dumps(quiet_script(n_turns), indent=2), encoding="utf-8")
            outcome = Path(tmp) / f"outcome{n_turns}.json"
            with outcome.open("wb") as sink:
                subprocess.run(
                    [sys.executable, "main.py", "replay", str(script)],
                    stdout=sink,
                    check=True,
                    cwd=ROOT,
                    env=_env(),
                )
            played = len(json.loads(outcome.read_text(encoding="utf-8"))["turns"])
            print(
                f"replay: 40 players x {n_turns} turns ({played} played), script "
                f"{script.stat().st_size // 1024} KiB, outcome {outcome.stat().st_size // 1024} KiB"
            )
            for unbuffered in (False, True):
                floor, replay = measure(script, outcome, args.runs, unbuffered)
                ratio = replay / floor
                verdict = "ok" if ratio <= GOAL else "MISSED"
                mode = "PYTHONUNBUFFERED=1" if unbuffered else "buffered stdout"
                print(
                    f"  {mode:18}: main.py replay {replay * 1000:6.1f} ms, floor "
                    f"{floor * 1000:6.1f} ms; replay/floor {ratio:.2f} / goal {GOAL} = "
                    f"{ratio / GOAL:.2f} {verdict}"
                )


if __name__ == "__main__":
    main()
