"""The hooks' stdlib lock and the commands' filelock exclude each other on one lock file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memhooks.store.locking import LockTimeoutError, command_lock, quick_lock


@pytest.mark.skipif(sys.platform == "win32", reason="flock interplay is POSIX-specific")
def test_quick_and_command_locks_exclude_each_other(tmp_path: Path) -> None:
    lock = tmp_path / ".cache" / "store.lock"
    # filelock in this process uses a separate open file description, so flock conflicts.
    with quick_lock(lock, 1.0), pytest.raises(LockTimeoutError), command_lock(lock, 0.2):
        pass
    with command_lock(lock, 1.0), pytest.raises(LockTimeoutError), quick_lock(lock, 0.1):
        pass
    assert lock.exists()  # never unlinked: waiters must share one inode


def test_lock_is_free_again_after_release(tmp_path: Path) -> None:
    lock = tmp_path / "store.lock"
    with quick_lock(lock, 0.5):
        pass
    with command_lock(lock, 0.5):
        pass
    with quick_lock(lock, 0.5):  # the command lock, released, leaves the same file free
        pass
