"""What each player legitimately knows (R14, R19, R22, R44, R55).

The bot renders role cards and private lists from these answers only, so that no reply can
tell a player more than the rules let him know.
"""

from __future__ import annotations

import attrs

from rules.model import GameState, Request
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


def role_card(state: GameState, nick: str) -> RoleCard:
    player = state.players[nick]
    cls = player.role_cls
    team: tuple[str, ...] = ()
    if cls.faction is Faction.MAFIA:
        team = tuple(p.nick for p in state.players.values() if p.is_mafia)
    verbs = sorted(COMMON_VERBS | cls.verbs | ({"hunt"} if cls.may_hunt() else set()))
    return RoleCard(
        nick=nick,
        role=cls.shown_as(),
        faction=str(cls.shown_faction()),
        verbs=tuple(verbs),
        team=team,
        commissar=cls.known_commissar(state),
        alive=player.alive,
    )


def mafia_members(state: GameState) -> list[str]:
    """R14, R22: the living mafia, who share the mafia's private room (a converted Foundling
    included, an unconverted one not)."""
    return [p.nick for p in state.living() if p.is_mafia]


def kill_agreement(state: GameState) -> dict[str, tuple[str, ...]]:
    """For the mafia channel: each member's standing kill request this turn (R23)."""
    out: dict[str, tuple[str, ...]] = {}
    for sub in state.submissions("kill"):
        req: Request = sub.request
        out[req.by] = req.named()
    return out


def valid_targets(state: GameState, nick: str, verb: str) -> list[str]:
    """Living nicknames a player may name with a verb (for autocomplete and menus).

    Only a sender who may send the verb has his own team left out (R23: the mafia know
    their members); anyone else sees every living player, so the list tells him nothing (R55)."""
    me = state.players.get(nick)
    spec = verb_spec(verb)
    self_ok = spec is not None and spec.self_target
    spares = (
        spec is not None
        and spec.spares_team
        and me is not None
        and verb in me.role_cls.verbs
    )
    out = []
    for p in state.living():
        if p.nick == nick and not self_ok:
            continue
        if spares and me is not None and p.faction is me.faction:
            continue
        out.append(p.nick)
    return out
