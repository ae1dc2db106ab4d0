"""Atomic writes (store/files.py) use a unique temp name beside the target, so a temp file left
by a crashed writer never blocks a later write of the same file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from memhooks.store import create_exclusive, replace_with_built, write_atomic
from memhooks.store.files import _temp_file

#: A writer killed between writing its temp file and renaming it over the target.
_CRASH = """
import os, sys
from memhooks.store import files as atomic
def crash(src, dst):
    os._exit(9)
atomic.os.replace = crash
atomic.write_atomic(sys.argv[1], "half-done")
"""


def _build(tmp: str) -> None:
    Path(tmp).write_text("built", encoding="utf-8")


def _temps(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_each_write_gets_its_own_temp_name(tmp_path: Path) -> None:
    target = str(tmp_path / "MEMORY.md")
    opened = [_temp_file(target) for _ in range(5)]
    try:
        names = [name for _, name in opened]
        assert len(set(names)) == 5
        assert all(Path(n).parent == tmp_path for n in names)
        assert all(Path(n).name.startswith(".MEMORY.md.") for n in names)
    finally:
        for fd, name in opened:
            os.close(fd)
            os.unlink(name)


def test_a_crashed_writers_temp_file_never_blocks_the_next_write(tmp_path: Path) -> None:
    target = tmp_path / "MEMORY.md"
    target.write_text("before\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for _ in range(2):  # two crashes, two leftovers
        done = subprocess.run(
            [sys.executable, "-c", _CRASH, str(target)], env=env, capture_output=True, check=False
        )
        assert done.returncode == 9, done.stderr
    left = _temps(tmp_path)
    assert len(left) == 2
    assert all(p.read_text(encoding="utf-8") == "half-done" for p in left)
    assert target.read_text(encoding="utf-8") == "before\n"
    write_atomic(target, "after\n")
    assert target.read_text(encoding="utf-8") == "after\n"
    assert _temps(tmp_path) == left  # the new write left nothing of its own


@pytest.mark.parametrize("leftover", [".MEMORY.md.tmp", "MEMORY.md.tmp", ".MEMORY.md.{pid}.tmp"])
def test_a_leftover_at_any_fixed_name_is_no_obstacle(tmp_path: Path, leftover: str) -> None:
    # The pid is filled in here, not in the parameter: xdist workers must collect one name.
    leftover = leftover.format(pid=os.getpid())
    target = tmp_path / "MEMORY.md"
    (tmp_path / leftover).write_text("stale", encoding="utf-8")
    for attempt in range(3):
        write_atomic(target, f"v{attempt}")
        assert target.read_text(encoding="utf-8") == f"v{attempt}"
    replace_with_built(target, _build)
    assert target.read_text(encoding="utf-8") == "built"
    create_exclusive(tmp_path / "new.md", "fresh")
    assert (tmp_path / "new.md").read_text(encoding="utf-8") == "fresh"
    assert [p.name for p in _temps(tmp_path)] == [leftover]
