"""Replacing `master.md` (`memhooks synthesize --save`), keeping the version it replaces."""

from __future__ import annotations

from pathlib import Path

from memhooks.store.atomic import write_atomic
from memhooks.store.paths import MemoryPaths

#: The replaced master.md, under `.cache/`: one step back, never committed.
PREVIOUS = "master.previous.md"


def replace_master(paths: MemoryPaths, new: str, old: str | None) -> None:
    """Write `new` as master.md, first keeping `old` (what it held, read by the caller under
    the same lock; None when there was none) as `.cache/master.previous.md`."""
    if old is not None:
        write_atomic(Path(paths.cache) / PREVIOUS, old)
    write_atomic(paths.master, new)
