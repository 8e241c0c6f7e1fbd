"""``/history`` and ``/stats`` on the real bot: three games finished at one table
(the town wins; the mafia wins with the members kept secret; the host ends one), then
``/history`` lists them newest first and shows one game's end, another server's or an unknown
game is refused alike (R55), and every ``/stats`` number equals a recomputation written here
from the exported games (``store.load_script`` replayed with ``rules.replay.run_script``, the
players table for the members), the hidden game left out of what others read."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from simcord import Env, InteractionResult, MemberActor, SetupError

from cogs.history import HISTORY_PAGE_SIZE
from core.i18n import Lang, t
from rules.replay import run_script
from tests.e2e.helpers import (
    World,
    add_players,
    bot_of,
    client_locale,
    confirm_now,
    make_world,
    message_text,
    refusal,
    reply_text,
    slot,
    start_game,
    until_deadline,
)

#: Every game of this module is played on SQLite and on PostgreSQL (tests/e2e/conftest.py).
BOTH_ENGINES = True

ROLES = "mafioso=1 commissar=1 villager=2"
#: The factions of the roles dealt in these games (R12), written out here on purpose.
FACTION = {"mafioso": "mafia", "commissar": "town", "villager": "town"}


async def vote(world: World, seats: dict[str, list[tuple[str, MemberActor]]], target: str) -> None:
    game_ch = slot(world, "game")
    for nick, actor in (s for holders in seats.values() for s in holders):
        other = next(n for n, _ in seats["villager"] if n != nick)
        reply_text(await actor.slash(game_ch, "vote", target=other if nick == target else target))


def holders(world: World, players: list[MemberActor]) -> dict[str, list[tuple[str, MemberActor]]]:
    by_user = {a.id: a for a in players}
    out: dict[str, list[tuple[str, MemberActor]]] = {}
    game = bot_of(world.env).service.game_in(world.guild.id)
    assert game is not None
    for p in game.players:
        out.setdefault(p.role, []).append((p.nick, by_user[p.user_id]))
    return out


async def three_games(world: World, lang: Lang, people: list[MemberActor]) -> None:
    game_ch = lambda: slot(world, "game")  # noqa: E731
    # 1: the commissar checks the mafioso, the town hangs him (R15: town wins).
    players = people[0:4]
    await start_game(world, ROLES, players, lang=lang, activity_rules=False)
    seats = holders(world, players)
    (maf, _), (com, com_actor) = seats["mafioso"][0], seats["commissar"][0]
    reply_text(await com_actor.slash(game_ch(), "check", target=maf))
    await until_deadline(world)
    await vote(world, seats, maf)
    await until_deadline(world)

    # 2 (members secret): the mafia kills a villager, the commissar checks the other one,
    # then the town hangs that villager: one mafioso against the commissar (R15: parity).
    players = people[1:5]
    await start_game(world, ROLES, players, lang=lang, activity_rules=False, reveal=False)
    seats = holders(world, players)
    (maf, maf_actor), (com, com_actor) = seats["mafioso"][0], seats["commissar"][0]
    (v1, _), (v2, v2_actor) = seats["villager"]
    reply_text(await maf_actor.slash(game_ch(), "kill", target=v1))
    reply_text(await com_actor.slash(game_ch(), "check", target=v2))
    await until_deadline(world)
    reply_text(await maf_actor.slash(game_ch(), "vote", target=v2))
    reply_text(await com_actor.slash(game_ch(), "vote", target=v2))
    reply_text(await v2_actor.slash(game_ch(), "vote", target=com))
    await until_deadline(world)

    # 3: one turn, then the host ends the game (no winner).
    players = [people[0], people[2], people[3], people[4]]
    await start_game(world, ROLES, players, lang=lang, activity_rules=False)
    await until_deadline(world)
    assert await confirm_now(world, "mafia end") == t(lang, "host.ended")
    assert bot_of(world.env).service.game_in(world.guild.id) is None


async def exported(world: World) -> list[dict[str, Any]]:
    """Each finished game as the export gives it, with its seats and record, newest first."""
    store = bot_of(world.env).store
    out = []
    for rec in reversed(await store.list_games(guild_id=world.guild.id, status="finished")):
        script = await store.load_script(rec.id)
        out.append(
            {
                "id": rec.id,
                "reveal": rec.reveal,
                "winner": rec.winner,
                "script": script,
                "outcome": run_script(script),
                "members": {p.nick: p.user_id for p in await store.players(rec.id)},
            }
        )
    return out


def recount(games: list[dict[str, Any]], user_id: int, *, own: bool) -> dict[str, Any]:
    """A member's numbers, recomputed from the exported games (core/stats.py's definitions)."""
    n = Counter[str]()
    deaths = Counter[str]()
    by_role: dict[str, list[int]] = {}
    by_faction: dict[str, list[int]] = {}
    for game in games:
        if not (own or game["reveal"]):
            continue
        nick = next((k for k, v in game["members"].items() if v == user_id), None)
        if nick is None:
            continue
        turns = game["outcome"]["turns"]
        role = next(p["role"] for p in game["script"]["players"] if p["nick"] == nick)
        died = [
            d
            for turn in turns
            for d in (*turn["deaths"], *turn["after"]["deaths"])
            if d["player"] == nick
        ]
        won = FACTION[role] == game["winner"]
        n["games"] += 1
        n["wins"] += won
        n["survived"] += not died
        for d in died:
            deaths[d["cause"]] += 1
        for key, table in ((role, by_role), (FACTION[role], by_faction)):
            table.setdefault(key, [0, 0])
            table[key][0] += 1
            table[key][1] += won
        mafia = {p["nick"] for p in game["script"]["players"] if FACTION[p["role"]] == "mafia"}
        for turn in turns:
            for check in turn["checks"]:
                if check["by"] != nick:
                    continue
                n["checks"] += 1
                if check["result"] is not None:
                    n["answered"] += 1
                    truth = "mafia" if check["target"] in mafia else "not_mafia"
                    n["accurate"] += check["result"] == truth
    return {"n": n, "deaths": deaths, "by_role": by_role, "by_faction": by_faction}


def expected_lines(lang: Lang, user_id: int, counted: dict[str, Any]) -> list[str]:
    n = counted["n"]
    rate = round(100 * n["wins"] / n["games"]) if n["games"] else 0
    lines = [
        t(lang, "stats.member", member=f"<@{user_id}>"),
        t(lang, "stats.games", games=n["games"], wins=n["wins"], rate=rate),
        t(
            lang,
            "stats.survival",
            survived=n["survived"],
            games=n["games"],
            lynched=counted["deaths"]["lynch"],
        ),
    ]
    if counted["deaths"]:
        listed = ", ".join(
            t(lang, "stats.death_count", cause=t(lang, f"cause.{c}"), count=k)
            for c, k in sorted(counted["deaths"].items())
        )
        lines.append(t(lang, "stats.deaths", list=listed))
    if n["games"]:  # R63 (no replacement in these games: tests/e2e/test_substitutes.py)
        deaths = counted["deaths"]
        inactive, missed = deaths.get("inactive", 0), deaths.get("missed_votes", 0)
        lines.append(t(lang, "stats.left", inactive=inactive, missed=missed, replaced=0))
    if n["checks"]:
        acc = f"{round(100 * n['accurate'] / n['answered'])}%"
        lines.append(
            t(
                lang,
                "stats.checks",
                checks=n["checks"],
                answered=n["answered"],
                accurate=n["accurate"],
                accuracy=acc,
            )
        )
    lines.append(t(lang, "stats.by_role"))
    for role, (games, wins) in counted["by_role"].items():
        lines.append(f"{t(lang, f'role.{role}')}: {t(lang, 'stats.tally', games=games, wins=wins)}")
    lines.append(t(lang, "stats.by_side"))
    for faction, (games, wins) in counted["by_faction"].items():
        tally = t(lang, "stats.tally", games=games, wins=wins)
        lines.append(f"{t(lang, f'stats.side.{faction}')}: {tally}")
    return lines


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_history_and_stats_match_the_exported_games(simcord_env: Env, lang: Lang) -> None:
    with client_locale(None, "ru" if lang == "ru" else "en-US"):
        await history_and_stats(simcord_env, lang)


async def history_and_stats(simcord_env: Env, lang: Lang) -> None:
    world = make_world(simcord_env)
    people = add_players(world, ["p1", "p2", "p3", "p4", "p5"])
    await three_games(world, lang, people)
    games = await exported(world)
    assert [g["winner"] for g in games] == [None, "mafia", "town"]
    assert [g["reveal"] for g in games] == [True, False, True]

    # /history: newest first, with number, players and winner (read by a non-player).
    text = reply_text(await world.player.slash(world.lobby, "history"))
    assert t(lang, "history.title", page=1, pages=1) in text
    mark = "#" if lang == "en" else "№"
    lines = [next(line for line in text.splitlines() if f"{mark}{g['id']}:" in line) for g in games]
    assert [text.index(line) for line in lines] == sorted(text.index(line) for line in lines)
    for line, game in zip(lines, games, strict=True):
        assert t(lang, f"history.winner.{game['winner'] or 'none'}") in line
        assert (
            t(
                lang,
                "history.line",
                table="",
                game=game["id"],
                started="",
                ended="",
                count=len(game["members"]),
                winner="",
            ).split(",")[1]
            in line
        )

    # /history game: the end as announced; members only where the host revealed them.
    secret, shown = games[1], games[2]
    text = reply_text(await world.player.slash(world.lobby, "history", game=secret["id"]))
    assert t(lang, "winner.mafia") in text and "<@" not in text
    assert all(nick in text for nick in secret["members"])
    result = await world.player.slash(world.lobby, "history", game=shown["id"])
    text = reply_text(result)
    assert all(f"<@{uid}>" in text for uid in shown["members"].values())
    # With the game's picture and archive attached, the members named in it.
    replies = [result.response, *result.followups]
    files = [a for message in replies if message is not None for a in message.attachments]
    assert [a.filename for a in files] == [f"game-{shown['id']}.png", f"game-{shown['id']}.html"]
    page = (await files[1].read()).decode("utf-8")
    # The members by display name, never by id (the archive on a phone).
    guild = bot_of(simcord_env).get_guild(world.guild.id)
    assert guild is not None
    for uid in shown["members"].values():
        member = guild.get_member(uid)
        assert member is not None and member.display_name in page
        assert str(uid) not in page
    assert all(nick in page for nick in shown["members"])

    # R55: another server's game and an unknown number get the same refusal.
    other = make_world(simcord_env)
    for number in (shown["id"], 999):
        said = await refusal(simcord_env, other.player.slash(other.lobby, "history", game=number))
        assert said == t(lang, "history.unknown", game=number)

    # /stats: everyone's own numbers, and as others read them (game 2 left out), recomputed.
    for actor in people:
        mine = reply_text(await actor.slash(world.lobby, "stats"))
        for line in expected_lines(lang, actor.id, recount(games, actor.id, own=True)):
            assert line in mine, (line, mine)
        assert t(lang, "stats.own") in mine
        assert "stats." not in mine  # every text is in the catalogue
        theirs = reply_text(await world.player.slash(world.lobby, "stats", member=actor))
        for line in expected_lines(lang, actor.id, recount(games, actor.id, own=False)):
            assert line in theirs, (line, theirs)
        assert t(lang, "stats.others") in theirs
        assert t(lang, "stats.leaderboard") not in theirs

    # The leaderboard (revealed games only): wins, then win rate, then games, then id.
    board = sorted(
        (
            (r["n"]["wins"], r["n"]["games"], a.id)
            for a in people
            if (r := recount(games, a.id, own=False))["n"]["games"]
        ),
        key=lambda x: (-x[0], -x[0] / x[1], -x[1], x[2]),
    )
    mine = reply_text(await people[0].slash(world.lobby, "stats"))
    expected = [
        t(
            lang,
            "stats.leader.line",
            rank=i,
            member=f"<@{uid}>",
            tally=t(lang, "stats.tally", games=g, wins=w),
            rate=round(100 * w / g),
        )
        for i, (w, g, uid) in enumerate(board, start=1)
    ]
    at = [mine.index(line) for line in expected]
    assert at == sorted(at)


def buttons(result: InteractionResult) -> dict[str, tuple[str, bool]]:
    """label -> (custom id, disabled) of the buttons on a private reply."""
    assert result.response is not None
    return {
        str(c.get("label")): (str(c["custom_id"]), bool(c.get("disabled")))
        for row in result.response.components
        for c in row.get("components", [])
    }


async def test_history_pages_newest_first_for_its_invoker_only(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    people = add_players(world, ["p1", "p2", "p3", "p4"])
    for _ in range(HISTORY_PAGE_SIZE + 1):  # eleven games the host ends at once: two pages
        await start_game(world, ROLES, people, activity_rules=False)
        assert await confirm_now(world, "mafia end") == t("en", "host.ended")
    reader = people[0]
    first = await reader.slash(world.lobby, "history")
    text = reply_text(first)
    assert first.response is not None
    assert t("en", "history.title", page=1, pages=2) in text
    assert "#11:" in text and "#2:" in text and "#1:" not in text
    assert text.index("#11:") < text.index("#10:")
    found = buttons(first)
    prev, nxt = t("en", "history.prev"), t("en", "history.next")
    assert found[prev][1] and not found[nxt][1]  # on page 1 only Next works

    # Another member cannot turn the reader's pages (the reply is private to him besides).
    with pytest.raises(SetupError):
        await world.player.click(first.response, custom_id=found[nxt][0])

    await reader.click(first.response, custom_id=found[nxt][0])
    page2 = message_text(first.response.message)
    assert t("en", "history.title", page=2, pages=2) in page2
    assert "#1:" in page2 and "#11:" not in page2
    await reader.click(first.response, custom_id=found[prev][0])
    assert t("en", "history.title", page=1, pages=2) in message_text(first.response.message)
