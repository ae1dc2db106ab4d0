"""The store lock: one writer at a time, readers never lock.

One mechanism for every lock file (`local/store.lock`, the handoff's, the injection
ledger's, the installer's): an OS lock held on an open descriptor of a file that is never
deleted, `flock` on Linux and macOS, `msvcrt.locking` on Windows. The kernel drops it when
its process dies, so no lock goes stale. Stdlib only and small: the hooks import it, and
`fcntl` is the only module it loads (the `filelock` package is not used: it would cost the
hooks ~50 ms of imports and adds nothing to an OS lock on a file that is never deleted).

`quick_lock` is the hooks' (a hook skips its write on timeout); `command_lock` is the same
lock for the commands, which say so on stderr before they wait.
"""

from __future__ import annotations

import os
import sys
import time

from memhooks.errors import Exit, MemhooksError


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
        self._take(self._timeout)

    def _take(self, timeout: float) -> None:
        from memhooks.store.files import open_created

        # Not followed if a symlink: a dangling `local/store.lock` must not create its target.
        fd = open_created(self._path, os.O_RDWR)
        deadline = time.monotonic() + timeout
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


class command_lock(quick_lock):  # noqa: N801 - a context manager used like a function
    """The commands' lock: the same lock, with a message to stderr before it waits and an
    error that says what to do when it times out."""

    __slots__ = ()

    def __enter__(self) -> None:
        try:
            self._take(0.0)
        except LockTimeoutError:
            sys.stderr.write(
                f"memhooks: waiting up to {self._timeout:g}s for the store lock ({self._path})\n"
            )
            try:
                self._take(self._timeout)
            except LockTimeoutError as exc:
                raise LockTimeoutError(
                    f"store lock {self._path} is still held after {self._timeout:g}s; another "
                    "memhooks process is writing (or hung: see `memhooks doctor`)"
                ) from exc
