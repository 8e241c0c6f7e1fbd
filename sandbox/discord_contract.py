"""The contract layer: every request the bot sends to SimCord is checked against the limits
real Discord enforces (it answers HTTP 400 where SimCord would accept).

SimCord accepts payloads Discord refuses (an over-long nickname, a command name in capitals, a
webhook named "Discord", 26 autocomplete choices...). The bot keeps them legal by its own code
only; this layer makes a regression visible. :data:`LIMITS` is the one table of the limits, each
with its source in Discord's documentation (``discord/discord-api-docs``, file and section) or
its OpenAPI description (``discord/discord-api-spec``); :func:`validate` checks one request
against it; :class:`DiscordContract` wraps SimCord's router (``simcord.http.router.dispatch``,
the one function both the bot's ``HTTPClient`` and the webhook adapter call) so that a request
breaking a limit is recorded and refused with a 400 (code 50035, "Invalid Form Body") as
Discord would. The end-to-end harness (``tests/e2e/conftest.py``) fails every test whose bot
sent such a request, naming the limit and its source; the demo (``sandbox/demo/``) reports
them and exits 1. ``tests/sandbox/test_discord_contract.py`` proves each check can fail.

Paths in :data:`LIMITS` are those of the repository's Markdown pages
(``docs/resources/Message.md``...); the section is the heading the limit is stated under.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

import attrs

DOCS: Final[str] = "discord-api-docs"
SPEC: Final[str] = "discord-api-spec"
MIB: Final[int] = 1024 * 1024


@attrs.frozen
class Limit:
    """One limit Discord enforces: what it says, its bounds, where Discord documents it."""

    key: str
    rule: str
    source: str
    low: int | None = None
    high: int | None = None


def _l(key: str, rule: str, source: str, low: int | None = None, high: int | None = None) -> Limit:
    return Limit(key, rule, source, low, high)


_CMD = f"{DOCS}: docs/interactions/Application_Commands.md"
_MSG = f"{DOCS}: docs/resources/Message.md"
_CMP = f"{DOCS}: docs/interactions/Message_Components.md"
_RSP = f"{DOCS}: docs/interactions/Receiving_and_Responding.md"
_HOOK = f"{DOCS}: docs/resources/Webhook.md"

#: Every limit the layer checks, by key. The one table (docs/DISCORD_LAYER.md shows it).
LIMITS: Final[dict[str, Limit]] = {
    limit.key: limit
    for limit in (
        # --- application commands (the whole sync payload) ------------------------------------
        _l(
            "command.name",
            "a command or option name matches "
            r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (chat input), 1-32 characters",
            f'{_CMD} "Application Command Naming"',
            1,
            32,
        ),
        _l(
            "command.name_lowercase",
            "a chat-input command or option name uses the lowercase "
            "variant of every letter that has one",
            f'{_CMD} "Application Command Naming"',
        ),
        _l(
            "command.description",
            "a chat-input command's or option's description: 1-100 "
            "characters (a user or message command's is empty)",
            f'{_CMD} "Application Command Object" (description)',
            1,
            100,
        ),
        _l(
            "command.locale",
            "localization keys are Discord locales",
            f'{DOCS}: docs/Reference.md "Locales"',
        ),
        _l(
            "command.options",
            "at most 25 options per command, subcommand or group",
            f'{_CMD} "Application Command Object" (options)',
            0,
            25,
        ),
        _l(
            "command.required_first",
            "required options are listed before optional ones",
            f'{_CMD} "Application Command Option Structure"',
        ),
        _l(
            "command.choices",
            "at most 25 choices per option",
            f'{_CMD} "Application Command Option Structure" (choices)',
            0,
            25,
        ),
        _l(
            "command.choice_name",
            "a choice's name: 1-100 characters",
            f'{_CMD} "Application Command Option Choice Structure"',
            1,
            100,
        ),
        _l(
            "command.choice_value",
            "a string choice's value: at most 100 characters",
            f'{_CMD} "Application Command Option Choice Structure"',
            0,
            100,
        ),
        _l(
            "command.string_length",
            "a string option's min_length 0-6000, max_length 1-6000",
            f'{_CMD} "Application Command Option Structure" (min_length, max_length)',
            0,
            6000,
        ),
        _l(
            "command.total",
            "name, description and value of a command, its options, "
            "subcommands and choices: at most 8,000 characters together (in each locale)",
            f'{_CMD} "Registering a Command"',
            0,
            8000,
        ),
        _l(
            "command.count",
            "at most 100 chat-input commands (and 5 user, 5 message) per scope",
            f'{_CMD} "Registering a Command"',
            0,
            100,
        ),
        # --- interaction responses ----------------------------------------------------------
        _l(
            "autocomplete.choices",
            "an autocomplete answer: at most 25 choices",
            f'{_RSP} "Autocomplete"',
            0,
            25,
        ),
        _l(
            "autocomplete.choice_name",
            "an autocomplete choice's name: 1-100 characters",
            f'{_CMD} "Application Command Option Choice Structure"',
            1,
            100,
        ),
        _l(
            "autocomplete.choice_value",
            "an autocomplete choice's string value: at most 100 characters",
            f'{_CMD} "Application Command Option Choice Structure"',
            0,
            100,
        ),
        _l("modal.title", "a modal's title: 1-45 characters", f'{_RSP} "Modal"', 1, 45),
        _l("modal.custom_id", "a modal's custom_id: 1-100 characters", f'{_RSP} "Modal"', 1, 100),
        _l("modal.components", "a modal: 1-5 components", f'{_RSP} "Modal"', 1, 5),
        _l(
            "text_input.label",
            "a text input's label: 1-45 characters",
            f'{_CMP} "Text Input Structure"',
            1,
            45,
        ),
        _l(
            "text_input.length",
            "a text input's min_length 0-4000 and max_length 1-4000",
            f'{_CMP} "Text Input Structure"',
            0,
            4000,
        ),
        _l(
            "text_input.value",
            "a text input's pre-filled value: at most 4,000 characters",
            f'{_CMP} "Text Input Structure"',
            0,
            4000,
        ),
        _l(
            "text_input.placeholder",
            "a text input's placeholder: at most 100 characters",
            f'{_CMP} "Text Input Structure"',
            0,
            100,
        ),
        # --- messages (channel messages, webhook posts, interaction replies) -------------------
        _l(
            "message.content",
            "a message's content: at most 2,000 characters",
            f'{_MSG} "Create Message" (content)',
            0,
            2000,
        ),
        _l(
            "message.empty",
            "a new message has content, embeds, components, files, stickers or a poll",
            f'{_MSG} "Create Message"',
        ),
        _l(
            "message.nonce",
            "a message's nonce: at most 25 characters",
            f'{_MSG} "Create Message" (nonce)',
            0,
            25,
        ),
        _l(
            "message.embeds",
            "at most 10 embeds per message",
            f'{_MSG} "Create Message" (embeds)',
            0,
            10,
        ),
        _l(
            "embed.title",
            "an embed's title: at most 256 characters",
            f'{_MSG} "Embed Limits"',
            0,
            256,
        ),
        _l(
            "embed.description",
            "an embed's description: at most 4,096 characters",
            f'{_MSG} "Embed Limits"',
            0,
            4096,
        ),
        _l("embed.fields", "at most 25 fields per embed", f'{_MSG} "Embed Limits"', 0, 25),
        _l(
            "embed.field_name", "a field's name: 1-256 characters", f'{_MSG} "Embed Limits"', 1, 256
        ),
        _l(
            "embed.field_value",
            "a field's value: 1-1,024 characters",
            f'{_MSG} "Embed Limits"',
            1,
            1024,
        ),
        _l(
            "embed.footer",
            "an embed's footer text: at most 2,048 characters",
            f'{_MSG} "Embed Limits"',
            0,
            2048,
        ),
        _l(
            "embed.author",
            "an embed's author name: at most 256 characters",
            f'{_MSG} "Embed Limits"',
            0,
            256,
        ),
        _l(
            "embed.total",
            "title, description, field names and values, footer and author of "
            "all the embeds of a message: at most 6,000 characters together",
            f'{_MSG} "Embed Limits"',
            0,
            6000,
        ),
        _l(
            "allowed_mentions.shape",
            "allowed_mentions: parse of roles, users, everyone; at "
            "most 100 users and 100 roles; a type in parse is not listed by id as well",
            f'{_MSG} "Allowed Mentions Object"',
            0,
            100,
        ),
        _l("components.rows", "at most 5 action rows per message", f'{_CMP} "Action Rows"', 0, 5),
        _l(
            "components.row",
            "an action row holds 1-5 buttons or one select menu",
            f'{_CMP} "Action Rows"',
            1,
            5,
        ),
        _l(
            "component.custom_id",
            "a component's custom_id: 1-100 characters",
            f'{_CMP} "Component Object" (custom_id)',
            1,
            100,
        ),
        _l(
            "button.label",
            "a button's label: at most 80 characters",
            f'{_CMP} "Button Object"',
            0,
            80,
        ),
        _l(
            "select.options",
            "a string select: 1-25 options",
            f'{_CMP} "Select Menu Structure"',
            1,
            25,
        ),
        _l(
            "select.placeholder",
            "a select menu's placeholder: at most 150 characters",
            f'{_CMP} "Select Menu Structure"',
            0,
            150,
        ),
        _l(
            "select.values",
            "a select menu's min_values 0-25, max_values 1-25",
            f'{_CMP} "Select Menu Structure"',
            0,
            25,
        ),
        _l(
            "select.option",
            "a select option's label and value: 1-100 characters, description at most 100",
            f'{_CMP} "Select Option Structure"',
            1,
            100,
        ),
        _l(
            "file.size",
            "an uploaded file: at most 10 MiB (the default limit, without boosts)",
            f'{DOCS}: docs/Reference.md "Uploading Files"',
            0,
            10 * MIB,
        ),
        # --- webhooks ---------------------------------------------------------------------------
        _l(
            "webhook.name",
            'a webhook\'s name: 1-80 characters, not containing "clyde" or "discord" (any case)',
            f'{_HOOK} "Create Webhook"',
            1,
            80,
        ),
        _l(
            "webhook.username",
            "a webhook post's username: 1-80 characters, not containing "
            '"clyde" or "discord" (any case), not "everyone" or "here"',
            f"{SPEC}: specs/openapi.json IncomingWebhookRequestPartial.username (maxLength 80); "
            f'{_HOOK} "Create Webhook"; {DOCS}: docs/resources/User.md "Usernames and Nicknames"',
            1,
            80,
        ),
        _l(
            "webhook.allowed_mentions",
            "a webhook post pings nobody: allowed_mentions "
            "{\"parse\": []} (this project's rule, R6, over Discord's Allowed Mentions Object)",
            f'{_MSG} "Allowed Mentions Object"',
        ),
        # --- guild objects ----------------------------------------------------------------------
        _l(
            "channel.name",
            "a channel's name: 1-100 characters",
            f'{DOCS}: docs/resources/Guild.md "Create Guild Channel" (name); '
            f'{DOCS}: docs/resources/Channel.md "Modify Channel"',
            1,
            100,
        ),
        _l(
            "channel.topic",
            "a text channel's topic: at most 1,024 characters",
            f'{DOCS}: docs/resources/Channel.md "Modify Channel" (topic)',
            0,
            1024,
        ),
        _l(
            "thread.name",
            "a thread's name: 1-100 characters",
            f'{DOCS}: docs/resources/Channel.md "Start Thread without Message" (name)',
            1,
            100,
        ),
        _l(
            "member.nick",
            "a member's nickname: 1-32 characters (or empty, to reset it)",
            f'{DOCS}: docs/resources/User.md "Usernames and Nicknames"; '
            f'{DOCS}: docs/resources/Guild.md "Modify Current Member"',
            1,
            32,
        ),
        _l(
            "audit.reason",
            "an audit-log reason (X-Audit-Log-Reason): 1-512 characters",
            f'{DOCS}: docs/resources/Audit_Log.md "Audit Log Entry Object" (reason)',
            1,
            512,
        ),
    )
}

#: docs/Reference.md "Locales".
LOCALES: Final[frozenset[str]] = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
#: Option types: subcommand and subcommand group (``Application Command Option Type``).
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
#: Interaction callback types (``Interaction Callback Type``).
CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 7, 8, 9
#: Component types (``Component Types``).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 1, 2, 3, 4, 18
SELECTS: Final[frozenset[int]] = frozenset({3, 5, 6, 7, 8})


@attrs.frozen
class Violation:
    """A request that breaks a limit: which, where in the request, and how."""

    limit: Limit
    request: str
    where: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.request}: {self.where}: {self.detail}; Discord: {self.limit.rule} "
            f"[{self.limit.key}; {self.limit.source}]"
        )


def _name_char_ok(ch: str) -> bool:
    """``[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]`` without a Unicode-property regex engine:
    letters and numbers by category, Devanagari and Thai by their blocks (which hold their
    combining vowel signs, not letters to Unicode)."""
    code = ord(ch)
    return (
        ch in "-_'"
        or unicodedata.category(ch)[0] in ("L", "N")
        or 0x0900 <= code <= 0x097F  # Devanagari
        or 0xA8E0 <= code <= 0xA8FF  # Devanagari Extended
        or 0x0E00 <= code <= 0x0E7F  # Thai
    )


class _Check:
    """The violations of one request."""

    def __init__(self, request: str) -> None:
        self.request = request
        self.found: list[Violation] = []

    def fail(self, key: str, where: str, detail: str) -> None:
        self.found.append(Violation(LIMITS[key], self.request, where, detail))

    def length(
        self,
        key: str,
        value: object,
        where: str,
        *,
        low: int | None = None,
        high: int | None = None,
    ) -> None:
        """``value`` (a string, a list) is within the limit's bounds (or the given ones)."""
        limit = LIMITS[key]
        low = limit.low if low is None else low
        high = limit.high if high is None else high
        if value is None:
            return
        if not isinstance(value, (str, list, tuple)):
            self.fail(key, where, f"not a string or list: {value!r}")
            return
        size = len(value)
        if (low is not None and size < low) or (high is not None and size > high):
            self.fail(key, where, f"{size} (allowed {low}-{high})")

    def number(self, key: str, value: object, where: str, low: int, high: int) -> None:
        if value is None:
            return
        if not isinstance(value, int) or not low <= value <= high:
            self.fail(key, where, f"{value!r} (allowed {low}-{high})")


