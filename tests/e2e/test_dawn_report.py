"""The dawn report in #game, as players read it (the real bot in SimCord): one message of
embeds per resolution, the night's deaths, the lynch once with its role, the tally sorted,
the threshold (R31), the votes not counted and why (the Decision of section 6; R31, R54),
a tie explained (R33), totals only naming no voter (R54); then the next turn's opening with
its deadline, the living players and the game's roles. A big game stays within Discord's
limits and loses no line."""

from __future__ import annotations

import discord
from simcord import Env

from bot.delivery import signature
from bot.embeds import EMBED_TOTAL_LIMIT, EMBEDS_PER_MESSAGE, FIELD_VALUE_LIMIT, Post, post_text
from bot.render import render_posts
from core.i18n import Lang, t
from tests.e2e.helpers import (
    World,
    add_players,
    announcement_texts,
    channel_announcements,
    everyone_posts,
    live_game,
    make_world,
    message_text,
    opening_header,
    reply_text,
    slot,
    start_game,
    to_turn_2,
    until_deadline,
)


def report(world: World, turn: int, lang: Lang = "en") -> list[discord.Message]:
    """The messages of a turn's results (the report and any continuation of it; the last may
    carry the next turn's opening too, where Discord's limits allow)."""
    history = slot(world, "game").history()
    header = t(lang, "announce.results", turn=turn)
    start = next(i for i, m in enumerate(history) if message_text(m).startswith(header))
    opening = t(lang, "announce.turn_open", turn=turn + 1, deadline="", relative="")
    opening = opening.split(".")[0]
    end = len(history)
    for i, m in enumerate(history[start:], start):
        if i > start and (message_text(m).startswith(opening) or m.webhook_id is not None):
            end = i
            break
        if any(text.startswith(opening) for text in announcement_texts(m)[1:]):
            end = i + 1
            break
    return history[start:end]


def report_text(messages: list[discord.Message], turn: int, lang: Lang = "en") -> str:
    """The report's text: its messages' announcements, the next turn's opening left out."""
    opening = t(lang, "announce.turn_open", turn=turn + 1, deadline="", relative="")
    opening = opening.split(".")[0]
    texts = [text for m in messages for text in announcement_texts(m)]
    return "\n".join(text for text in texts if not text.startswith(opening))


def opening_of(world: World, turn: int, lang: Lang = "en") -> str:
    header = opening_header(turn, lang)
    texts = channel_announcements(slot(world, "game").history())
    return next(x for x in reversed(texts) if x.startswith(header))


def within_limits(message: discord.Message) -> None:
    assert len(message.embeds) <= EMBEDS_PER_MESSAGE
    assert sum(len(e) for e in message.embeds) <= EMBED_TOTAL_LIMIT
    for embed in message.embeds:
        assert all(len(f.value or "") <= FIELD_VALUE_LIMIT for f in embed.fields)


