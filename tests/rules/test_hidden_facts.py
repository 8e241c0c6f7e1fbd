"""R55: what a player is offered and what he is refused depend only on what he legitimately
knows.

A player knows his own role as he was told it (R22: the Foundling is told Villager), the mafia
know their members (R14, R23), the sergeant knows the commissar (R19), and deaths with their
revealed roles are public (R35). Everything else about the other players' roles is hidden.

For random games (8 to 13 seats, with every role once there are ten of them, after a few
random turns, sometimes stopped inside a pistol window) and for every player, the hidden facts
are shuffled: the roles of the players whose role he does not know are permuted among them
(his role card unchanged, which the test checks). Then on the real and the shuffled games:

- every nickname option (`valid_targets`: the autocomplete of every command and the pistol
  menu) offers the same list;
- every request he could send (every verb, every named player or pair, hunts open or not) gets
  the same refusal code and the same refusal text in both languages;
- for a verb he may not send, he is offered what a Villager in his seat is offered (what any
  other non-holder sees).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.i18n import t
from rules.engine import Game
from rules.knowledge import role_card, valid_targets
from rules.model import GameState, HostAction, Phase, Request
from rules.roles import COMMON_VERBS, Shape, Villager, role_classes, verb_spec
from rules.validation import validate_request

UNIQUE_ROLES = ("commissar", "sergeant", "doctor", "prostitute", "foundling", "maniac")
SHUFFLES = 3


def choice_verbs() -> list[str]:
    """Every verb a command offers nicknames for (the registry's verbs that name a player)."""
    verbs = {"vote", "hunt", "note", "shoot"} | {v for cls in role_classes() for v in cls.verbs}
    out = []
    for verb in sorted(verbs):
        spec = verb_spec(verb)
        assert spec is not None, verb
        if spec.shape is not Shape.NOTHING:
            out.append(verb)
    return out


@st.composite
def setups(draw: st.DrawFn) -> list[tuple[str, str]]:
    """8 to 13 seats with every role in the game (R43): the Boss and the Troublemaker, the
    town's five roles, the maniac, Mafiosi up to a random mafia size, Villagers for the rest."""
    n = draw(st.integers(min_value=8, max_value=13))
    m = draw(st.integers(min_value=-(-n // 4), max_value=min(n - 6, (n - 2) // 2)))  # R24
    roles = ["boss", "troublemaker", *["mafioso"] * (m - 2), *UNIQUE_ROLES]
    roles += ["villager"] * (n - len(roles))
    roles = draw(st.permutations(roles))
    return [(f"P{i}", role) for i, role in enumerate(roles)]


def random_turns(game: Game, rng: random.Random, turns: int) -> None:
    """A few turns of random requests (most of them refused) and host commands; may stop
    inside a pistol window."""
    state = game.state
    verbs = choice_verbs()
    for _ in range(turns):
        if game.winner is not None:
            return
        nicks = list(state.players)
        for _ in range(rng.randrange(3 * len(nicks))):
            by = rng.choice(nicks)
            verb = rng.choice(verbs)
            if verb == "shoot":
                continue
            if verb == "note":
                req = Request(by=by, do=verb, to=rng.choice(nicks), text="x")
            elif verb == "kill" and rng.random() < 0.2:
                req = Request(by=by, do=verb, targets=(rng.choice(nicks), rng.choice(nicks)))
            else:
                req = Request(by=by, do=verb, target=rng.choice(nicks))
            game.submit(req, hunts_open=rng.random() < 0.8)
        if rng.random() < 0.2:
            game.host_action(HostAction("double_kill"))
        if rng.random() < 0.2:
            game.host_action(HostAction("deprive_vote", rng.choice(nicks)))
        if rng.random() < 0.05:
            game.host_action(HostAction("exclude", rng.choice(nicks)))
        if game.winner is not None:
            return
        game.resolve()
        if state.phase is Phase.PISTOL:
            if rng.random() < 0.3:
                return  # test inside the pistol window
            for nick in sorted(state.pistols):
                living = [p.nick for p in state.living()]
                if living and rng.random() < 0.5:
                    game.submit(Request(by=nick, do="shoot", target=rng.choice(living)))
        if state.current is not None:
            game.finish_turn()


def known_to(state: GameState, nick: str) -> set[str]:
    """The players whose role `nick` knows: himself, the dead (R35), his team if he is of the
    mafia (R14), the commissar if he is the sergeant (R19)."""
    card = role_card(state, nick)
    known = {nick, *card.team}
    if card.commissar is not None:
        known.add(card.commissar)
    known |= {p.nick for p in state.players.values() if not p.alive}
    return known


def shuffled(state: GameState, nick: str, rng: random.Random) -> GameState:
    """The game with every hidden fact `nick` cannot know shuffled: the roles of the living
    players he does not know permuted among them, and (R22) a Foundling swapped with a
    Villager, whose card he cannot tell from his own. His mafia teammates' roles he knows: the
    card tells the clan as a host does, who is the Boss, who the Troublemaker (R14)."""
    other = copy.deepcopy(state)
    players = other.players
    me = players[nick]
    known = known_to(state, nick)
    groups = [[p.nick for p in other.living() if p.nick not in known]]
    if me.alive and me.role_cls.shown_as() != me.role:
        look_alikes = [
            p.nick
            for p in other.living()
            if p.nick not in known and p.role_cls.shown_as() == me.role_cls.shown_as()
        ]
        if look_alikes:
            groups.insert(0, [nick, rng.choice(look_alikes)])  # before the others move
    for group in groups:
        seats = [(players[n].role_cls, players[n].original_role) for n in group]
        rng.shuffle(seats)
        for n, (cls, original) in zip(group, seats, strict=True):
            players[n].role_cls, players[n].original_role = cls, original
    # What he knows is unchanged (his card shows his team and the commissar too).
    assert role_card(other, nick) == role_card(state, nick)
    return other


def requests_of(state: GameState, nick: str) -> Iterator[Request]:
    """Every request `nick` could send naming the game's players."""
    names = list(state.players)
    for verb in choice_verbs():
        spec = verb_spec(verb)
        assert spec is not None
        for name in names:
            if spec.shape is Shape.NOTE:
                yield Request(by=nick, do=verb, to=name, text="x")
            else:
                yield Request(by=nick, do=verb, target=name)
            if spec.shape is Shape.TARGET_OR_PAIR:
                for second in names:
                    yield Request(by=nick, do=verb, targets=(name, second))


def refusals(state: GameState, nick: str) -> list[tuple[Request, bool, str | None, str, str]]:
    """Every request's refusal: its code and its text in both languages."""
    out = []
    for req in requests_of(state, nick):
        for hunts_open in (True, False):
            refusal = validate_request(state, req, hunts_open=hunts_open)
            code = None if refusal is None else str(refusal.code)
            texts = (
                ("", "")
                if code is None
                else (t("en", f"refusal.{code}"), t("ru", f"refusal.{code}"))
            )
            out.append((req, hunts_open, code, *texts))
    return out


def offers(state: GameState, nick: str) -> dict[str, list[str]]:
    return {verb: valid_targets(state, nick, verb) for verb in choice_verbs()}


def may_send(state: GameState, nick: str, verb: str) -> bool:
    cls = state.players[nick].role_cls
    if verb == "hunt":
        return cls.may_hunt()
    if verb == "shoot":
        return nick in state.pistols
    return verb in COMMON_VERBS or verb in cls.verbs


@given(setup=setups(), seed=st.integers(0, 2**32 - 1), turns=st.integers(0, 4))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_R55_offers_and_refusals_depend_only_on_what_the_caller_knows(
    setup: list[tuple[str, str]], seed: int, turns: int
) -> None:
    game = Game.new(setup, seed=seed)
    rng = random.Random(seed)
    random_turns(game, rng, turns)
    state = game.state
    for nick in state.players:
        real_offers = offers(state, nick)
        real_refusals = refusals(state, nick)
        for _ in range(SHUFFLES):
            other = shuffled(state, nick, rng)
            assert offers(other, nick) == real_offers, (nick, state.players[nick].role)
            for real, seen in zip(real_refusals, refusals(other, nick), strict=True):
                assert real == seen, (nick, state.players[nick].role)
        # For a verb he may not send he sees what any non-holder (a Villager) sees.
        as_villager = copy.deepcopy(state)
        as_villager.players[nick].role_cls = Villager
        for verb, offered in real_offers.items():
            if not may_send(state, nick, verb) and not may_send(as_villager, nick, verb):
                assert offered == valid_targets(as_villager, nick, verb), (nick, verb)


def test_R55_the_town_is_offered_the_mafia_for_a_kill() -> None:
    """The original leak: /kill's autocomplete left the mafia out for every caller, so a
    villager typing /kill saw who the mafia were (R14, R55)."""
    game = Game.new(
        [
            ("Boss", "boss"),
            ("Maf", "mafioso"),
            ("Com", "commissar"),
            ("V1", "villager"),
            ("V2", "villager"),
            ("V3", "villager"),
            ("V4", "villager"),
            ("V5", "villager"),
        ]
    )
    everyone = sorted(game.state.players, key=str.casefold)  # by nickname, never by seat
    assert valid_targets(game.state, "V1", "kill") == [n for n in everyone if n != "V1"]
    assert valid_targets(game.state, "Com", "kill") == [n for n in everyone if n != "Com"]
    assert valid_targets(game.state, "Boss", "kill") == ["Com", "V1", "V2", "V3", "V4", "V5"]