# --- application commands ------------------------------------------------------------------
def _check_name(check: _Check, name: object, where: str, *, chat_input: bool) -> None:
    if not isinstance(name, str):
        check.fail("command.name", where, f"not a string: {name!r}")
        return
    if not chat_input:
        check.length("command.name", name, where)
        return
    if not 1 <= len(name) <= 32 or not all(_name_char_ok(ch) for ch in name):
        check.fail("command.name", where, repr(name))
    if name != name.lower():
        check.fail("command.name_lowercase", where, repr(name))


def _check_localized(
    check: _Check,
    data: Mapping[str, Any],
    field: str,
    where: str,
    each: Callable[[object, str], None],
) -> None:
    each(data.get(field), f"{where}.{field}")
    localized = data.get(f"{field}_localizations") or {}
    for locale, value in localized.items():
        if locale not in LOCALES:
            check.fail("command.locale", f"{where}.{field}_localizations", repr(locale))
        each(value, f"{where}.{field}_localizations[{locale}]")


def _check_option(check: _Check, option: Mapping[str, Any], where: str) -> None:
    where = f"{where} {option.get('name')!r}"
    _check_localized(
        check,
        option,
        "name",
        where,
        lambda v, w: _check_name(check, v, w, chat_input=True),
    )
    _check_localized(
        check, option, "description", where, lambda v, w: check.length("command.description", v, w)
    )
    kind = option.get("type")
    if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
        _check_options(check, option.get("options") or [], where)
        return
    choices = option.get("choices") or []
    check.length("command.choices", choices, f"{where}.choices")
    for choice in choices:
        cwhere = f"{where}.choices {choice.get('name')!r}"
        _check_localized(
            check, choice, "name", cwhere, lambda v, w: check.length("command.choice_name", v, w)
        )
        if isinstance(choice.get("value"), str):
            check.length("command.choice_value", choice["value"], f"{cwhere}.value")
    if kind == STRING:
        check.number(
            "command.string_length", option.get("min_length"), f"{where}.min_length", 0, 6000
        )
        check.number(
            "command.string_length", option.get("max_length"), f"{where}.max_length", 1, 6000
        )


