"""A request is judged once (``Game.validate``) and recorded as judged (``Game.apply``): the
service commits it between the two (``core/play_service.py``), so it is never judged twice on
its way to the commit. ``Game.submit`` (replays, the archive, benches) is the two in one."""

from __future__ import annotations

import pytest

from rules import engine as engine_module
from rules.engine import Game, StaleVerdict, UnknownPlayer, Valid
from rules.model import Refusal, RefusalCode, Request

PLAYERS = [("Maf", "mafioso"), ("Com", "commissar"), ("V1", "villager"), ("V2", "villager")]


def game() -> Game:
    return Game.new(PLAYERS, seed=1)


def test_a_verdict_is_recorded_as_judged() -> None:
    g = game()
    verdict = g.validate(Request(by="Maf", do="kill", target="Com"))
    assert isinstance(verdict, Valid)
    g.apply(verdict)
    assert g.standing_requests("Maf") == [verdict.request]


def test_R3_a_refusal_is_returned_and_nothing_recorded() -> None:
    g = game()
    verdict = g.validate(Request(by="V1", do="vote", target="Maf"))
    assert verdict == Refusal(RefusalCode.NO_LYNCH_ON_TURN_1)
    assert g.standing_requests("V1") == []


def test_an_unknown_name_is_a_callers_error_not_a_refusal() -> None:
    with pytest.raises(UnknownPlayer):
        game().validate(Request(by="Maf", do="kill", target="Nobody"))


def test_R37_a_verdict_applied_after_the_game_changed_is_refused() -> None:
    """Judged against one state, applied to another: the second note would pass unjudged."""
    g = game()
    first = g.validate(Request(by="V1", do="note", to="Com", text="one"))
    second = g.validate(Request(by="V1", do="note", to="Com", text="two"))
    assert isinstance(first, Valid) and isinstance(second, Valid)
    g.apply(first)
    with pytest.raises(StaleVerdict):
        g.apply(second)
    assert g.validate(Request(by="V1", do="note", to="Com", text="two")) == Refusal(
        RefusalCode.NOTE_ALREADY_SENT
    )


def test_submit_judges_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Request] = []
    judge = engine_module.validate_request

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(args[1])  # type: ignore[arg-type]
        return judge(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_module, "validate_request", counting)
    g = game()
    assert g.submit(Request(by="Maf", do="kill", target="Com")) is None
    assert len(calls) == 1
