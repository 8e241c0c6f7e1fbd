"""What the demo shows of the product (sandbox/demo/): players answer posts with the message
command "Quote" (R6, R52), post pictures with ``/say image`` (R6), read ``/votes`` and ``/iso``
again before they vote (R34, R54), the host view prints the mafia's kill board as each request
edits it (R23), and ``--review`` has the host write his story on each turn's draft and publish
it (R47); a demo stopped or killed during a review continues to its end."""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from core.i18n import Lang, t
from main import build_parser
from sandbox.demo import DemoOptions, run_demo
from sandbox.demo.players import STORIES

ROOT = Path(__file__).resolve().parents[2]
WINNER_LINE = re.compile(r"^winner: (town|mafia|maniac|crook|draw)$")


@cache
def play(options: DemoOptions) -> tuple[int, tuple[str, ...]]:
    out = io.StringIO()
    code = asyncio.run(run_demo(options, out))
    return code, tuple(out.getvalue().splitlines())


def quote_head(lang: Lang, nick: str) -> str:
    """The first line of a quote as the demo prints it (the link shown as its text)."""
    head = t(lang, "quote.head", nick=nick, link="LINK")
    return re.sub(r"\]\(LINK\)", "]", head)


@pytest.mark.parametrize(("lang", "seed"), [("en", 3), ("ru", 2)])
def test_R6_R52_demo_players_answer_posts_with_quote(lang: Lang, seed: int) -> None:
    """The public transcript shows quotes: a player's post headed by the quoted nickname
    and the excerpt of the post, its link shown as a client shows it (no Discord id)."""
    code, lines = play(DemoOptions(seed=seed, players=8, lang=lang))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    heads = [
        (i, author, m[1])
        for i, line in enumerate(lines)
        for author, sep, body in [line.partition(": ")]
        if sep
        and (
            m := re.fullmatch(
                re.escape(quote_head(lang, "NICK")).replace("NICK", r"(\S+)"),
                body.removeprefix("> "),
            )
        )
    ]
    assert len(heads) >= 3
    posted = {line.partition(": ")[0] for line in lines if ": " in line and not line[0].isspace()}
    for i, author, quoted in heads:
        assert author != quoted and quoted in posted  # another player's post
        assert lines[i + 1].startswith("  > ")  # the excerpt, as a block quote
    text = "\n".join(lines)
    assert "discord.com" not in text and re.search(r"\d{17,}", text) is None


def test_R6_demo_players_post_pictures_without_their_file_names() -> None:
    """``/say image``: the picture goes out as ``picture.jpg`` under the nickname, never under
    the name the phone gave it."""
    code, lines = play(DemoOptions(seed=3, players=8))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    shown = [i for i, line in enumerate(lines) if line == "  [file: picture.jpg]"]
    assert shown
    posted = {line.partition(": ")[0] for line in lines if ": " in line and not line[0].isspace()}
    for i in shown:
        author = lines[i - 1].partition(": ")[0]
        assert author in posted and author != t("en", "host.display_name")
    assert not any("IMG_" in line for line in lines)


def test_R23_R34_host_view_shows_the_kill_board_edited_and_the_private_reading() -> None:
    code, lines = play(DemoOptions(seed=1, players=8, host_view=True))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    board = t("en", "mafia.board.title", turn=1)
    room = "[#mafia/" + t("en", "channel.mafia_thread", game=1) + "]"
    posted = [i for i, line in enumerate(lines) if line == f"{room} Host: **{board}**"]
    edited = [i for i, line in enumerate(lines) if line == f"{room} Host (edited): **{board}**"]
    assert len(posted) == 1 and edited and edited[0] > posted[0]  # one board, edited in place
    after = [line.removeprefix(f"{room}   ") for line in lines[edited[-1] + 1 : edited[-1] + 6]]
    assert any(line.startswith(t("en", "mafia.board.agreed", targets="")) for line in after)
    # /votes and /iso: private pages, in the reader's reply (turn 2's tally from turn 3 on).
    votes = t("en", "votes.title", turn=2, page=1, pages=1)
    assert any(line.startswith("[reply to ") and line.endswith(votes) for line in lines)
    iso = t("en", "iso.title", nick="NICK", page=1, pages=1).split("NICK")[0]
    assert any(line.startswith("[reply to ") and f"] {iso}" in line for line in lines)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R47_demo_review_the_host_writes_his_story_above_each_turns_results(lang: Lang) -> None:
    code, lines = play(DemoOptions(seed=3, players=8, lang=lang, review=30))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    host = t(lang, "host.display_name")
    results = [
        i
        for i, line in enumerate(lines)
        if re.fullmatch(
            re.escape(f"{host}: {t(lang, 'announce.results', turn=0)}").replace("0", r"\d+"), line
        )
    ]
    turns = len(results)
    assert turns >= 2
    stories = {f"{host}: {story}" for story in STORIES[lang]}
    told = [i for i, line in enumerate(lines) if line in stories]
    # One story a turn, right above the whole of what the turn's draft held: its results,
    # in a turn with a pistol window (R18) the shot's outcome too.
    assert len(told) == turns
    for i in told:
        assert lines[i + 1].startswith(f"{host}: ") and lines[i + 1] not in stories
    assert all(lines[i - 1] in stories for i in results)
    pistol = t(lang, "dawn.pistols").split(":")[0]
    assert any(pistol in line for line in lines)  # this game has a pistol window
    assert play(DemoOptions(seed=3, players=8, lang=lang, review=30)) == (code, lines)


