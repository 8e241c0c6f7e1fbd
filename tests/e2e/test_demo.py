"""``main.py demo``: the real bot plays a whole game in SimCord (sandbox/demo/).

In process (``run_demo``) and once as a command; determinism; what the public transcript may
show (R6, R35, R55); and a demo killed with SIGKILL and started again on the same database
ends exactly like an uninterrupted one.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import random
import re
import signal
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from core.i18n import Lang, t
from main import build_parser
from rules.roles import INTERNAL_ROLES, ROLES
from sandbox.demo import Card as DemoCard
from sandbox.demo import DemoOptions, Status, View, plan_turn, run_demo

ROOT = Path(__file__).resolve().parents[2]
WINNER_LINE = re.compile(r"^winner: (town|mafia|maniac|crook|draw)$")
WINNERS = ("town", "mafia", "maniac", "crook", "draw")


def play(options: DemoOptions) -> tuple[int, list[str]]:
    out = io.StringIO()
    code = asyncio.run(run_demo(options, out))
    return code, out.getvalue().splitlines()


@cache
def public_run(
    seed: int, players: int, lang: Lang, schedule: str = "fast"
) -> tuple[int, tuple[str, ...]]:
    code, lines = play(DemoOptions(seed=seed, players=players, lang=lang, schedule=schedule))
    return code, tuple(lines)


def final_announcement(lines: list[str] | tuple[str, ...], lang: Lang = "en") -> list[str]:
    """The last "... wins!" block (the winner and every role), as printed."""
    heads = {t(lang, f"winner.{w}") for w in WINNERS}
    starts = [i for i, line in enumerate(lines) if line.split(": ", 1)[-1] in heads]
    assert starts, "no final announcement"
    block = [lines[starts[-1]].split(": ", 1)[1]]
    for line in lines[starts[-1] + 1 :]:
        if not line.startswith("  "):
            break
        block.append(line.strip())
    return block


def test_demo_plays_a_whole_game_deterministically() -> None:
    code, lines = public_run(3, 8, "en", "fast")
    assert code == 0
    assert WINNER_LINE.match(lines[-1]), lines[-1]
    assert any("Turn 2 begins" in line for line in lines)
    assert lines[-1] == f"winner: {final_announcement_winner(lines)}"
    again = play(DemoOptions(seed=3, players=8))
    assert again == (code, list(lines))  # same seed, same players: the same transcript


def final_announcement_winner(lines: tuple[str, ...] | list[str], lang: Lang = "en") -> str:
    head = final_announcement(lines, lang)[0]
    return next(w for w in WINNERS if t(lang, f"winner.{w}") == head)


ROLE_NAMES: dict[str, set[str]] = {
    lang: {t(lang, f"role.{code}") for code in (*ROLES, *INTERNAL_ROLES)} for lang in ("en", "ru")
}


@pytest.mark.parametrize(
    ("seed", "players", "lang", "schedule"), [(3, 8, "en", "fast"), (2, 13, "ru", "forum")]
)
def test_public_transcript_shows_no_account_and_no_role_before_death(
    seed: int, players: int, lang: Lang, schedule: str
) -> None:
    code, lines = public_run(seed, players, lang, schedule)
    assert code == 0 and WINNER_LINE.match(lines[-1])
    block = final_announcement(lines, lang)
    heads = [i for i, line in enumerate(lines) if line.split(": ", 1)[-1] == block[0]]
    text = "\n".join(lines[: heads[-1]])
    # R6: no account of a member shows (names, ids, mentions) until the game is over; then
    # the members behind the nicknames are named, as the host chose (/mafia new reveal).
    assert "member_" not in text and "club_admin" not in text
    assert "<@" not in text and "@member" not in text
    assert re.search(r"\d{17,}", text) is None, "a Discord id in the public transcript"
    assert "club_admin" not in "\n".join(block) and "<@" not in "\n".join(block)
    # R35, R55: a role shows only with its player's death, or at the end.
    reveal = {}
    for line in block[1:]:
        nick, sep, rest = line.partition(": ")
        role = rest.split(", ")[0].split(" → ")[0]  # the original role (R19, R22)
        if sep and role in ROLE_NAMES[lang]:
            reveal[nick] = role
            assert "@member_" in rest  # named at the end (reveal is on by default)
    assert len(reveal) == players
    end = max(i for i, line in enumerate(lines) if line.split(": ", 1)[-1] == block[0])
    names = ROLE_NAMES[lang]
    ghosts = {t(lang, "say.ghost_name", nick=nick) for nick in reveal}
    # R18: the pistol's shot names its shooter as the Cop he was (his role is public since
    # his death): "As he died, the Cop Heron fired".
    cop = re.escape(t(lang, "role.commissar"))
    pistol = {t(lang, "role.commissar"), t(lang, "role.sergeant")}
    posts = 0
    for line in lines[:end]:
        author, sep, body = line.partition(": ")
        if sep and not line.startswith(" ") and (author in reveal or author in ghosts):
            posts += 1  # a player's post: never a role word, his own or another's
            assert not any(n.casefold() in body.casefold() for n in names), line
            continue
        # The bot's lines: a role only in "Nick (Role)", his death, and the right one.
        for found in re.finditer(r"(\S+) \(([^()]+)\)", line):
            nick, role = found[1], found[2]
            if role in names:
                assert reveal.get(nick) == role, line
        masked = re.sub(r"\S+ \([^()]+\)", "", line)
        masked = re.sub(
            rf"(?i){cop} (\S+?)(?= |$)",
            lambda m: "" if reveal.get(m[1]) in pistol else m[0],
            masked,
        )
        # The game's role list, as the setup published it: "Boss, Villager ×5" ("Мирный
        # житель — 5"), a line of roles and counts only.
        item = rf"(?:{'|'.join(map(re.escape, names))})(?: ×\d+| — \d+)?"
        heading = re.escape(t(lang, "dawn.roles"))
        if re.fullmatch(rf"\s*(?:{heading}:?\s*)?{item}(?:, {item})*,?\s*", masked):
            masked = ""
        assert not any(n in masked for n in names), f"a role outside a death: {line}"
    assert posts >= players  # everybody introduced himself on turn 1


@pytest.mark.parametrize(
    ("seed", "players", "lang", "schedule"), [(3, 8, "en", "fast"), (2, 13, "ru", "forum")]
)
def test_the_bot_posts_in_game_as_the_host_in_the_games_language(
    seed: int, players: int, lang: Lang, schedule: str
) -> None:
    """the bot's own name in #game is the game's language's "Host" ("Ведущий")."""
    _, lines = public_run(seed, players, lang, schedule)
    host = t(lang, "host.display_name")
    assert lines[0].startswith(f"{host}: ")  # the sign-up announcement
    assert any(line.startswith(f"{host}: ") for line in lines[1:])
    assert not any("Forum Mafia" in line for line in lines)