def _check_options(check: _Check, options: Sequence[Mapping[str, Any]], where: str) -> None:
    check.length("command.options", list(options), f"{where}.options")
    seen_optional = False
    for option in options:
        if option.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required"):
                if seen_optional:
                    check.fail(
                        "command.required_first",
                        f"{where} {option.get('name')!r}",
                        "a required option after an optional one",
                    )
            else:
                seen_optional = True
        _check_option(check, option, where)


def _command_characters(node: Mapping[str, Any], locale: str | None) -> int:
    """The characters counted towards the 8,000 of a command, as a client in ``locale`` sees
    it (a localized name or description instead of the default one)."""

    def text(field: str) -> str:
        localized = (node.get(f"{field}_localizations") or {}).get(locale) if locale else None
        value = localized if localized is not None else node.get(field)
        return value if isinstance(value, str) else ""

    total = len(text("name")) + len(text("description"))
    if "value" in node and node["value"] is not None:
        total += len(str(node["value"]))
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        total += _command_characters(child, locale)
    return total


def _locales_used(node: Mapping[str, Any]) -> set[str]:
    found = {
        *(node.get("name_localizations") or {}),
        *(node.get("description_localizations") or {}),
    }
    for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
        found |= _locales_used(child)
    return found


def check_command(check: _Check, command: Mapping[str, Any], where: str = "command") -> None:
    """One command of the sync payload: names, descriptions, options, choices, the total."""
    kind = command.get("type", 1)
    chat_input = kind == 1
    where = f"{where} {command.get('name')!r}"
    _check_localized(
        check, command, "name", where, lambda v, w: _check_name(check, v, w, chat_input=chat_input)
    )
    if chat_input:
        _check_localized(
            check,
            command,
            "description",
            where,
            lambda v, w: check.length("command.description", v, w),
        )
        _check_options(check, command.get("options") or [], where)
    elif command.get("description"):
        check.fail("command.description", f"{where}.description", "must be empty")
    for locale in [None, *sorted(_locales_used(command))]:
        total = _command_characters(command, locale)
        if total > 8000:
            check.fail("command.total", f"{where} ({locale or 'default'})", f"{total} characters")


