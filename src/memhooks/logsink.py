"""One line per problem, to stderr and to `.cache/memhooks.log`. Never raises."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

MAX_LOG_BYTES = 256_000


def log_line(log_path: Path | None, message: str) -> None:
    line = f"memhooks: {message}".replace("\n", " ")[:2000]
    with contextlib.suppress(Exception):
        sys.stderr.write(line + "\n")
    if log_path is None:
        return
    with contextlib.suppress(Exception):
        if not log_path.parent.is_dir():
            return  # never create a tree just to log into it
        if log_path.exists() and log_path.stat().st_size > MAX_LOG_BYTES:
            log_path.replace(log_path.with_name(log_path.name + ".1"))
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        with log_path.open("a", encoding="utf-8") as handle:
            handle.write(f"{stamp} {line}\n")