async def test_R31_Decision_votes_for_a_candidate_killed_first_are_counted(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"dawn{i}" for i in range(12)])
    await start_game(world, "mafioso=3 commissar=1 doctor=1 villager=7", actors)
    # Turn 1's opening publishes the game's roles (counts, never who holds which).
    first = opening_of(world, 1)
    assert t("en", "dawn.roles") in first and "Villager ×7" in first and "Mafioso ×3" in first
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    mafia = [p for p in seats if p.role == "mafioso"]
    town = [p for p in seats if p.role == "villager"]
    victim, first_voted, lynched = town[0], town[1], town[2]
    game_ch = slot(world, "game")
    for m in mafia:  # the night kills the victim at step 2c, before the lynch
        reply_text(await by_user[m.user_id].slash(game_ch, "kill", target=victim.nick))
    others = [p for p in seats if p not in (victim, first_voted, lynched)]
    plan = [(p, victim) for p in others[1:4]]  # 3 votes for the victim: counted (section 6)
    plan += [(others[4], first_voted), (others[5], lynched), (others[6], lynched)]
    plan += [(others[7], first_voted), (others[8], first_voted), (victim, lynched)]
    plan += [(first_voted, lynched), (lynched, first_voted)]  # 4 and 4: a tie
    for voter, target in plan:
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)

    [message] = report(world, 2)  # one message
    within_limits(message)
    assert message.embeds and not message.content
    text = message_text(message)
    villager = t("en", "role.villager")
    assert t("en", "death.mafia", nick=victim.nick, role=villager) in text
    # The lynch: once, with the revealed role (R35), not twice.
    assert text.count(t("en", "death.lynch", nick=lynched.nick, role=villager)) == 1
    assert t("en", "lynch.hanged", nick=lynched.nick) not in text
    # R31: ceil(12 / 4), and the 11 votes cast told apart from the 12 who vote
    assert t("en", "dawn.threshold", needed=3, electorate=12, cast=len(plan)) in text
    assert len(plan) == 11
    # The tally: equal counts in the order of their first vote (R34: by nickname).
    ahead = t(
        "en",
        "lynch.votes",
        nick=first_voted.nick,
        count=4,
        voters=", ".join(p.nick for p in (others[4], others[7], others[8], lynched)),
    )
    behind = t(
        "en",
        "lynch.votes",
        nick=lynched.nick,
        count=4,
        voters=", ".join(p.nick for p in (others[5], others[6], victim, first_voted)),
    )
    assert ahead in text and behind in text and text.index(ahead) < text.index(behind)
    # The votes for the dead candidate count like any (section 6): fewer than the leaders'.
    dead_candidate = t(
        "en",
        "lynch.votes",
        nick=victim.nick,
        count=3,
        voters=", ".join(p.nick for p in others[1:4]),
    )
    assert dead_candidate in text and text.index(behind) < text.index(dead_candidate)
    # R33: the tie broken by the second vote cast for the tied ones, named with its voter.
    tie = t(
        "en",
        "dawn.tie",
        count=4,
        tied=f"{first_voted.nick}, {lynched.nick}",
        by=others[5].nick,
        hanged=lynched.nick,
    )
    assert tie in text
    # R8, R51: said in the footer, not as a line of its own.
    assert message.embeds[0].footer.text == t("en", "announce.explain_votes")

    # The next turn's opening: the deadline as a Discord timestamp, the living, the roles.
    opening = opening_of(world, 3)
    assert "<t:" in opening
    living = t("en", "dawn.living", count=10)
    assert living in opening
    listed = opening.split(living)[1].split(t("en", "dawn.roles"))[0]
    assert victim.nick not in listed and lynched.nick not in listed  # the dead: not listed
    assert all(p.nick in listed for p in seats if p not in (victim, lynched))


async def test_R54_totals_only_after_a_deprive_name_no_voter_anywhere_in_the_report(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"tot{i}" for i in range(12)])
    await start_game(world, "mafioso=3 commissar=1 doctor=1 villager=7", actors)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    mafia = [p for p in seats if p.role == "mafioso"]
    deprived, victim, first, second = [p for p in seats if p.role == "villager"][:4]
    game_ch = slot(world, "game")
    reply_text(await world.admin.slash(world.lobby, "mafia deprive", player=deprived.nick))
    for m in mafia:
        reply_text(await by_user[m.user_id].slash(game_ch, "kill", target=victim.nick))
    voters = [p for p in seats if p not in (deprived, victim, first, second)]
    plan = [(voters[0], victim), (voters[1], victim)]  # counted, though the victim dies first
    plan += [(voters[2], first), (voters[3], second), (voters[4], first)]
    plan += [(voters[5], second), (voters[6], first), (voters[7], second)]
    for voter, target in plan:
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)

    messages = report(world, 2)
    text = report_text(messages, 2)
    assert t("en", "lynch.totals", nick=first.nick, count=3) in text
    assert t("en", "lynch.totals", nick=second.nick, count=3) in text
    # R31, R54: 11 hold a vote, 8 cast
    assert t("en", "dawn.threshold", needed=3, electorate=11, cast=8) in text
    assert t("en", "dawn.nonvoters") not in text  # R54: who did not vote would tell who did
    assert t("en", "lynch.totals", nick=victim.nick, count=2) in text  # section 6: counted
    # R33: the second vote for the tied ones went to the second candidate; its voter unnamed.
    assert (
        t("en", "dawn.tie_totals", count=3, tied=f"{first.nick}, {second.nick}", hanged=second.nick)
        in text
    )
    lynched = t("en", "death.lynch", nick=second.nick, role=t("en", "role.villager"))
    assert lynched in text
    # R54: no voter is named anywhere in the report, nor the deprived player.
    for p in (*voters, deprived):
        assert p.nick not in text, p.nick


