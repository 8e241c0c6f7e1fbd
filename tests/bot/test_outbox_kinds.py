"""One record per outbox kind (bot/kinds.py, declared in bot/outbox_kinds.py): every kind the
code can enqueue has exactly one, declared in one table, with a text in Russian and in English
that Discord takes (sandbox/contract/); an unknown kind is refused loudly; the hooks
see a narrow port, never the delivery."""

from __future__ import annotations

import ast
import importlib
import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot import kinds
from bot.embeds import Post
from bot.kinds import PLAYER, OutboxKind
from bot.render import (
    render,
    render_console,
    render_posts,
    render_private,
    render_role_card,
    render_server_notice,
)
from core.i18n import LANGUAGES, Lang
from rules.announce import GHOSTS, HOST, MAFIA, PUBLIC
from rules.knowledge import RoleCard
from sandbox.contract import validate

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = "2026-03-02T18:00:00+00:00"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _kind_of(node: ast.expr, path: Path) -> str | None:
    """A kind named by a literal or by a constant of the module (imported or its own)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id.isupper():
        value = getattr(importlib.import_module(_module(path)), node.id)
        assert isinstance(value, str), (path, node.id)
        return value
    return None  # a kind passed through (a parameter): counted where it is named


def _audience_of(node: ast.Call, name: str) -> str | None:
    """Whom an enqueued row is for, as its call site says: a channel's constant, else a
    player (a nickname); None where the call does not say (a post: #game or the ghosts')."""
    if name == "host_notice":
        return HOST
    if name != "Announcement" or len(node.args) < 2:
        return None
    audience = node.args[1]
    if isinstance(audience, ast.Name) and audience.id in ("PUBLIC", "MAFIA", "HOST", "GHOSTS"):
        return {"PUBLIC": PUBLIC, "MAFIA": MAFIA, "HOST": HOST, "GHOSTS": GHOSTS}[audience.id]
    return PLAYER


def enqueued_kinds() -> Iterator[tuple[str, str | None, str]]:
    """Every kind the code can put in the outbox, whom for, and where: an ``Announcement``
    built in ``rules/``, ``core/`` or ``bot/``, an ``OutboxItem`` of its own kind (a post), a
    #host notice of what the bot saw on the server (``host_notice``)."""
    paths = [*(ROOT / "rules").rglob("*.py"), *(ROOT / "core").rglob("*.py")]
    paths += [*(ROOT / "bot").rglob("*.py")]
    for path in sorted(paths):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            found: ast.expr | None = None
            if name == "Announcement" and node.args:
                found = node.args[0]
            elif name == "OutboxItem":
                found = next((k.value for k in node.keywords if k.arg == "kind"), None)
            elif name == "host_notice" and len(node.args) >= 2:
                found = node.args[1]
            kind = _kind_of(found, path) if found is not None else None
            if kind is not None:
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                yield kind, _audience_of(node, name), where


def test_every_kind_the_code_enqueues_has_exactly_one_record() -> None:
    declared = importlib.import_module(kinds.KINDS_MODULE).OUTBOX_KINDS
    names = [kind.name for kind in declared]
    assert len(names) == len(set(names)), "a kind declared twice"
    sites = list(enqueued_kinds())
    found = {kind: where for kind, _audience, where in sites}
    assert len(found) >= 40  # the scan finds the kinds (it would find none if it broke)
    missing = {kind: where for kind, where in found.items() if kind not in names}
    assert not missing, missing
    assert not set(names) - set(found)  # no record of a kind nothing enqueues
    records = kinds.load()
    wrong = [
        (kind, audience, records[kind].audience, where)
        for kind, audience, where in sites
        if audience is not None and records[kind].audience != audience
    ]
    assert not wrong, wrong  # each record says whom its rows are for


def test_the_kinds_are_declared_in_one_table_only() -> None:
    """No module adds to a table of kinds from outside: the one table is bot/outbox_kinds.py,
    and the records are built nowhere else in the product."""
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        if path.name in ("outbox_kinds.py", "kinds.py"):
            continue
        source = path.read_text(encoding="utf-8")
        assert "OutboxKind(" not in source, path
        assert "kinds.KINDS" not in source, path
        for table in ("EMBED_KINDS", "TEXT_KINDS", "HOST_NOTICES", "SERVER_NOTICES", "CONSOLE_"):
            assert table not in source, (path, table)
    assert not hasattr(kinds, "register")  # nothing adds a kind, or a part of one, from outside


def test_a_kind_declared_twice_or_without_a_text_is_refused() -> None:
    one = OutboxKind("note", PLAYER, text=lambda lang, payload: "x")
    with pytest.raises(ValueError, match="declared twice"):
        kinds.table([one, one])
    with pytest.raises(ValueError, match="no rendering"):
        kinds.table([OutboxKind("mute", PUBLIC)])


def test_an_unknown_kind_is_refused_loudly(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        text = render("en", "no_such_kind", {})
    assert "no_such_kind" in text and "no rendering" in caplog.text
    assert kinds.lookup("no_such_kind") is None
    assert not kinds.entry("no_such_kind").coalesces


#: A payload as the code builds each kind (rules/announce.py and the modules that enqueue).
PAYLOADS: Mapping[str, Mapping[str, Any]] = {
    "results": {
        "turn": 2,
        "deaths": [{"nick": "Owl", "role": "boss", "cause": "mafia"}],
        "lynch": {
            "public": "full",
            "votes": {"Owl": ["Bee", "Cat"]},
            "hanged": "Owl",
            "threshold": 2,
            "electorate": 4,
        },
        "threshold": {"needed": 2, "electorate": 4, "cast": 2},
        "nonvoters": [{"nick": "Dog", "missed": 1}],
        "pistols": ["Cat"],
        "pistol_until": DEADLINE,
    },
    "turn_open": {"turn": 1, "deadline": DEADLINE, "living": ["Bee", "Cat"], "roles": {"boss": 1}},
    "game_over": {
        "winner": "town",
        "reason": "mafia_dead",
        "turns": 3,
        "reveal": False,
        "roles": [{"nick": "Owl", "role": "boss", "alive": False, "cause": "lynch", "turn": 2}],
    },
    "excluded": {"nick": "Owl", "role": "boss", "cause": "excluded"},
    "shot": {"nick": "Owl", "role": "boss", "cause": "pistol", "by": ["Cat"]},
    "no_shot": {"nick": "Cat"},
    "clock_extended": {"deadline": DEADLINE},
    "clock_resumed": {"deadline": DEADLINE},
    "hunts_open": {"deadline": DEADLINE},
    "last_hour": {"deadline": DEADLINE},
    "clock_paused": {"minutes": 90},
    "replaced": {"nick": "Owl"},
    "downtime": {"turn": 2, "minutes": 20},
    "story": {"text": "The night was long.", "turn": 2},
    "mafia_joined": {"nick": "Owl"},
    "mafia_seat": {"nick": "Owl"},
    "mafia_left": {"nick": "Owl"},
    "double_kill": {"night": "this"},
    "check": {"target": "Bee", "result": "mafia", "commissar": "Owl"},
    "check_none": {"turn": 2, "target": "Bee"},
    "note": {"from": "Bee", "text": "farewell"},
    "pistol": {"turn": 2, "pistol_until": DEADLINE},
    "deprived": {"turn": 2},
    "converted": {"turn": 2},
    "promoted": {"turn": 2},
    "reminder": {"turn": 2, "missing": ["vote", "post"], "missed_votes": 1},
    "host_account": {"turn": 1, "requests": [], "deaths": [], "pistols": []},
    "audit": {"command": "mafia extend", "actor": 42, "args": {"minutes": 30}},
    "downtime_host": {"turn": 2, "minutes": 20, "percent": 10, "excused": True},
    "replace_asked": {"nick": "Owl", "reason": "away"},
    "review_draft": {
        "turn": 2,
        "until": DEADLINE,
        "items": [{"kind": "replaced", "audience": PUBLIC, "payload": {"nick": "Owl"}}],
    },
    "secret_reader": {
        "user": 5,
        "nick": "Owl",
        "gained": [{"reason": "administrator", "where": "mafia", "channel": 10, "via": []}],
    },
    "room_intruder": {"user": 5, "removed": True},
    "room_restored": {"user": 5, "nick": "Owl"},
    "room_reopened": {"members": ["Owl"]},
    "room_broken": {"why": "forbidden", "channel": 10},
    "player_returned": {"user": 5, "nick": "Owl", "room": "added"},
    "host_role_deleted": {"role": 9, "name": "Hosts"},
    "ghost_intruder": {"user": 5, "removed": False},
    "ghost_joined": {"nick": "Owl"},
}


def _as_sent(lang: Lang, kind: OutboxKind) -> list[Post]:
    """The kind's messages as its audience's delivery renders them (bot/delivery/port.py)."""
    if kind.name == "role_card":  # rendered from the live state: a card of the game
        card = RoleCard("Owl", "boss", "mafia", ("kill", "vote"), ("Owl", "Bee"), None, True)
        text = render_role_card(lang, card)
        return render_private(lang, "Server", 1, kind.name, {}, text=text)
    payload = PAYLOADS[kind.name]
    if kind.audience == HOST:
        return [Post(content=render_console(lang, kind.name, payload))]
    if kind.audience in (PUBLIC, MAFIA, GHOSTS):
        return render_posts(lang, kind.name, payload)
    return render_private(lang, "Server", 1, kind.name, payload, table="Table")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "kind", [k for k in kinds.load().values() if k.rendered], ids=lambda kind: kind.name
)
def test_every_kind_renders_in_both_languages_within_discords_limits(
    kind: OutboxKind, lang: Lang, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        posts = _as_sent(lang, kind)
    assert not caplog.records, caplog.text  # no unknown kind, no key missing from the catalogue
    assert posts and all(post.content or post.embeds for post in posts)
    for post in posts:
        body = {"content": post.content, "embeds": [e.to_dict() for e in post.embeds]}
        assert validate("POST", "/channels/1/messages", body) == [], (kind.name, lang)
    if kind.server:
        assert render_server_notice(lang, kind.name, PAYLOADS[kind.name])


def test_the_kinds_without_a_text_deliver_on_their_own() -> None:
    """A player's post (the webhook, under his nickname) and a spectator's access (nothing
    posted): a delivery of their own, and nothing else rendered for them."""
    silent = {k.name for k in kinds.load().values() if not k.rendered}
    assert silent == {"post", "ghost_watch"}
    assert all(kinds.entry(name).deliver is not None for name in silent)


def test_the_hooks_see_a_port_not_the_delivery() -> None:
    """bot/kinds.py imports nothing of bot/delivery/ (not even for the type checker), and no
    hook reaches for the delivery (``sending.delivery``)."""
    source = (ROOT / "bot" / "kinds.py").read_text(encoding="utf-8")
    assert "bot.delivery" not in source
    for path in sorted((ROOT / "bot").rglob("*.py")):
        assert "sending.delivery" not in path.read_text(encoding="utf-8"), path
