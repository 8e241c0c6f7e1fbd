"""Rules whose effect players see in #game, played through the real bot (SimCord): a lynch
tie (R33), deprivation and totals (R54), inactivity (R52), missed votes (R53), a successful
hunt (R29), the double kill (R36)."""

from __future__ import annotations

from datetime import timedelta

from simcord import Env

from core.i18n import t
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    everyone_posts,
    live_game,
    make_world,
    message_text,
    refusal,
    reply_text,
    results_of,
    seats_by_role,
    slot,
    start_game,
    to_turn_2,
    until_deadline,
)

TURN_SECONDS = 600  # fast schedule: 10-minute turns, hunts open after 5 minutes


async def test_R33_tie_hangs_the_candidate_of_the_second_vote(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"tie{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    seats = live_game(world).players
    a, b, c, d = (p for p in seats[:4])
    by_user = {x.id: x for x in actors}
    game_ch = slot(world, "game")
    # Votes in arrival order: c->A, d->B, a->B, b->A: two each; the second vote went to B.
    for voter, target in ((c, a), (d, b), (a, b), (b, a)):
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    text = results_of(world, 2)
    assert t("en", "death.lynch", nick=b.nick, role=t("en", f"role.{b.role}")) in text
    assert t("en", "lynch.votes", nick=b.nick, count=2, voters=f"{d.nick}, {a.nick}") in text


async def test_R54_a_deprived_vote_shows_only_totals(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"dep{i}" for i in range(4)])
    await start_game(world, "mafioso=1 commissar=1 villager=2", actors)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    seats = live_game(world).players
    by_user = {x.id: x for x in actors}
    game_ch = slot(world, "game")
    reply_text(await world.admin.slash(world.lobby, "mafia deprive", player=seats[0].nick))
    voter = by_user[seats[0].user_id]
    refused = await refusal(simcord_env, voter.slash(game_ch, "vote", target=seats[1].nick))
    assert refused == t("en", "refusal.vote_deprived")
    for p in seats[1:]:
        reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=seats[1].nick))
    await until_deadline(world)
    text = results_of(world, 2)
    assert t("en", "lynch.totals", nick=seats[1].nick, count=3) in text
    assert seats[2].nick not in text.split(t("en", "lynch.totals", nick=seats[1].nick, count=3))[0]


async def test_R52_a_player_who_posts_nothing_leaves_the_game(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"mute{i}" for i in range(4)])
    await start_game(world, "mafioso=1 commissar=1 villager=2", actors)
    silent = live_game(world).players[-1]
    await everyone_posts(world, [a for a in actors if a.id != silent.user_id])
    await until_deadline(world)
    role = t("en", f"role.{silent.role}")
    assert t("en", "death.inactive", nick=silent.nick, role=role) in results_of(world, 1)


async def test_R29_hunt_on_a_mafioso_kills_him(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"hunt{i}" for i in range(4)])
    await start_game(world, "mafioso=1 commissar=1 villager=2", actors)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    seats = seats_by_role(world, actors)
    maf_nick, _ = seats["mafioso"]
    _, hunter = seats["villager"]
    game_ch = slot(world, "game")
    early = await refusal(simcord_env, hunter.slash(game_ch, "hunt", target=maf_nick))
    # R4: not before half a turn, and the refusal says when (the reader's own time)
    deadline = live_game(world).record.deadline
    assert deadline is not None
    opens = deadline - timedelta(seconds=TURN_SECONDS / 2)
    assert early == t("en", "refusal.hunt_opens_at", opens=int(opens.timestamp()))
    await simcord_env.advance_time(TURN_SECONDS / 2)
    reply_text(await hunter.slash(game_ch, "hunt", target=maf_nick))
    await until_deadline(world)
    text = t("en", "death.hunt", nick=maf_nick, role=t("en", "role.mafioso"))
    assert text in results_of(world, 2)
    assert texts_end_with_winner(world, "town")


async def test_R36_double_kill_granted_by_the_host(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"dbl{i}" for i in range(8)])
    await start_game(world, "mafioso=2 commissar=1 villager=5", actors)
    await everyone_posts(world, actors)
    state = live_game(world).engine.state
    seats = live_game(world).players
    mafia = [p for p in seats if state.players[p.nick].is_mafia]
    town = [p for p in seats if not state.players[p.nick].is_mafia]
    by_user = {x.id: x for x in actors}
    game_ch = slot(world, "game")
    first = by_user[mafia[0].user_id]
    refused = await refusal(
        simcord_env, first.slash(game_ch, "kill", target=town[0].nick, second=town[1].nick)
    )
    assert refused == t("en", "refusal.double_kill_not_granted")
    reply_text(await world.admin.slash(world.lobby, "mafia doublekill"))
    for m in mafia:
        reply_text(
            await by_user[m.user_id].slash(
                game_ch, "kill", target=town[0].nick, second=town[1].nick
            )
        )
    await until_deadline(world)
    text = results_of(world, 1)
    for victim in town[:2]:
        role = t("en", f"role.{victim.role}")
        assert t("en", "death.mafia", nick=victim.nick, role=role) in text


