"""The end-of-game picture: a PNG attached to the final announcement (Pillow only).

One row per nickname (its role at the end, in its faction's colour), one column per turn: a
line in the faction's colour while the player lived, a mark in the cell of the turn he died
in, its shape and colour telling how (docs/REFERENCE.md section 8, causes of death; a legend below
explains the marks present), and in each turn's cell the number of lynch votes the player
received. Counts only: R54's "totals" publishes no voter, so the picture names none either.
The winner and the table and game are in the title. Members are never drawn, whatever the
game's ``reveal``: the picture shows nicknames only.

Readable where Discord shows it: an opaque dark card with light text and saturated marks,
drawn about 1200 px wide with large text so that Discord's preview (about 400-550 px wide)
still reads, on its dark and its light theme alike. DejaVu Sans (assets/fonts) covers Latin
and Cyrillic. Many players or turns shrink the rows and columns; past :data:`MAX_ROWS`
players the rest are counted in a last line, past :data:`MAX_COLS` turns a column covers
several turns. Pillow's basic text layout is used, so the same game gives the same bytes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import attrs
from PIL import Image, ImageDraw, ImageFont

from core.cast_text import cast_of_end, cast_values
from core.history import FinishedGame
from core.i18n import Lang, t
from rules.announce import roster_in_public_order
from rules.roles import INTERNAL_ROLES, ROLES
from rules.win import loner_winners

FONTS: Final = Path(__file__).resolve().parent.parent / "assets" / "fonts"
REGULAR: Final = FONTS / "DejaVuSans.ttf"
BOLD: Final = FONTS / "DejaVuSans-Bold.ttf"

#: At most this many rows of players; the rest are counted in one last line.
MAX_ROWS: Final = 40
#: At most this many turn columns; past it a column covers several turns.
MAX_COLS: Final = 30

Colour = tuple[int, int, int]

BACKGROUND: Final[Colour] = (30, 33, 40)
FRAME: Final[Colour] = (96, 102, 116)
STRIPE: Final[Colour] = (38, 42, 51)  # every other row
GRID: Final[Colour] = (58, 63, 74)
TEXT: Final[Colour] = (240, 242, 246)
DIM: Final[Colour] = (168, 174, 186)
PILL: Final[Colour] = (214, 218, 226)
PILL_TEXT: Final[Colour] = (24, 26, 32)

FACTION_COLOURS: Final[Mapping[str, Colour]] = {
    "town": (102, 170, 255),
    "mafia": (240, 82, 88),
    "loner": (196, 146, 255),
}
WINNER_COLOURS: Final[Mapping[str | None, Colour]] = {
    "town": FACTION_COLOURS["town"],
    "mafia": FACTION_COLOURS["mafia"],
    **{name: FACTION_COLOURS["loner"] for name in loner_winners()},
    "draw": DIM,
    None: DIM,
}

#: Causes of death (docs/REFERENCE.md section 8) -> the mark drawn for them.
MARK_OF: Final[Mapping[str, str]] = {
    "lynch": "lynch",
    "mafia": "mafia",
    "poison": "poison",
    "euthanasia": "poison",
    "hunt": "hunt",
    "hunt_backfire": "hunt",
    "pistol": "pistol",
    "inactive": "inactive",
    "missed_votes": "inactive",
    "excluded": "excluded",
}
#: The marks in the legend's order, with their colours.
MARK_COLOURS: Final[Mapping[str, Colour]] = {
    "lynch": (250, 200, 60),
    "mafia": (240, 82, 88),
    "poison": (80, 205, 130),
    "hunt": (255, 140, 50),
    "pistol": (80, 210, 245),
    "inactive": (176, 180, 190),
    "excluded": (255, 120, 190),
    "other": (176, 180, 190),
}


@attrs.frozen
class Row:
    """One nickname as the picture shows it."""

    nick: str
    role: str  # the role at the end (R19, R22: the final role if it changed)
    faction: str
    alive: bool
    cause: str | None
    turn: int | None


@attrs.frozen
class PictureData:
    """What is drawn, read from the finished game (no member in it)."""

    game_id: int
    table: str  # '' for a server's first table
    winner: str | None
    reason: str
    turns: int
    rows: tuple[Row, ...]
    votes: Mapping[tuple[str, int], int]  # (nickname, turn) -> lynch votes received
    hanged: frozenset[tuple[str, int]]
    cast: frozenset[str] | None = None  # the roles dealt: the reason names only their sides


def _faction(role: str) -> str:
    cls = ROLES.get(role) or INTERNAL_ROLES.get(role)
    return str(cls.faction) if cls is not None else "town"


def picture_data(game: FinishedGame) -> PictureData:
    """The rows, turns and vote counts of ``game`` (its summary and replayed outcome)."""
    summary = game.summary
    rows = []
    for entry in roster_in_public_order(summary.get("roles") or ()):
        role = str(entry.get("final_role") or entry.get("role"))
        rows.append(
            Row(
                nick=str(entry.get("nick")),
                role=role,
                faction=_faction(role),
                alive=bool(entry.get("alive")),
                cause=entry.get("cause"),
                turn=entry.get("turn"),
            )
        )
    votes: dict[tuple[str, int], int] = {}
    hanged: set[tuple[str, int]] = set()
    outcome_turns: Sequence[Mapping[str, Any]] = game.outcome.get("turns") or ()
    for result in outcome_turns:
        turn = int(result.get("turn") or 0)
        lynch = result.get("lynch") or {}
        for nick, voters in (lynch.get("votes") or {}).items():
            if voters:
                votes[(str(nick), turn)] = len(voters)
        if lynch.get("hanged"):
            hanged.add((str(lynch["hanged"]), turn))
    turns = max(
        [int(summary.get("turns") or 0), len(outcome_turns), 1]
        + [r.turn for r in rows if r.turn is not None]
    )
    winner = summary.get("winner")
    reason = summary.get("reason") or ("host_ended" if winner is None else "unknown")
    return PictureData(
        game_id=game.id,
        table=game.table.name if game.table is not None else "",
        winner=winner,
        reason=str(reason),
        turns=turns,
        rows=tuple(rows),
        votes=votes,
        hanged=frozenset(hanged),
        cast=cast_of_end(summary),
    )


def game_picture(game: FinishedGame, lang: Lang) -> bytes:
    """The end-of-game picture of ``game`` as PNG bytes, its texts in ``lang``."""
    return draw_picture(picture_data(game), lang)


# --- drawing ------------------------------------------------------------------------------


@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    # Basic layout: the same bytes wherever the picture is drawn (with or without libraqm).
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def clip_text(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut with an ellipsis to fit ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if font.getlength(text[:mid].rstrip() + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: float, lines: int) -> list[str]:
    """``text`` in at most ``lines`` lines of ``width`` pixels (the last one clipped)."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and font.getlength(line + " " + words[0]) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = clip_text(out[-1] + " " + " ".join(words), font, width)
    return [clip_text(line, font, width) for line in out]


