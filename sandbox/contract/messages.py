"""A message's body (a channel message, a webhook post, an interaction's reply or edit): its
content, embeds, components and mentions, and what a webhook post adds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sandbox.contract.check import Check
from sandbox.contract.limits import ACTION_ROW, BUTTON, SELECTS, STRING_SELECT


def _trimmed(value: object) -> object:
    """Embed limits are measured without leading and trailing whitespace (Discord trims it)."""
    return value.strip() if isinstance(value, str) else value


def _check_embeds(check: Check, embeds: Sequence[Mapping[str, Any]]) -> None:
    check.length("message.embeds", list(embeds), "embeds")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        texts: list[tuple[str, object, str]] = [
            ("embed.title", embed.get("title"), f"{where}.title"),
            ("embed.description", embed.get("description"), f"{where}.description"),
            ("embed.footer", footer, f"{where}.footer.text"),
            ("embed.author", author, f"{where}.author.name"),
        ]
        fields = embed.get("fields") or []
        check.length("embed.fields", fields, f"{where}.fields")
        for j, item in enumerate(fields):
            texts.append(("embed.field_name", item.get("name", ""), f"{where}.fields[{j}].name"))
            texts.append(("embed.field_value", item.get("value", ""), f"{where}.fields[{j}].value"))
        for key, text, at in texts:
            check.length(key, _trimmed(text), at)
            total += len(text.strip()) if isinstance(text, str) else 0
    if total > 6000:
        check.fail("embed.total", "embeds", f"{total} characters")


def _check_select(check: Check, item: Mapping[str, Any], where: str) -> None:
    check.length("component.custom_id", item.get("custom_id", ""), f"{where}.custom_id")
    check.length("select.placeholder", item.get("placeholder"), f"{where}.placeholder")
    check.number("select.values", item.get("min_values"), f"{where}.min_values", 0, 25)
    check.number("select.values", item.get("max_values"), f"{where}.max_values", 1, 25)
    if item.get("type") == STRING_SELECT:
        options = item.get("options") or []
        check.length("select.options", options, f"{where}.options")
        for k, option in enumerate(options):
            owhere = f"{where}.options[{k}]"
            check.length("select.option", option.get("label", ""), f"{owhere}.label")
            check.length("select.option", option.get("value", ""), f"{owhere}.value")
            check.length("select.option", option.get("description"), f"{owhere}.description", low=0)


def _check_components(check: Check, rows: Sequence[Mapping[str, Any]]) -> None:
    check.length("components.rows", list(rows), "components")
    for i, row in enumerate(rows):
        where = f"components[{i}]"
        if row.get("type") != ACTION_ROW:
            continue  # components V2 are not used by the bot
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECTS]
        if not items or len(items) > 5 or (selects and len(items) > 1):
            check.fail("components.row", where, f"{len(items)} components, {len(selects)} selects")
        for j, item in enumerate(items):
            iwhere = f"{where}.components[{j}]"
            if item.get("type") == BUTTON:
                check.length("button.label", item.get("label"), f"{iwhere}.label")
                if item.get("style") not in (5, 6):  # link and premium buttons carry none
                    check.length(
                        "component.custom_id", item.get("custom_id", ""), f"{iwhere}.custom_id"
                    )
            elif item.get("type") in SELECTS:
                _check_select(check, item, iwhere)


def _check_allowed_mentions(check: Check, mentions: object) -> None:
    if not isinstance(mentions, Mapping):
        return
    parse = mentions.get("parse") or []
    bad = [p for p in parse if p not in ("roles", "users", "everyone")]
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        check.length("allowed_mentions.shape", ids, f"allowed_mentions.{kind}")
        if ids and kind in parse:
            bad.append(f"{kind} both parsed and listed")
    if bad:
        check.fail("allowed_mentions.shape", "allowed_mentions", ", ".join(map(str, bad)))


def check_message(
    check: Check, body: Mapping[str, Any], *, new: bool, files: Sequence[Any] = ()
) -> None:
    """A message body (create or edit; a channel message, webhook post or interaction reply)."""
    check.length("message.content", body.get("content"), "content")
    nonce = body.get("nonce")
    if isinstance(nonce, str):
        check.length("message.nonce", nonce, "nonce")
    _check_embeds(check, body.get("embeds") or [])
    _check_components(check, body.get("components") or [])
    _check_allowed_mentions(check, body.get("allowed_mentions"))
    if new and not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
        or body.get("attachments")
    ):
        check.fail("message.empty", "body", "nothing to show")


def forbidden_name(name: str) -> str | None:
    """Why a webhook's name (or a post's username) is refused, if it is."""
    lowered = name.casefold()
    for word in ("discord", "clyde"):
        if word in lowered:
            return f"contains {word!r}"
    return None


def check_webhook_post(check: Check, body: Mapping[str, Any]) -> None:
    """What a webhook post adds to a message: its username, and (R6) no ping at all."""
    username = body.get("username")
    if isinstance(username, str):
        stripped = " ".join(username.split())
        check.length("webhook.username", stripped, "username")
        problem = forbidden_name(stripped)
        if problem is None and stripped.casefold() in ("everyone", "here"):
            problem = "is " + repr(stripped)
        if problem:
            check.fail("webhook.username", "username", f"{username!r} {problem}")
    mentions = body.get("allowed_mentions")
    if (
        not isinstance(mentions, Mapping)
        or mentions.get("parse") != []
        or any(mentions.get(k) for k in ("users", "roles"))
    ):
        check.fail("webhook.allowed_mentions", "allowed_mentions", repr(mentions))