def test_a_game_past_the_turn_cap_stops_with_no_winner() -> None:
    code, lines = play(DemoOptions(seed=3, players=8, turn_cap=1))
    assert code == 1
    assert lines[-1] == "winner: none"
    assert any("Turn 2 begins" in line for line in lines)


def test_demo_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "main.py", "demo", "--players", "5", "--seed", "2", "--host-view"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert WINNER_LINE.match(lines[-1])
    body = lines[:-1]
    assert all(line.startswith("[") for line in body)  # every line says where it was seen
    assert any(line.startswith("[DM ") for line in body)  # role cards
    # The kill agreement, in the mafia's room: the private thread the bot opened in #mafia.
    room = "[#mafia/" + t("en", "channel.mafia_thread", game=1) + "]"
    assert any(line.startswith(room) for line in body)
    assert not any(line.startswith("[#mafia]") for line in body)  # nothing in #mafia itself
    assert any(line.startswith("[reply to ") for line in body)
    refusals = [t("en", f"refusal.{key}") for key in ("same_heal_target", "dead_target")]
    assert not [line for line in body if any(r in line for r in refusals)]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["demo", "--players", "3"])


@pytest.mark.skipif(os.name != "posix", reason="needs SIGKILL")
def test_a_killed_demo_continues_to_the_same_ending(tmp_path: Path) -> None:
    args = ["--players", "8", "--seed", "5"]
    code, reference = play(DemoOptions(players=8, seed=5, db=str(tmp_path / "whole.db")))
    assert code == 0
    db = str(tmp_path / "killed.db")
    command = [sys.executable, "main.py", "demo", *args, "--db", db]
    rnd = random.Random(20260101)
    killed = 0
    for kill_after in (rnd.randint(3, len(reference) // 2), rnd.randint(1, 20), rnd.randint(1, 20)):
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for seen, _line in enumerate(proc.stdout, start=1):
            if seen >= kill_after:
                proc.send_signal(signal.SIGKILL)
                break
        proc.communicate(timeout=120)
        killed += proc.returncode == -signal.SIGKILL
    assert killed >= 1
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == reference[-1]
    assert final_announcement(lines) == final_announcement(reference)
    # The same arguments continue the game; other ones are refused, naming the problem.
    other = subprocess.run(
        [sys.executable, "main.py", "demo", "--players", "6", "--db", db],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert other.returncode == 2 and "other options" in other.stderr


def test_the_doctor_never_heals_the_same_player_twice_in_a_row() -> None:
    rnd = random.Random(7)
    nicks = [f"N{i}" for i in range(12)]
    for seed in range(30):
        living = sorted(rnd.sample(nicks, rnd.randint(3, 12)))
        card = DemoCard(
            nick=living[0], role="doctor", alive=True, verbs=frozenset({"heal"}), team=()
        )
        status = Status(None, frozenset(), 0, (), False)
        heals = []
        for turn in (1, 2, 3, 4):
            view = View(seed=seed, turn=turn, card=card, living=tuple(living), status=status)
            heals.append(dict(plan_turn(view, "en").actions).get("heal"))
        for first, second in itertools.pairwise(heals):
            assert first is None or first != second


def test_the_demo_on_postgresql_is_the_demo_on_sqlite_word_for_word(tmp_path: Path) -> None:
    """``main.py demo --db postgresql://...``: the same seed gives the same
    transcript on both engines, and a PostgreSQL demo killed with SIGKILL continues to the same
    ending."""
    from tests import pgserver

    url = pgserver.fresh_url()
    code, on_sqlite = play(DemoOptions(players=8, seed=5, db=str(tmp_path / "demo.db")))
    assert code == 0
    command = [sys.executable, "main.py", "demo", "--players", "8", "--seed", "5", "--db", url]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for seen, _line in enumerate(proc.stdout, start=1):
        if seen >= len(on_sqlite) // 3:
            proc.send_signal(signal.SIGKILL)
            break
    proc.communicate(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == on_sqlite[-1]
    assert final_announcement(lines) == final_announcement(on_sqlite)
    # A fresh PostgreSQL database, not interrupted: the very same transcript.
    code, on_postgres = play(DemoOptions(players=8, seed=5, db=pgserver.fresh_url()))
    assert (code, on_postgres) == (0, on_sqlite)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R58_the_demo_opens_a_game_with_wishes(lang: Lang) -> None:
    """``demo --wishes``: the sign-up shows the tally, members wish in the menu and with
    /wish (answered privately), the host adopts the tally, and the game plays to its end;
    the public transcript names no wish of anyone."""
    options = DemoOptions(seed=3, players=8, lang=lang, wishes=True, host_view=True)
    code, lines = play(options)
    assert code == 0 and WINNER_LINE.match(lines[-1])
    text = "\n".join(lines)
    assert t(lang, "signup.wishes_none") in text
    granted = [line for line in lines if line.startswith("[reply to member_")]
    wished = [line for line in granted if t(lang, "wish.set", role="X").split("X")[0] in line]
    assert len(wished) == 4  # Boss, Mafioso, Commissar, Doctor: the preset's but Villagers
    public = [line for line in lines if line.startswith(f"[#{t(lang, 'channel.game')}]")]
    assert not any(t(lang, "wish.set", role="X").split("X")[0] in line for line in public)
    assert play(options) == (code, lines)  # deterministic


def test_R57_a_demo_game_with_a_crook_who_steals() -> None:
    """``demo --roles``: a game with the Crook; he steals a vote (his request's fate and the
    robbed vote's in #host) and the demo plays to its end."""
    options = DemoOptions(
        seed=2,
        players=8,
        host_view=True,
        roles="crook=1 mafioso=2 commissar=1 prostitute=1 villager=3",
    )
    code, lines = play(options)
    assert code == 0 and WINNER_LINE.match(lines[-1]), lines[-1]
    text = "\n".join(lines)
    assert t("en", "role.crook") in text
    assert re.search(r"theft → \w+: \w+'s vote counted for \w+", text), "no theft counted"
    assert re.search(r"stolen by \w+: counted for \w+", text)


def test_demo_roles_on_the_command_line() -> None:
    args = build_parser().parse_args(["demo", "--roles", "commissar=1 crook=1 villager=3"])
    assert args.roles == "commissar=1 crook=1 villager=3"
    proc = subprocess.run(
        [sys.executable, "main.py", "demo", "--roles", "crook=2 villager=3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "--roles" in proc.stderr


def test_R43_a_demo_takes_the_role_list_as_a_host_writes_it() -> None:
    """Issue 31: ``demo --roles`` in the table's words (the original's own tally)."""
    options = DemoOptions(seed=1, players=5, lang="ru", roles="Комиссар - 1, Жулик - 1, МЖ - 3")
    code, lines = play(options)
    assert code == 0 and WINNER_LINE.match(lines[-1]), lines[-1]
    text = "\n".join(lines)
    assert f"{t('ru', 'dawn.roles')}: Мирный житель — 3, Комиссар, Жулик" in text
