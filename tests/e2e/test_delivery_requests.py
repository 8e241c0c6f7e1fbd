"""Fewer requests per deadline, the real bot in SimCord: the turn's results and the next turn's
opening are one #game message (both rows marked sent with it, exactly once, also when the
deliverer dies between sending it and marking them), and a restarted bot writes to a player
without opening his DM channel again (its id is kept in the store)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from simcord import Env
from simcord.http import router

from bot.delivery import Delivery
from core.i18n import t
from tests.e2e.helpers import (
    Restart,
    World,
    add_players,
    announcement_texts,
    bot_of,
    dm_texts,
    live_game,
    make_world,
    opening_header,
    reply_text,
    results_header,
    seats_by_role,
    slot,
    start_game,
    until_deadline,
)

ROLES = "mafioso=1 commissar=1 doctor=1 villager=1"


class Requests:
    """Every REST request the bot makes, as (method, path)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made: list[tuple[str, str]] = []
        original = router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            self.made.append((method, path))
            return original(backend, method, path, **kwargs)

        monkeypatch.setattr(router, "dispatch", dispatch)

    def count(self, method: str, path: str, since: int = 0) -> int:
        return sum(1 for m, p in self.made[since:] if m == method and p == path)


@pytest.fixture
def requests(monkeypatch: pytest.MonkeyPatch) -> Requests:
    return Requests(monkeypatch)


async def a_played_turn(env: Env) -> tuple[World, str, Any, str]:
    world = make_world(env)
    players = add_players(world, ("ann", "ben", "cat", "dan"))
    await start_game(world, ROLES, players)
    game_ch = slot(world, "game")
    seats = seats_by_role(world, players)
    maf_nick, maf = seats["mafioso"]
    com_nick, com = seats["commissar"]
    for actor in players:
        reply_text(await actor.slash(game_ch, "say", text="Hello."))
    reply_text(await maf.slash(game_ch, "kill", target=seats["villager"][0]))
    reply_text(await com.slash(game_ch, "check", target=maf_nick))
    return world, com_nick, com, maf_nick


async def test_the_results_and_the_opening_are_one_message_marked_with_both_rows(
    simcord_env: Env,
) -> None:
    world, _, _, _ = await a_played_turn(simcord_env)
    game_id = live_game(world).id
    await until_deadline(world)
    [message] = [
        m
        for m in slot(world, "game").history()
        if any(text.startswith(results_header(1)) for text in announcement_texts(m))
    ]
    texts = announcement_texts(message)
    assert texts[0].startswith(results_header(1)) and texts[1].startswith(opening_header(2))
    assert len(message.embeds) <= 10 and sum(len(e) for e in message.embeds) <= 6000
    rows = {r.kind: r for r in await bot_of(simcord_env).store.outbox(game_id) if r.turn == 1}
    assert rows["results"].sent and rows["turn_open"].sent
    assert rows["results"].message_id == rows["turn_open"].message_id == message.id


async def test_a_deliverer_dead_between_the_shared_message_and_its_marks_sends_nothing_twice(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    world, _, _, _ = await a_played_turn(env)
    bot = bot_of(env)
    game_id = live_game(world).id
    live = bot.context.delivery

    async def crashed(game_id: int | None = None) -> int:
        return 0  # nothing is delivered by the bot itself meanwhile

    monkeypatch.setattr(live, "deliver", crashed)
    monkeypatch.setattr(live, "deliver_game", crashed)
    await until_deadline(world)
    monkeypatch.undo()
    dead = Delivery(bot, bot.store, bot.service, owner="dead", lease_seconds=0.3)
    claimed = [r for r in await dead._claim() if r.game_id == game_id]
    results = next(r for r in claimed if r.kind == "results")
    opening = next(r for r in claimed if r.kind == "turn_open")
    # Sent, both rows in its one message; the process dies before marking them.
    assert await dead._deliver_row(results, (opening,))
    await env.settle()
    time.sleep(0.4)  # wall time: the dead one's lease runs out
    await bot.context.delivery.deliver()
    await env.settle()
    assert not await bot.store.pending_outbox(game_id)
    shared = [
        m
        for m in slot(world, "game").history()
        if any(text.startswith(results_header(1)) for text in announcement_texts(m))
    ]
    assert len(shared) == 1  # found by the history check, not sent again
    openings = [
        text
        for m in slot(world, "game").history()
        for text in announcement_texts(m)
        if text.startswith(opening_header(2))
    ]
    assert len(openings) == 1


async def test_a_restart_does_not_open_a_known_dm_channel_again(
    simcord_env: Env, restart: Restart, requests: Requests
) -> None:
    env = simcord_env
    world, com_nick, com, maf_nick = await a_played_turn(env)
    assert dm_texts(com)  # his role card: his DM channel is open, its id kept
    await restart()
    since = len(requests.made)
    await until_deadline(world)
    checked = t("en", "check.mafia", target=maf_nick, commissar=com_nick)
    assert any(checked in x for x in dm_texts(com))  # it reached him after the restart
    assert requests.count("POST", "/users/@me/channels", since) == 0
