"""The archive of a finished game: a self-contained web page (and the same in Markdown).

What the archive holds: the setup (table, game number, dates, schedule, role list, the table's
hours the host set (R61), the winner and why); every public post of #game in order, with its
nickname and turn; each turn's dawn report as the bot published it, under the host's story when
he wrote one (a game with the host's review, ``core/review.py``); and, now that the game is
over, what was hidden: every role (dealt and final), every request of every turn with its fate,
the commissar's checks, the mafia's kill requests and room, the death notes, and the members
behind the nicknames only if the host chose to reveal them (``/mafia new reveal``).

The texts the players saw are the bot's own: the script is replayed through the rules engine
and each turn's announcements are rendered by :mod:`bot.render`, so the wording matches what
was posted. Player text (posts, notes, nicknames) is hostile input: the HTML template
autoescapes everything and isolates each text's direction (``<bdi>``); the Markdown template
escapes every value with :func:`md_escape`. Nothing here talks to Discord.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import attrs
import jinja2

from bot.embeds import Post as DiscordPost
from bot.endgame import summary_lines, winner_line
from bot.render import (
    render,
    render_host_account,
    render_posts,
    role_name,
    role_summary,
    schedule_hours,
    verb_name,
)
from bot.tables import table_title
from core.history import FinishedGame, load_finished
from core.i18n import LANGUAGES, Lang, as_lang, has_key, t
from core.live import schedule_of
from core.zones import zone_said
from db.interface import GameStore
from rules.announce import (
    MAFIA,
    PUBLIC,
    Announcement,
    ending_results,
    final_announcements,
    host_account,
    night_announcements,
    public_death,
    roster_in_public_order,
)
from rules.model import Phase, Request, RequestFormatError
from rules.replay import parse_script
from rules.requests import parse_request

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: Formats of ``main.py export --format`` this module writes (json is the replay script).
FORMATS = ("html", "md")


# --- what the templates read ---------------------------------------------------------------


@attrs.frozen
class Seat:
    """One nickname as the archive shows it."""

    nick: str
    member: str | None  # only when the host chose to reveal the members
    role: str  # dealt
    final_role: str | None  # if a conversion (R22) or promotion (R19) changed it
    fate: str
    #: What the member wished for (R58): only in a game with wishes whose members are revealed.
    wish: str | None = None


@attrs.frozen
class Quote:
    """A part of a post: a quote of another post (``nick``: whom, when the quote named him)
    or the player's own words (``quote`` False)."""

    text: str
    quote: bool = False
    nick: str | None = None


@attrs.frozen
class Post:
    nick: str
    text: str
    ghost: bool  # posted by a dead player (R36)

    @property
    def parts(self) -> tuple[Quote, ...]:
        """The post as a forum shows it: its quotes (the "Quote" command's block, or lines a
        player began with ">") as quotes naming the quoted nickname, then his own words."""
        return split_quotes(self.text)


def _quote_heads() -> list[re.Pattern[str]]:
    """The head line of a quote (``quote.head``, any language), with the nick and the link
    as groups: ``Цитата: **Nick** — [к посту](https://discord.com/...)``."""
    heads = []
    for lang in LANGUAGES:
        text = t(lang, "quote.head", nick="\x00", link="\x01")
        pattern = re.escape(text).replace("\x00", "(?P<nick>.+?)")
        heads.append(re.compile(pattern.replace("\x01", "(?P<link>[^)]*)") + "$"))
    return heads


_QUOTE_HEADS = _quote_heads()
#: The backslash Discord's escape_markdown puts before a punctuation mark.
_ESCAPED = re.compile(r"\\([^\w\s])")


