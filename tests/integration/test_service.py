"""The game service on a real store, SQLite and PostgreSQL (pytest ids ``sqlite``,
``postgres``): lobby to winner, restarts, pistol window, outbox."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.service import GameService, ServiceError
from db.store import SQLiteStore, open_store
from rules.model import HostAction

GUILD = 1
HOST = 999
START = datetime(2026, 3, 10, 6, 0, tzinfo=UTC)  # 09:00 in Moscow


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


async def started(service: GameService, roles: str, n: int) -> dict[str, int]:
    """A fast game with `roles`, users 1..n; returns role -> user id of its first holder."""
    await service.new_game(GUILD, HOST, "fast", "UTC", roles=roles, seed=11, activity_rules=False)
    for uid in range(1, n + 1):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    by_role: dict[str, int] = {}
    for p in live.players:
        by_role.setdefault(p.role, p.user_id)
    return by_role


def nick(service: GameService, uid: int) -> str:
    live = service.game_in(GUILD)
    assert live is not None
    found = live.nick_of(uid)
    assert found is not None
    return found


async def test_lobby_refusals_change_nothing(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    with pytest.raises(ServiceError) as err:
        await service.join(GUILD, 1)
    assert err.value.key == "error.no_signup"
    await service.new_game(GUILD, HOST, "fast", "UTC")
    await service.join(GUILD, 1)
    with pytest.raises(ServiceError) as err:
        await service.join(GUILD, 1)
    assert err.value.key == "error.already_joined"
    with pytest.raises(ServiceError) as err:
        await service.set_roles(GUILD, "boss=1 villager=1", None)
    assert err.value.key.startswith("error.setup.")
    with pytest.raises(ServiceError) as err:
        await service.new_game(GUILD, HOST, "fast", "UTC")
    assert err.value.key == "error.game_exists"


async def test_R3_refusal_is_logged_and_changes_nothing(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    with pytest.raises(ServiceError) as err:
        await service.submit(GUILD, roles["villager"], {"do": "vote", "target": "x"})
    assert err.value.key == "error.unknown_nick"
    target = nick(service, roles["commissar"])
    with pytest.raises(ServiceError) as err:
        await service.submit(GUILD, roles["villager"], {"do": "vote", "target": target})
    assert err.value.key == "refusal.no_lynch_on_turn_1"
    live = service.game_in(GUILD)
    assert live is not None
    entries = await store.log_entries(live.id)
    assert [e.outcome for e in entries] == ["refused:no_lynch_on_turn_1"]
    assert live.engine.standing_requests(nick(service, roles["villager"])) == []


async def test_whole_game_with_restart_and_pistol(
    store: SQLiteStore, clock: FakeClock, target: str
) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    maf, com = roles["mafioso"], roles["commissar"]
    com_nick, maf_nick = nick(service, com), nick(service, maf)
    accepted = await service.submit(GUILD, maf, {"do": "kill", "target": com_nick})
    board = accepted.mafia_update
    assert board is not None and board.requests == ((maf_nick, (com_nick,)),)
    await service.submit(GUILD, com, {"do": "check", "target": maf_nick})

    # The bot restarts mid-turn: a new service on the same file keeps the requests.
    await store.close()
    store2 = await open_store(target)
    service = GameService(store2, clock)
    [live] = await service.load()
    assert [r.do for r in live.engine.standing_requests(maf_nick)] == ["kill"]

    clock.advance(minutes=10)
    await service.deadline_reached(live.id)
    rec = await store2.require_game(live.id)
    assert rec.phase == "pistol"  # R18: the dead commissar may shoot
    pending = await store2.pending_outbox()
    kinds = [(o.kind, o.payload["audience"]) for o in pending]
    assert ("check", com_nick) in kinds and ("pistol", com_nick) in kinds
    results = next(o for o in pending if o.kind == "results")
    # R55: the public results name the victim and his role, never the killer.
    assert results.payload["payload"]["deaths"] == [
        {"nick": com_nick, "role": "commissar", "cause": "mafia"}
    ]

    # Restart again inside the pistol window: the window is rebuilt, the shot still works.
    service = GameService(store2, clock)
    [live] = await service.load()
    await service.submit(GUILD, com, {"do": "shoot", "target": maf_nick})
    rec = await store2.require_game(live.id)
    assert rec.status == "finished" and rec.winner == "town"
    kinds = [o.kind for o in await store2.pending_outbox()]
    assert "shot" in kinds and "game_over" in kinds
    # Resolving again is a no-op: the game is over and not loaded.
    await service.deadline_reached(live.id)
    assert len(await store2.resolutions(live.id)) == 1
    await store2.close()


async def test_R56_host_exclusion_can_end_the_game(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    maf = nick(service, roles["mafioso"])
    await service.host_action(GUILD, HOST, HostAction("exclude", maf))
    assert service.game_in(GUILD) is None
    rec = await store.latest_game(GUILD)
    assert rec is not None and rec.winner == "town"
    with pytest.raises(ServiceError):
        await service.submit(GUILD, roles["villager"], {"do": "post"})


async def test_turns_advance_and_deadline_moves(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    await started(service, "mafioso=1 doctor=1 villager=2", 4)
    live = service.game_in(GUILD)
    assert live is not None
    first = live.record.deadline
    assert first == START + timedelta(minutes=10)
    clock.now = first
    await service.deadline_reached(live.id)
    assert live.engine.turn == 2
    assert live.record.deadline == first + timedelta(minutes=10)
    extended = await service.extend(GUILD, HOST, 5)
    assert extended == first + timedelta(minutes=15)
    await service.pause(GUILD, HOST)
    clock.advance(hours=3)
    resumed = await service.resume(GUILD, HOST)
    assert resumed == clock.now + timedelta(minutes=15)


async def test_R17_player_is_told_that_a_hunt_withdrew_his_ability(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 doctor=1 villager=2", 4)
    live = service.game_in(GUILD)
    assert live is not None
    clock.now = live.record.deadline or clock.now
    await service.deadline_reached(live.id)
    doc, maf = roles["doctor"], nick(service, roles["mafioso"])
    await service.submit(GUILD, doc, {"do": "heal", "target": nick(service, doc)})
    with pytest.raises(ServiceError) as err:  # R4: hunts open after half a fast turn
        await service.submit(GUILD, doc, {"do": "hunt", "target": maf})
    assert err.value.key == "refusal.hunt_opens_at"  # R4: and when (half the turn)
    deadline = live.record.deadline
    assert deadline is not None
    opens = deadline - timedelta(minutes=5)
    assert err.value.values == {"opens": int(opens.timestamp())}
    clock.advance(minutes=6)
    accepted = await service.submit(GUILD, doc, {"do": "hunt", "target": maf})
    assert accepted.withdrawn == ("heal",)
    assert [r.do for r in live.engine.standing_requests(nick(service, doc))] == ["hunt"]


async def test_the_clock_resolves_only_a_deadline_still_due(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """The clock woke for turn 1 while the host resolved it: turn 2 is not resolved early."""
    service = GameService(store, clock)
    await started(service, "mafioso=1 doctor=1 villager=2", 4)
    live = service.game_in(GUILD)
    assert live is not None
    clock.now = live.record.deadline or clock.now
    await service.deadline_reached(live.id)  # the host's /mafia resolve
    await service.deadline_reached(live.id, if_due=True)  # the clock, a moment late
    assert live.engine.turn == 2
    assert [r.turn for r in await store.resolutions(live.id)] == [1]
    await service.pause(GUILD, HOST)
    clock.advance(hours=1)
    await service.deadline_reached(live.id, if_due=True)
    assert live.engine.turn == 2  # a stopped clock resolves nothing


async def test_replace_and_profile(store: SQLiteStore, clock: FakeClock) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 doctor=1 villager=2", 4)
    maf = roles["mafioso"]
    maf_nick = nick(service, maf)
    await service.set_profile(GUILD, maf, avatar_url="https://example.com/a.png")
    seat = await service.set_profile(GUILD, maf, signature="-- me")
    assert (seat.avatar_url, seat.signature) == ("https://example.com/a.png", "-- me")
    with pytest.raises(ServiceError) as err:
        await service.replace(GUILD, HOST, maf_nick, roles["doctor"])
    assert err.value.key == "error.already_playing"
    previous, seat = await service.replace(GUILD, HOST, maf_nick, 77)
    assert previous == maf and seat.user_id == 77
    assert nick(service, 77) == maf_nick
    with pytest.raises(ServiceError) as err:
        service.card(GUILD, maf)
    assert err.value.key == "error.not_a_player"
    cards = [o for o in await store.pending_outbox() if o.kind == "role_card"]
    assert cards[-1].payload["audience"] == maf_nick


async def test_R56_exclusion_is_announced_at_once_with_its_consequences(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    roles = await started(
        service, "boss=1 mafioso=1 foundling=1 commissar=1 sergeant=1 villager=3", 8
    )
    live = service.game_in(GUILD)
    assert live is not None
    for row in await store.pending_outbox():
        await store.mark_sent(row.id)
    boss, kid = nick(service, roles["boss"]), nick(service, roles["foundling"])
    await service.host_action(GUILD, HOST, HostAction("exclude", boss), reason="rude")
    rows = [(o.kind, o.payload["audience"]) for o in await store.pending_outbox()]
    assert rows == [
        ("audit", "host"),  # the command's line in #host (R56)
        ("excluded", "public"),
        ("converted", kid),
        ("mafia_joined", "mafia"),
        ("mafia_left", "mafia"),  # R36: the excluded boss only reads #mafia from now on
    ]
    excluded = (await store.pending_outbox())[1].payload["payload"]
    assert excluded == {"nick": boss, "role": "boss", "cause": "excluded"}  # R35
    audit = await store.audit_log(game_id=live.id)
    assert audit[-1].args == {"do": "exclude", "player": boss, "reason": "rude"}
    for row in await store.pending_outbox():
        await store.mark_sent(row.id)
    # At the deadline the results do not announce the exclusion a second time.
    clock.now = live.record.deadline or clock.now
    await service.deadline_reached(live.id)
    results = next(o for o in await store.pending_outbox() if o.kind == "results")
    assert boss not in [d["nick"] for d in results.payload["payload"]["deaths"]]


async def test_R15_deciding_exclusion_committed_before_a_crash_finishes_the_game_on_start(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    live = service.game_in(GUILD)
    assert live is not None
    maf = nick(service, roles["mafioso"])
    # The crash came right after the exclusion's commit, before the game was finished.
    await store.add_host_action(
        live.id, 1, {"do": "exclude", "player": maf}, actor_id=HOST, command="exclude"
    )
    restarted = GameService(store, clock)
    assert await restarted.load() == []
    rec = await store.require_game(live.id)
    assert rec.status == "finished" and rec.winner == "town"
    assert "game_over" in [o.kind for o in await store.pending_outbox()]


async def test_R31_R52_R53_reminders_name_what_is_missing_once_a_turn(
    store: SQLiteStore, clock: FakeClock
) -> None:
    service = GameService(store, clock)
    await service.new_game(GUILD, HOST, "fast", "UTC", roles="mafioso=1 doctor=1 villager=2")
    for uid in range(1, 5):
        await service.join(GUILD, uid)
    live = await service.start(GUILD)
    for row in await store.pending_outbox():
        await store.mark_sent(row.id)
    assert live.record.deadline is not None
    # Fast turn of 10 minutes: reminders two minutes before the deadline.
    assert live.reminder_due_at() == live.record.deadline - timedelta(minutes=2)
    await service.submit(GUILD, 1, {"do": "post"})
    assert await service.send_reminders(live.id) == 3  # turn 1: only the posts (R52)
    rows = await store.pending_outbox()
    assert {r.payload["payload"]["missing"][0] for r in rows} == {"post"}
    assert nick(service, 1) not in {r.payload["audience"] for r in rows}
    assert live.reminder_due_at() is None
    assert await service.send_reminders(live.id) == 0  # once a turn
    # After a restart, the reminders already queued are known (read with the game: the clock
    # does not even wake for them) and not queued again.
    restarted = GameService(store, clock)
    [again] = await restarted.load()
    assert again.reminder_due_at() is None
    assert await restarted.send_reminders(again.id) == 0
    again.reminded_turn = 0  # forgotten (as before the batch read): the store still tells
    assert again.reminder_due_at() is not None
    assert await restarted.send_reminders(again.id) == 0
    # Turn 2: the vote is missing too (R31).
    clock.now = live.record.deadline
    for uid in range(1, 5):
        await restarted.submit(GUILD, uid, {"do": "post"})
    await restarted.deadline_reached(again.id)
    for row in await store.pending_outbox():
        await store.mark_sent(row.id)
    assert await restarted.send_reminders(again.id) == len(again.engine.state.living())
    missing = {tuple(r.payload["payload"]["missing"]) for r in await store.pending_outbox()}
    assert missing == {("vote", "post")}


async def test_R8_the_report_that_ends_the_game_asks_nobody_to_explain_his_vote(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """Issue 31: the results of the turn that ends the game say so (``final``), and their
    post has no "Explain your vote" under it (no next day to explain it); a turn's opening
    after turn 1 does not print the role list again."""
    from bot.render import results_posts, turn_open_posts
    from core.i18n import t

    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 villager=3", 4)
    maf = roles["mafioso"]
    clock.advance(minutes=10)
    live = service.game_in(GUILD)
    assert live is not None
    await service.deadline_reached(live.id)  # turn 1: nobody died
    for uid in range(1, 5):
        if uid != maf:
            await service.submit(GUILD, uid, {"do": "vote", "target": nick(service, maf)})
    clock.advance(minutes=10)
    await service.deadline_reached(live.id)
    assert (await store.require_game(live.id)).winner == "town"
    rows = [o.payload for o in await store.pending_outbox() if o.kind in ("results", "turn_open")]
    by_turn = {(p["kind"], p["payload"]["turn"]): p["payload"] for p in rows}
    first, last = by_turn[("results", 1)], by_turn[("results", 2)]
    assert "final" not in first and last["final"] is True
    for lang in ("en", "ru"):
        explain = t(lang, "announce.explain_votes")
        [report] = results_posts(lang, last)
        assert all(e.footer.text != explain for e in report.embeds)
        [opening] = turn_open_posts(lang, by_turn[("turn_open", 2)])
        roles_heading = t(lang, "dawn.roles")
        assert all(f.name != roles_heading for e in opening.embeds for f in e.fields)
        [opening] = turn_open_posts(lang, by_turn[("turn_open", 1)])
        assert any(f.name == roles_heading for e in opening.embeds for f in e.fields)


async def test_R5_R18_R23_an_accepted_request_carries_what_its_answer_says(
    store: SQLiteStore, clock: FakeClock
) -> None:
    """The caller reads nothing more to answer: until when a later request replaces it (R5;
    a note stands as sent, R37), the mafia's board after a kill (R23), a shot in the window
    after a night (R18), the game and its time zone; a member at one table gets no header."""
    service = GameService(store, clock)
    roles = await started(service, "mafioso=1 commissar=1 villager=2", 4)
    maf, com, villager = roles["mafioso"], roles["commissar"], roles["villager"]
    com_nick, maf_nick = nick(service, com), nick(service, maf)
    live = service.game_in(GUILD)
    assert live is not None and live.record.deadline is not None
    check = await service.submit(GUILD, com, {"do": "check", "target": maf_nick})
    assert (check.until, check.zone) == (live.record.deadline, "UTC")
    assert check.game is live and check.header is None
    assert check.mafia_update is None and not check.after_night
    note = await service.submit(GUILD, villager, {"do": "note", "to": com_nick, "text": "hi"})
    assert note.until is None
    kill = await service.submit(GUILD, maf, {"do": "kill", "target": com_nick})
    assert kill.mafia_update is not None and kill.until == live.record.deadline
    clock.advance(minutes=10)
    await service.deadline_reached(live.id)
    shot = await service.submit(GUILD, com, {"do": "shoot", "target": maf_nick})
    assert shot.after_night and shot.until is None
