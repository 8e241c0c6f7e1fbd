"""The roles (docs/REFERENCE.md section 4): one module per role, each class owning its behaviour.

- `base`: factions, the steps of a resolution (`STEP_ORDER`), verbs, protections, and the
  `Role` base class with every hook a role may implement;
- one module per role: `villager`, `mafia` (the kill, Mafioso, Boss), `troublemaker`,
  `commissar`, `sergeant`, `doctor`, `prostitute`, `foundling`, `poisoner` (the class
  `Poisoner`, the role coded `maniac`), `crook` (R57, not re-exported here: nothing outside
  its module needs its name);
- `registry`: the explicit list of roles and `register()` for more.

A new role is one new module here with its class (its verbs, refusals, causes of death,
hooks on the steps, protections, death consequences, memory, request fates, lynch votes,
texts' keys), its texts in `locales/<lang>/roles/<code>.ftl`, and one entry in
`registry.BUILTIN_ROLES` (docs/ADDING_A_ROLE.md); the pipeline, the request format, the
validation, the snapshot, the hosts' account, the win check and the night commands pick it
up from the registry.
"""

from rules.roles.base import (
    BASE_VERBS,
    COMMON_VERBS,
    STEP_ORDER,
    Faction,
    Hook,
    Protection,
    Role,
    Shape,
    Step,
    Verb,
    on_steps,
)
from rules.roles.commissar import Commissar
from rules.roles.doctor import Doctor
from rules.roles.foundling import ConvertedFoundling, Foundling
from rules.roles.mafia import Boss, MafiaMember, Mafioso
from rules.roles.poisoner import Poisoner
from rules.roles.prostitute import Prostitute
from rules.roles.registry import (
    BUILTIN_INTERNAL_ROLES,
    BUILTIN_ROLES,
    INTERNAL_ROLES,
    ROLES,
    cause_codes,
    cause_of,
    is_role,
    known_verbs,
    note_causes,
    pistol_causes,
    refusal_codes,
    register,
    role_class,
    role_classes,
    step_hooks,
    town_ability_verbs,
    unregister,
    verb_spec,
)
from rules.roles.sergeant import PromotedSergeant, Sergeant
from rules.roles.troublemaker import Troublemaker
from rules.roles.villager import Villager

__all__ = [
    "BASE_VERBS",
    "BUILTIN_INTERNAL_ROLES",
    "BUILTIN_ROLES",
    "COMMON_VERBS",
    "INTERNAL_ROLES",
    "ROLES",
    "STEP_ORDER",
    "Boss",
    "Commissar",
    "ConvertedFoundling",
    "Doctor",
    "Faction",
    "Foundling",
    "Hook",
    "MafiaMember",
    "Mafioso",
    "Poisoner",
    "PromotedSergeant",
    "Prostitute",
    "Protection",
    "Role",
    "Sergeant",
    "Shape",
    "Step",
    "Troublemaker",
    "Verb",
    "Villager",
    "cause_codes",
    "cause_of",
    "is_role",
    "known_verbs",
    "note_causes",
    "on_steps",
    "pistol_causes",
    "refusal_codes",
    "register",
    "role_class",
    "role_classes",
    "step_hooks",
    "town_ability_verbs",
    "unregister",
    "verb_spec",
]
