"""``main.py demo --ghost-room`` (R62): the dead say their lines in their own room, which the
transcript shows under its name, and never in #game; in both languages."""

from __future__ import annotations

import asyncio
import io

import pytest

from core.i18n import Lang, t
from main import build_parser
from sandbox.demo import DemoOptions, run_demo
from sandbox.demo.players import GHOST_LINES


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_R62_demo_ghosts_talk_in_their_room(lang: Lang) -> None:
    out = io.StringIO()
    code = asyncio.run(run_demo(DemoOptions(seed=3, players=8, lang=lang, ghost_room=True), out))
    lines = out.getvalue().splitlines()
    assert code == 0
    room = f"[#{t(lang, 'channel.ghost_room', game=1)}]"
    game = f"[#{t(lang, 'channel.game')}]"
    ghost_posts = [line for line in lines if any(g in line for g in GHOST_LINES[lang])]
    assert ghost_posts, "no ghost spoke"
    assert all(line.startswith(room) for line in ghost_posts)
    mark = t(lang, "say.ghost_name", nick="").strip()
    assert not [line for line in lines if line.startswith(game) and mark in line]
    head, tail = t(lang, "announce.ghost_joined", nick="\x00").split("\x00")
    assert any(line.startswith(room) and head in line and tail in line for line in lines)


def test_the_ghost_room_option_parses() -> None:
    assert build_parser().parse_args(["demo", "--ghost-room"]).ghost_room is True
    assert build_parser().parse_args(["demo"]).ghost_room is False