def test_R47_demo_review_in_the_host_view_shows_each_draft_and_its_publication() -> None:
    code, lines = play(DemoOptions(seed=3, players=8, review=30, host_view=True))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    drafts = [line for line in lines if line.startswith("[#host] Host: **Draft: the results")]
    published = [
        line
        for line in lines
        if line.startswith("[reply to club_admin] ")
        and re.fullmatch(
            re.escape(t("en", "review.published", turn=0)).replace("0", r"\d+"),
            line.removeprefix("[reply to club_admin] "),
        )
    ]
    assert len(drafts) == len(published) >= 2
    assert build_parser().parse_args(["demo", "--review", "30"]).review == 30
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--review", "0"])


def test_R47_a_demo_stopped_during_a_review_continues_to_its_end(tmp_path: Path) -> None:
    """Stopped while turn 1's draft waits in #host (the turn cap), then run again on the same
    database: the new SimCord has lost the draft's message, so the results go out as they are
    when the review time is over (the bot's review clock), and the game plays to its end."""
    db = str(tmp_path / "review.db")
    code, first = play(DemoOptions(seed=3, review=30, db=db, host_view=True, turn_cap=1))
    assert code == 1 and first[-1] == "winner: none"
    assert any(line.startswith("[#host] Host: **Draft: the results of turn 1") for line in first)
    assert not any(
        t("en", "announce.results", turn=1) in line for line in first if line.startswith("[#game]")
    )
    code, lines = play(DemoOptions(seed=3, review=30, db=db, host_view=True))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    resumed = next(i for i, line in enumerate(lines) if line.startswith("-- resuming game 1"))
    results = lines.index("[#game] Host: " + t("en", "announce.results", turn=1))
    opening = t("en", "announce.turn_open", turn=2, deadline="", relative="").split(".")[0]
    # The next turn's opening: a message of its own, or the rest of the results' message
    # (bot/delivery: the two are one #game message when they fit), printed indented.
    opened = next(
        i
        for i, line in enumerate(lines)
        if re.match(rf"\[#game\] (Host: |  ){re.escape(opening)}", line)
    )
    assert resumed < results < opened
    stories = {f"[#game] Host: {story}" for story in STORIES["en"]}
    assert lines[results - 1] not in stories  # unreviewed: no story
    assert f"[reply to club_admin] {t('en', 'review.published', turn=2)}" in lines  # the next
    assert lines[-1] == play(DemoOptions(seed=3, review=30))[1][-1]  # the same ending


@pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")
def test_R47_a_demo_killed_during_a_review_continues_to_its_end(tmp_path: Path) -> None:
    """Killed with SIGKILL as soon as a draft shows in #host (the host may or may not have
    published it by then): the demo run again continues the game to the same ending."""
    db = str(tmp_path / "review.db")
    command = [
        sys.executable, "main.py", "demo", "--seed", "3", "--review", "30", "--host-view",
        "--db", db,
    ]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("[#host] Host: **Draft: the results of turn 2"):
            proc.send_signal(signal.SIGKILL)
            break
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert WINNER_LINE.match(lines[-1])
    assert any(line.startswith("-- resuming game 1") for line in lines)
    assert lines[-1] == play(DemoOptions(seed=3, review=30))[1][-1]  # the same ending


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R60_demo_substitute_takes_over_a_nickname_on_turn_2(lang: Lang) -> None:
    """``--substitute``: on turn 2 a member stands by, a player asks to be replaced, the host
    hands the nickname over; #game names no member, and the substitute plays it to the end."""
    code, lines = play(DemoOptions(seed=1, players=8, lang=lang, substitute=True))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    template = re.escape(t(lang, "announce.replaced", nick="NICKX")).replace("NICKX", "(.+)")
    found = [
        (i, m[1]) for i, line in enumerate(lines) if (m := re.fullmatch(rf".+?: {template}", line))
    ]
    assert len(found) == 1, found
    at, nick = found[0]
    # From then on the nickname posts on (#game as the players read it): the substitute.
    posts = [i for i, line in enumerate(lines) if line.startswith(f"{nick}: ") and i > at]
    assert posts
    # Nothing names him before the end reveals the members (the final summary).
    named = [i for i, line in enumerate(lines) if "standby_01" in line]
    assert named and min(named) > max(posts)


def test_R60_demo_substitute_host_view_shows_the_request_and_the_card() -> None:
    code, lines = play(DemoOptions(seed=1, players=8, substitute=True, host_view=True))
    assert code == 0
    asked = t("en", "host.replace_asked_reason", nick="NICKX", reason="R").split("NICKX")[1][:20]
    assert any(line.startswith("[#host] Host: ") and asked in line for line in lines)
    assert any(line.startswith("[DM standby_01]") for line in lines)
    assert "[reply to club_admin]   1 — @standby_01" in lines


def test_R60_a_demo_stopped_after_its_replacement_continues_with_the_substitute(
    tmp_path: Path,
) -> None:
    """Stopped on turn 2 once the nickname changed hands, then run again on the same database:
    the substitute's seat is found again (he plays it), and the game plays to its end."""
    db = str(tmp_path / "substitute.db")
    code, first = play(DemoOptions(seed=1, substitute=True, db=db, turn_cap=2))
    assert code == 1 and first[-1] == "winner: none"
    code, lines = play(DemoOptions(seed=1, substitute=True, db=db))
    assert code == 0 and WINNER_LINE.match(lines[-1])
    assert any(line.startswith("-- resuming game 1") for line in lines)
