"""Public lists never follow the seats (R13, R44, R55): nicknames in alphabetical order.

Seats were once given in sign-up order, which anyone could watch, and every public list
followed the seats, so the order of a list traced nicknames to members. Now the seats are dealt
from the game's seed (``rules.setup.seat_order``) and every public list is sorted by nickname
(``rules.names.collation_key``): a game started before, whose seats follow the sign-up, lists
the same as any other. The property: seating the same players in any order gives the same
public payloads, the same ``/players``, the same autocomplete choices and the same end.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.announce import (
    PUBLIC,
    final_announcements,
    game_over_announcement,
    night_announcements,
    roster_in_public_order,
    turn_open_announcement,
)
from rules.engine import Game
from rules.knowledge import mafia_members, public_roster, role_card, valid_targets
from rules.model import HostAction
from rules.names import collation_key, public_order
from rules.requests import parse_request
from rules.roles import verb_spec
from rules.setup import deal, seat_order
from tests.rules.test_properties import scripts

VERBS = ("vote", "hunt", "check", "heal", "inject", "block", "slander", "poison", "kill", "shoot")


def test_R44_alphabetical_order_is_russian_and_english_and_case_insensitive() -> None:
    """ё sorts with е (Russian dictionaries), case never matters, numbers compare as numbers."""
    assert public_order(["Ёж", "Дрозд", "ворон", "Енот", "Аист"]) == [
        "Аист",
        "ворон",
        "Дрозд",
        "Ёж",  # as "еж": before "Енот" (by code point "Ё" would come after "я")
        "Енот",
    ]
    assert public_order(["Ёлка", "Ель", "Ежевика"]) == ["Ежевика", "Ёлка", "Ель"]
    english = ["Badger", "crane", "Otter", "wolf"]
    assert public_order(["wolf", "Badger", "crane", "Otter"]) == english
    assert public_order(["Ворон 10", "Ворон 2", "Ворон"]) == ["Ворон", "Ворон 2", "Ворон 10"]
    # Two names equal but for ё or case keep one fixed order, whatever the input's.
    assert public_order(["Еж", "Ёж"]) == public_order(["Ёж", "Еж"])
    assert collation_key("Еж") != collation_key("Ёж")


def test_R13_seats_depend_on_the_members_and_the_seed_only() -> None:
    """The seats (and so roles and nicknames) of the same members are the same whatever the
    order they signed up in; another seed deals them otherwise."""
    members = [501, 77, 9000, 12, 3333, 64]
    roles = ["mafioso", "mafioso", "commissar", "doctor", "villager", "villager"]
    first = deal(members, roles, seed=11)
    assert deal(list(reversed(members)), roles, seed=11) == first
    assert deal(sorted(members), roles, seed=11) == first
    assert seat_order(members, 11) != sorted(members) or seat_order(members, 12) != sorted(members)
    assert sorted(seat_order(members, 11)) == sorted(members)
    assert {seat_order(members, seed)[0] for seed in range(30)} == set(members)  # any seat first


def _public_payloads(game: Game, announcements: list[Any]) -> list[Any]:
    return [(a.kind, a.payload) for a in announcements if a.audience == PUBLIC]


def _choices(game: Game) -> dict[str, Any]:
    """Every living player's autocomplete choices for every verb, and the mafia's room."""
    state = game.state
    choices = {
        (nick, verb): valid_targets(state, nick, verb)
        for nick in sorted(state.players)
        for verb in VERBS
        if verb_spec(verb) is not None
    }
    return {
        "choices": choices,
        "roster": public_roster(state),
        "room": mafia_members(state),
        "teams": {nick: role_card(state, nick).team for nick in sorted(state.players)},
    }


def play(players: list[tuple[str, str]], script: dict[str, Any]) -> list[Any]:
    """Everything public (and every choice offered) of the script's game, turn by turn, with
    the players seated in the order given."""
    game = Game.new(players, seed=script["seed"], activity_rules=script["activity_rules"])
    seen: list[Any] = [_public_payloads(game, [turn_open_announcement(game.state, 1, None)])]
    for turn in script["turns"]:
        if game.winner is not None:
            break
        for action in turn.get("host", ()):
            game.host_action(HostAction.from_dict(action))
        if game.winner is not None:
            break
        for raw in turn.get("requests", ()):
            game.submit(parse_request(raw))
        seen.append(_choices(game))
        result = game.resolve()
        seen.append(_public_payloads(game, night_announcements(game.state, result)))
        seen.append(_choices(game))
        for raw in turn.get("after", ()):
            game.submit(parse_request(raw))
        result = game.finish_turn()
        seen.append(_public_payloads(game, final_announcements(game.state, result)))
        if result.winner is None:
            opening = turn_open_announcement(game.state, game.turn, None)
            seen.append(_public_payloads(game, [opening]))
    seen.append(game_over_announcement(game.state, game.winner).payload)
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=scripts(max_turns=4), data=st.data())
def test_R55_public_lists_do_not_depend_on_the_seats(script: dict[str, Any], data: Any) -> None:
    """R44, R55: the same players in another seat order (as a game whose seats followed the
    sign-up) give the same public announcements, ``/players``, autocomplete choices, mafia
    room and end-of-game list."""
    players = [(p["nick"], p["role"]) for p in script["players"]]
    other = data.draw(st.permutations(players))
    assert play(players, script) == play(list(other), script)


def test_R55_the_end_lists_every_nickname_alphabetically_even_when_stored_by_seat() -> None:
    """A game over stored in seat order (before this order) is read back by nickname."""
    stored = [{"nick": "Wolf"}, {"nick": "badger"}, {"nick": "Heron"}]
    assert [e["nick"] for e in roster_in_public_order(stored)] == ["badger", "Heron", "Wolf"]
    game = Game.new(
        [("Wolf", "mafioso"), ("badger", "villager"), ("Heron", "villager"), ("Crane", "commissar")]
    )
    payload = game_over_announcement(game.state, None).payload
    assert [e["nick"] for e in payload["roles"]] == ["badger", "Crane", "Heron", "Wolf"]
