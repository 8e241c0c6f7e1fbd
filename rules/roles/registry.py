"""The explicit registry of roles (REFERENCE.md section 4, R43) and what is derived from it: the
request verbs (`verb_spec`), the town abilities a hunt excludes (R17), and the hooks of each
resolution step.

`BUILTIN_ROLES` lists the roles a setup may name; `BUILTIN_INTERNAL_ROLES` the states the rules
turn a role into (never named in a setup). A new role is one new class (its own module in this
package) added to `BUILTIN_ROLES`, or given to `register()` at run time (extensions, tests).
Nothing registers itself by being imported.
"""

from __future__ import annotations

from rules.model import NOTE_CAUSES, PISTOL_CAUSES, Cause, Causes, RefusalCode, Refusals
from rules.roles.base import BASE_VERBS, Faction, Hook, Role, Step, Verb
from rules.roles.commissar import Commissar
from rules.roles.crook import Crook
from rules.roles.doctor import Doctor
from rules.roles.foundling import ConvertedFoundling, Foundling
from rules.roles.mafia import Boss, Mafioso
from rules.roles.poisoner import Poisoner
from rules.roles.prostitute import Prostitute
from rules.roles.sergeant import PromotedSergeant, Sergeant
from rules.roles.troublemaker import Troublemaker
from rules.roles.villager import Villager

# The order is the order hooks run in within one step (the Commissar's check before the
# Sergeant's copy of it).
BUILTIN_ROLES: tuple[type[Role], ...] = (
    Villager,
    Mafioso,
    Boss,
    Troublemaker,
    Commissar,
    Sergeant,
    Doctor,
    Prostitute,
    Foundling,
    Poisoner,
    Crook,
)
BUILTIN_INTERNAL_ROLES: tuple[type[Role], ...] = (ConvertedFoundling, PromotedSergeant)

# The live registry, by code. Change it only through `register` / `unregister`.
ROLES: dict[str, type[Role]] = {cls.code: cls for cls in BUILTIN_ROLES}
INTERNAL_ROLES: dict[str, type[Role]] = {cls.code: cls for cls in BUILTIN_INTERNAL_ROLES}

_verbs: dict[str, Verb] | None = None  # derived from the registry, rebuilt after a change
# Likewise derived and forgotten after a change: asked for every request and every step.
_town_abilities: frozenset[str] | None = None
_hooks: dict[Step, tuple[Hook, ...]] = {}


def register(cls: type[Role], *, internal: bool = False) -> type[Role]:
    """Add a role class (usable as a decorator). Its code must be new, and a verb it shares
    with another role must have the same shape."""
    if cls.code in ROLES or cls.code in INTERNAL_ROLES:
        raise ValueError(f"role code {cls.code!r} is taken")
    known = _verb_table()
    for spec in _specs_of(cls):
        if spec.name in known and known[spec.name] != spec:
            raise ValueError(f"verb {spec.name!r} of {cls.__name__} clashes with a known verb")
    codes = {code.value: code for code in refusal_codes()}
    for code in cls.refusals or ():
        if codes.get(code.value, code) is not code:
            raise ValueError(f"refusal {code.value!r} of {cls.__name__} clashes with a known one")
    causes = {cause.value: cause for cause in cause_codes()}
    for cause in cls.causes or ():
        if causes.get(cause.value, cause) is not cause:
            raise ValueError(f"cause {cause.value!r} of {cls.__name__} clashes with a known one")
    for cause in cls.pistol_causes | cls.note_causes:
        if cause not in (cls.causes or ()):
            raise ValueError(f"cause {cause.value!r} of {cls.__name__} is not among its causes")
    (INTERNAL_ROLES if internal else ROLES)[cls.code] = cls
    _changed()
    return cls


def unregister(cls: type[Role]) -> None:
    """Remove a role class added by `register` (tests, extensions)."""
    for table in (ROLES, INTERNAL_ROLES):
        if table.get(cls.code) is cls:
            del table[cls.code]
    _changed()


def is_role(code: str) -> bool:
    """A role a setup may name (R43)."""
    return code in ROLES


