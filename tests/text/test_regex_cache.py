"""Compiled patterns kept from one process to the next (text/regex_cache.py)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from memhooks.text import regex_cache

if TYPE_CHECKING:
    from pathlib import Path

PATTERNS = [
    (r"(?P<word>\b[a-z]+)-(?P<digits>\d{2,})", 0),
    (r"^\s*(?:done|finished)\b", re.IGNORECASE | re.MULTILINE),
    (rb"(?i)token[ \t]*[:=][ \t]*(?P<value>\S+)", 0),
]
TEXTS = ["alpha-123 beta-4", "  Done here\nfinished", "TOKEN = s3cret rest"]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process's start: no cache on, the compiler as the standard library has it."""
    monkeypatch.setattr(regex_cache, "_state", regex_cache._State())
    monkeypatch.setattr(regex_cache._compiler, "compile", regex_cache._compiler.compile)


def _made(pattern: str | bytes, flags: int) -> re.Pattern[str] | re.Pattern[bytes]:
    re.purge()  # past the module's own cache, as in a new process
    return re.compile(pattern, flags)


def _use(pattern: re.Pattern[str] | re.Pattern[bytes], text: str) -> list[object]:
    subject = text.encode() if isinstance(pattern.pattern, bytes) else text
    return [(m.span(), m.groupdict()) for m in pattern.finditer(subject)]  # type: ignore[arg-type]


def _new_process(folder: Path) -> None:
    regex_cache._compiler.compile = regex_cache._state.original or regex_cache._compiler.compile
    regex_cache._state = regex_cache._State()
    regex_cache.start(str(folder))


@pytest.mark.usefixtures("fresh")
def test_a_kept_pattern_matches_as_a_compiled_one(tmp_path: Path) -> None:
    plain = [_made(p, f) for p, f in PATTERNS]
    regex_cache.start(str(tmp_path))
    [_made(p, f) for p, f in PATTERNS]
    regex_cache.save()
    _new_process(tmp_path)
    assert len(regex_cache._state.table) == len(PATTERNS)
    kept = [_made(p, f) for p, f in PATTERNS]
    assert not regex_cache._state.added  # each built from the file
    for before, after, text in zip(plain, kept, TEXTS, strict=True):
        assert (after.pattern, after.flags, after.groupindex) == (
            before.pattern,
            before.flags,
            before.groupindex,
        )
        assert _use(after, text) == _use(before, text)
        assert _use(after, text)  # the texts match: the comparison says something


@pytest.mark.usefixtures("fresh")
def test_a_damaged_file_or_entry_is_compiled_again(tmp_path: Path) -> None:
    (tmp_path / regex_cache.FILE).write_bytes(b"\x00not marshal")
    regex_cache.start(str(tmp_path))
    assert regex_cache._state.table == {}
    pattern, flags = PATTERNS[0]
    bad = [
        (-1, pattern, flags, [1, 2, 3], 2, {}, ()),  # code the engine refuses
        (2, pattern, flags, b"\x01\x02\x03", 2, {}, ()),  # no whole code units
        ("?", pattern),
    ]
    for entry in bad:
        regex_cache._state.table[(pattern, flags)] = entry
        regex_cache._state.added = False
        made = _made(pattern, flags)
        assert _use(made, TEXTS[0]) == _use(re.compile(pattern, flags), TEXTS[0])
        assert regex_cache._state.added  # the bad entry replaced by the compiler's own


@pytest.mark.usefixtures("fresh")
def test_the_table_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regex_cache, "MAX_ENTRIES", 2)
    regex_cache.start(str(tmp_path))
    for word in ("one", "two", "three"):
        _made(word, 0)
    regex_cache.save()
    _new_process(tmp_path)
    assert sorted(p for p, _ in regex_cache._state.table) == ["three", "two"]
