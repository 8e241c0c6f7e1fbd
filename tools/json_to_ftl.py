"""One-off converter: a flat JSON catalogue (``str.format`` placeholders) -> Fluent files.

Used once to move ``locales/<lang>.json`` to ``locales/<lang>/*.ftl``; kept so that keys added
to a JSON catalogue on another branch can be appended to the Fluent files the same way::

    python tools/json_to_ftl.py locales/ru.json ru

Only keys missing from the Fluent files are appended (existing messages are never rewritten),
each to the file of its area. Dotted keys become Fluent ids with dashes
(``play.accepted.vote`` -> ``play-accepted-vote``), ``{nick}`` becomes ``{ $nick }``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from fluent.syntax import FluentParser, ast

LOCALES = Path(__file__).resolve().parent.parent / "locales"

#: The file of each key, by its first dotted part; anything else goes to game.ftl.
AREAS: dict[str, str] = {
    "cmd": "commands",
    "choice": "commands",
    "error": "errors",
    "refusal": "errors",
    "setup": "host",
    "audit": "host",
    "channel": "host",
    "topic": "host",
    "perm": "host",
    "host": "host",
    "secrecy": "host",
    "delivery": "host",
    "start": "host",
    "state": "host",
    "confirm": "host",
}
SPECIAL_LINE_START = ("[", "*", ".")


def fluent_id(key: str) -> str:
    return key.replace(".", "-")


def to_ftl(key: str, text: str) -> str:
    """One Fluent message for a ``str.format`` template."""
    body = re.sub(r"\{([a-z_]+)\}", r"{ $\1 }", text)
    lines = []
    for line in body.split("\n"):
        if line.startswith(SPECIAL_LINE_START):
            line = '{ "' + line[0] + '" }' + line[1:]
        lines.append(line)
    if len(lines) == 1:
        return f"{fluent_id(key)} = {lines[0]}\n"
    return f"{fluent_id(key)} =\n" + "".join(f"    {line}\n" if line else "\n" for line in lines)


def existing_ids(lang_dir: Path) -> set[str]:
    ids: set[str] = set()
    for path in lang_dir.glob("*.ftl"):
        resource = FluentParser().parse(path.read_text(encoding="utf-8"))
        ids |= {e.id.name for e in resource.body if isinstance(e, ast.Message)}
    return ids


def main(json_path: str, lang: str) -> None:
    data: dict[str, str] = json.loads(Path(json_path).read_text(encoding="utf-8"))
    lang_dir = LOCALES / lang
    lang_dir.mkdir(exist_ok=True)
    known = existing_ids(lang_dir)
    for key, text in data.items():
        if fluent_id(key) in known:
            continue
        message = to_ftl(key, text)
        parsed = FluentParser().parse(message)
        if any(isinstance(e, ast.Junk) for e in parsed.body):
            raise SystemExit(f"{key}: cannot convert {text!r}")
        area = AREAS.get(key.split(".", 1)[0], "game")
        with (lang_dir / f"{area}.ftl").open("a", encoding="utf-8") as out:
            out.write(message)
        print(f"{lang}: {key} -> {area}.ftl")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