def role_class(code: str) -> type[Role]:
    try:
        return ROLES[code]
    except KeyError:
        return INTERNAL_ROLES[code]


def role_classes() -> tuple[type[Role], ...]:
    """Every registered class, setup roles first, in registry order."""
    return (*ROLES.values(), *INTERNAL_ROLES.values())


def refusal_codes() -> tuple[Refusals, ...]:
    """Every code a request can be refused with: the shared ones (:class:`RefusalCode`), then
    each registered role's own (``Role.refusals``), once each, in registry order."""
    seen: dict[str, Refusals] = {code.value: code for code in RefusalCode}
    for cls in role_classes():
        for code in cls.refusals or ():
            seen.setdefault(code.value, code)
    return tuple(seen.values())


def cause_codes() -> tuple[Causes, ...]:
    """Every cause of death: the engine's (:class:`Cause`), then each registered role's own
    (``Role.causes``), once each, in registry order."""
    seen: dict[str, Causes] = {cause.value: cause for cause in Cause}
    for cls in role_classes():
        for cause in cls.causes or ():
            seen.setdefault(cause.value, cause)
    return tuple(seen.values())


def cause_of(code: str) -> Causes:
    """The cause of a stored code (ValueError for a cause no registered role brings)."""
    for cause in cause_codes():
        if cause.value == code:
            return cause
    raise ValueError(f"unknown cause of death {code!r}")


def pistol_causes() -> frozenset[Causes]:
    """R18: the deaths after which a killed commissar may draw his pistol."""
    return PISTOL_CAUSES.union(*(cls.pistol_causes for cls in role_classes()))


def note_causes() -> frozenset[Causes]:
    """R37: the deaths that deliver the victim's death note."""
    return NOTE_CAUSES.union(*(cls.note_causes for cls in role_classes()))


def verb_spec(verb: str) -> Verb | None:
    """The verb's description, None for a verb no registered role (nor everyone) sends."""
    return (_verbs if _verbs is not None else _verb_table()).get(verb)


def known_verbs() -> tuple[str, ...]:
    """Every verb a request may have: the common ones, then each role's, in registry order."""
    return tuple(_verbs if _verbs is not None else _verb_table())


def town_ability_verbs() -> frozenset[str]:
    """R17: the abilities of town roles, which exclude a hunt in the same turn (derived from
    the registry once per change of it: every request recorded asks, a restart thousands of
    times)."""
    global _town_abilities
    if _town_abilities is None:
        _town_abilities = frozenset(
            v for cls in role_classes() if cls.faction is Faction.TOWN for v in cls.verbs
        )
    return _town_abilities


def step_hooks(step: Step) -> tuple[Hook, ...]:
    """The hooks of one step: each distinct function once (subclasses share their parent's),
    in registry order."""
    found = _hooks.get(step)
    if found is None:
        out: list[Hook] = []
        for cls in role_classes():
            hook = cls.hooks.get(step)
            if hook is not None and hook not in out:
                out.append(hook)
        found = _hooks[step] = tuple(out)
    return found


def overriding(name: str) -> tuple[type[Role], ...]:
    """The registered classes that define the classmethod ``name`` themselves or inherit it
    from a role other than `Role`, each function once (subclasses share their parent's), in
    registry order."""
    base = getattr(Role, name).__func__
    out: list[type[Role]] = []
    seen: set[object] = {base}
    for cls in role_classes():
        func = getattr(cls, name).__func__
        if func not in seen:
            seen.add(func)
            out.append(cls)
    return tuple(out)


def _specs_of(cls: type[Role]) -> list[Verb]:
    described = {v.name: v for v in cls.verb_specs}
    return [described.get(name, Verb(name)) for name in sorted(cls.verbs)]


def _verb_table() -> dict[str, Verb]:
    global _verbs
    if _verbs is None:
        table = dict(BASE_VERBS)
        for cls in role_classes():
            for spec in _specs_of(cls):
                table.setdefault(spec.name, spec)
        _verbs = table
    return _verbs


def _changed() -> None:
    global _verbs, _town_abilities
    _verbs = None
    _town_abilities = None
    _hooks.clear()
