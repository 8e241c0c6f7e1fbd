"""The one table of Discord's limits the contract checks, each with where Discord states it.

Sources are files and sections of Discord's documentation repository
(``discord/discord-api-docs``, its ``developers/`` pages as published at
docs.discord.com/developers) or of its OpenAPI description (``discord/discord-api-spec``);
the section is the heading the limit is stated under. ``docs/DISCORD_LAYER.md`` shows the
table, and ``tests/sandbox/test_discord_contract.py`` holds it to this one.
"""

from __future__ import annotations

from typing import Final

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


_CMD = f"{DOCS}: developers/interactions/application-commands.mdx"
_RSP = f"{DOCS}: developers/interactions/receiving-and-responding.mdx"
_MSG = f"{DOCS}: developers/resources/message.mdx"
_CMP = f"{DOCS}: developers/components/reference.mdx"
_HOOK = f"{DOCS}: developers/resources/webhook.mdx"
_REF = f"{DOCS}: developers/reference.mdx"
_CHANNEL = f"{DOCS}: developers/resources/channel.mdx"
_GUILD = f"{DOCS}: developers/resources/guild.mdx"
_USER = f"{DOCS}: developers/resources/user.mdx"
_NAMING = f'{_CMD} "Application Command Naming"'
_OPTION = f'{_CMD} "Application Command Option Structure"'
_CHOICE = f'{_CMD} "Application Command Option Choice Structure"'
_MODAL = f'{_RSP} "Modal"'
_CREATE = f'{_MSG} "Create Message"'
_EMBED = f'{_MSG} "Embed Limits"'
_TEXT_INPUT = f'{_CMP} "Text Input Structure"'
_SELECT = f'{_CMP} "String Select Structure"'

