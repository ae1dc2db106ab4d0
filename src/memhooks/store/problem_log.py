"""One line per problem, to stderr and to `local/memhooks.log`. Never raises. Standard library
only.
"""

from __future__ import annotations

import os
import sys
import time

from memhooks.store.files import open_created

MAX_LOG_BYTES = 256_000


def log_line(log_path: str | os.PathLike[str] | None, message: str, *, echo: bool = True) -> None:
    """`message` to the log file and (with `echo`) to stderr, where the host shows it."""
    from memhooks.text.controls import inert

    line = inert(f"memhooks: {message}".replace("\n", " "))[:2000]
    try:  # not contextlib.suppress: contextlib costs every hook ~0.7 ms to import
        if echo:
            sys.stderr.write(line + "\n")
    except Exception:
        pass
    if log_path is None:
        return
    try:
        _append(os.fspath(log_path), line)
    except Exception:
        pass


def _append(target: str, line: str) -> None:

    if not os.path.isdir(os.path.dirname(target)):
        return  # never create a tree just to log into it
    # Never through a symlink: a committed `local/memhooks.log -> ~/.bashrc` must not get
    # lines appended (open_created refuses it, and a symlinked folder on the way).
    fd = open_created(target, os.O_WRONLY | os.O_APPEND)
    try:
        if os.fstat(fd).st_size > MAX_LOG_BYTES:
            os.close(fd)
            fd = -1
            os.replace(target, target + ".1")
            fd = open_created(target, os.O_WRONLY | os.O_APPEND)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        os.write(fd, f"{stamp} {line}\n".encode("utf-8", "replace"))
    finally:
        if fd >= 0:
            os.close(fd)
