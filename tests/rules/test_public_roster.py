"""``/players`` and ``/help`` from what is public or known (R35, R55).

``public_roster`` must not change when every hidden fact changes: the roles of all the living
permuted among them (the public knows none of them). The dead show the role revealed at their
death (R35) and when and how they died. ``request_commands`` lists what the player may send.
"""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Game
from rules.knowledge import public_roster, request_commands, role_card
from rules.model import GameState
from tests.rules.test_hidden_facts import random_turns, setups


def living_roles_permuted(state: GameState, rng: random.Random) -> GameState:
    other = copy.deepcopy(state)
    living = [p for p in other.players.values() if p.alive]
    seats = [(p.role_cls, p.original_role) for p in living]
    rng.shuffle(seats)
    for p, (cls, original) in zip(living, seats, strict=True):
        p.role_cls, p.original_role = cls, original
    return other


@given(setup=setups(), seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 4))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_R35_R55_the_roster_shows_only_public_facts(
    setup: list[tuple[str, str]], seed: int, turns: int
) -> None:
    game = Game.new(setup, seed=seed)
    rng = random.Random(seed)
    random_turns(game, rng, turns)
    state = game.state
    roster = public_roster(state)
    assert set(roster.living) == {p.nick for p in state.living()}
    assert {d.nick for d in roster.dead} == {p.nick for p in state.players.values() if not p.alive}
    for d in roster.dead:  # R35: the role as revealed at his death, with cause and turn
        p = state.players[d.nick]
        assert (d.role, d.cause, d.turn) == (
            p.role_cls.reveals_as(),
            str(p.death_cause),
            p.death_turn,
        )
    turns_of_death = [d.turn or 0 for d in roster.dead]
    assert turns_of_death == sorted(turns_of_death)
    for _ in range(3):
        assert public_roster(living_roles_permuted(state, rng)) == roster


@given(setup=setups(), seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 4))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_R18_R36_my_request_commands_are_my_card_alive_and_the_pistol_dead(
    setup: list[tuple[str, str]], seed: int, turns: int
) -> None:
    game = Game.new(setup, seed=seed)
    random_turns(game, random.Random(seed), turns)
    state = game.state
    for nick, p in state.players.items():
        mine = request_commands(state, nick)
        if p.alive:
            assert mine == tuple(v for v in role_card(state, nick).verbs if v != "post")
            assert "vote" in mine and "shoot" not in mine
        else:
            assert mine == (("shoot",) if nick in state.pistols else ())
