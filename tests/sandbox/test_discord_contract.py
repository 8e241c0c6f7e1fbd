"""The contract layer's self-test (sandbox/contract/): every limit of its table is
proven able to fail, by a deliberately illegal request Discord would refuse with HTTP 400,
next to the legal request it was made from (which passes)."""

from __future__ import annotations

import copy
import io
import re
from collections.abc import Callable
from typing import Any

import discord
import pytest

from sandbox.contract import LIMITS, LOCALES, DiscordContract, validate

APP = 1000
CMD_PATH = f"/applications/{APP}/commands"
CALLBACK = "/interactions/5/tok/callback"
HOOK = "/webhooks/77/hooktoken"  # a channel webhook (not the application's)


def option(name: str, *, required: bool = False, **more: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": f"The {name}", "required": required, **more}


def command() -> dict[str, Any]:
    return {
        "type": 1,
        "name": "vote",
        "description": "Vote to lynch a player",
        "name_localizations": {"ru": "голос"},
        "description_localizations": {"ru": "Проголосовать"},
        "options": [
            option("target", required=True, min_length=1, max_length=32),
            option("weight", choices=[{"name": "One", "value": "1"}]),
        ],
    }


def group() -> dict[str, Any]:
    sub = {"type": 1, "name": "start", "description": "Start", "options": [option("when")]}
    return {"type": 1, "name": "mafia", "description": "Host", "options": [sub]}


def embed() -> dict[str, Any]:
    return {
        "title": "Results",
        "description": "Nobody died.",
        "fields": [{"name": "Votes", "value": "Fox: 2"}],
        "footer": {"text": "Turn 1"},
        "author": {"name": "Host"},
    }


def message() -> dict[str, Any]:
    return {
        "content": "Turn 1 begins.",
        "nonce": "mafia-12-0",
        "embeds": [embed()],
        "allowed_mentions": {"parse": []},
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "Join", "custom_id": "join"},
                    {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"},
                ],
            },
            {
                "type": 1,
                "components": [
                    {
                        "type": 3,
                        "custom_id": "pistol",
                        "placeholder": "Shoot whom?",
                        "min_values": 1,
                        "max_values": 1,
                        "options": [{"label": "Fox", "value": "Fox", "description": "alive"}],
                    }
                ],
            },
        ],
    }


def modal() -> dict[str, Any]:
    text_input = {
        "type": 4,
        "style": 2,
        "label": "Your post",
        "custom_id": "body",
        "min_length": 1,
        "max_length": 4000,
        "placeholder": "Write",
        "value": "draft",
    }
    return {
        "type": 9,
        "data": {
            "custom_id": "post",
            "title": "A post in the game channel",
            "components": [{"type": 1, "components": [text_input]}],
        },
    }


def autocomplete() -> dict[str, Any]:
    return {"type": 8, "data": {"choices": [{"name": "Fox", "value": "Fox"}]}}


class File:
    """What discord.py hands the transport: a ``discord.File`` of ``size`` bytes."""

    def __new__(cls, size: int) -> discord.File:  # type: ignore[misc]
        return discord.File(io.BytesIO(b"\0" * size), filename="archive.html")


#: (method, path, legal body, extra keyword arguments) of every kind of request checked.
Request = tuple[str, str, Any, dict[str, Any]]
LEGAL: dict[str, Request] = {
    "sync": ("PUT", CMD_PATH, [command(), group()], {}),
    "guild_sync": ("PUT", f"/applications/{APP}/guilds/9/commands", [command()], {}),
    "message": ("POST", "/channels/3/messages", message(), {"files": [File(1000)]}),
    "edit": ("PATCH", "/channels/3/messages/4", {"content": ""}, {}),
    "reply": ("POST", CALLBACK, {"type": 4, "data": message()}, {}),
    "update": ("POST", CALLBACK, {"type": 7, "data": {"components": []}}, {}),
    "autocomplete": ("POST", CALLBACK, autocomplete(), {}),
    "modal": ("POST", CALLBACK, modal(), {}),
    "followup": ("POST", f"/webhooks/{APP}/itoken", {"content": "Done."}, {}),
    "hook_post": (
        "POST",
        HOOK,
        {"content": "Hi", "username": "Old Fox", "allowed_mentions": {"parse": []}},
        {},
    ),
    "hook_edit": ("PATCH", f"{HOOK}/messages/@original", {"content": "x"}, {}),
    "webhook": ("POST", "/channels/3/webhooks", {"name": "Forum mafia"}, {}),
    "channel": (
        "POST",
        "/guilds/9/channels",
        {"name": "game", "topic": "The story"},
        {"reason": "/mafia setup by alice"},
    ),
    "channel_edit": ("PATCH", "/channels/3", {"name": "game", "topic": "t"}, {}),
    "thread": ("POST", "/channels/3/threads", {"name": "mafia-game-1", "type": 12}, {}),
    "nick": ("PATCH", "/guilds/9/members/@me", {"nick": "Host"}, {}),
}

