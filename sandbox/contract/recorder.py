"""The contract in front of SimCord: every request checked, a refused one recorded and
answered as Discord would."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sandbox.contract.check import Violation
from sandbox.contract.routes import validate


class ContractBroken(AssertionError):
    """The bot sent requests real Discord refuses."""


class DiscordContract:
    """Checks every request through SimCord's router; keeps what broke a limit."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.checked = 0

    def guard(self, dispatch: Callable[..., Any]) -> Callable[..., Any]:
        """``dispatch`` (SimCord's router) behind the contract: a request breaking a limit is
        recorded and answered as Discord would (400, 50035 Invalid Form Body)."""
        from simcord.backend.errors import BackendError

        def guarded(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            found = validate(
                method,
                path,
                kwargs.get("json"),
                files=kwargs.get("files") or (),
                reason=kwargs.get("reason"),
                application_id=getattr(backend, "application_id", None),
            )
            self.checked += 1
            if found:
                self.violations += found
                raise BackendError(400, 50035, "Invalid Form Body: " + "; ".join(map(str, found)))
            return dispatch(backend, method, path, **kwargs)

        guarded.__wrapped__ = dispatch  # type: ignore[attr-defined]
        return guarded

    @contextmanager
    def installed(self) -> Iterator[DiscordContract]:
        """Within the block, every request of every bot in SimCord goes through the contract
        (for the demo; the tests install it with pytest's monkeypatch instead)."""
        from simcord.http import router

        original = router.dispatch
        router.dispatch = self.guard(original)
        try:
            yield self
        finally:
            router.dispatch = original

    def report(self) -> str:
        return "\n".join(f"- {v}" for v in self.violations)

    def assert_clean(self) -> None:
        if self.violations:
            raise ContractBroken(
                f"the bot sent {len(self.violations)} request(s) Discord refuses:\n" + self.report()
            )

    def take(self) -> list[Violation]:
        """The violations so far, forgotten (a test that provoked them on purpose)."""
        found, self.violations = self.violations, []
        return found