def check_commands(check: _Check, commands: object) -> None:
    if not isinstance(commands, list):
        return
    counts: dict[int, int] = {}
    for command in commands:
        if isinstance(command, Mapping):
            counts[command.get("type", 1)] = counts.get(command.get("type", 1), 0) + 1
            check_command(check, command)
    for kind, count in counts.items():
        check.number("command.count", count, f"commands of type {kind}", 0, 100 if kind == 1 else 5)


# --- messages ----------------------------------------------------------------------------
def _check_embeds(check: _Check, embeds: Sequence[Mapping[str, Any]]) -> None:
    check.length("message.embeds", list(embeds), "embeds")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        parts: list[str] = []
        for key, field in (("embed.title", "title"), ("embed.description", "description")):
            check.length(key, embed.get(field), f"{where}.{field}")
            parts.append(embed.get(field) or "")
        fields = embed.get("fields") or []
        check.length("embed.fields", fields, f"{where}.fields")
        for j, item in enumerate(fields):
            check.length("embed.field_name", item.get("name", ""), f"{where}.fields[{j}].name")
            check.length("embed.field_value", item.get("value", ""), f"{where}.fields[{j}].value")
            parts += [item.get("name") or "", item.get("value") or ""]
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        check.length("embed.footer", footer, f"{where}.footer.text")
        check.length("embed.author", author, f"{where}.author.name")
        parts += [footer or "", author or ""]
        total += sum(len(p) for p in parts if isinstance(p, str))
    if total > 6000:
        check.fail("embed.total", "embeds", f"{total} characters")


