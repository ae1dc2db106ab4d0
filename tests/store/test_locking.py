"""One lock mechanism: the hooks' and the commands' locks exclude each other on one file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memhooks.store import LockTimeoutError, command_lock, quick_lock
from support import local_of


@pytest.mark.skipif(sys.platform == "win32", reason="checked on POSIX (flock per descriptor)")
def test_quick_and_command_locks_exclude_each_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = local_of(tmp_path) / "store.lock"
    # Each lock opens its own descriptor, so even in one process the second one waits.
    held = pytest.raises(LockTimeoutError, match=r"still held after 0\.2s")
    with quick_lock(lock, 1.0), held, command_lock(lock, 0.2):
        pass
    assert "waiting up to 0.2s for the store lock" in capsys.readouterr().err
    with command_lock(lock, 1.0), pytest.raises(LockTimeoutError), quick_lock(lock, 0.1):
        pass
    assert lock.exists()  # never unlinked: waiters must share one inode


def test_lock_is_free_again_after_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "store.lock"
    with quick_lock(lock, 0.5):
        pass
    with command_lock(lock, 0.5):
        pass
    with quick_lock(lock, 0.5):  # the command lock, released, leaves the same file free
        pass
    assert capsys.readouterr().err == ""  # a free lock is taken without a word