Mutation = Callable[[Any, dict[str, Any]], None]


def at(*keys: Any) -> Callable[[Any], Any]:
    def get(body: Any) -> Any:
        for key in keys:
            body = body[key]
        return body

    return get


def setter(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(body: Any, _kwargs: dict[str, Any]) -> None:
        at(*path[:-1])(body)[path[-1]] = value

    return mutate


def kwarg(name: str, value: Any) -> Mutation:
    def mutate(_body: Any, kwargs: dict[str, Any]) -> None:
        kwargs[name] = value

    return mutate


def call(fn: Callable[[Any], None]) -> Mutation:
    return lambda body, _kwargs: fn(body)


X = "x"
CMD0 = (0,)  # the first command of a sync payload
OPTS = (0, "options")
CH0 = (*OPTS, 1, "choices")
EMB = ("embeds", 0)
ROW0 = ("components", 0, "components")
SEL = ("components", 1, "components", 0)
TI = ("data", "components", 0, "components", 0)

#: For each limit of the table: illegal requests (which kind of request, how it is broken).
ILLEGAL: dict[str, list[tuple[str, Mutation]]] = {
    "command.name": [
        ("sync", setter((*CMD0, "name"), "vote now")),  # a space
        ("sync", setter((*CMD0, "name"), "v" * 33)),
        ("sync", setter((*CMD0, "name"), "")),
        ("sync", setter((*OPTS, 0, "name"), "tar.get")),
        ("sync", setter((*CMD0, "name_localizations", "ru"), "голос!")),
    ],
    "command.name_lowercase": [
        ("sync", setter((*CMD0, "name"), "Vote")),
        ("sync", setter((*CMD0, "name_localizations", "ru"), "Голос")),
        ("sync", setter((1, "options", 0, "name"), "Start")),
    ],
    "command.description": [
        ("sync", setter((*CMD0, "description"), "")),
        ("sync", setter((*CMD0, "description"), X * 101)),
        ("sync", setter((*CMD0, "description_localizations", "ru"), X * 101)),
        ("sync", setter((*OPTS, 0, "description"), X * 101)),
    ],
    "command.locale": [
        ("sync", setter((*CMD0, "name_localizations"), {"ru-RU": "голос"})),
        ("sync", setter((*CMD0, "description_localizations"), {"en": "Vote"})),
    ],
    "command.options": [
        ("sync", setter((*CMD0, "options"), [option(f"o{i}") for i in range(26)])),
        ("sync", setter((1, "options", 0, "options"), [option(f"o{i}") for i in range(26)])),
    ],
    "command.required_first": [
        ("sync", setter((*CMD0, "options"), [option("a"), option("b", required=True)])),
    ],
    "command.choices": [
        ("sync", setter(CH0, [{"name": f"c{i}", "value": f"{i}"} for i in range(26)])),
    ],
    "command.choice_name": [
        ("sync", setter((*CH0, 0, "name"), X * 101)),
        ("sync", setter((*CH0, 0, "name"), "")),
        ("sync", setter((*CH0, 0, "name_localizations"), {"ru": X * 101})),
    ],
    "command.choice_value": [("sync", setter((*CH0, 0, "value"), X * 101))],
    "command.string_length": [
        ("sync", setter((*OPTS, 0, "max_length"), 6001)),
        ("sync", setter((*OPTS, 0, "min_length"), -1)),
    ],
    "command.total": [
        (
            "sync",
            setter(
                (*CMD0, "options"),
                [
                    option(
                        f"o{i}",
                        description=X * 100,
                        choices=[{"name": X * 100, "value": X * 100} for _ in range(25)],
                    )
                    for i in range(2)
                ],
            ),
        ),
        # Under 8,000 in English, over it in Russian: a field counts at its longest.
        (
            "sync",
            setter(
                (*CMD0, "options"),
                [
                    option(
                        f"o{i}",
                        description="d",
                        description_localizations={"ru": "д" * 100},
                        choices=[
                            {"name": "n", "value": "v" * 90, "name_localizations": {"ru": X * 100}}
                            for _ in range(25)
                        ],
                    )
                    for i in range(4)
                ],
            ),
        ),
        # Under 8,000 in each locale alone, over it with each field at its longest
        # localization (the choices' names longest in Russian, the descriptions in English).
        (
            "sync",
            setter(
                (*CMD0, "options"),
                [
                    option(
                        f"o{i}",
                        description=X * 100,
                        description_localizations={"ru": "д"},
                        choices=[
                            {"name": "n", "value": X * 100, "name_localizations": {"ru": X * 90}}
                            for _ in range(8)
                        ],
                    )
                    for i in range(5)
                ],
            ),
        ),
    ],
    "command.count": [
        (
            "sync",
            call(lambda body: body.extend({**command(), "name": f"c{i}"} for i in range(100))),
        ),
        (
            "guild_sync",
            call(
                lambda body: body.extend(
                    {"type": 2, "name": f"User {i}", "description": ""} for i in range(16)
                )
            ),
        ),
    ],
    "autocomplete.choices": [
        (
            "autocomplete",
            setter(("data", "choices"), [{"name": f"n{i}", "value": f"{i}"} for i in range(26)]),
        ),
    ],
    "autocomplete.choice_name": [
        ("autocomplete", setter(("data", "choices", 0, "name"), X * 101)),
        ("autocomplete", setter(("data", "choices", 0, "name"), "")),
    ],
    "autocomplete.choice_value": [
        ("autocomplete", setter(("data", "choices", 0, "value"), X * 101)),
    ],
    "modal.title": [
        ("modal", setter(("data", "title"), X * 46)),
        ("modal", setter(("data", "title"), "")),
    ],
    "modal.custom_id": [("modal", setter(("data", "custom_id"), X * 101))],
    "modal.components": [
        ("modal", setter(("data", "components"), [])),
        (
            "modal",
            call(
                lambda body: body["data"]["components"].extend(
                    copy.deepcopy(body["data"]["components"]) * 5
                )
            ),
        ),
    ],
    "text_input.label": [("modal", setter((*TI, "label"), X * 46))],
    "text_input.length": [
        ("modal", setter((*TI, "max_length"), 4001)),
        ("modal", setter((*TI, "min_length"), 4001)),
    ],
    "text_input.value": [("modal", setter((*TI, "value"), X * 4001))],
    "text_input.placeholder": [("modal", setter((*TI, "placeholder"), X * 101))],
    "message.content": [
        ("message", setter(("content",), X * 2001)),
        ("reply", setter(("data", "content"), X * 2001)),
        ("followup", setter(("content",), X * 2001)),
        ("hook_post", setter(("content",), X * 2001)),
        ("hook_edit", setter(("content",), X * 2001)),
        ("edit", setter(("content",), X * 2001)),
    ],
    "message.empty": [
        ("followup", setter(("content",), "")),
        (
            "reply",
            call(lambda body: [body["data"].pop(k) for k in ("content", "embeds", "components")]),
        ),
    ],
    "message.nonce": [("message", setter(("nonce",), "mafia-" + "9" * 20))],
    "message.embeds": [("message", setter(("embeds",), [embed() for _ in range(11)]))],
    "embed.title": [("message", setter((*EMB, "title"), X * 257))],
    "embed.description": [("reply", setter(("data", *EMB, "description"), X * 4097))],
    "embed.fields": [
        ("message", setter((*EMB, "fields"), [{"name": "n", "value": "v"}] * 26)),
    ],
    "embed.field_name": [
        ("message", setter((*EMB, "fields", 0, "name"), X * 257)),
        ("message", setter((*EMB, "fields", 0, "name"), "")),
    ],
    "embed.field_value": [
        ("message", setter((*EMB, "fields", 0, "value"), X * 1025)),
        ("message", setter((*EMB, "fields", 0, "value"), "")),
        ("message", setter((*EMB, "fields", 0, "value"), " \n ")),  # trimmed: empty
    ],
    "embed.footer": [("message", setter((*EMB, "footer", "text"), X * 2049))],
    "embed.author": [("message", setter((*EMB, "author", "name"), X * 257))],
    "embed.total": [
        ("message", setter(("embeds",), [{**embed(), "description": X * 4000} for _ in range(2)])),
    ],
    "allowed_mentions.shape": [
        ("message", setter(("allowed_mentions",), {"parse": ["users"], "users": ["1"]})),
        ("message", setter(("allowed_mentions",), {"parse": ["channels"]})),
        ("message", setter(("allowed_mentions",), {"users": [str(i) for i in range(101)]})),
    ],
    "components.rows": [
        (
            "message",
            call(lambda body: body["components"].extend(copy.deepcopy(body["components"][:1]) * 4)),
        ),
    ],
    "components.row": [
        (
            "message",
            call(
                lambda body: body["components"][0]["components"].extend(
                    {"type": 2, "style": 1, "label": f"b{i}", "custom_id": f"b{i}"}
                    for i in range(4)
                )
            ),
        ),
        (
            "message",
            call(
                lambda body: body["components"][1]["components"].append(
                    {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
                )
            ),
        ),
        ("message", setter(("components", 0, "components"), [])),
    ],
    "component.custom_id": [
        ("message", setter((*ROW0, 0, "custom_id"), X * 101)),
        ("message", setter((*SEL, "custom_id"), X * 101)),
        ("modal", setter((*TI, "custom_id"), X * 101)),
    ],
    "button.label": [("message", setter((*ROW0, 0, "label"), X * 81))],
    "select.options": [
        (
            "message",
            setter((*SEL, "options"), [{"label": f"o{i}", "value": f"{i}"} for i in range(26)]),
        ),
        ("message", setter((*SEL, "options"), [])),
    ],
    "select.placeholder": [("message", setter((*SEL, "placeholder"), X * 151))],
    "select.values": [
        ("message", setter((*SEL, "max_values"), 26)),
        ("message", setter((*SEL, "min_values"), -1)),
    ],
    "select.option": [
        ("message", setter((*SEL, "options", 0, "label"), X * 101)),
        ("message", setter((*SEL, "options", 0, "value"), X * 101)),
        ("message", setter((*SEL, "options", 0, "description"), X * 101)),
    ],
    "file.size": [("message", kwarg("files", [File(20 * 1024 * 1024 + 1)]))],
    "webhook.name": [
        ("webhook", setter(("name",), X * 81)),
        ("webhook", setter(("name",), "")),
        ("webhook", setter(("name",), "My Discord hook")),
        ("webhook", setter(("name",), "CLYDE")),
    ],
    "webhook.username": [
        ("hook_post", setter(("username",), X * 81)),
        ("hook_post", setter(("username",), "   ")),
        ("hook_post", setter(("username",), "Discord")),
        ("hook_post", setter(("username",), "the clYde")),
        ("hook_post", setter(("username",), "everyone")),
        ("hook_post", setter(("username",), "Here")),
    ],
    "webhook.allowed_mentions": [
        ("hook_post", call(lambda body: body.pop("allowed_mentions"))),
        ("hook_post", setter(("allowed_mentions",), {"parse": ["users"]})),
        ("hook_post", setter(("allowed_mentions",), {"parse": [], "users": ["1"]})),
    ],
    "channel.name": [
        ("channel", setter(("name",), X * 101)),
        ("channel", setter(("name",), "")),
        ("channel_edit", setter(("name",), X * 101)),
    ],
    "channel.topic": [
        ("channel", setter(("topic",), X * 1025)),
        ("channel_edit", setter(("topic",), X * 1025)),
    ],
    "thread.name": [
        ("thread", setter(("name",), X * 101)),
        ("thread", setter(("name",), "")),
    ],
    "member.nick": [("nick", setter(("nick",), X * 33))],
    "audit.reason": [
        ("channel", kwarg("reason", X * 513)),
        ("nick", kwarg("reason", "")),
    ],
}


def test_every_limit_of_the_table_has_an_illegal_request() -> None:
    assert set(ILLEGAL) == set(LIMITS)


def test_every_limit_cites_discord_s_documentation() -> None:
    source = re.compile(
        r'(discord-api-docs: developers/[\w/-]+\.mdx "[^"]+"'
        r"|discord-api-spec: specs/openapi\.json \S+)"
    )
    for limit in LIMITS.values():
        assert source.search(limit.source), limit


def test_the_locales_are_discord_s() -> None:
    assert len(LOCALES) == 32 and {"ru", "en-US", "en-GB", "uk", "es-419"} <= LOCALES


@pytest.mark.parametrize("kind", sorted(LEGAL))
def test_the_legal_requests_pass(kind: str) -> None:
    method, path, body, kwargs = copy.deepcopy(LEGAL[kind])
    assert validate(method, path, body, application_id=APP, **kwargs) == []


CASES = [
    pytest.param(key, kind, mutate, id=f"{key}-{n}")
    for key, cases in ILLEGAL.items()
    for n, (kind, mutate) in enumerate(cases)
]


@pytest.mark.parametrize(("key", "kind", "mutate"), CASES)
def test_each_check_fails_on_an_illegal_request(key: str, kind: str, mutate: Mutation) -> None:
    method, path, body, kwargs = copy.deepcopy(LEGAL[kind])
    mutate(body, kwargs)
    found = validate(method, path, body, application_id=APP, **kwargs)
    assert key in {v.limit.key for v in found}, [str(v) for v in found]
    # The message names the request, the limit and its source.
    text = str(next(v for v in found if v.limit.key == key))
    assert path in text and LIMITS[key].source in text and key in text


def test_a_command_s_characters_count_each_field_at_its_longest_localization() -> None:
    """application-commands.mdx "Slash Commands": "only the longest localization for each
    field (including the default value) is counted", whichever locale each comes from."""
    from sandbox.contract.commands import command_characters

    node = {
        "name": "vote",
        "name_localizations": {"ru": "голосовать", "uk": "голос"},
        "description": "Vote for a player",
        "description_localizations": {"ru": "За кого"},
        "options": [{"name": "who", "description": "Whom", "choices": [{"name": "A", "value": 7}]}],
    }
    assert command_characters(node) == len("голосовать") + len("Vote for a player") + 3 + 4 + 2


def test_embed_limits_do_not_count_the_whitespace_discord_trims() -> None:
    body = message()
    body["embeds"][0]["title"] = "  " + X * 256 + "\n"
    assert validate("POST", "/channels/3/messages", body) == []


def test_an_interaction_followup_is_no_webhook_post() -> None:
    """The application's own webhook (interaction followups) sets no username."""
    body = {"content": "Done.", "username": "Discord"}
    assert validate("POST", f"/webhooks/{APP}/itoken", body, application_id=APP) == []


def test_the_guard_refuses_as_discord_does_and_keeps_the_violation() -> None:
    from simcord.backend.errors import BackendError

    sent: list[str] = []

    def dispatch(_backend: Any, method: str, path: str, **_kwargs: Any) -> str:
        sent.append(f"{method} {path}")
        return "ok"

    contract = DiscordContract()
    guarded = contract.guard(dispatch)
    assert guarded(None, "POST", "/channels/3/messages", json={"content": "hi"}) == "ok"
    with pytest.raises(BackendError) as refused:
        guarded(None, "POST", "/channels/3/messages", json={"content": X * 2001})
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert sent == ["POST /channels/3/messages"]  # the illegal one never reached SimCord
    assert [v.limit.key for v in contract.violations] == ["message.content"]
    with pytest.raises(AssertionError, match="Create Message"):
        contract.assert_clean()
    assert contract.take() and not contract.violations
    contract.assert_clean()


def test_installed_wraps_simcord_s_router_and_restores_it() -> None:
    from simcord.http import router

    original = router.dispatch
    with DiscordContract().installed():
        assert router.dispatch is not original
        assert router.dispatch.__wrapped__ is original  # type: ignore[attr-defined]
    assert router.dispatch is original


def test_the_documentation_shows_the_whole_table() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "DISCORD_LAYER.md").read_text(encoding="utf-8")
    rows = text.splitlines()
    for limit in LIMITS.values():
        row = next((line for line in rows if line.startswith(f"| `{limit.key}` |")), "")
        assert row.endswith(f"| {limit.source} |"), limit.key


def test_the_demo_reports_what_discord_refuses_and_fails(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo runs behind the contract too: with the nickname limit made shorter than the
    bot's "Host", its nickname request breaks it; the demo plays on (the nickname is
    optional), names the limit and its source, and exits 1."""
    import asyncio

    import attrs

    from sandbox.demo import DemoOptions, run_demo

    nick = LIMITS["member.nick"]
    monkeypatch.setitem(LIMITS, "member.nick", attrs.evolve(nick, high=3))
    out = io.StringIO()
    code = asyncio.run(run_demo(DemoOptions(players=5, seed=2), out))
    err = capsys.readouterr().err
    assert code == 1
    assert out.getvalue().splitlines()[-1].startswith("winner: ")  # the game was played
    assert "demo: Discord would refuse: PATCH /guilds/" in err
    assert nick.source in err and "nick: 4 (allowed 1-3)" in err
