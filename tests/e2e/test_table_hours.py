"""R61, the table's hours, played through the real bot (SimCord): a host opens a game whose
deadline is 18:30 in Berlin, whose turns last two days and whose weekends have no deadline.
The sign-up post, the host's reply, the role cards and `/status` show those hours; the
deadlines, the reminders, the last hour's notice and the counting of inactivity (R52) and
missed votes (R53) follow them. Hours that make no sense are refused privately with the reason,
in the reader's language, and open nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from simcord import Env, MemberActor

from bot.render import render_role_card, schedule_hours, timestamp
from core.i18n import t
from rules.knowledge import role_card
from rules.schedule import forum_hours
from tests.e2e.helpers import (
    World,
    add_players,
    advance_to,
    channel_texts,
    client_locale,
    dm_texts,
    live_game,
    make_world,
    refusal,
    reply_text,
    results_of,
    slot,
)

BERLIN = ZoneInfo("Europe/Berlin")
ROLES = "mafioso=2 commissar=1 villager=5"
HOURS = {"deadline": "18:30", "turn_days": 2, "days_off": "sat sun"}


def berlin(month: int, day: int, hh: int, mm: int = 0) -> datetime:
    return datetime(2026, month, day, hh, mm, tzinfo=BERLIN).astimezone(UTC)


def deadline_of(world: World) -> datetime:
    deadline = live_game(world).record.deadline
    assert deadline is not None
    return deadline


def reminded(actor: MemberActor, key: str, **values: object) -> bool:
    line = t("en", key, **values)
    return any(line in text for text in dm_texts(actor))


async def test_R61_a_game_on_the_hosts_hours_from_sign_up_to_missed_votes(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    assert simcord_env.now() == datetime(2026, 1, 1, tzinfo=UTC)  # Thursday 01:00 in Berlin
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    opened = reply_text(
        await world.admin.slash(
            world.lobby, "mafia new", schedule="forum", timezone="Europe/Berlin", **HOURS
        )
    )
    game_ch = slot(world, "game")
    actors = add_players(world, [f"h{i}" for i in range(8)])
    for actor in actors:
        reply_text(await actor.slash(game_ch, "join"))
    # The host's reply and the sign-up post (its count refreshed at each join) show his hours.
    schedule = schedule_hours("en", forum_hours("forum", "Europe/Berlin", **HOURS))  # type: ignore[arg-type]
    assert schedule is not None
    assert "18:30" in schedule and "2 days" in schedule and "Sat, Sun" in schedule
    assert schedule in opened
    assert any(schedule in text and "8" in text for text in channel_texts(game_ch))
    reply_text(await world.admin.slash(world.lobby, "mafia roles", roles=ROLES))
    reply_text(await world.admin.slash(world.lobby, "mafia start"))

    # Turn 1 lasts as any turn: from Thursday, two days, to Friday 18:30.
    first = deadline_of(world)
    assert first == berlin(1, 2, 18, 30)
    game = live_game(world)
    by_user = {a.id: a for a in actors}
    seats = game.players
    state = game.engine.state
    # A mafioso posts nothing in turn 1 (R52; the game goes on without him), a town player
    # never votes (R53).
    silent = next(p for p in seats if state.players[p.nick].is_mafia)
    lazy = next(p for p in seats if not state.players[p.nick].is_mafia)
    # The role cards show the hours.
    card = render_role_card("en", role_card(state, lazy.nick), game.schedule, True)
    assert "18:30" in card and "Sat, Sun" in card
    assert any(card in text for text in dm_texts(by_user[lazy.user_id]))
    status = reply_text(await by_user[lazy.user_id].slash(game_ch, "status"))
    assert schedule in status
    assert timestamp(first, "f") in status

    for p in seats:
        if p == silent:
            continue
        reply_text(await by_user[p.user_id].slash(game_ch, "say", text="Present."))
    silent_actor = by_user[silent.user_id]
    # The reminders come three hours before the game's deadline (15:30), not the original's 18:00.
    await advance_to(world, berlin(1, 2, 15, 29))
    assert not reminded(silent_actor, "reminder.post", turn=1)
    await simcord_env.advance_time(120)
    assert reminded(silent_actor, "reminder.post", turn=1)
    last_hour = t(
        "en",
        "announce.last_hour",
        deadline=timestamp(first, "f"),
        relative=timestamp(first, "R"),
    )
    await advance_to(world, berlin(1, 2, 17, 29))
    assert last_hour not in channel_texts(game_ch)
    await simcord_env.advance_time(120)
    assert last_hour in channel_texts(game_ch)
    # The silent player is still in at 18:29 (the original's deadline, 21:00, is not his) and
    # leaves at 18:30 (R52).
    await advance_to(world, first - timedelta(seconds=30))
    assert live_game(world).engine.turn == 1
    await advance_to(world, first)
    assert live_game(world).engine.turn == 2
    role = t("en", f"role.{silent.role}")
    assert t("en", "death.inactive", nick=silent.nick, role=role) in results_of(world, 1)

    # Turn 2: two days from Friday is Sunday, a day off: Monday 18:30; hunts from 12:00.
    second = deadline_of(world)
    assert second == berlin(1, 5, 18, 30)
    # Villagers hanged (a commissar's would open a pistol window, R18).
    targets = [p for p in seats if p != lazy and p.role == "villager"]
    hunts = t(
        "en",
        "announce.hunts_open",
        deadline=timestamp(second, "f"),
        relative=timestamp(second, "R"),
    )
    await advance_to(world, berlin(1, 5, 11, 59))
    assert hunts not in channel_texts(game_ch)
    await simcord_env.advance_time(120)
    assert hunts in channel_texts(game_ch)

    for turn, deadline, target in ((2, second, targets[0]), (3, berlin(1, 7, 18, 30), targets[1])):
        assert deadline_of(world) == deadline
        state = live_game(world).engine.state
        for p in seats:
            if state.alive(p.nick):
                reply_text(await by_user[p.user_id].slash(game_ch, "say", text="Here."))
                if p != lazy:
                    vote = await by_user[p.user_id].slash(game_ch, "vote", target=target.nick)
                    reply_text(vote)
        lazy_actor = by_user[lazy.user_id]
        await advance_to(world, deadline - timedelta(hours=3, seconds=30))
        assert not reminded(lazy_actor, "reminder.vote", turn=turn)
        await simcord_env.advance_time(60)
        assert reminded(lazy_actor, "reminder.vote", turn=turn)
        if turn == 3:  # R53: the second missed vote would remove him
            assert reminded(lazy_actor, "reminder.last_chance")
        await advance_to(world, deadline - timedelta(seconds=30))
        assert live_game(world).engine.turn == turn
        await advance_to(world, deadline)
        state = live_game(world).engine.state
        assert state.alive(lazy.nick) is (turn == 2)
    role = t("en", f"role.{lazy.role}")
    assert t("en", "death.missed_votes", nick=lazy.nick, role=role) in results_of(world, 3)
    # Turn 4: from Wednesday, two days: Friday 18:30.
    assert deadline_of(world) == berlin(1, 9, 18, 30)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"schedule": "forum", "deadline": "11:00"}, "error.bad_hunt_time"),
        ({"schedule": "forum", "hunts_from": "noon"}, "error.bad_time"),
        ({"schedule": "forum", "days_off": "пн вт ср чт пт сб вс"}, "error.no_working_day"),
        ({"schedule": "forum", "days_off": "weekend"}, "error.bad_days_off"),
        ({"schedule": "fast", "turn_days": 2}, "error.fast_hours"),
    ],
)
async def test_R61_hours_that_make_no_sense_are_refused_privately_in_the_readers_language(
    simcord_env: Env, lang: str, options: dict[str, object], key: str
) -> None:
    world = make_world(simcord_env)
    reply_text(await world.admin.slash(world.lobby, "mafia setup", language="en"))
    with client_locale(world.admin, lang):
        text = await refusal(
            simcord_env, world.admin.slash(world.lobby, "mafia new", timezone="UTC", **options)
        )
    assert text == t(lang, key)
    assert channel_texts(slot(world, "game")) == []  # no sign-up was opened
