"""One REST request as discord.py sends it, routed to the checks of what it carries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sandbox.contract.check import Check, Violation
from sandbox.contract.commands import check_command, check_commands
from sandbox.contract.interactions import check_autocomplete, check_modal
from sandbox.contract.limits import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    LIMITS,
    MODAL,
    UPDATE_MESSAGE,
)
from sandbox.contract.messages import check_message, check_webhook_post, forbidden_name


def _file_size(file: Any) -> int | None:
    fp = getattr(file, "fp", None)
    if fp is None or not hasattr(fp, "seek"):
        return None
    at = fp.tell()
    fp.seek(0, 2)
    size = int(fp.tell())
    fp.seek(at)
    return size


def _match(path: str, template: str) -> dict[str, str] | None:
    got, want = path.strip("/").split("/"), template.strip("/").split("/")
    if len(got) != len(want):
        return None
    args: dict[str, str] = {}
    for seg, tpl in zip(got, want, strict=True):
        if tpl.startswith("{"):
            args[tpl[1:-1]] = seg
        elif seg != tpl:
            return None
    return args


def _any(path: str, *templates: str) -> bool:
    return any(_match(path, template) is not None for template in templates)


def _check_callback(check: Check, body: Mapping[str, Any], files: Sequence[Any]) -> None:
    kind, data = body.get("type"), body.get("data") or {}
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
        check_message(check, data, new=kind == CHANNEL_MESSAGE, files=files)
    elif kind == AUTOCOMPLETE_RESULT:
        check_autocomplete(check, data)
    elif kind == MODAL:
        check_modal(check, data)


def _check_guild_objects(check: Check, method: str, path: str, body: Mapping[str, Any]) -> None:
    """Webhooks, channels, threads and the bot's nickname."""
    if method == "POST" and _any(path, "/channels/{channel}/webhooks"):
        name = body.get("name")
        check.length("webhook.name", name, "name")
        if isinstance(name, str) and (problem := forbidden_name(name)):
            check.fail("webhook.name", "name", f"{name!r} {problem}")
    elif method == "POST" and _any(path, "/guilds/{guild}/channels"):
        check.length("channel.name", body.get("name", ""), "name")
        check.length("channel.topic", body.get("topic"), "topic")
    elif method == "PATCH" and _any(path, "/channels/{channel}"):
        # A thread or a channel: both 1-100 (discord.py edits either through this route).
        check.length("channel.name", body.get("name"), "name")
        check.length("channel.topic", body.get("topic"), "topic")
    elif method == "POST" and _any(
        path, "/channels/{channel}/threads", "/channels/{channel}/messages/{id}/threads"
    ):
        check.length("thread.name", body.get("name", ""), "name")
    elif method == "PATCH" and _any(path, "/guilds/{guild}/members/{member}"):
        nick = body.get("nick")
        if nick:  # None or "" resets it
            check.length("member.nick", nick, "nick")


def validate(
    method: str,
    path: str,
    json: Any = None,
    *,
    files: Sequence[Any] = (),
    reason: str | None = None,
    application_id: int | None = None,
) -> list[Violation]:
    """The limits a REST request (as discord.py sends it) breaks; empty if Discord takes it."""
    check = Check(f"{method} {path}")
    body: Mapping[str, Any] = json if isinstance(json, Mapping) else {}
    if reason is not None:
        check.length("audit.reason", reason, "X-Audit-Log-Reason")
    for i, file in enumerate(files):
        size = _file_size(file)
        if size is not None and size > (LIMITS["file.size"].high or 0):
            check.fail(
                "file.size", f"files[{i}] {getattr(file, 'filename', '')!r}", f"{size} bytes"
            )
    commands = ("/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands")
    if method in ("PUT", "POST", "PATCH") and _any(path, *commands):
        if method == "PUT":
            check_commands(check, json)
        else:
            check_command(check, body)
    elif method == "PATCH" and _any(path, *(f"{c}/{{id}}" for c in commands)):
        check_command(check, body)
    elif method == "POST" and _any(path, "/interactions/{id}/{token}/callback"):
        _check_callback(check, body, files)
    elif method == "POST" and _any(path, "/channels/{channel}/messages"):
        check_message(check, body, new=True, files=files)
    elif method == "PATCH" and _any(path, "/channels/{channel}/messages/{id}"):
        check_message(check, body, new=False, files=files)
    elif method == "POST" and (hook := _match(path, "/webhooks/{id}/{token}")) is not None:
        check_message(check, body, new=True, files=files)
        if application_id is None or hook["id"] != str(application_id):
            check_webhook_post(check, body)  # not an interaction's followup
    elif method == "PATCH" and _any(path, "/webhooks/{id}/{token}/messages/{m}"):
        check_message(check, body, new=False, files=files)
    else:
        _check_guild_objects(check, method, path, body)
        if (
            method == "POST"
            and _any(path, "/channels/{channel}/threads")
            and isinstance(body.get("message"), Mapping)
        ):  # a forum post's starter message
            check_message(check, body["message"], new=True, files=files)
    return check.found
