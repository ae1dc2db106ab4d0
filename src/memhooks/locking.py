"""The store lock: one writer at a time, readers never lock.

Two implementations share one lock file, `.cache/store.lock`:

- the command path uses `filelock` (it logs before it blocks and fails clearly on timeout);
- the hooks use `flock`/`msvcrt` directly, because importing filelock costs ~50 ms and
  hooks must stay fast. filelock also locks with flock on POSIX and keeps the file in place
  (`preserve_lock_file=True`), so both exclude each other; a test checks it.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


class LockTimeoutError(TimeoutError):
    """Another writer held the store lock for longer than we were willing to wait."""


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


@contextmanager
def quick_lock(path: str | os.PathLike[str], timeout: float) -> Iterator[None]:
    """The hooks' lock: stdlib only; raises LockTimeoutError so a hook can skip its write."""
    os.makedirs(os.path.dirname(os.fspath(path)), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                raise LockTimeoutError(f"store lock {path} is held by another process")
            time.sleep(0.005)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


@contextmanager
def command_lock(path: str | os.PathLike[str], timeout: float) -> Iterator[None]:
    """The commands' lock: filelock, with a message to stderr before it waits."""
    from filelock import FileLock, Timeout

    os.makedirs(os.path.dirname(os.fspath(path)), exist_ok=True)
    lock = FileLock(os.fspath(path), preserve_lock_file=True)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        sys.stderr.write(f"memhooks: waiting up to {timeout:g}s for the store lock ({path})\n")
        try:
            lock.acquire(timeout=timeout)
        except Timeout as exc:
            raise LockTimeoutError(
                f"store lock {path} is still held after {timeout:g}s; another memhooks "
                "process is writing (or hung: see `memhooks doctor`)"
            ) from exc
    try:
        yield
    finally:
        lock.release()