def split_quotes(text: str) -> tuple[Quote, ...]:
    """A post's quotes and own words, in order. A run of lines starting with ">" is one
    quote; its first line, when it is the Quote command's head, names the quoted nickname
    (the head's Discord link is dropped: it means nothing on a forum) and the excerpt's
    Discord escapes are undone (the archive escapes for its own format)."""
    parts: list[Quote] = []
    run: list[str] = []
    quoted = False

    def flush() -> None:
        body = "\n".join(run).strip("\n")
        if not quoted:
            if body.strip():
                parts.append(Quote(body))
            return
        lines = [line[1:].removeprefix(" ") for line in run]
        nick = None
        for head in _QUOTE_HEADS:
            found = head.match(lines[0]) if lines else None
            if found:
                nick = _ESCAPED.sub(r"\1", found["nick"])
                lines = [_ESCAPED.sub(r"\1", line) for line in lines[1:]]
                break
        parts.append(Quote("\n".join(lines), quote=True, nick=nick))

    for line in text.splitlines():
        starts_quote = line.startswith(">")
        if run and starts_quote != quoted:
            flush()
            run = []
        quoted = starts_quote
        run.append(line)
    if run:
        flush()
    return tuple(parts)


@attrs.frozen
class Embed:
    """One embed of a published message, as Discord laid it out."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...]  # (name, value): a heading and its lines
    footer: str
    colour: str = ""  # its bar's colour, "#f59e0b" (the bot's own value, never player text)


@attrs.frozen
class Message:
    """One message the bot published in #game: its text and its embeds."""

    content: str
    embeds: tuple[Embed, ...]


@attrs.frozen
class Turn:
    """One turn: the talk in #game, the dawn report, and the hidden part."""

    number: int
    posts: tuple[Post, ...]
    dawn: tuple[Message, ...]  # the public announcements, as published
    account: str  # every standing request and its fate, deaths, votes (the hosts' account, R47)
    refused: tuple[str, ...]  # requests the rules refused at the deadline, and why
    checks: tuple[str, ...]  # the commissar's checks and their answers (R18)
    mafia: tuple[str, ...]  # the mafia's kill requests in arrival order, and its room
    notes: tuple[str, ...]  # death notes delivered (R37)
    #: The host's story of the turn, above its results, as he published it (R47: his text,
    #: shown as his, escaped as all player text).
    story: str = ""
    #: The results still wait for the host's review: nothing of them was published.
    unpublished: bool = False


@attrs.frozen
class Archive:
    lang: Lang
    title: str
    setup: tuple[tuple[str, str], ...]  # (label, value)
    winner: str
    why: tuple[str, ...]
    reveal: bool
    seats: tuple[Seat, ...]
    turns: tuple[Turn, ...]
    wishes: bool = False  # the players' column of role wishes is shown (R58)
    #: R61: the forum game's hours as its players read them (None on the fast schedule).
    hours: str | None = None


# --- the replay: each turn's announcements, as the service made them ------------------------


@attrs.define
class _Replayed:
    public: list[Announcement] = attrs.Factory(list)
    private: list[Announcement] = attrs.Factory(list)
    account: dict[str, Any] | None = None
    refused: list[tuple[Request, str]] = attrs.Factory(list)
    kills: list[Request] = attrs.Factory(list)


def _replay(script: Mapping[str, Any], unresolved: int | None = None) -> dict[int, _Replayed]:
    """Run the script turn by turn as ``core/service.py`` does, keeping the announcements of
    each turn (``rules.replay.run_script`` keeps only the results). ``unresolved``: the turn
    the host's ``/mafia end`` stopped before its deadline: its requests, no dawn report."""
    game, turns = parse_script(script)
    out: dict[int, _Replayed] = {}
    for number, turn in enumerate(turns, start=1):
        if game.winner is not None:
            break  # the game has ended: later turns are ignored
        seen = out.setdefault(number, _Replayed())
        for action in turn.host:
            game.host_action(action)
        for req in turn.requests:
            refusal = game.submit(req)
            if refusal is not None:
                seen.refused.append((req, str(refusal.code)))
            elif req.do == "kill":
                seen.kills.append(req)
        if number == unresolved:
            break  # never resolved: nothing was published at its deadline
        if game.phase is Phase.OPEN:
            result = game.resolve(turn.downtime)  # R59, as the service resolved it
            announcements = night_announcements(game.state, result)
            seen.account = host_account(game.state, result).payload
            shots = bool(game.state.pistols)  # the results went out before the shots
            for req in turn.after:
                refusal = game.submit(req)
                if refusal is not None:
                    seen.refused.append((req, str(refusal.code)))
            result = game.finish_turn()
            if result.winner is not None and not shots:  # as the service published it
                announcements = ending_results(announcements)
            announcements += final_announcements(game.state, result)
        else:  # the game ended at a host exclusion before the deadline
            result = game.history[-1]
            announcements = []
        # R56: an exclusion was published when it happened, its role revealed (R35).
        excluded = [
            Announcement("excluded", PUBLIC, public_death(d))
            for d in result.deaths
            if d.step is None
        ]
        for a in [*excluded, *announcements]:
            if a.kind == "game_over":
                continue  # the archive's header says it
            (seen.public if a.audience in (PUBLIC, MAFIA) else seen.private).append(a)
    return out


