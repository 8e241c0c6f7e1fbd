"""One request's check: the violations it collects, each naming the limit it breaks."""

from __future__ import annotations

import attrs

from sandbox.contract.limits import LIMITS, Limit


@attrs.frozen
class Violation:
    """A request that breaks a limit: which, where in the request, and how."""

    limit: Limit
    request: str
    where: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.request}: {self.where}: {self.detail}; Discord: {self.limit.rule} "
            f"[{self.limit.key}; {self.limit.source}]"
        )


class Check:
    """The violations of one request (``LIMITS`` is read at each check, so a test may
    narrow a limit with ``monkeypatch.setitem``)."""

    def __init__(self, request: str) -> None:
        self.request = request
        self.found: list[Violation] = []

    def fail(self, key: str, where: str, detail: str) -> None:
        self.found.append(Violation(LIMITS[key], self.request, where, detail))

    def length(
        self,
        key: str,
        value: object,
        where: str,
        *,
        low: int | None = None,
        high: int | None = None,
    ) -> None:
        """``value`` (a string, a list) is within the limit's bounds (or the given ones)."""
        limit = LIMITS[key]
        low = limit.low if low is None else low
        high = limit.high if high is None else high
        if value is None:
            return
        if not isinstance(value, (str, list, tuple)):
            self.fail(key, where, f"not a string or list: {value!r}")
            return
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            self.fail(key, where, f"{size} (allowed {low}-{high})")

    def number(self, key: str, value: object, where: str, low: int, high: int) -> None:
        if value is None:
            return
        if not isinstance(value, int) or not low <= value <= high:
            self.fail(key, where, f"{value!r} (allowed {low}-{high})")
