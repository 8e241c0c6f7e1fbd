"""`make bench`: every benchmark prints its numbers."""

from __future__ import annotations

import importlib

MODULES = [
    "bench.rules_bench",
    "bench.db_bench",
    "bench.e2e_bench",
    "bench.vote_bench",
    "bench.input_bench",
    "bench.replay_bench",
    "bench.restart_bench",
    "bench.delivery_bench",
]


def main() -> None:
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            print(f"{name}: not written yet")
            continue
        module.main()


if __name__ == "__main__":
    main()
