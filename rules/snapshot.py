"""A game's state as plain JSON data, and back: the snapshot the store keeps with each
resolution, so that a restart replays only the log after it (`rules.engine.rebuild`).

Only between turns: a turn being resolved (`GameState.current`) is not serialised. The log
stays the truth: a snapshot of another format, or that does not fit the game, raises
`SnapshotError` and the caller replays the full log. Deterministic: the same state gives the
same data (sets sorted, dicts in their order). Here rather than on the attrs classes of
`rules.model` because restoring needs the role registry and the request parser, which
import the model.
"""

from __future__ import annotations

from typing import Any

from rules.model import GameState, Note, Phase, Player, Submission
from rules.requests import parse_request
from rules.roles import Role, cause_of, role_class, role_classes

#: The shape of `state_to_dict`; a stored snapshot of another format is not used (the game is
#: rebuilt from its full log instead). Bump it whenever that shape changes. A role's memory
#: is the role's own data (`Role.memory_to_data`): a role changing its memory's shape needs
#: no bump, it reads its older data in `Role.memory_from_data`.
SNAPSHOT_FORMAT = 2
#: Format 1 kept the roles' memory as named fields of the game; each role reads its own back
#: (`Role.legacy_memory`), so such a snapshot is still used.
LEGACY_FORMAT = 1


class SnapshotError(ValueError):
    """A stored state that cannot be used: rebuild from the log (the log is the truth)."""


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state between two turns as JSON data."""
    if state.current is not None:
        raise SnapshotError("a turn being resolved has no snapshot")
    return {
        "format": SNAPSHOT_FORMAT,
        "seed": state.seed,
        "activity_rules": state.activity_rules,
        "players": [_player_row(p) for p in state.players.values()],
        "turn": state.turn,
        "phase": str(state.phase),
        "winner": state.winner,
        "double_kill": state.double_kill,
        "double_kill_next": state.double_kill_next,
        "deprived": sorted(state.deprived),
        "deprived_next": sorted(state.deprived_next),
        "requests": [
            [nick, slot, sub.seq, sub.request.to_dict()]
            for (nick, slot), sub in state.requests.items()
        ],
        "posts": dict(state.posts),
        "next_seq": state.next_seq,
        "role_memory": {
            key: _memory_owner(key).memory_to_data(memory)
            for key, memory in sorted(state.role_memory.items())
        },
        "pistols": sorted(state.pistols),
    }


def _memory_owner(key: str) -> type[Role]:
    """The role class whose memory is kept under ``key``."""
    for cls in role_classes():
        if cls.Memory is not None and cls.memory_key == key:
            return cls
    raise SnapshotError(f"no role keeps a memory called {key!r}")


def _role_memory(data: dict[str, Any]) -> dict[str, Any]:
    if data.get("format") == LEGACY_FORMAT:
        memory: dict[str, Any] = {}
        for cls in role_classes():
            if cls.Memory is None or cls.memory_key is None or cls.memory_key in memory:
                continue
            found = cls.legacy_memory(data)
            if found is not None:
                memory[cls.memory_key] = found
        return memory
    return {
        str(key): _memory_owner(str(key)).memory_from_data(value)
        for key, value in data["role_memory"].items()
    }


def state_from_dict(data: Any) -> GameState:
    """The state `state_to_dict` gave. Raises `SnapshotError` for anything else (another
    format, an unknown role, a damaged document)."""
    if not isinstance(data, dict) or data.get("format") not in (SNAPSHOT_FORMAT, LEGACY_FORMAT):
        raise SnapshotError("not a snapshot of this format")
    try:
        players = [_player(row) for row in data["players"]]
        return GameState(
            seed=int(data["seed"]),
            activity_rules=bool(data["activity_rules"]),
            players={p.nick: p for p in players},
            turn=int(data["turn"]),
            phase=Phase(data["phase"]),
            winner=data["winner"],
            double_kill=bool(data["double_kill"]),
            double_kill_next=bool(data["double_kill_next"]),
            deprived=set(data["deprived"]),
            deprived_next=set(data["deprived_next"]),
            requests={
                (str(nick), str(slot)): Submission(seq=int(seq), request=parse_request(req))
                for nick, slot, seq, req in data["requests"]
            },
            posts={str(k): int(v) for k, v in data["posts"].items()},
            next_seq=int(data["next_seq"]),
            role_memory=_role_memory(data),
            pistols=set(data["pistols"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SnapshotError(f"a damaged snapshot ({exc!r})") from exc


def _player_row(p: Player) -> list[Any]:
    """A player as a list: compact to store and to read back (thousands at a restart)."""
    note = None if p.note is None else [p.note.to, p.note.text]
    cause = None if p.death_cause is None else str(p.death_cause)
    return [p.nick, p.role, p.original_role, p.alive, p.death_turn, cause, p.missed_votes, note]


def _player(row: list[Any]) -> Player:
    nick, role, original, alive, death_turn, cause, missed, note = row
    return Player(
        nick=str(nick),
        role_cls=role_class(str(role)),  # the current role: internal after R19, R22
        original_role=str(original),
        alive=bool(alive),
        death_turn=None if death_turn is None else int(death_turn),
        death_cause=None if cause is None else cause_of(str(cause)),
        missed_votes=int(missed),
        note=None if note is None else Note(to=str(note[0]), text=str(note[1])),
    )