# --- building the archive -----------------------------------------------------------------


#: How a date and time read in each language (the game's time zone named after it).
TIME_FORMATS: dict[str, str] = {"ru": "%d.%m.%Y %H:%M", "en": "%Y-%m-%d %H:%M"}

#: A Discord timestamp in a published text: ``<t:1767226200:f>``; a relative one
#: (``(<t:...:R>)``, "in 2 hours") means nothing in an archive and is dropped.
_STAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")
_RELATIVE = re.compile(r" ?\(<t:-?\d+:R>\)")


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _local(moment: datetime, lang: Lang, zone: ZoneInfo) -> str:
    """A moment in the game's time zone, as the reader's language writes it."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone).strftime(TIME_FORMATS.get(lang, TIME_FORMATS["en"]))


def _when(iso: Any, lang: Lang, zone: ZoneInfo) -> str | None:
    """A stored ISO time in the game's time zone, the zone named as players say it:
    ``10.03.2026 09:00 по Москве``, ``2026-03-10 09:00 Moscow time``."""
    if not iso:
        return None
    try:
        moment = datetime.fromisoformat(str(iso))
    except ValueError:
        return str(iso)
    return f"{_local(moment, lang, zone)} {zone_said(lang, zone.key, moment)}"


def _published(text: str, lang: Lang, zone: ZoneInfo) -> str:
    """The bot's own text as readers saw it, for a page: Discord timestamps in the game's time
    zone, bold marks dropped (the page sets the headings apart itself)."""
    text = _RELATIVE.sub("", text)
    text = _STAMP.sub(lambda m: _local(datetime.fromtimestamp(int(m[1]), UTC), lang, zone), text)
    return text.replace("**", "")


def _message(post: DiscordPost, lang: Lang, zone: ZoneInfo) -> Message:
    def clean(value: str | None) -> str:
        return _published(value or "", lang, zone)

    return Message(
        content=clean(post.content),
        embeds=tuple(
            Embed(
                title=clean(embed.title),
                description=clean(embed.description),
                fields=tuple((clean(f.name), clean(f.value)) for f in embed.fields),
                footer=clean(embed.footer.text if embed.footer else None),
                colour=f"#{embed.colour.value:06x}" if embed.colour is not None else "",
            )
            for embed in post.embeds
        ),
    )


def _targets(req: Request) -> str:
    return ", ".join(req.named()) or "-"


def _member_label(lang: Lang, uid: int, names: Mapping[int, str] | None) -> str:
    """A member by his display name only (an id means nothing to a reader); a member whose
    name is not known (he left the server, or the page was exported offline) says so."""
    return (names or {}).get(uid) or t(lang, "archive.member_unknown")


def _holder_label(lang: Lang, uid: int | None, names: Mapping[int, str] | None) -> str:
    """One of the members who played a replaced nickname (R60); None: purged since."""
    return t(lang, "archive.member_unknown") if uid is None else _member_label(lang, uid, names)


def _refused_line(lang: Lang, req: Request, code: str) -> str:
    return t(
        lang,
        "archive.refused_line",
        by=req.by,
        verb=verb_name(lang, req.do),
        targets=_targets(req),
        reason=t(lang, f"refusal.{code}") if has_key(f"refusal.{code}") else code,
    )


def build_archive(
    game: FinishedGame, lang: Lang, member_names: Mapping[int, str] | None = None
) -> Archive:
    """Everything the templates show, as plain strings (escaped by the templates)."""
    rec, summary = game.record, game.summary
    table = table_title(lang, game.table) if game.table is not None else t(lang, "archive.no_table")
    setup: list[tuple[str, str]] = [
        (t(lang, "archive.table"), table),
        (t(lang, "archive.game"), str(rec.id)),
    ]
    zone = _zone(rec.timezone)
    started = _when(summary.get("started"), lang, zone)
    ended = _when(summary.get("ended"), lang, zone)
    if started:
        setup.append((t(lang, "archive.started"), started))
    if ended:
        setup.append((t(lang, "archive.ended"), ended))
    setup.append((t(lang, "archive.schedule"), t(lang, f"choice.schedule.{rec.schedule_kind}")))
    setup.append((t(lang, "archive.roles"), role_summary(lang, [p.role for p in game.players])))
    # R60: the nicknames that changed hands (public: #game said so), and when the members are
    # revealed, who played each one, in order.
    holders = {nick: (members, turns) for nick, members, turns in game.holders()}
    if holders:
        setup.append(
            (
                t(lang, "archive.replacements"),
                ", ".join(
                    t(lang, "archive.replacement", nick=nick, turns=", ".join(map(str, handed)))
                    for nick, (_members, handed) in holders.items()
                ),
            )
        )
    seats = []
    for entry in roster_in_public_order(summary.get("roles") or ()):
        nick = str(entry["nick"])
        member = game.member_of(nick)  # None unless the host chose to reveal them
        label = None if member is None else _member_label(lang, member, member_names)
        if member is not None and nick in holders:
            members, handed = holders[nick]
            label = _holder_label(lang, members[0], member_names)
            for who, turn in zip(members[1:], handed, strict=True):
                after = _holder_label(lang, who, member_names)
                label = t(lang, "archive.member_then", before=label, after=after, turn=turn)
        if entry.get("alive"):
            fate = t(lang, "archive.alive")
        else:
            fate = t(
                lang,
                "archive.died",
                cause=t(lang, f"cause.{entry.get('cause')}"),
                turn=entry.get("turn") or 0,
            )
        final = entry.get("final_role")
        wish = game.wish_of(nick)
        seats.append(
            Seat(
                nick=nick,
                member=label,
                role=role_name(lang, str(entry["role"])),
                final_role=role_name(lang, str(final)) if final else None,
                fate=fate,
                wish=None if wish is None else role_name(lang, wish),
            )
        )
    # /mafia end (no winner) stops the game's current turn before its deadline.
    replayed = _replay(game.script, rec.turn if rec.winner is None else None)
    notes_by_turn = {
        int(turn["turn"]): turn.get("notes") or () for turn in game.outcome.get("turns") or ()
    }
    sent_refused: dict[int, list[tuple[Request, str]]] = {}
    for entry in game.refused:  # refused when sent: the sender was told why
        try:
            req = parse_request(entry.payload)
        except RequestFormatError:
            continue  # a payload this version cannot read: left out rather than guessed
        code = entry.outcome.removeprefix("refused:")
        sent_refused.setdefault(entry.turn, []).append((req, code))
    last = max([*replayed, *(p.turn for p in game.posts), 0])
    turns = []
    for number in range(1, last + 1):
        seen = replayed.get(number, _Replayed())
        checks: list[str] = []
        for a in seen.private:
            if a.kind == "check_none":  # R21, R39: told that the check got no answer
                text = t(
                    lang,
                    "archive.check",
                    commissar=a.audience,
                    target=a.payload["target"],
                    answer=t(lang, "archive.answer.none"),
                )
                if text not in checks:
                    checks.append(text)
            if a.kind == "check":
                answer = "mafia" if a.payload.get("result") == "mafia" else "not_mafia"
                text = t(
                    lang,
                    "archive.check",
                    commissar=a.payload.get("commissar") or a.audience,
                    target=a.payload["target"],
                    answer=t(lang, f"archive.answer.{answer}"),
                )
                killed_by = render(lang, "check", a.payload).splitlines()[1:]
                if killed_by:  # R18: who killed him and how, as the commissar read it
                    text = " ".join([text, *killed_by])
                if text not in checks:  # R18, R19: one check may reach several readers
                    checks.append(text)
        mafia = [
            t(lang, "archive.kill_request", by=req.by, targets=_targets(req)) for req in seen.kills
        ]
        mafia += [render(lang, a.kind, a.payload) for a in seen.public if a.audience == MAFIA]
        account = ""
        if seen.account is not None:  # the hosts' account, minus its title (the turn's)
            account = "\n".join(render_host_account(lang, seen.account).splitlines()[1:])
        turns.append(
            Turn(
                number=number,
                posts=tuple(Post(p.nick, p.text, p.ghost) for p in game.posts if p.turn == number),
                dawn=()
                if number in game.unpublished
                else tuple(
                    _message(post, lang, zone)
                    for a in seen.public
                    if a.audience == PUBLIC
                    for post in render_posts(lang, a.kind, a.payload)
                ),
                account=account,
                refused=tuple(
                    _refused_line(lang, req, code)
                    for req, code in [*sent_refused.get(number, ()), *seen.refused]
                ),
                checks=tuple(checks),
                mafia=tuple(mafia),
                notes=tuple(
                    t(lang, "archive.note", author=n["from"], to=n["to"], text=n["text"])
                    for n in notes_by_turn.get(number, ())
                ),
                story=game.stories.get(number, ""),
                unpublished=number in game.unpublished,
            )
        )
    posts_before = [p for p in game.posts if p.turn < 1]
    if posts_before:  # posted before the first turn opened (none today): kept, not lost
        first = turns[0] if turns else Turn(1, (), (), "", (), (), (), ())
        extra = tuple(Post(p.nick, p.text, p.ghost) for p in posts_before)
        turns[:1] = [attrs.evolve(first, posts=extra + first.posts)]
    winner_payload = {**summary, "started": None, "ended": None}  # dates: in the setup
    return Archive(
        lang=lang,
        title=t(lang, "archive.title", game=rec.id, table=table),
        setup=tuple(setup),
        winner=winner_line(lang, summary),
        why=tuple(summary_lines(lang, winner_payload)),
        reveal=rec.reveal,
        seats=tuple(seats),
        turns=tuple(turns),
        wishes=rec.wishes and rec.reveal,
        hours=schedule_hours(lang, schedule_of(rec)),
    )


# --- templates ----------------------------------------------------------------------------

#: What makes Markdown out of text anywhere in a line: emphasis (``*``; ``_`` and ``~~``
#: not inside a word), code, links, a backslash, and what starts HTML (a tag, a comment, an
#: entity). Nothing else is escaped, so a post reads on a forum as it was typed.
_MD_INLINE = re.compile(r"[\\`*\[\]]|(?<![^\W_])_|_(?![^\W_])|~~|<(?=[A-Za-z/!?])|&(?=#?\w+;)")
#: What makes Markdown out of a line's start: a heading, a quote, a list item, a rule or a
#: heading's underline, four spaces of code.
_MD_LINE_START = re.compile(
    r"^( {0,3})(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|\d{1,9}[.)](?=\s|$)|(?:=+|-+)\s*$)"
)
#: Unicode isolates around a player's text that holds direction controls of its own, so a
#: right-to-left override inside it (U+202E) ends with the text instead of reversing what
#: follows; texts without any (all of them, in practice) get no invisible marks.
FSI, PDI = "\u2068", "\u2069"
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _isolated(text: str) -> str:
    return f"{FSI}{text}{PDI}" if _BIDI_CONTROLS.search(text) else text


def _md_inline(text: str) -> str:
    return _MD_INLINE.sub(lambda m: "".join(f"\\{ch}" for ch in m[0]), text)


def md_escape(value: Any, *, line_start: bool = False) -> str:
    """A value as literal Markdown text in a line: no emphasis, link, code or HTML can come
    out of it (a backslash before the few marks that would make one, no entity).
    ``line_start``: the value begins a line, so what would start a heading, quote or list
    there is escaped too."""
    text = _md_inline(str(value))
    if line_start:
        text = _MD_LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}", text)
        text = re.sub(r"^ {4,}", "", text)
    return text


def md_line(value: Any) -> str:
    """A value that begins a line of the Markdown: escaped as :func:`md_escape` does at a
    line's start."""
    return md_escape(value, line_start=True)


