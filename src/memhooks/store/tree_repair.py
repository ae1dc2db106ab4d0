"""Repairs after a change behind the store's back: an invalid memory file put aside where
no hook reads, a memory file put back from its last known copy (`tree_marks`). The caller
holds the store lock. Standard library only.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.store.atomic import write_atomic
from memhooks.store.safe_fs import check_target, makedirs, read_memory
from memhooks.store.tree_marks import kept_copies, kept_copy

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths

#: Where invalid files are put aside: machine-local, gitignored, never read by a hook.
QUARANTINE = ".cache/quarantine"


def put_aside(paths: MemoryPaths, relative: str) -> str:
    """Move a memory file into the quarantine folder; returns its path there, relative to
    the tree. Moved, never rewritten: what was written is kept as it was."""
    source = os.path.join(paths.base, *relative.split("/"))
    check_target(source)
    folder = os.path.join(paths.base, *QUARANTINE.split("/"))
    makedirs(folder)
    stem = time.strftime("%Y%m%d-%H%M%S") + "_" + relative.replace("/", "__")
    name, number = stem, 1
    while os.path.lexists(os.path.join(folder, name)):
        number += 1
        name = f"{stem}.{number}"
    os.replace(source, os.path.join(folder, name))
    return f"{QUARANTINE}/{name}"


def put_back(paths: MemoryPaths, relative: str) -> bool:
    """Write a memory file's last known copy back into the tree; False when none is kept."""
    copy = kept_copy(paths, relative)
    if copy is None:
        return False
    try:
        data = read_memory(copy)
    except OSError:
        return False
    write_atomic(os.path.join(paths.base, *relative.split("/")), data)
    return True


def recover_missing(paths: MemoryPaths) -> list[str]:
    """Put back every memory file a copy is kept of and the tree lacks (`rebuild
    --recover`); an existing file is never overwritten. Returns what was put back."""
    from memhooks.store.tree_marks import memory_listing

    present = {_bytes_of(os.path.join(paths.base, *r.split("/"))) for r in memory_listing(paths)}
    restored: list[str] = []
    for relative in kept_copies(paths):
        if os.path.lexists(os.path.join(paths.base, *relative.split("/"))):
            continue
        copy = kept_copy(paths, relative)
        if copy is None or _bytes_of(copy) in present:
            continue  # renamed since: the same bytes are in the tree (or put back) already
        if put_back(paths, relative):
            restored.append(relative)
            present.add(_bytes_of(copy))
    return restored


def _bytes_of(path: str) -> bytes | None:
    try:
        return read_memory(path)
    except OSError:
        return None


def quarantined(paths: MemoryPaths) -> list[str]:
    """The files put aside so far, oldest first (`memhooks status`)."""
    try:
        return sorted(os.listdir(os.path.join(paths.base, *QUARANTINE.split("/"))))
    except OSError:
        return []
