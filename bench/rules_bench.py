"""Rules engine benchmarks (issue: speed): replay, one turn, random games per second."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from typing import Any

from rules.engine import Game
from rules.replay import run_script
from rules.requests import parse_request
from rules.setup import assign_nicknames, preset

ROLE_VERB = {
    "commissar": "check",
    "doctor": "heal",
    "prostitute": "block",
    "troublemaker": "slander",
    "maniac": "poison",
}


def busy_turn(
    rng: random.Random, players: list[tuple[str, str]], turn: int
) -> list[dict[str, Any]]:
    """Every role acts: votes, hunts, kills, checks... targets picked at random."""
    nicks = [n for n, _ in players]
    mafia = {n for n, r in players if r in ("boss", "mafioso", "troublemaker")}
    town_targets = [n for n in nicks if n not in mafia]
    kill_target = rng.choice(town_targets)
    reqs: list[dict[str, Any]] = []
    for nick, role in players:
        others = [n for n in nicks if n != nick]
        reqs.append({"by": nick, "do": "post"})
        if turn > 1:
            reqs.append({"by": nick, "do": "vote", "target": rng.choice(others)})
        if nick in mafia:
            reqs.append({"by": nick, "do": "kill", "target": kill_target})
        if role in ROLE_VERB:
            reqs.append({"by": nick, "do": ROLE_VERB[role], "target": rng.choice(others)})
        elif turn > 1 and role == "villager" and rng.random() < 0.1:
            reqs.append({"by": nick, "do": "hunt", "target": rng.choice(others)})
    return reqs


def big_script(n_players: int = 40, n_turns: int = 30, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    roles = preset(n_players)
    nicks = assign_nicknames(n_players, seed)
    players = list(zip(nicks, roles, strict=True))
    turns = [{"requests": busy_turn(rng, players, t + 1)} for t in range(n_turns)]
    return {
        "seed": seed,
        "activity_rules": True,
        "players": [{"nick": n, "role": r} for n, r in players],
        "turns": turns,
    }


def random_game(seed: int, n_players: int = 12) -> str | None:
    """A whole random game: requests from living players until someone wins."""
    rng = random.Random(seed)
    nicks = assign_nicknames(n_players, seed)
    game = Game.new(list(zip(nicks, preset(n_players), strict=True)), seed=seed)
    for _ in range(60):
        living = [p for p in game.state.players.values() if p.alive]
        players = [(p.nick, p.role) for p in living]
        for raw in busy_turn(rng, players, game.turn):
            game.submit(parse_request(raw))
        game.resolve_and_finish()
        if game.winner:
            break
    return game.winner


def main() -> None:
    script = big_script()
    n_requests = sum(len(t["requests"]) for t in script["turns"])
    t0 = time.perf_counter()
    out = run_script(script)
    dt = time.perf_counter() - t0
    print(
        f"rules: replay 40 players x 30 turns ({n_requests} requests, "
        f"{len(out['turns'])} turns played): {dt * 1000:.1f} ms"
    )

    # One turn of a 40-player game, resolution alone.
    rng = random.Random(5)
    samples = []
    for i in range(200):
        nicks = assign_nicknames(40, i)
        players = list(zip(nicks, preset(40), strict=True))
        game = Game.new(players, seed=i)
        game.resolve_and_finish()
        for raw in busy_turn(rng, players, 2):
            game.submit(parse_request(raw))
        t0 = time.perf_counter()
        game.resolve()
        samples.append(time.perf_counter() - t0)
    samples.sort()
    print(
        f"rules: resolve one turn, 40 players: p50 {samples[len(samples) // 2] * 1e6:.0f} us, "
        f"p99 {samples[int(len(samples) * 0.99)] * 1e6:.0f} us"
    )

    t0 = time.perf_counter()
    games = 0
    winners: dict[str, int] = {}
    while time.perf_counter() - t0 < 2.0:
        w = random_game(games) or "none"
        winners[w] = winners.get(w, 0) + 1
        games += 1
    dt = time.perf_counter() - t0
    print(f"rules: random 12-player games: {games / dt:.0f} games/s (winners {winners})")

    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "main.py", "replay", "-"],
        input='{"players":[{"nick":"A","role":"mafioso"},{"nick":"B","role":"villager"},'
        '{"nick":"C","role":"villager"}]}',
        capture_output=True,
        text=True,
        check=True,
    )
    print(f"rules: `main.py replay` start-up and run: {(time.perf_counter() - t0) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