#: Every limit the contract checks, by key. The one table (docs/DISCORD_LAYER.md shows it).
LIMITS: Final[dict[str, Limit]] = {
    limit.key: limit
    for limit in (
        # --- application commands (the whole sync payload) ------------------------------------
        _l(
            "command.name",
            "a command or option name matches "
            r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (chat input), 1-32 characters",
            _NAMING,
            1,
            32,
        ),
        _l(
            "command.name_lowercase",
            "a chat-input command or option name uses the lowercase "
            "variant of every letter that has one",
            _NAMING,
        ),
        _l(
            "command.description",
            "a chat-input command's or option's description: 1-100 "
            "characters (a user or message command's is empty)",
            f'{_CMD} "Application Command Structure" (description)',
            1,
            100,
        ),
        _l("command.locale", "localization keys are Discord locales", f'{_REF} "Locales"'),
        _l(
            "command.options",
            "at most 25 options per command, subcommand or group",
            f'{_CMD} "Application Command Structure" (options)',
            0,
            25,
        ),
        _l("command.required_first", "required options are listed before optional ones", _OPTION),
        _l("command.choices", "at most 25 choices per option", f"{_OPTION} (choices)", 0, 25),
        _l("command.choice_name", "a choice's name: 1-100 characters", _CHOICE, 1, 100),
        _l(
            "command.choice_value",
            "a string choice's value: at most 100 characters",
            _CHOICE,
            0,
            100,
        ),
        _l(
            "command.string_length",
            "a string option's min_length 0-6000, max_length 1-6000",
            f"{_OPTION} (min_length, max_length)",
            0,
            6000,
        ),
        _l(
            "command.total",
            "name, description and value of a command, its options, subcommands, groups and "
            "choices: at most 8,000 characters together, each field counted at its longest "
            "localization (the default one included)",
            f'{_CMD} "Slash Commands"',
            0,
            8000,
        ),
        _l(
            "command.count",
            "at most 100 chat-input, 15 user and 15 message commands per scope",
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
            _CHOICE,
            1,
            100,
        ),
        _l(
            "autocomplete.choice_value",
            "an autocomplete choice's string value: at most 100 characters",
            _CHOICE,
            0,
            100,
        ),
        _l("modal.title", "a modal's title: 1-45 characters", _MODAL, 1, 45),
        _l("modal.custom_id", "a modal's custom_id: 1-100 characters", _MODAL, 1, 100),
        _l("modal.components", "a modal: 1-5 components", _MODAL, 1, 5),
        _l(
            "text_input.label",
            "a text input's label (its Label component's, or its own deprecated one): "
            "1-45 characters",
            f'{_CMP} "Label Structure"',
            1,
            45,
        ),
        _l(
            "text_input.length",
            "a text input's min_length 0-4000 and max_length 1-4000",
            _TEXT_INPUT,
            0,
            4000,
        ),
        _l(
            "text_input.value",
            "a text input's pre-filled value: at most 4,000 characters",
            _TEXT_INPUT,
            0,
            4000,
        ),
        _l(
            "text_input.placeholder",
            "a text input's placeholder: at most 100 characters",
            _TEXT_INPUT,
            0,
            100,
        ),
        # --- messages (channel messages, webhook posts, interaction replies) -------------------
        _l(
            "message.content",
            "a message's content: at most 2,000 characters",
            f"{_CREATE} (content)",
            0,
            2000,
        ),
        _l(
            "message.empty",
            "a new message has content, embeds, components, files, stickers or a poll",
            _CREATE,
        ),
        _l(
            "message.nonce", "a message's nonce: at most 25 characters", f"{_CREATE} (nonce)", 0, 25
        ),
        _l("message.embeds", "at most 10 embeds per message", f"{_CREATE} (embeds)", 0, 10),
        _l(
            "embed.title",
            "an embed's title: at most 256 characters (leading and trailing whitespace not "
            "counted, as for every embed limit)",
            _EMBED,
            0,
            256,
        ),
        _l(
            "embed.description", "an embed's description: at most 4,096 characters", _EMBED, 0, 4096
        ),
        _l("embed.fields", "at most 25 fields per embed", _EMBED, 0, 25),
        _l("embed.field_name", "a field's name: 1-256 characters", _EMBED, 1, 256),
        _l("embed.field_value", "a field's value: 1-1,024 characters", _EMBED, 1, 1024),
        _l("embed.footer", "an embed's footer text: at most 2,048 characters", _EMBED, 0, 2048),
        _l("embed.author", "an embed's author name: at most 256 characters", _EMBED, 0, 256),
        _l(
            "embed.total",
            "title, description, field names and values, footer and author of "
            "all the embeds of a message: at most 6,000 characters together",
            _EMBED,
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
        _l(
            "components.rows",
            "at most 5 action rows per message (without the components V2 flag)",
            f'{_CMP} "Legacy Message Component Behavior"',
            0,
            5,
        ),
        _l(
            "components.row",
            "an action row holds 1-5 buttons or one select menu",
            f'{_CMP} "Action Row Structure"',
            1,
            5,
        ),
        _l(
            "component.custom_id",
            "a component's custom_id: 1-100 characters",
            f'{_CMP} "Custom ID"',
            1,
            100,
        ),
        _l(
            "button.label",
            "a button's label: at most 80 characters",
            f'{_CMP} "Button Structure"',
            0,
            80,
        ),
        _l("select.options", "a string select: 1-25 options", _SELECT, 1, 25),
        _l(
            "select.placeholder",
            "a select menu's placeholder: at most 150 characters",
            _SELECT,
            0,
            150,
        ),
        _l("select.values", "a select menu's min_values 0-25, max_values 1-25", _SELECT, 0, 25),
        _l(
            "select.option",
            "a select option's label and value: 1-100 characters, description at most 100",
            f'{_CMP} "Select Option Structure"',
            1,
            100,
        ),
        _l(
            "file.size",
            "an uploaded file: at most 20 MiB (the default limit of each file, without Nitro "
            "or boosts)",
            f'{_REF} "Uploading Files"',
            0,
            20 * MIB,
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
            f'{_HOOK} "Create Webhook"; {_USER} "Usernames and Nicknames"',
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
            f'{_GUILD} "Create Guild Channel" (name); {_CHANNEL} "Modify Channel"',
            1,
            100,
        ),
        _l(
            "channel.topic",
            "a text channel's topic: at most 1,024 characters",
            f'{_CHANNEL} "Modify Channel" (topic)',
            0,
            1024,
        ),
        _l(
            "thread.name",
            "a thread's name: 1-100 characters",
            f'{_CHANNEL} "Start Thread without Message" (name)',
            1,
            100,
        ),
        _l(
            "member.nick",
            "a member's nickname: 1-32 characters (or empty, to reset it)",
            f'{_USER} "Usernames and Nicknames"; {_GUILD} "Modify Current Member"',
            1,
            32,
        ),
        _l(
            "audit.reason",
            "an audit-log reason (X-Audit-Log-Reason): 1-512 characters",
            f'{DOCS}: developers/resources/audit-log.mdx "Audit Log Entry Object" (reason)',
            1,
            512,
        ),
    )
}

#: developers/reference.mdx "Locales".
LOCALES: Final[frozenset[str]] = frozenset(
    {
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt"),
        *("hu", "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el"),
        *("bg", "ru", "uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko"),
    }
)
#: Command types (application-commands.mdx "Application Command Types") and their count
#: per scope ("Registering a Command").
CHAT_INPUT: Final[int] = 1
COMMANDS_PER_SCOPE: Final[dict[int, int]] = {1: 100, 2: 15, 3: 15}
#: Option types: subcommand and subcommand group (``Application Command Option Type``).
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
#: Interaction callback types (``Interaction Callback Type``).
CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 7, 8, 9
#: Component types (``Component Types``).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, LABEL = 1, 2, 3, 4, 18
SELECTS: Final[frozenset[int]] = frozenset({3, 5, 6, 7, 8})
