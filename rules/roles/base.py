"""The base of every role: factions, the steps of a resolution, request verbs, and the hooks
a role class may implement (docs/REFERENCE.md sections 4 and 8).

A role owns its behaviour. The pipeline (`rules.pipeline`) walks `STEP_ORDER` and at each
step calls the hooks the registered role classes attach to it (`Role.hooks`); effects that
cross roles go through generic questions the resolution asks every role class:

- `Resolution.acts(req)`: a role request counts only if its sender is alive, holds a role that
  may send the verb, and is not blocked (the General rule of section 8; R21 blocks any ability);
- `Role.protections`: who a player's request protects this night, and against which causes
  (R20's heal); a kill or a poison asks them through `Resolution.hits`;
- `Role.immune_to`: a cause that fails on this role (R22: the mafia kill on the Foundling);
- `Night.appears_mafia`: players the commissar sees as mafia this night whatever their role
  (R25's slander); the check asks `Resolution.appears_mafia`;
- `Role.on_own_death` and `Role.on_other_death`: step 5's consequences, applied once every
  death of the step has happened (the "Deaths of one step" Decision);
- `Role.count_votes`: the lynch (step 3) lets every role class reshape the votes it counts
  (R57's theft);
- `Role.Memory`: what a role remembers from one turn to the next (R20's heal chain, R27's
  poison), an attrs value kept on the game by the role's `memory_key` (`Role.recall`,
  `Role.remember`) and snapshotted generically (`rules.snapshot`);
- `Role.request_fate` and `Role.host_facts`: what became of its requests, for the hosts'
  account in #host (`rules.announce.host_account`);
- `Role.name_key`, `Role.card_key`, `Verb.accepted_key` and friends: the catalogue keys of its
  texts (locales/*).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from rules.model import Causes, RefusalCode, Refusals
from rules.model import Faction as Faction  # re-exported: roles name their faction here

if TYPE_CHECKING:
    from rules.model import GameState, Player, Request, TurnResult
    from rules.pipeline import Resolution


class Step(StrEnum):
    """The steps of one resolution, docs/REFERENCE.md section 8 (the order is `STEP_ORDER`).

    A step is named by what happens at it, never by a role: a role plugs into the steps it
    takes part in (`Role.hooks`), so a new role never adds a name here."""

    DELAYED_DEATHS = "delayed_deaths"  # 0: deaths prepared in the previous turn (R27)
    HUNT = "hunt"  # 1 (R28-R30)
    BLOCKS = "blocks"  # 2a: abilities stopped for the night (R21)
    DECEPTIONS = "deceptions"  # 2b: what misleads the check or the lynch (R25, R57)
    NIGHT_KILL = "night_kill"  # 2c (R23)
    CHECKS = "checks"  # 2d (R18, R19)
    DELAYED_ATTACKS = "delayed_attacks"  # 2e: attacks whose victims die next turn (R27)
    LAST_NIGHT_ACTS = "last_night_acts"  # 2f: the last acts of the night (R20)
    LYNCH = "lynch"  # 3 (R31-R34)
    INACTIVITY = "inactivity"  # 4 (R52, R53)
    CONSEQUENCES = "consequences"  # 5 (applied when each step's deaths have happened)
    PISTOL = "pistol"  # 6 (R18)
    WIN = "win"  # 7 (R15)


# docs/REFERENCE.md section 8, in order. Every death carries the step that caused it, and the
# property tests check that deaths of one turn never go backwards in this order.
STEP_ORDER: tuple[Step, ...] = (
    Step.DELAYED_DEATHS,
    Step.HUNT,
    Step.BLOCKS,
    Step.DECEPTIONS,
    Step.NIGHT_KILL,
    Step.CHECKS,
    Step.DELAYED_ATTACKS,
    Step.LAST_NIGHT_ACTS,
    Step.LYNCH,
    Step.INACTIVITY,
    Step.CONSEQUENCES,
    Step.PISTOL,
    Step.WIN,
)

# Verbs every living player may send whatever his role.
COMMON_VERBS: frozenset[str] = frozenset({"vote", "note", "post"})


class Shape(StrEnum):
    """What a request of a verb names (docs/REPLAY.md request objects)."""

    TARGET = "target"  # one player: {"target": nick}
    TARGET_OR_PAIR = "target_or_pair"  # {"target": nick} or {"targets": [a, b]} (R36)
    NOTE = "note"  # {"to": nick, "text": ...} (R37)
    NOTHING = "nothing"  # a post


@attrs.frozen
class Verb:
    """One request verb: its shape and the rules every request of it follows."""

    name: str
    shape: Shape = Shape.TARGET
    slot: str | None = None  # requests of one slot replace each other; None: the verb itself
    self_target: bool = False  # section 9 Decision: nobody targets himself, except these
    spares_team: bool = False  # may not name a member of the sender's own faction (R23)
    # The first turn it may be sent, and the refusal before it (R57: no theft without a lynch).
    from_turn: int = 1
    too_early: Refusals = RefusalCode.REQUEST_CLOSED
    # R5: a later request of its slot replaces it until the deadline, unless it stands as sent
    # (the pistol's one shot, R18; the death note, R37).
    replaceable: bool = True
    # R18: sent in the window after a night (the turn's "after" section), even while that
    # night's results wait for the host; the last one closes the window.
    after_night: bool = False
    # R23: it changes the team's kill board, shown in their room.
    on_board: bool = False

    @property
    def slot_name(self) -> str:
        return self.slot if self.slot is not None else self.name

    # The catalogue keys of its texts (locales/*): the slash command (``cmd.<verb>.*``), its
    # name in lists, and the private answer when a request of it is accepted.
    @property
    def command_key(self) -> str:
        return f"cmd.{self.name}"

    @property
    def name_key(self) -> str:
        return f"verb.{self.name}"

    @property
    def accepted_key(self) -> str:
        return f"play.accepted.{self.name}"


# Verbs that belong to no role: the vote (R31), the hunt (R28), the pistol shot of a killed
# commissar (R18, sent by a ghost, so not a role verb), the death note (R37) and a post (R52).
BASE_VERBS: Mapping[str, Verb] = {
    v.name: v
    for v in (
        Verb("vote", self_target=True),
        Verb("hunt"),
        Verb("shoot", replaceable=False, after_night=True),
        Verb("note", shape=Shape.NOTE, replaceable=False),
        Verb("post", shape=Shape.NOTHING),
    )
}


@attrs.frozen
class Protection:
    """A player protected this night by another player's request (R20's heal).

    The kill or poison named in `against` misses `target`. A `stand_in` protector takes the
    attack in the target's place instead. A protection holds only while its protector lives,
    and is void against an attack that hits the protector himself (R40: a doctor killed
    before his move heals nobody, unless he healed himself)."""

    target: str
    by: str
    against: frozenset[Causes]
    stand_in: bool = False


Hook = Callable[["Resolution"], None]


def _json_data(value: Any) -> Any:
    """Tuples and sets as lists (sets sorted), recursively: plain, deterministic JSON data."""
    if isinstance(value, dict):
        return {k: _json_data(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(_json_data(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [_json_data(v) for v in value]
    return value


def attack_hits(
    result: TurnResult,
    req: Request,
    cause: Causes,
    otherwise: Callable[[str], str] = lambda target: "dead",
) -> list[dict[str, Any]]:
    """For the hosts: per player an attack of ``cause`` named, who died of it (``killed``),
    or why he did not (the miss the attack recorded: ``dead``, ``immune``, ``protected``,
    ``stand_in``), else ``otherwise(target)``."""
    out: list[dict[str, Any]] = []
    for target in req.named():
        # Of this very attack: a target the sender also voted to lynch died of the lynch,
        # not of the attack (the unconverted Foundling, R22, hanged by a mafia's votes).
        died = any(
            d.player == target and d.cause == cause and req.by in d.by and d.step
            for d in result.deaths
        )
        if died:
            out.append({"target": target, "fate": "killed"})
            continue
        miss = next((m for m in result.misses if m.target == target and m.cause == cause), None)
        if miss is not None:
            out.append({"target": target, "fate": miss.reason, "protector": miss.protector})
        else:
            out.append({"target": target, "fate": otherwise(target)})
    return out


def on_steps(table: Mapping[Step, Hook]) -> Mapping[Step, Hook]:
    """A role's hooks, read-only: `hooks = on_steps({Step.BLOCK: block})`."""
    return MappingProxyType(dict(table))


