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

from memhooks import TYPE_CHECKING
from memhooks.errors import Exit, MemhooksError

if TYPE_CHECKING:
    from typing import Any


class LockTimeoutError(MemhooksError, TimeoutError):
    """Another writer held the store lock for longer than we were willing to wait."""

    code = Exit.LOCKED


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


class quick_lock:  # noqa: N801 - used like the function-style context managers it replaced
    """The hooks' lock: stdlib only; raises LockTimeoutError so a hook can skip its write.

    A class rather than a @contextmanager: contextlib costs the hooks ~0.7 ms to import.
    """

    __slots__ = ("_fd", "_path", "_timeout")

    def __init__(self, path: str | os.PathLike[str], timeout: float) -> None:
        self._path = os.fspath(path)
        self._timeout = timeout
        self._fd = -1

    def __enter__(self) -> None:
        from memhooks.store.safe_fs import open_created

        # Not followed if a symlink: a dangling `.cache/store.lock` must not create its target.
        fd = open_created(self._path, os.O_RDWR)
        deadline = time.monotonic() + self._timeout
        while not _try_lock(fd):
            if time.monotonic() >= deadline:
                os.close(fd)
                raise LockTimeoutError(f"store lock {self._path} is held by another process")
            time.sleep(0.005)
        self._fd = fd

    def __exit__(self, *exc_info: object) -> None:
        try:
            _unlock(self._fd)
        finally:
            os.close(self._fd)
            self._fd = -1


class command_lock:  # noqa: N801 - a context manager used like a function
    """The commands' lock: filelock, with a message to stderr before it waits."""

    __slots__ = ("_lock", "_path", "_timeout")

    def __init__(self, path: str | os.PathLike[str], timeout: float) -> None:
        self._path = os.fspath(path)
        self._timeout = timeout
        self._lock: Any = None

    def __enter__(self) -> None:
        from filelock import FileLock, Timeout

        from memhooks.store.safe_fs import open_created

        # filelock opens the lock with O_TRUNC and, when it looks absent, O_CREAT, following
        # symlinks: the file is made (or checked) here first, where symlinks are refused.
        os.close(open_created(self._path, os.O_RDWR))
        lock = FileLock(self._path, preserve_lock_file=True)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            sys.stderr.write(
                f"memhooks: waiting up to {self._timeout:g}s for the store lock ({self._path})\n"
            )
            try:
                lock.acquire(timeout=self._timeout)
            except Timeout as exc:
                raise LockTimeoutError(
                    f"store lock {self._path} is still held after {self._timeout:g}s; another "
                    "memhooks process is writing (or hung: see `memhooks doctor`)"
                ) from exc
        self._lock = lock

    def __exit__(self, *exc_info: object) -> None:
        self._lock.release()
        self._lock = None
