"""A server's own named setups (``/mafia preset save|list|delete``), offered wherever a preset
is (``/mafia new preset``, ``/mafia roles preset``) next to the built-in presets, which are
named by their number of players. Part of :class:`core.service.GameService`.

A preset is checked as any setup when it is saved (the role list's parser and the setup's
rules, ``LobbyService._parse_roles``) and again when it is used (the rules may have changed
since): refused with the reason either time. Bounded: :data:`MAX_PRESETS` per server, names of
at most :data:`MAX_PRESET_NAME` characters, compared as names are (R44), never all digits (a
number names a built-in preset).
"""

from __future__ import annotations

from typing import Final

from core.lobby_service import LobbyService
from core.service_base import ServiceError, setup_refusal
from db.errors import PresetsFull
from db.models import PresetRecord
from rules.names import name_key
from rules.setup import SetupError, preset
from rules.setup import validate_setup as validate_role_list
from rules.text import is_blank

#: The most presets a server keeps (an autocomplete shows 25 choices).
MAX_PRESETS: Final[int] = 25
#: The longest preset name.
MAX_PRESET_NAME: Final[int] = 40


def is_count(typed: str) -> bool:
    """A built-in preset's number of players (ASCII digits only)."""
    text = typed.strip()
    return text.isascii() and text.isdigit()


class PresetService(LobbyService):
    """The server's presets: save, list, delete, and a preset's role list by name or count."""

    async def save_preset(self, guild_id: int, name: str, roles: str) -> tuple[PresetRecord, bool]:
        """Save (or replace) a preset; True with it when it is new."""
        name = " ".join(name.split())
        if is_blank(name):
            raise ServiceError("error.preset_name_empty")
        if len(name) > MAX_PRESET_NAME:
            raise ServiceError("error.preset_name_too_long", maximum=MAX_PRESET_NAME)
        if is_count(name):
            raise ServiceError("error.preset_name_number")
        role_list = self._parse_roles(roles)  # checked as any setup
        try:
            new = await self.store.save_preset(
                guild_id, name_key(name), name, role_list, limit=MAX_PRESETS
            )
        except PresetsFull:
            raise ServiceError("error.presets_full", maximum=MAX_PRESETS) from None
        return PresetRecord(name, role_list), new

    async def presets(self, guild_id: int) -> list[PresetRecord]:
        return await self.store.presets(guild_id)

    async def delete_preset(self, guild_id: int, name: str) -> PresetRecord:
        """Delete the server's preset of that name; refused if there is none."""
        found = await self.store.preset_named(guild_id, name_key(name))
        if found is None or not await self.store.delete_preset(guild_id, name_key(name)):
            raise ServiceError("error.unknown_preset", name=name.strip()[:MAX_PRESET_NAME])
        return found

    async def preset_roles(self, guild_id: int, typed: str) -> list[str]:
        """The role list of a preset: a built-in one by its number of players, or one of the
        server's by its name; checked as any setup (refused with the reason)."""
        try:
            if is_count(typed):
                return preset(int(typed.strip()))
            found = await self.store.preset_named(guild_id, name_key(typed))
            if found is None:
                raise ServiceError("error.unknown_preset", name=typed.strip()[:MAX_PRESET_NAME])
            validate_role_list(found.roles)
            return list(found.roles)
        except SetupError as exc:
            raise setup_refusal(exc) from None