class Role:
    """Base class of every role. Subclasses override only what their role does."""

    code: ClassVar[str]
    faction: ClassVar[Faction]
    # What the role remembers between turns: an attrs class whose defaults are the value at
    # the start of a game (None: nothing). Kept by `memory_key` (subclasses share it).
    Memory: ClassVar[type[Any] | None] = None
    memory_key: ClassVar[str | None] = None
    # The refusals that are this role's own (an enum of :class:`rules.model.Refusals`), which
    # its ``refuse_request`` and ``refuse_target`` give; each has its text ``refusal.<code>``.
    refusals: ClassVar[type[Refusals] | None] = None
    # The causes of death this role brings (an enum of :class:`rules.model.Causes`: the
    # Poisoner's poison), besides the engine's own (:class:`rules.model.Cause`); each has its
    # texts ``cause.<code>`` and ``death.<code>``. Of them, those after which a killed
    # commissar may still shoot (R18; each with its card line ``card.pistol.<code>``) and
    # those that deliver the victim's death note (R37).
    causes: ClassVar[type[Causes] | None] = None
    pistol_causes: ClassVar[frozenset[Causes]] = frozenset()
    note_causes: ClassVar[frozenset[Causes]] = frozenset()
    # R15: among loners left alive together the lowest rank wins.
    loner_rank: ClassVar[int] = 100
    # The verbs of this role that attack, and the cause of death they aim at (the hosts'
    # account tells what became of each player they named).
    attacks: ClassVar[Mapping[str, Causes]] = MappingProxyType({})
    # Verbs of role requests this role may send (besides COMMON_VERBS and the hunt).
    verbs: ClassVar[frozenset[str]] = frozenset()
    # The shapes of verbs this role introduces; a verb not described names one target.
    verb_specs: ClassVar[tuple[Verb, ...]] = ()
    # The steps this role takes part in, and what it does there (called once per
    # resolution per distinct function, in registry order, see `rules.pipeline`).
    hooks: ClassVar[Mapping[Step, Hook]] = MappingProxyType({})
    unique: ClassVar[bool] = True  # R43: at most one per game
    # How hosts name the role in a role list, in every language the tables speak, lower case
    # ("мж", "мирные", "cop"): `rules.setup.parse_role_list` reads them besides the code.
    # The catalogues' own name of the role (``role-<code>``) must be among them (tested).
    spoken: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def checked_as_mafia(cls) -> bool:
        """What the commissar sees (R18); slander (R25) is `Night.appears_mafia`."""
        return cls.faction is Faction.MAFIA

    @classmethod
    def may_hunt(cls) -> bool:
        """R28, R26: only the town hunts."""
        return cls.faction is Faction.TOWN

    @classmethod
    def shown_as(cls) -> str:
        """The role the player is told he has (R22: the Foundling is told Villager)."""
        return cls.code

    @classmethod
    def shown_faction(cls) -> Faction:
        """The faction the player is told he belongs to."""
        return cls.faction

    @classmethod
    def reveals_as(cls) -> str:
        """The role revealed at death (R35)."""
        return cls.code

    @classmethod
    def immune_to(cls, cause: Causes) -> bool:
        """An attack of this cause on this role fails silently (R22)."""
        return False

    @classmethod
    def protections(cls, res: Resolution) -> Sequence[Protection]:
        """The protections this role's requests give this night (asked by kill and poison)."""
        return ()

    @classmethod
    def on_own_death(cls, res: Resolution, player: Player, cause: Causes) -> None:
        """Step 5 for the player's own death (R18's pistol)."""

    @classmethod
    def on_other_death(cls, res: Resolution, me: Player, dead: Player, cause: Causes) -> None:
        """Step 5 for the death of another player, called for every player still alive when
        the step's deaths have all happened (R19, R22)."""

    @classmethod
    def refuse_request(cls, state: GameState, req: Request) -> Refusals | None:
        """Role rules of a request by this role, before its targets are looked at."""
        return None

    @classmethod
    def refuse_target(cls, state: GameState, req: Request, name: str) -> Refusals | None:
        """Role rules for one player named by a request of this role (after the common ones:
        not himself, not a dead player)."""
        return None

    @classmethod
    def known_commissar(cls, state: GameState) -> str | None:
        """The commissar's nickname if this role knows it (R19), for the role card."""
        return None

    @classmethod
    def wins_as(cls) -> str:
        """The winner's name when this role wins alone (R15: a loner); its code."""
        return cls.code

    # --- memory (between turns) -----------------------------------------------------------
    @classmethod
    def recall(cls, state: GameState) -> Any:
        """This role's memory in the game, or a fresh one (nothing is stored by reading)."""
        assert cls.Memory is not None and cls.memory_key is not None, cls
        found = state.role_memory.get(cls.memory_key)
        return found if found is not None else cls.Memory()

    @classmethod
    def remember(cls, state: GameState, memory: Any) -> None:
        assert cls.Memory is not None and cls.memory_key is not None, cls
        state.role_memory[cls.memory_key] = memory

    @classmethod
    def memory_to_data(cls, memory: Any) -> Any:
        """The memory as JSON data (`rules.snapshot`): its attrs fields by name."""
        return _json_data(attrs.asdict(memory))

    @classmethod
    def memory_from_data(cls, data: Any) -> Any:
        """The memory `memory_to_data` gave (its fields' converters restore their types)."""
        assert cls.Memory is not None
        return cls.Memory(**data)

    @classmethod
    def legacy_memory(cls, snapshot: Mapping[str, Any]) -> Any:
        """The memory read from a snapshot of format 1, which kept it as named fields of the
        game (None: nothing of this role's there)."""
        return None

    # --- the hosts' account (#host) -----------------------------------------------------
    @classmethod
    def request_fate(
        cls, state: GameState, result: TurnResult, req: Request
    ) -> dict[str, Any] | None:
        """What became of one of this role's requests, for the hosts: ``{"fate": code, ...}``
        (rendered with the catalogue key ``console.fate.<code>`` and the other fields as
        its values); None: the generic account (an attack's targets, else "done")."""
        return None

    @classmethod
    def host_facts(cls, state: GameState, result: TurnResult) -> Mapping[str, Any]:
        """Facts of the night this role adds to the hosts' account (by key)."""
        return {}

    # --- the lynch (step 3) -----------------------------------------------------------------
    @classmethod
    def count_votes(cls, res: Resolution, votes: list[Request]) -> list[Request]:
        """The votes the lynch counts, in arrival order, as this role changes them (R57)."""
        return votes

    # --- texts ----------------------------------------------------------------------------
    @classmethod
    def name_key(cls) -> str:
        """The catalogue key of the role's name."""
        return f"role.{cls.code}"

    @classmethod
    def card_key(cls) -> str:
        """The catalogue key of the role card's text (what the role does, R44)."""
        return f"card.about.{cls.code}"

    @classmethod
    def text_keys(cls) -> tuple[str, ...]:
        """Every catalogue key this role needs, in every language (each role's own file,
        ``locales/<lang>/roles/<code>.ftl``; docs/ADDING_A_ROLE.md; tested for every
        registered role): its name and card; a loner's win (R15) in the card, the game's end,
        the history and the statistics; each of its refusals; each cause it brings, and the
        card line of those that arm the pistol (R18); each verb's slash command (its options
        by the verb's shape), its name in lists, and its accepted answer."""
        keys = [cls.name_key(), cls.card_key()]
        if cls.faction is Faction.LONER:
            side = cls.wins_as()
            keys += [f"card.win.{side}", f"winner.{side}", f"gameover.reason.{side}_last"]
            keys += [f"history.winner.{side}", f"stats.side.{side}", f"stats.winners.{side}"]
        keys += [f"refusal.{code}" for code in cls.refusals or ()]
        for cause in cls.causes or ():
            keys += [f"cause.{cause}", f"death.{cause}"]
        keys += [f"card.pistol.{cause}" for cause in sorted(cls.pistol_causes)]
        described = {v.name: v for v in cls.verb_specs}
        for name in sorted(cls.verbs):
            verb = described.get(name, Verb(name))
            options = {Shape.TARGET: ("target",), Shape.TARGET_OR_PAIR: ("target", "second")}
            keys += [f"{verb.command_key}.name", f"{verb.command_key}.description"]
            for option in options.get(verb.shape, ()):
                keys += [
                    f"{verb.command_key}.opt.{option}.{part}" for part in ("name", "description")
                ]
            keys += [verb.name_key, verb.accepted_key]
        return tuple(dict.fromkeys(keys))