def md_text(value: Any, quote: bool = True) -> str:
    """Player text in Markdown: escaped, its line breaks kept (inside a quote, or inside a
    list item with ``quote=False``); isolated only if it holds direction controls."""
    lines = [md_line(line) for line in _isolated(str(value)).splitlines()] or [""]
    return ("  \n> " if quote else "  \n  ").join(lines)


def md_paragraph(value: Any) -> str:
    """A player's own words as a paragraph, its line breaks kept."""
    return md_text(value, quote=False).replace("  \n  ", "  \n")


def md_account(value: Any) -> str:
    """The hosts' account as Markdown: its "- " lines as list items, each heading line apart
    from the list before it (every value escaped)."""
    out: list[str] = []
    listing = False
    for line in str(value).splitlines():
        item = line.startswith("- ")
        if listing and not item:
            out.append("")
        out.append(f"- {md_escape(line[2:])}" if item else f"{md_line(line)}  ")
        listing = item
    return "\n".join(out)


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        # Autoescape on for the web page: player text is hostile input.
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default=False),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_escape
    env.filters["md_line"] = md_line
    env.filters["md_paragraph"] = md_paragraph
    env.filters["md_account"] = md_account
    env.filters["bidi"] = _isolated
    env.filters["md_text"] = md_text
    return env


