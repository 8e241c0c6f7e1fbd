"""Every refusal the game service can raise has its sentence in both catalogues."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.i18n import catalogue
from rules.roles import refusal_codes

ROOT = Path(__file__).resolve().parents[2]
SCHEDULE_CODES = re.findall(
    r'ScheduleError\("(\w+)"', (ROOT / "rules" / "schedule.py").read_text(encoding="utf-8")
)


#: The game service's modules: ``core/service.py`` composes one module per use case.
SERVICE_MODULES = sorted((ROOT / "core").glob("*service*.py"))


def service_keys() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in SERVICE_MODULES)
    keys = set(re.findall(r'ServiceError\(\s*"([\w.]+\w)"', text))
    keys |= {f"refusal.{code}" for code in refusal_codes()}
    keys |= {f"error.{code}" for code in SCHEDULE_CODES}
    return keys


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_service_refusal_is_in_the_catalogue(lang: str) -> None:
    assert SCHEDULE_CODES  # the scan found the schedule's codes
    # ... and the refusals of every use case's module (the lobby's, play's, the host's...)
    assert {"error.signup_full", "error.empty_note", "error.bad_extend"} <= service_keys()
    assert {"error.game_changed", "error.review_published"} <= service_keys()
    missing = sorted(k for k in service_keys() if k not in catalogue(lang))  # type: ignore[arg-type]
    assert not missing