def texts_end_with_winner(world: World, winner: str) -> bool:
    texts = [message_text(m) for m in slot(world, "game").history()]
    return texts[-1].startswith(t("en", f"winner.{winner}"))


async def test_R53_two_missed_votes_remove_a_player(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"miss{i}" for i in range(8)])
    await start_game(world, "mafioso=2 commissar=1 villager=5", actors)
    await to_turn_2(world, actors)
    seats = live_game(world).players
    state = live_game(world).engine.state
    lazy = next(p for p in seats if not state.players[p.nick].is_mafia)
    by_user = {x.id: x for x in actors}
    game_ch = slot(world, "game")
    for turn in (2, 3):
        await everyone_posts(world, actors)
        for p in seats:  # everyone alive but `lazy` votes, for nobody in particular
            if p.nick != lazy.nick and state.alive(p.nick):
                reply_text(await by_user[p.user_id].slash(game_ch, "vote", target=p.nick))
        await until_deadline(world)
        state = live_game(world).engine.state
        assert state.alive(lazy.nick) is (turn == 2)
    role = t("en", f"role.{lazy.role}")
    assert t("en", "death.missed_votes", nick=lazy.nick, role=role) in results_of(world, 3)


async def test_R56_every_host_command_is_in_the_audit_log(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"aud{i}" for i in range(4)])
    await start_game(world, "mafioso=1 commissar=1 villager=2", actors)
    reply_text(await world.admin.slash(world.lobby, "mafia announce", text="Night falls."))
    reply_text(await world.admin.slash(world.lobby, "mafia extend", minutes=5))
    log = await bot_of(simcord_env).store.audit_log(guild_id=world.guild.id)
    commands = [entry.command for entry in log]
    for name in ("setup", "new", "roles", "start", "announce"):
        assert f"mafia {name}" in commands
    assert "extend" in commands  # recorded by the service with the change
    announce = next(e for e in log if e.command == "mafia announce")
    assert announce.args == {"text": "Night falls."}
    assert announce.actor_id == world.admin.id


async def test_R27_poison_kills_at_the_next_resolution_and_the_victim_votes(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"poi{i}" for i in range(6)])
    await start_game(world, "mafioso=2 maniac=1 commissar=1 villager=2", actors)
    seats = seats_by_role(world, actors)
    victim_nick, victim = seats["villager"]
    maniac_nick, maniac = seats["maniac"]
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    reply_text(await maniac.slash(game_ch, "poison", target=victim_nick))
    await until_deadline(world)
    assert victim_nick not in results_of(world, 1)  # the poison is not public, nobody died
    assert live_game(world).engine.state.alive(victim_nick)
    await everyone_posts(world, actors)
    reply_text(await victim.slash(game_ch, "vote", target=maniac_nick))
    await until_deadline(world)
    text = results_of(world, 2)
    role = t("en", "role.villager")
    assert t("en", "death.poison", nick=victim_nick, role=role) in text  # at step 0
    # R27, R32: he lived through the day, so his vote is in the published tally.
    assert t("en", "lynch.votes", nick=maniac_nick, count=1, voters=victim_nick) in text


async def test_R20_injection_kills_once_per_game(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"inj{i}" for i in range(4)])
    await start_game(world, "mafioso=1 doctor=1 villager=2", actors)
    seats = seats_by_role(world, actors)
    target_nick, _ = seats["villager"]
    _, doctor = seats["doctor"]
    game_ch = slot(world, "game")
    await everyone_posts(world, actors)
    reply_text(await doctor.slash(game_ch, "inject", target=target_nick))
    await until_deadline(world)
    role = t("en", "role.villager")
    assert t("en", "death.euthanasia", nick=target_nick, role=role) in results_of(world, 1)
    other = seats["mafioso"][0]
    again = await refusal(simcord_env, doctor.slash(game_ch, "inject", target=other))
    assert again == t("en", "refusal.injection_used")


async def test_player_commands_outside_the_game_channels_are_refused(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"wc{i}" for i in range(4)])
    await start_game(world, "mafioso=1 commissar=1 villager=2", actors)
    game_ch = slot(world, "game")
    text = await refusal(simcord_env, actors[0].slash(world.lobby, "status"))
    assert text == t("en", "error.wrong_channel", channel=f"<#{game_ch.id}>")
    assert reply_text(await actors[0].slash(slot(world, "discussion"), "status"))