def draw_mark(
    draw: ImageDraw.ImageDraw,
    mark: str,
    cx: float,
    cy: float,
    size: float,
    *,
    ground: Colour = BACKGROUND,
    wide: float = 0.0,
) -> None:
    """The mark of a cause of death, centred on (cx, cy), ``size`` pixels across, on a row
    of colour ``ground`` (the lynch's square widens to ``wide`` for its vote count)."""
    colour = MARK_COLOURS.get(mark, MARK_COLOURS["other"])
    r = size / 2
    w = max(3, round(size / 5))
    box = (cx - r, cy - r, cx + r, cy + r)
    # A halo of the row's colour keeps every mark apart from the faction's line behind it.
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=ground)
    if mark == "lynch":
        half = max(r, wide / 2)
        draw.rounded_rectangle((cx - half, cy - r, cx + half, cy + r), radius=size / 6, fill=colour)
    elif mark == "mafia":
        k = r * 0.85
        draw.line((cx - k, cy - k, cx + k, cy + k), fill=colour, width=w)
        draw.line((cx - k, cy + k, cx + k, cy - k), fill=colour, width=w)
    elif mark == "poison":
        draw.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)], fill=colour)
    elif mark == "hunt":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour)
    elif mark == "pistol":
        draw.ellipse(box, fill=colour)
    elif mark == "excluded":
        draw.ellipse(box, outline=colour, width=w)
        k = r * 0.7
        draw.line((cx - k, cy + k, cx + k, cy - k), fill=colour, width=w)
    else:  # inactive, and anything else
        draw.ellipse(box, outline=colour, width=w)


