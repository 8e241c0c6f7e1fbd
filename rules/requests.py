"""The request format (docs/REPLAY.md request objects), as the role registry defines it.

The verbs, their shapes and their replacement slots come from the registry (`rules.roles`), so
a registered role's new verb is a request like any other. This module sits above both the data
types (`rules.model`) and the roles, which import the data types: the data types import no role.
"""

from __future__ import annotations

from typing import Any

from rules.model import Request, RequestFormatError
from rules.roles.base import Shape
from rules.roles.registry import verb_spec

#: The fields a request of each shape may have (parsing runs for every request replayed at a
#: restart: no set is built per request).
_FIELDS: dict[Shape, frozenset[str]] = {
    Shape.TARGET: frozenset({"by", "do", "target"}),
    Shape.TARGET_OR_PAIR: frozenset({"by", "do", "target", "targets"}),
    Shape.NOTE: frozenset({"by", "do", "to", "text"}),
    Shape.NOTHING: frozenset({"by", "do"}),
}


def verb_slot(verb: str) -> str:
    """Requests of one slot replace each other (docs/REPLAY.md 'kinds for replacement')."""
    spec = verb_spec(verb)
    return spec.slot_name if spec is not None else verb


def parse_request(data: Any) -> Request:
    """A docs/REPLAY.md request object; its verb must be one a registered role (or every
    player) sends, and its fields those of the verb's shape."""
    if not isinstance(data, dict):
        raise RequestFormatError("a request must be an object")
    by = data.get("by")
    verb = data.get("do")
    if not isinstance(by, str):
        raise RequestFormatError("'by' must be a nickname")
    spec = verb_spec(verb) if isinstance(verb, str) else None
    if not isinstance(verb, str) or spec is None:
        raise RequestFormatError(f"unknown verb {verb!r}")
    shape = spec.shape
    allowed = _FIELDS[shape]
    target: str | None = None
    targets: tuple[str, ...] | None = None
    to: str | None = None
    text: str | None = None
    if shape is Shape.TARGET:
        target = _nick_field(data, "target", verb)
    elif shape is Shape.TARGET_OR_PAIR:
        if ("target" in data) == ("targets" in data):
            raise RequestFormatError(f"'{verb}' takes 'target' or 'targets'")
        if "target" in data:
            target = _nick_field(data, "target", verb)
        else:
            raw = data["targets"]
            if (
                not isinstance(raw, list)
                or len(raw) != 2
                or not all(isinstance(x, str) for x in raw)
            ):
                raise RequestFormatError("'targets' must be a list of two nicknames")
            targets = (raw[0], raw[1])
    elif shape is Shape.NOTE:
        to = _nick_field(data, "to", verb)
        raw_text = data.get("text")
        if not isinstance(raw_text, str):
            raise RequestFormatError(f"'{verb}' needs 'text' (a string)")
        text = raw_text
    if not allowed.issuperset(data):
        extra = set(data) - allowed
        raise RequestFormatError(f"'{verb}' does not take {sorted(extra)}")
    return Request(by=by, do=verb, target=target, targets=targets, to=to, text=text)


def _nick_field(data: dict[str, Any], key: str, verb: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RequestFormatError(f"'{verb}' needs '{key}' (a nickname)")
    return value
