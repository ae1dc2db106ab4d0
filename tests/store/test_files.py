"""safe_fs: no symlink followed in the tree, regular files only, capped reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memhooks.store import UnsafeFileError, check_target, open_created, read_bytes, tree_problem

posix = pytest.mark.skipif(os.name != "posix", reason="symlinks and FIFOs: POSIX")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "p" / ".claude" / "memory"
    (root / "context").mkdir(parents=True)
    return root


def test_caps(tree: Path) -> None:
    path = tree / "context" / "a.md"
    path.write_bytes(b"x" * 1000)
    assert read_bytes(path, 10) == b"x" * 10
    assert read_bytes(path, 1000, whole=True) == b"x" * 1000
    with pytest.raises(UnsafeFileError, match="over 999"):
        read_bytes(path, 999, whole=True)
    with pytest.raises(FileNotFoundError):
        read_bytes(tree / "missing.md")


@posix
def test_symlinks_fifos_and_devices_are_refused(tree: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret"
    outside.write_text("secret", encoding="utf-8")
    (tree / "link.md").symlink_to(outside)
    (tree / "inside-link.md").symlink_to(tree / "context")
    os.mkfifo(tree / "fifo.md")
    (tree / "zero.md").symlink_to("/dev/zero")
    for name in ("link.md", "inside-link.md", "fifo.md", "zero.md"):
        with pytest.raises(UnsafeFileError):
            read_bytes(tree / name)
    (tree / "ctx").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(UnsafeFileError, match="is a symlink"):
        read_bytes(tree / "ctx" / "secret")
    with pytest.raises(UnsafeFileError):
        check_target(tree / "link.md")


@posix
def test_created_files_never_follow_a_link(tree: Path, tmp_path: Path) -> None:
    (tree / ".cache").mkdir()
    (tree / ".cache" / "store.lock").symlink_to(tmp_path / "created")
    with pytest.raises(UnsafeFileError):
        open_created(tree / ".cache" / "store.lock", os.O_RDWR)
    assert not (tmp_path / "created").exists()
    os.close(open_created(tree / ".cache" / "fresh.lock", os.O_RDWR))
    assert (tree / ".cache" / "fresh.lock").is_file()


@posix
def test_tree_problem_names_a_symlinked_tree_or_cache(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    memory = tmp_path / "p" / ".claude" / "memory"
    memory.parent.mkdir(parents=True)
    assert tree_problem(str(memory)) == ""
    memory.symlink_to(real, target_is_directory=True)
    assert "is a symlink" in tree_problem(str(memory))
    memory.unlink()
    memory.mkdir()
    (memory / ".cache").symlink_to(real, target_is_directory=True)
    assert ".cache is a symlink" in tree_problem(str(memory))