def _pill(
    draw: ImageDraw.ImageDraw,
    text: str,
    cx: float,
    cy: float,
    font: ImageFont.FreeTypeFont,
    *,
    fill: Colour | None = PILL,
) -> None:
    """A vote count: dark digits on a light pill (or on the lynch mark: ``fill`` None)."""
    width = font.getlength(text)
    height = font.size
    if fill is not None:
        pad = height * 0.35
        draw.rounded_rectangle(
            (cx - width / 2 - pad, cy - height / 2 - 3, cx + width / 2 + pad, cy + height / 2 + 3),
            radius=height / 2,
            fill=fill,
        )
    draw.text((cx, cy), text, font=font, fill=PILL_TEXT, anchor="mm")


def draw_picture(data: PictureData, lang: Lang) -> bytes:
    """Draw ``data`` (see the module's docstring for the layout)."""
    shown = list(data.rows[:MAX_ROWS])
    hidden = len(data.rows) - len(shown)
    compact = len(shown) > 16  # one line per player instead of two
    width = 1400 if compact else 1200
    margin = 36

    per = math.ceil(data.turns / MAX_COLS)  # turns per column
    ncols = math.ceil(data.turns / per)

    title_font = _font(BOLD, 52)
    sub_font = _font(REGULAR, 30)
    head_font = _font(BOLD, 26 if compact else 28)
    if compact:
        row_h = 44 if len(shown) <= 30 else 36
        nick_font = _font(BOLD, 27 if row_h == 44 else 23)
        role_font = _font(REGULAR, 23 if row_h == 44 else 20)
        nick_w, role_w = 300, 290
        name_w = nick_w + role_w
    else:
        row_h = 76
        nick_font = _font(BOLD, 32)
        role_font = _font(REGULAR, 27)
        nick_w = role_w = name_w = 420
    legend_font = _font(REGULAR, 26)

    grid_x = margin + name_w + 12
    col_w = min(180.0, (width - margin - grid_x) / ncols)
    vote_font = _font(BOLD, max(14, min(26, round(min(col_w, row_h) * 0.48))))
    mark_size = min(col_w, row_h) * 0.62

    # The legend: the marks of this game's deaths, then the vote count.
    marks = sorted(
        {MARK_OF.get(str(r.cause), "other") for r in shown if not r.alive},
        key=lambda m: list(MARK_COLOURS).index(m),
    )
    items: list[tuple[str | None, str]] = [(m, t(lang, f"picture.mark.{m}")) for m in marks]
    if data.votes and per == 1:  # counts are drawn when a column is one turn
        items.append((None, t(lang, "picture.votes")))
    scratch = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    legend_lines: list[list[tuple[str | None, str, float]]] = [[]]
    x = float(margin)
    for mark, label in items:
        label = clip_text(label, legend_font, width - 2 * margin - 60)
        item_w = 44 + scratch.textlength(label, font=legend_font) + 34
        if legend_lines[-1] and x + item_w > width - margin:
            legend_lines.append([])
            x = float(margin)
        legend_lines[-1].append((mark, label, x))
        x += item_w
    legend_h = 46 * len(legend_lines) if items else 0

    title = t(lang, f"winner.{data.winner}") if data.winner else t(lang, "winner.none")
    place = t(lang, "picture.game", game=data.game_id, turns=data.turns)
    if data.table:  # a long table name is cut, the game and its length stay
        room = width - 2 * margin - sub_font.getlength(" · " + place)
        place = f"{clip_text(data.table, sub_font, max(room, 60))} · {place}"
    reason = t(lang, f"gameover.reason.{data.reason}", **cast_values(lang, data.cast))
    reason_lines = _wrap(reason, sub_font, width - 2 * margin, 2)

    top = margin
    header_y = top + 64 + 40 * (1 + len(reason_lines)) + 18
    grid_y = header_y + 46
    rows_h = row_h * (len(shown) + (1 if hidden else 0))
    height = grid_y + rows_h + 24 + legend_h + margin

    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=FRAME, width=3)

    # Title: the winner, then the table and game, then why the game ended.
    draw.text(
        (margin, top),
        clip_text(title, title_font, width - 2 * margin),
        font=title_font,
        fill=WINNER_COLOURS.get(data.winner, DIM),
    )
    y = top + 68
    draw.text((margin, y), clip_text(place, sub_font, width - 2 * margin), font=sub_font, fill=TEXT)
    for line in reason_lines:
        y += 40
        draw.text((margin, y), line, font=sub_font, fill=DIM)

    # Column heads: the turns (the first turn of each column).
    label_every = max(1, math.ceil(head_font.getlength("88") * 1.3 / col_w))
    draw.text(
        (grid_x - 16, header_y + 20),
        clip_text(t(lang, "picture.turn"), head_font, name_w - 8),
        font=head_font,
        fill=DIM,
        anchor="rm",
    )
    for col in range(ncols):
        if col % label_every == 0:
            cx = grid_x + col_w * (col + 0.5)
            draw.text(
                (cx, header_y + 20), str(col * per + 1), font=head_font, fill=DIM, anchor="mm"
            )
    draw.line((margin, grid_y - 4, width - margin, grid_y - 4), fill=GRID, width=2)

    for index, row in enumerate(shown):
        y0 = grid_y + index * row_h
        cy = y0 + row_h / 2
        ground = STRIPE if index % 2 else BACKGROUND
        if index % 2:
            draw.rectangle((margin, y0, width - margin, y0 + row_h - 1), fill=STRIPE)
        colour = FACTION_COLOURS.get(row.faction, TEXT)
        draw.rectangle((margin, y0 + 6, margin + 7, y0 + row_h - 6), fill=colour)
        nick_colour = TEXT if row.alive else DIM
        role_text = t(lang, f"role.{row.role}")
        if compact:
            draw.text(
                (margin + 18, cy),
                clip_text(row.nick, nick_font, nick_w - 26),
                font=nick_font,
                fill=nick_colour,
                anchor="lm",
            )
            draw.text(
                (margin + nick_w, cy),
                clip_text(role_text, role_font, role_w - 8),
                font=role_font,
                fill=colour,
                anchor="lm",
            )
        else:
            draw.text(
                (margin + 18, y0 + 6),
                clip_text(row.nick, nick_font, name_w - 26),
                font=nick_font,
                fill=nick_colour,
            )
            draw.text(
                (margin + 18, y0 + 43),
                clip_text(role_text, role_font, name_w - 26),
                font=role_font,
                fill=colour,
            )
        # The life line, to the column of the death (or to the end).
        last_col = ncols - 1 if row.alive or row.turn is None else (row.turn - 1) // per
        line_end = grid_x + col_w * (last_col + 0.5)
        draw.rounded_rectangle(
            (grid_x + 4, cy - 4, line_end if not row.alive else width - margin - 4, cy + 4),
            radius=4,
            fill=_mix(colour, BACKGROUND, 0.55),
        )
        if per == 1:  # the lynch votes received, turn by turn
            for (nick, turn), count in data.votes.items():
                if nick != row.nick or (nick, turn) in data.hanged:
                    continue
                _pill(draw, str(count), grid_x + col_w * (turn - 0.5), cy, vote_font)
        if not row.alive:
            mark = MARK_OF.get(str(row.cause), "other")
            hanged_by = data.votes.get((row.nick, row.turn or 0)) if per == 1 else None
            wide = vote_font.getlength(str(hanged_by)) + 10 if mark == "lynch" and hanged_by else 0
            draw_mark(draw, mark, line_end, cy, mark_size, ground=ground, wide=wide)
            if mark == "lynch" and hanged_by:
                _pill(draw, str(hanged_by), line_end, cy, vote_font, fill=None)
    if hidden:
        y0 = grid_y + len(shown) * row_h
        draw.text(
            (margin + 18, y0 + row_h / 2),
            t(lang, "picture.more", count=hidden),
            font=role_font,
            fill=DIM,
            anchor="lm",
        )
    # Turn separators.
    for col in range(1, ncols):
        x_sep = grid_x + col_w * col
        draw.line((x_sep, grid_y, x_sep, grid_y + rows_h), fill=GRID, width=1)

    # The legend.
    y = grid_y + rows_h + 24
    for legend_line in legend_lines:
        for mark, label, x in legend_line:
            if mark is None:
                _pill(draw, "3", x + 16, y + 20, legend_font)
            else:
                draw_mark(draw, mark, x + 16, y + 20, 30)
            draw.text((x + 48, y + 20), label, font=legend_font, fill=TEXT, anchor="lm")
        y += 46

    out = io.BytesIO()
    image.save(out, format="PNG")  # zlib's default level: fast, still small
    return out.getvalue()


def _mix(a: Colour, b: Colour, share: float) -> Colour:
    """``share`` of ``a`` and the rest of ``b``."""
    return (
        round(a[0] * share + b[0] * (1 - share)),
        round(a[1] * share + b[1] * (1 - share)),
        round(a[2] * share + b[2] * (1 - share)),
    )