async def test_R33_R54_a_russian_report_reads_naturally(simcord_env: Env) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"ru{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors, lang="ru")
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    seats = live_game(world).players
    a, b, c, d = [p for p in seats if p.role != "commissar"][:4]  # no pistol window (R18)
    by_user = {x.id: x for x in actors}
    game_ch = slot(world, "game")
    for voter, target in ((c, a), (d, b), (a, b), (b, a)):
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    [message] = report(world, 2, "ru")
    text = message_text(message)
    assert text.startswith("Итоги хода 2")
    assert t("ru", "dawn.threshold", needed=2, electorate=6, cast=4) in text
    assert "Порог: 2 голоса (¼ от 6 голосующих), подано 4." in text
    tie = t("ru", "dawn.tie", count=2, tied=f"{a.nick}, {b.nick}", by=d.nick, hanged=b.nick)
    assert tie in text and "Ничья, у каждого 2 голоса" in tie
    assert message.embeds[0].footer.text == t("ru", "announce.explain_votes")
    opening = opening_of(world, 3, "ru")
    assert t("ru", "dawn.living", count=5) in opening and "<t:" in opening


async def _lynch_of_a_dead_player(simcord_env: Env, lang: Lang) -> tuple[str, str, str]:
    """Turn 2: the mafia kill the villager most voted for (3 of 6 votes): the report of the
    turn, the #host account, and the victim's nickname."""
    world = make_world(simcord_env)
    actors = add_players(world, [f"cd{lang}{i}" for i in range(6)])
    await start_game(world, "mafioso=2 commissar=1 villager=3", actors, lang=lang)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    seats = live_game(world).players
    by_user = {x.id: x for x in actors}
    mafia = [p for p in seats if p.role == "mafioso"]
    victim, other = [p for p in seats if p.role == "villager"][:2]
    game_ch = slot(world, "game")
    for m in mafia:
        reply_text(await by_user[m.user_id].slash(game_ch, "kill", target=victim.nick))
    voters = [p for p in seats if p is not victim]
    for voter in voters[:3]:
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=victim.nick))
    for voter in voters[3:5]:  # 2 of 6: enough to hang, were the dead leader dropped
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=other.nick))
    await until_deadline(world)
    text = report_text(report(world, 2, lang), 2, lang)
    host = "\n".join(message_text(m) for m in slot(world, "host").history())
    assert live_game(world).engine.state.alive(other.nick)  # the runner-up is not hanged
    return text, host, victim.nick


async def test_R31_the_lynch_chose_a_player_already_dead_nobody_is_hanged(
    simcord_env: Env,
) -> None:
    """Section 6 (changed Decision): the public results and the #host account say that the
    lynch chose a player who was already dead."""
    text, host, victim = await _lynch_of_a_dead_player(simcord_env, "en")
    assert t("en", "lynch.chosen_dead", nick=victim) in text
    assert "died before he could be hanged (see below): nobody is lynched" in text
    assert t("en", "lynch.nobody") not in text
    # Issue 31: read as forum players read a turn, the lynch first, then how he died: the
    # lynch's "died before the verdict" is explained by the death told below it.
    died = text.index(f"{victim} (Villager) was killed in the night")
    assert text.index(t("en", "dawn.lynch")) < text.index(t("en", "dawn.deaths")) < died
    assert t("en", "console.chosen_dead", nick=victim) in host


