"""One line per problem, to stderr and to `.cache/memhooks.log`. Never raises."""

from __future__ import annotations

import os
import sys
import time

MAX_LOG_BYTES = 256_000


def log_line(log_path: str | os.PathLike[str] | None, message: str) -> None:
    line = f"memhooks: {message}".replace("\n", " ")[:2000]
    try:  # not contextlib.suppress: contextlib costs every hook ~0.7 ms to import
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
    if os.path.exists(target) and os.stat(target).st_size > MAX_LOG_BYTES:
        os.replace(target, target + ".1")
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(f"{stamp} {line}\n")
