"""What each player legitimately knows (R14, R19, R22, R44, R55).

The bot renders role cards and private lists from these answers only, so that no reply can
tell a player more than the rules let him know.
"""

from __future__ import annotations

import attrs

from rules.model import GameState, Phase
from rules.names import collation_key, public_order
from rules.roles import COMMON_VERBS, Faction, verb_spec


@attrs.frozen
class RoleCard:
    nick: str
    role: str  # the role the player is told he has (R22: the Foundling reads Villager)
    faction: str  # the faction as the player knows it
    verbs: tuple[str, ...]  # the request verbs he may send
    team: tuple[str, ...]  # the mafia: every member's nickname (R14)
    commissar: str | None  # the sergeant: the commissar's nickname (R19)
    alive: bool
    # The mafia as a host tells it (R14): each member's nickname and role, in `team`'s order.
    clan: tuple[tuple[str, str], ...] = ()
    # The roles of the game's setup (public: the role list is published, R43), so the card
    # speaks of the sides and roles of this game only; None: not known (every role).
    cast: frozenset[str] | None = None


def game_cast(state: GameState) -> frozenset[str]:
    """The roles the game was dealt (its published role list, R43): the setup's codes."""
    return frozenset(p.original_role for p in state.players.values())


def role_card(state: GameState, nick: str) -> RoleCard:
    player = state.players[nick]
    cls = player.role_cls
    team: tuple[str, ...] = ()
    clan: tuple[tuple[str, str], ...] = ()
    if cls.faction is Faction.MAFIA:
        team = tuple(public_order(p.nick for p in state.players.values() if p.is_mafia))
        clan = tuple((nick, state.players[nick].role) for nick in team)
    verbs = sorted(COMMON_VERBS | cls.verbs | ({"hunt"} if cls.may_hunt() else set()))
    return RoleCard(
        nick=nick,
        role=cls.shown_as(),
        faction=str(cls.shown_faction()),
        verbs=tuple(verbs),
        team=team,
        commissar=cls.known_commissar(state),
        alive=player.alive,
        clan=clan,
        cast=game_cast(state),
    )


def mafia_members(state: GameState) -> list[str]:
    """R14, R22: the living mafia, who share the mafia's private room (a converted Foundling
    included, an unconverted one not)."""
    return public_order(p.nick for p in state.living() if p.is_mafia)


def valid_targets(state: GameState, nick: str, verb: str) -> list[str]:
    """Living nicknames a player may name with a verb (for autocomplete and menus).

    Only a sender who may send the verb has his own team left out (R23: the mafia know
    their members); anyone else sees every living player, so the list tells him nothing (R55)."""
    me = state.players.get(nick)
    spec = verb_spec(verb)
    self_ok = spec is not None and spec.self_target
    spares = spec is not None and spec.spares_team and me is not None and verb in me.role_cls.verbs
    out = []
    for p in state.living():
        if p.nick == nick and not self_ok:
            continue
        if spares and me is not None and p.faction is me.faction:
            continue
        out.append(p.nick)
    return public_order(out)  # never the seats' order


@attrs.frozen
class PublicDeath:
    """A dead player as everyone knows him: the role revealed at his death (R35), how and
    on which turn he died (announced then, R35, R56)."""

    nick: str
    role: str
    cause: str
    turn: int | None


@attrs.frozen
class PublicRoster:
    """``/players``: the nicknames of the living and the dead, as the public knows them."""

    living: tuple[str, ...]  # nicknames only: a living player's role is nobody's business (R55)
    dead: tuple[PublicDeath, ...]  # the ghosts (R36), in the order they died


def public_roster(state: GameState) -> PublicRoster:
    """Who is alive and who died of what, from public facts only (R35, R55): never a living
    player's role, never a member (R6), never who killed."""
    living = tuple(public_order(p.nick for p in state.players.values() if p.alive))
    dead = sorted(  # by turn of death, within a turn by nickname: never the seats' order
        (p for p in state.players.values() if not p.alive),
        key=lambda p: (p.death_turn or 0, collation_key(p.nick)),
    )
    return PublicRoster(
        living=living,
        dead=tuple(
            PublicDeath(
                nick=p.nick,
                role=p.role_cls.reveals_as(),  # R35: as announced at his death
                cause=str(p.death_cause),
                turn=p.death_turn,
            )
            for p in dead
        ),
    )


def request_commands(state: GameState, nick: str) -> tuple[str, ...]:
    """The request commands a player may use now: a living player's verbs from his role card
    (``post`` is ``/say``), a dead commissar's pistol while its window is open (R18)."""
    if not state.alive(nick):
        return ("shoot",) if nick in state.pistols else ()
    return tuple(v for v in role_card(state, nick).verbs if v != "post")


#: Why a command of the player's role waits (``/help``): turn 1 has no lynch and no hunt
#: (R3), hunts open at 12:00 (R4).
NEXT_TURN = "next_turn"
HUNT_OPENS = "hunt_opens"


@attrs.frozen
class CommandsNow:
    """``/help``: the request commands a player may use now, and those of his role that wait
    (verb, why: `NEXT_TURN` or `HUNT_OPENS`)."""

    now: tuple[str, ...]
    later: tuple[tuple[str, str], ...]


def commands_now(state: GameState, nick: str, *, hunts_open: bool) -> CommandsNow:
    """What the player may send at this moment, from what he knows: his role card
    (`request_commands`), the turn (R3: no lynch and no hunt on turn 1), the hunt's opening
    (R4, ``hunts_open`` is the caller's clock), his vote taken away (he is told, R54), and
    between the deadline and the next turn nothing but a pistol's shot (R18)."""
    verbs = request_commands(state, nick)
    if not state.alive(nick):
        return CommandsNow(now=verbs, later=())
    if state.phase is not Phase.OPEN:
        return CommandsNow(now=(), later=())
    now: list[str] = []
    later: list[tuple[str, str]] = []
    for verb in verbs:
        if state.turn == 1 and verb in ("vote", "hunt"):
            later.append((verb, NEXT_TURN))
        elif verb == "hunt" and not hunts_open:
            later.append((verb, HUNT_OPENS))
        elif verb == "vote" and nick in state.deprived:
            continue
        else:
            now.append(verb)
    return CommandsNow(now=tuple(now), later=tuple(later))
