"""The catalogues are parsed lazily (core/i18n.py): start-up finds where each entry starts,
and each message is parsed from its own text the first time it is used. Nothing parsed is
stored between processes, so no stale parse can outlive a change of a ``.ftl`` file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from fluent.runtime import FluentResource
from fluent.syntax import ast
from fluent.syntax.serializer import serialize_pattern

from core import i18n
from core.i18n import LANGUAGES, Lang

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_entry_parses_as_in_its_whole_file(lang: Lang) -> None:
    """Parsed from its own text, every message is what the parse of its whole file gives."""
    whole: dict[str, ast.Message] = {}
    for path in i18n.catalogue_files(lang):
        for entry in FluentResource(path.read_text(encoding="utf-8")).body:
            assert not isinstance(entry, ast.Junk), entry.content
            if isinstance(entry, ast.Message):
                whole[entry.id.name] = entry
    sources = i18n._Sources(lang)
    assert sorted(sources.texts) == sorted(whole)
    for name, message in whole.items():
        lazy = sources.entry(name)
        assert isinstance(lazy, ast.Message)
        assert lazy.value is not None and message.value is not None
        assert serialize_pattern(lazy.value) == serialize_pattern(message.value), name
        assert [a.id.name for a in lazy.attributes] == [a.id.name for a in message.attributes]


def _catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> i18n._Sources:
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "a.ftl").write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    return i18n._Sources("en")


def test_a_syntax_error_fails_loudly_when_its_message_is_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "# about\ngood = Fine.\nbroken = Starts well\nnot a message\n\nlast = { $n } left.\n"
    sources = _catalogue(tmp_path, monkeypatch, text)
    assert sorted(sources.texts) == ["broken", "good", "last"]
    good = sources.entry("good")
    assert isinstance(good, ast.Message) and good.value is not None
    with pytest.raises(ValueError, match="cannot parse"):
        sources.entry("broken")
    last = sources.entry("last")
    assert isinstance(last, ast.Message) and last.value is not None
    assert serialize_pattern(last.value).strip() == "{ $n } left."


def test_junk_before_the_first_message_and_duplicates_fail_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ValueError, match="cannot parse"):
        _catalogue(tmp_path, monkeypatch, "## group\n  stray text\nok = Yes.\n")
    (tmp_path / "en" / "a.ftl").write_text("one = A\ntwo = B\none = C\n", encoding="utf-8")
    with pytest.raises(ValueError, match="defined twice"):
        i18n._Sources("en")


def test_start_up_parses_only_what_it_renders() -> None:
    """A fresh process that renders one message in each language parses two entries, not
    the catalogues; and what it renders is the full catalogue's text."""
    code = (
        "from core import i18n\n"
        "print(i18n.t('en', 'cmd.mafia.description'))\n"
        "print(i18n.t('ru', 'cmd.mafia.description'))\n"
        "print(sum(len(i18n._sources(lang)._parsed) for lang in i18n.LANGUAGES))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    key = "cmd.mafia.description"
    assert out[:2] == [i18n.catalogue("en")[key], i18n.catalogue("ru")[key]]
    assert out[2] == "2"
