"""The files `memhooks consolidate` keeps: the log of what `--apply` changed, and the cached
summary SessionStart reads (`local/consolidation.json`). Standard library only: SessionStart
reads the summary and marks it mentioned.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_bytes, read_text, write_atomic

if TYPE_CHECKING:
    from typing import Any

    from memhooks.store.paths import MemoryPaths


SUMMARY_CAP = 4_000


#: The log is appended to whole; past this it is refused rather than cut.
LOG_CAP = 64_000_000


LOG_HEADER = (
    "# Consolidation log\n\nWhat `memhooks consolidate --apply` changed in .claude/memory/, "
    "newest last.\n"
)


def read_summary(paths: MemoryPaths) -> dict[str, Any] | None:
    """The cached summary; None when it is missing, unreadable or not a JSON object."""
    try:
        data = json.loads(read_text(paths.consolidation, SUMMARY_CAP) or "{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def write_summary(paths: MemoryPaths, data: dict[str, Any]) -> None:
    """Replace the cached summary (machine-local: no fsync)."""
    write_atomic(paths.consolidation, json.dumps(data), durable=False)


def append_log(target: str | os.PathLike[str], entry: str) -> None:
    """Add `entry` at the end of the consolidation log (made with its header when new or
    empty); the caller holds the store lock."""
    # Read whole and strictly: a log cut at a read cap, or one that does not decode, would
    # be rewritten short (UnsafeFileError or UnicodeDecodeError instead; nothing written).
    try:
        data = read_bytes(target, LOG_CAP, whole=True)
    except FileNotFoundError:
        data = b""
    current = data.decode("utf-8").replace("\r\n", "\n") or LOG_HEADER
    write_atomic(target, current.rstrip("\n") + "\n\n" + entry)