_ENV = _environment()


def _labels(lang: Lang) -> dict[str, str]:
    keys = (
        "players",
        "nick",
        "member",
        "role",
        "final_role",
        "fate",
        "turn",
        "posts",
        "no_posts",
        "ghost",
        "dawn",
        "hidden",
        "requests",
        "refused",
        "checks",
        "mafia",
        "notes",
        "members_hidden",
        "wish",
        "no_wish",
        "footer",
        "story",
        "unpublished",
    )
    return {key: t(lang, f"archive.{key}") for key in keys}


def archive_html(
    game: FinishedGame, lang: Lang, member_names: Mapping[int, str] | None = None
) -> str:
    """The archive as one self-contained, printable web page (no external asset or script)."""
    archive = build_archive(game, lang, member_names)
    return _ENV.get_template("archive.html.j2").render(a=archive, label=_labels(lang))


def archive_markdown(
    game: FinishedGame, lang: Lang, member_names: Mapping[int, str] | None = None
) -> str:
    """The archive as Markdown, every value escaped."""
    archive = build_archive(game, lang, member_names)
    return _ENV.get_template("archive.md.j2").render(a=archive, label=_labels(lang))


def archive_renderer(fmt: str, lang: str | None) -> Callable[[GameStore, int], Awaitable[str]]:
    """For ``main.py export --format html|md``: the function that renders a stored game.
    ``lang``: en or ru; default the game's table language (English if the table is gone)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown archive format {fmt!r}")

    async def _render(store: GameStore, game_id: int) -> str:
        game = await load_finished(store, game_id)
        chosen = as_lang(lang) or (as_lang(game.table.language) if game.table else None) or "en"
        build = archive_html if fmt == "html" else archive_markdown
        return build(game, chosen)

    return _render
