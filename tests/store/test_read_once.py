"""While a hook runs, each file is read once (store.read_once): a later read of an unchanged
file takes the kept bytes; any change the stamp shows (a replacement, an append) is read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from memhooks.store import keep_reads, read_bytes, read_text, write_atomic


@pytest.fixture
def keeping() -> Iterator[None]:
    keep_reads(on=True)
    try:
        yield
    finally:
        keep_reads(on=False)


def opens(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The opens of `path` from now on (os.open, which read_bytes uses)."""
    seen: list[str] = []
    real = os.open

    def counting(target: str, *args: int) -> int:
        if os.fspath(target) == str(path):
            seen.append(target)
        return real(target, *args)

    monkeypatch.setattr(os, "open", counting)
    return seen


def read_once(folder: Path, name: str, data: bytes) -> Path:
    """A file written outside the hook, then read (and kept) by it."""
    target = folder / name
    target.write_bytes(data)
    assert read_bytes(target) == data
    return target


@pytest.mark.usefixtures("keeping")
def test_an_unchanged_file_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.json"
    target.write_text('{"a": 1}', encoding="utf-8")
    seen = opens(target, monkeypatch)
    assert read_bytes(target) == b'{"a": 1}'
    assert read_text(target) == '{"a": 1}'
    assert read_bytes(target, 3) == b'{"a'  # a smaller cap cuts the kept bytes
    assert len(seen) == 1


@pytest.mark.usefixtures("keeping")
def test_a_replaced_or_appended_file_is_read_again(tmp_path: Path) -> None:
    target = read_once(tmp_path, "session.json", b"one")
    other = tmp_path / "other"
    other.write_text("two", encoding="utf-8")  # another writer: a new file, same size
    other.replace(target)
    assert read_bytes(target) == b"two"
    with target.open("a", encoding="utf-8") as out:
        out.write("+")
    assert read_bytes(target) == b"two+"


@pytest.mark.usefixtures("keeping")
def test_what_the_hook_wrote_is_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "state.json"
    write_atomic(target, "written")
    seen = opens(target, monkeypatch)
    assert read_bytes(target) == b"written"
    assert seen == []


def test_outside_a_hook_nothing_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.json"
    target.write_text("x", encoding="utf-8")
    seen = opens(target, monkeypatch)
    read_bytes(target)
    read_bytes(target)
    assert len(seen) == 2


@pytest.mark.usefixtures("keeping")
def test_a_whole_read_over_its_cap_is_refused_from_the_kept_bytes_too(tmp_path: Path) -> None:
    target = read_once(tmp_path, "big", b"0123456789")
    with pytest.raises(OSError, match="over 4"):
        read_bytes(target, 4, whole=True)


@pytest.mark.usefixtures("keeping")
def test_a_file_replaced_by_a_symlink_is_refused(tmp_path: Path) -> None:
    target = read_once(tmp_path, "context.md", b"mine")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("mine", encoding="utf-8")
    target.unlink()
    target.symlink_to(elsewhere)
    with pytest.raises(OSError, match="symlink"):
        read_bytes(target)
