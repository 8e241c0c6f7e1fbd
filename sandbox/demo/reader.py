"""What a simulated player reads back from the bot: his role card (``/role``), his ``/status``
and a command's private reply, parsed with the bot's own catalogue (``core.i18n``), so that
the players decide from what a member sees and nothing else."""

from __future__ import annotations

from typing import Final

import attrs
from simcord import InteractionResult

from bot.render import command_name, role_name, verb_name
from core.i18n import Lang, Matcher, t
from rules.roles import INTERNAL_ROLES, ROLES, known_verbs
from sandbox.demo.options import DemoError


def _template(lang: Lang, key: str) -> Matcher:
    """A catalogue message as a matcher of its rendered text (one value per variable)."""
    return Matcher(lang, key)


#: Every role code a card may show.
ROLE_CODES: Final[tuple[str, ...]] = (*ROLES, *INTERNAL_ROLES)


@attrs.frozen
class Card:
    """What ``/role`` says."""

    nick: str
    role: str  # the role code as shown (the Foundling reads villager)
    alive: bool
    verbs: frozenset[str]
    team: tuple[str, ...]


@attrs.frozen
class Status:
    """What ``/status`` says: requests standing this turn, posts this turn, private news."""

    turn: int | None
    requested: frozenset[str]  # verbs with a standing request
    posts: int
    checks: tuple[tuple[str, bool], ...]  # (target, is mafia) from the latest news
    pistol: bool  # the latest news holds the pistol prompt


class Reader:
    """Parses the bot's private replies in one language, with the bot's own catalogue."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.title = _template(lang, "card.title")
        self.verbs = _template(lang, "card.verbs")
        self.team = _template(lang, "card.team")
        self.clan_member = _template(lang, "card.clan_member")  # "Owl (Boss)"
        self.dead = t(lang, "card.dead")
        self.header = _template(lang, "status.header")
        self.request = _template(lang, "status.request")
        self.request_note = _template(lang, "status.request_note")
        self.posts = _template(lang, "status.posts")
        self.news = t(lang, "status.news")
        self.check_mafia = _template(lang, "check.mafia")
        self.check_clean = _template(lang, "check.not_mafia")
        self.pistol = t(lang, "announce.pistol")
        self.pistol_until = _template(lang, "announce.pistol_until")  # R18: with its end
        self.role_by_name = {role_name(lang, code): code for code in ROLE_CODES}
        self.verb_by_name = {verb_name(lang, verb): verb for verb in known_verbs()}

    @property
    def verb_by_command(self) -> dict[str, str]:
        """``/охота`` -> ``hunt``: role cards name commands in the reader's language."""
        return {command_name(self.lang, verb): verb for verb in self.verb_by_name.values()}

    def card(self, text: str) -> Card:
        nick = role = None
        verbs: frozenset[str] = frozenset()
        team: tuple[str, ...] = ()
        alive = True
        for line in text.splitlines():
            if (m := self.title.match(line)) is not None:
                nick = m["nick"].replace("**", "")
                role = self.role_by_name.get(m["role"])
            elif (m := self.verbs.match(line)) is not None:
                verbs = frozenset(
                    self.verb_by_command.get(v.strip(), v.strip().lstrip("/"))
                    for v in m["verbs"].split(",")
                )
            elif (m := self.team.match(line)) is not None:
                members = (n.strip() for n in m["team"].split(","))
                team = tuple(
                    found["nick"] if (found := self.clan_member.match(n)) is not None else n
                    for n in members
                )
            elif line.strip() == self.dead:
                alive = False
        if nick is None or role is None:
            raise DemoError(f"cannot read the role card: {text!r}")
        return Card(nick=nick, role=role, alive=alive, verbs=verbs, team=team)

    def status(self, text: str) -> Status:
        turn: int | None = None
        requested: set[str] = set()
        posts = 0
        checks: list[tuple[str, bool]] = []
        pistol = False
        in_news = False
        for line in text.splitlines():
            if line == self.news:
                in_news = True
                continue
            if line.startswith("- ") and not in_news:
                item = line[2:]
                if self.request_note.match(item):
                    requested.add("note")
                elif (m := self.request.match(item)) is not None:
                    verb = self.verb_by_name.get(m["verb"])
                    if verb is not None:
                        requested.add(verb)
                continue
            if (m := self.header.match(line)) is not None and m["turn"].isdigit():
                turn = int(m["turn"])
            elif (m := self.posts.match(line)) is not None:
                posts = int(m["count"])
            elif in_news and (m := self.check_mafia.match(line)) is not None:
                checks.append((m["target"], True))
            elif in_news and (m := self.check_clean.match(line)) is not None:
                checks.append((m["target"], False))
            elif in_news and (
                line.strip() == self.pistol or self.pistol_until.match(line.strip()) is not None
            ):
                pistol = True
        return Status(turn, frozenset(requested), posts, tuple(checks), pistol)


def reply_text(result: InteractionResult) -> str:
    parts = []
    if result.response is not None:
        parts.append(result.response.content)
    parts += [f.content for f in result.followups]
    return "\n".join(parts)
