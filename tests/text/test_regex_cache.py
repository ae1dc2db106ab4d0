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
    kept_file = [p for p in tmp_path.iterdir() if p.is_file()]
    # the owner's alone: it holds patterns, some from a project's committed configuration
    assert [p.stat().st_mode & 0o777 for p in kept_file] == [0o600]
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


def _project_patterns() -> list[tuple[str | bytes, int]]:
    """Every pattern the package's modules hold at their top level, compiled or lazy."""
    import importlib
    import pkgutil

    import memhooks
    from memhooks.text import lazy_re

    found: dict[tuple[str | bytes, int], None] = {}
    for info in pkgutil.walk_packages(memhooks.__path__, "memhooks."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, re.Pattern):
                found[(value.pattern, value.flags)] = None
            elif isinstance(value, lazy_re._Lazy):
                found[(value._source, value._flags)] = None
    return list(found)


@pytest.mark.usefixtures("fresh")
def test_every_project_pattern_is_built_from_the_file_as_the_compiler_builds_it(
    tmp_path: Path,
) -> None:
    patterns = _project_patterns()
    assert len(patterns) > 100  # the walk found the package's patterns
    engine = regex_cache._sre.compile
    made: dict[tuple[str | bytes, int], tuple[object, ...]] = {}

    def note(*given: object) -> object:
        made[current] = tuple([int(i) for i in g] if isinstance(g, list) else g for g in given)
        return engine(*given)

    regex_cache._sre.compile = note
    try:
        for current in patterns:
            re.purge()
            plain = regex_cache._compiler.compile(*current)
    finally:
        regex_cache._sre.compile = engine
    regex_cache.start(str(tmp_path))
    for pattern, flags in patterns:
        _made(pattern, flags)
    regex_cache.save()
    _new_process(tmp_path)
    for key in patterns:
        re.purge()
        kept = re.compile(*key)
        assert tuple(regex_cache._unpacked(regex_cache._state.table[key])) == made[key], key
        plain = regex_cache._state.original(*key)
        assert (kept.pattern, kept.flags, kept.groups, kept.groupindex) == (
            plain.pattern,
            plain.flags,
            plain.groups,
            plain.groupindex,
        )
    assert not regex_cache._state.added  # every one built from the file


@pytest.mark.usefixtures("fresh")
def test_a_file_whose_reading_runs_out_of_memory_is_an_empty_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a flipped byte in a length field makes marshal ask for gigabytes: MemoryError
    (tmp_path / regex_cache.FILE).write_bytes(b"(\xff\xff\xff\x7f")

    def too_big(data: bytes) -> object:
        raise MemoryError

    monkeypatch.setattr(regex_cache.marshal, "loads", too_big)
    regex_cache.start(str(tmp_path))  # no exception into the hook
    assert regex_cache._state.table == {}
    assert _use(_made(*PATTERNS[0]), TEXTS[0]) == _use(re.compile(*PATTERNS[0]), TEXTS[0])


@pytest.mark.usefixtures("fresh")
def test_a_key_marshal_refuses_is_not_kept_and_the_others_still_are(tmp_path: Path) -> None:
    regex_cache.start(str(tmp_path))
    regex_cache._compiler.compile("colou?r", re.IGNORECASE)  # a RegexFlag, not an int
    _made("shade-[0-9]+", 0)
    regex_cache.save()
    _new_process(tmp_path)
    assert list(regex_cache._state.table) == [("shade-[0-9]+", 0)]