async def test_R31_the_lynch_chose_a_player_already_dead_in_russian(simcord_env: Env) -> None:
    text, host, victim = await _lynch_of_a_dead_player(simcord_env, "ru")
    assert t("ru", "lynch.chosen_dead", nick=victim) in text
    assert f"Больше всего голосов набрал игрок {victim}, но он погиб раньше" in text
    assert text.index(t("ru", "dawn.lynch")) < text.index(t("ru", "dawn.deaths"))
    assert t("ru", "console.chosen_dead", nick=victim) in host


async def test_a_big_game_report_stays_within_discord_limits_and_loses_no_line(
    simcord_env: Env,
) -> None:
    world = make_world(simcord_env)
    actors = add_players(world, [f"big{i}" for i in range(44)])
    await start_game(world, "mafioso=11 commissar=1 doctor=1 villager=31", actors)
    await to_turn_2(world, actors)
    await everyone_posts(world, actors)
    by_user = {a.id: a for a in actors}
    seats = live_game(world).players
    game_ch = slot(world, "game")
    # Everyone votes for his neighbour: 44 candidates with one vote each, nobody lynched.
    for i, voter in enumerate(seats):
        target = seats[(i + 1) % len(seats)]
        reply_text(await by_user[voter.user_id].slash(game_ch, "vote", target=target.nick))
    await until_deadline(world)
    messages = report(world, 2)
    for message in messages:
        within_limits(message)
    text = report_text(messages, 2)
    for i, voter in enumerate(seats):
        target = seats[(i + 1) % len(seats)]
        assert t("en", "lynch.votes", nick=target.nick, count=1, voters=voter.nick) in text
    assert t("en", "dawn.below", needed=11) in text  # R31: ceil(44 / 4)
    opening = opening_of(world, 3)
    assert t("en", "dawn.living", count=44) in opening
    assert all(p.nick in opening for p in seats)


def test_a_report_too_big_for_one_message_is_split_cleanly() -> None:
    """99 long nicknames, each voted for by many: several messages, every line kept."""
    nicks = [f"Player-with-a-long-name-{i:02d}" for i in range(99)]
    votes = {nick: [n for n in nicks if n != nick][:20] for nick in nicks[:30]}
    payload = {
        "turn": 5,
        "deaths": [{"nick": nicks[98], "role": "villager", "cause": "mafia"}],
        "lynch": {
            "hanged": None,
            "public": "full",
            "electorate": 99,
            "threshold": 25,
            "votes": votes,
            "dropped": {},
            "uncounted": [],
            "tie": None,
        },
        "pistols": [],
    }
    posts = render_posts("en", "results", payload)
    assert len(posts) > 1
    for post in posts:
        assert len(post.embeds) <= EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in post.embeds) <= EMBED_TOTAL_LIMIT
        assert all(len(f.value or "") <= FIELD_VALUE_LIMIT for e in post.embeds for f in e.fields)
    text = "\n".join(post_text(p) for p in posts)
    for nick, voters in votes.items():
        line = t("en", "lynch.votes", nick=nick, count=len(voters), voters=", ".join(voters))
        assert line in text


def test_a_sent_report_is_recognised_by_its_embeds_when_a_lost_send_is_retried() -> None:
    """``_already_sent`` compares signatures: a message as Discord gives it back (embeds
    rebuilt from their JSON) matches the post it was sent from, and two reports with the
    same (empty) text but other embeds do not match."""
    lynch = {"hanged": None, "public": "full", "electorate": 8, "threshold": 2, "votes": {}}
    two = render_posts("en", "results", {"turn": 2, "deaths": [], "lynch": lynch})
    three = render_posts("en", "results", {"turn": 3, "deaths": [], "lynch": lynch})
    [sent] = two
    echoed = Post(
        content=sent.content,
        embeds=tuple(discord.Embed.from_dict(e.to_dict()) for e in sent.embeds),
    )
    assert signature(echoed) == signature(sent)
    assert signature(three[0]) != signature(sent)
    assert not sent.content and not three[0].content  # the text alone would not tell them apart
