"""``/mafia state`` in the reader's language: the phase and each standing request are named in
Russian for a Russian host (not ``фаза open``, ``заявки: check Лось``)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.render import render_state
from core.i18n import t
from core.service import GameService
from db.store import SQLiteStore

GUILD = 1
HOST = 999


class FixedClock:
    def __call__(self) -> datetime:
        return datetime(2026, 3, 10, 6, 0, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLiteStore]:
    s = await SQLiteStore.open(tmp_path / "game.db")
    yield s
    await s.close()


async def test_state_names_phase_and_requests_in_russian(store: SQLiteStore) -> None:
    service = GameService(store, FixedClock())
    await service.new_game(
        GUILD, HOST, "fast", "UTC", roles="mafioso=2 commissar=1 villager=3", seed=4
    )
    for uid in range(1, 7):
        await service.join(GUILD, uid)
    live = await service.start(GUILD, theme="ru")
    nicks = {p.role: p.nick for p in live.players}
    commissar = live.user_of(nicks["commissar"])
    assert commissar is not None
    await service.submit(GUILD, commissar, {"do": "check", "target": nicks["mafioso"]})
    live = service.game_in(GUILD)
    assert live is not None

    text = render_state("ru", live)
    assert t("ru", "phase.open") in text.splitlines()[0]
    assert t("ru", "status.request", verb="проверка", targets=nicks["mafioso"]) in text
    without_mentions = re.sub(r"<[@t][^>]*>", "", text)
    assert not re.findall(r"[A-Za-z]{3,}", without_mentions), text