def _check_select(check: _Check, item: Mapping[str, Any], where: str) -> None:
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


def _check_components(check: _Check, rows: Sequence[Mapping[str, Any]]) -> None:
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


def _check_allowed_mentions(check: _Check, mentions: object) -> None:
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
    check: _Check, body: Mapping[str, Any], *, new: bool, files: Sequence[Any] = ()
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


def _forbidden_name(name: str) -> str | None:
    lowered = name.casefold()
    for word in ("discord", "clyde"):
        if word in lowered:
            return f"contains {word!r}"
    return None


def check_webhook_post(check: _Check, body: Mapping[str, Any]) -> None:
    """What a webhook post adds to a message: its username, and (R6) no ping at all."""
    username = body.get("username")
    if isinstance(username, str):
        stripped = " ".join(username.split())
        check.length("webhook.username", stripped, "username")
        problem = _forbidden_name(stripped)
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


# --- interaction callbacks ------------------------------------------------------------------
def _text_inputs(rows: Sequence[Mapping[str, Any]]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for i, row in enumerate(rows):
        if row.get("type") == LABEL:
            check_label = row.get("component") or {}
            yield f"components[{i}].component", {**check_label, "label": row.get("label")}
        for j, item in enumerate(row.get("components") or []):
            yield f"components[{i}].components[{j}]", item


def check_modal(check: _Check, data: Mapping[str, Any]) -> None:
    check.length("modal.title", data.get("title", ""), "data.title")
    check.length("modal.custom_id", data.get("custom_id", ""), "data.custom_id")
    rows = data.get("components") or []
    check.length("modal.components", rows, "data.components")
    for where, item in _text_inputs(rows):
        if item.get("type") != TEXT_INPUT:
            continue
        check.length("component.custom_id", item.get("custom_id", ""), f"data.{where}.custom_id")
        check.length("text_input.label", item.get("label", ""), f"data.{where}.label")
        check.number(
            "text_input.length", item.get("min_length"), f"data.{where}.min_length", 0, 4000
        )
        check.number(
            "text_input.length", item.get("max_length"), f"data.{where}.max_length", 1, 4000
        )
        check.length("text_input.value", item.get("value"), f"data.{where}.value")
        check.length("text_input.placeholder", item.get("placeholder"), f"data.{where}.placeholder")


def check_autocomplete(check: _Check, data: Mapping[str, Any]) -> None:
    choices = data.get("choices") or []
    check.length("autocomplete.choices", choices, "data.choices")
    for i, choice in enumerate(choices):
        check.length("autocomplete.choice_name", choice.get("name", ""), f"data.choices[{i}].name")
        for locale, name in (choice.get("name_localizations") or {}).items():
            check.length(
                "autocomplete.choice_name", name, f"data.choices[{i}].name_localizations[{locale}]"
            )
        if isinstance(choice.get("value"), str):
            check.length("autocomplete.choice_value", choice["value"], f"data.choices[{i}].value")


# --- one request ------------------------------------------------------------------------------
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
    check = _Check(f"{method} {path}")
    body: Mapping[str, Any] = json if isinstance(json, Mapping) else {}
    if reason is not None:
        check.length("audit.reason", reason, "X-Audit-Log-Reason")
    for i, file in enumerate(files):
        size = _file_size(file)
        if size is not None and size > (LIMITS["file.size"].high or 0):
            check.fail(
                "file.size", f"files[{i}] {getattr(file, 'filename', '')!r}", f"{size} bytes"
            )
    if method in ("PUT", "POST", "PATCH") and (
        _match(path, "/applications/{app}/commands") is not None
        or _match(path, "/applications/{app}/guilds/{guild}/commands") is not None
    ):
        if method == "PUT":
            check_commands(check, json)
        else:
            check_command(check, body)
    elif method == "PATCH" and (
        _match(path, "/applications/{app}/commands/{id}") is not None
        or _match(path, "/applications/{app}/guilds/{guild}/commands/{id}") is not None
    ):
        check_command(check, body)
    elif method == "POST" and _match(path, "/interactions/{id}/{token}/callback") is not None:
        kind, data = body.get("type"), body.get("data") or {}
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            check_message(check, data, new=kind == CHANNEL_MESSAGE, files=files)
        elif kind == AUTOCOMPLETE_RESULT:
            check_autocomplete(check, data)
        elif kind == MODAL:
            check_modal(check, data)
    elif method == "POST" and _match(path, "/channels/{channel}/messages") is not None:
        check_message(check, body, new=True, files=files)
    elif method == "PATCH" and _match(path, "/channels/{channel}/messages/{id}") is not None:
        check_message(check, body, new=False, files=files)
    elif method == "POST" and (hook := _match(path, "/webhooks/{id}/{token}")) is not None:
        check_message(check, body, new=True, files=files)
        if application_id is None or hook["id"] != str(application_id):
            check_webhook_post(check, body)  # not an interaction's followup
    elif method == "PATCH" and _match(path, "/webhooks/{id}/{token}/messages/{m}") is not None:
        check_message(check, body, new=False, files=files)
    elif method == "POST" and _match(path, "/channels/{channel}/webhooks") is not None:
        name = body.get("name")
        check.length("webhook.name", name, "name")
        if isinstance(name, str) and (problem := _forbidden_name(name)):
            check.fail("webhook.name", "name", f"{name!r} {problem}")
    elif method == "POST" and _match(path, "/guilds/{guild}/channels") is not None:
        check.length("channel.name", body.get("name", ""), "name")
        check.length("channel.topic", body.get("topic"), "topic")
    elif method == "PATCH" and _match(path, "/channels/{channel}") is not None:
        # A thread or a channel: both 1-100 (discord.py edits either through this route).
        check.length("channel.name", body.get("name"), "name")
        check.length("channel.topic", body.get("topic"), "topic")
    elif method == "POST" and (
        _match(path, "/channels/{channel}/threads") is not None
        or _match(path, "/channels/{channel}/messages/{id}/threads") is not None
    ):
        check.length("thread.name", body.get("name", ""), "name")
        if isinstance(body.get("message"), Mapping):  # a forum post's starter message
            check_message(check, body["message"], new=True, files=files)
    elif method == "PATCH" and _match(path, "/guilds/{guild}/members/{member}") is not None:
        nick = body.get("nick")
        if nick:  # None or "" resets it
            check.length("member.nick", nick, "nick")
    return check.found


class ContractBroken(AssertionError):
    """The bot sent requests real Discord refuses."""


class DiscordContract:
    """Checks every request through SimCord's router; keeps what broke a limit."""

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.checked = 0

    def guard(self, dispatch: Callable[..., Any]) -> Callable[..., Any]:
        """``dispatch`` (SimCord's router) behind the contract: a request breaking a limit is
        recorded and answered as Discord would (400, 50035 Invalid Form Body)."""
        from simcord.backend.errors import BackendError

        def guarded(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            found = validate(
                method,
                path,
                kwargs.get("json"),
                files=kwargs.get("files") or (),
                reason=kwargs.get("reason"),
                application_id=getattr(backend, "application_id", None),
            )
            self.checked += 1
            if found:
                self.violations += found
                raise BackendError(400, 50035, "Invalid Form Body: " + "; ".join(map(str, found)))
            return dispatch(backend, method, path, **kwargs)

        guarded.__wrapped__ = dispatch  # type: ignore[attr-defined]
        return guarded

    @contextmanager
    def installed(self) -> Iterator[DiscordContract]:
        """Within the block, every request of every bot in SimCord goes through the contract
        (for the demo; the tests install it with pytest's monkeypatch instead)."""
        from simcord.http import router

        original = router.dispatch
        router.dispatch = self.guard(original)
        try:
            yield self
        finally:
            router.dispatch = original

    def report(self) -> str:
        return "\n".join(f"- {v}" for v in self.violations)

    def assert_clean(self) -> None:
        if self.violations:
            raise ContractBroken(
                f"the bot sent {len(self.violations)} request(s) Discord refuses:\n" + self.report()
            )

    def take(self) -> list[Violation]:
        """The violations so far, forgotten (a test that provoked them on purpose)."""
        found, self.violations = self.violations, []
        return found


__all__ = [
    "LIMITS",
    "LOCALES",
    "ContractBroken",
    "DiscordContract",
    "Limit",
    "Violation",
    "validate",
]
