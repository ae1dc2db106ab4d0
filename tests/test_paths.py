"""Path rules of the store: what a host session id may be as a file name, and the tree's
well-known paths (one table serves the hooks' strings and the commands' Paths)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memhooks.store.paths import LAYOUT, MemoryPaths, UnsafePathError, session_file_stem


@pytest.mark.parametrize("good", ["abc", "7f3e-11aa_b", "A" * 128])
def test_a_host_session_id_is_a_file_stem(good: str) -> None:
    assert session_file_stem(good) == good


@pytest.mark.parametrize(
    "bad", ["", "-abc", "_abc", "a/b", "../x", "a" * 129, "abc\n", "caf\u00e9", "a b", "a.b"]
)
def test_anything_else_is_refused(bad: str) -> None:
    with pytest.raises(UnsafePathError):
        session_file_stem(bad)


def test_every_entry_is_the_same_place_as_a_string_and_as_a_path(tmp_path: Path) -> None:
    paths = MemoryPaths.for_project(tmp_path)
    assert paths.root == tmp_path / ".claude" / "memory"
    assert len(LAYOUT) == 26  # .cache/restore (the restore hooks' evidence) is the 26th
    for name, relative in LAYOUT.items():
        as_path = getattr(paths, name)
        assert isinstance(as_path, Path)
        assert as_path == paths.root / relative
        assert paths.file(name) == str(as_path)
    assert paths.catalog == paths.root / ".cache" / "catalog.json"
    assert paths.relative(paths.current_task) == "context/current-task.md"


def test_the_paths_cannot_be_reassigned(tmp_path: Path) -> None:
    paths = MemoryPaths(tmp_path)
    with pytest.raises(AttributeError):
        paths.index = tmp_path  # type: ignore[misc]
    with pytest.raises(KeyError):
        paths.file("nonsense")
