"""The bytes a memory file had before a direct edit, so an invalid edit can be undone.
Standard library only.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_bytes, write_atomic
from memhooks.store.paths import inside

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths


# The bytes a memory file had before a direct edit, so an invalid edit can be undone.
#
# Only used when `guard.direct_edits` is "allow": PreToolUse keeps the file's bytes (or notes that
# it did not exist) in `paths.guard_backups` (machine-local), and PostToolUse restores them when
# the edited file fails validation (`memhooks.guard`). Standard library only.


MAX_KEPT_BYTES = 4 * 1024 * 1024


_ABSENT = b"memhooks-guard: the file did not exist\n"


def slot_of(paths: MemoryPaths, relative: str) -> str:
    import hashlib

    key = hashlib.sha256(relative.encode("utf-8", "replace")).hexdigest()[:24]
    return os.path.join(paths.guard_backups, key)


def edited_file(base: str, relative: str) -> str | None:
    """The file's path, or None when it is a symlink or its folder leaves the tree."""
    path = os.path.join(base, *relative.split("/"))
    return path if inside(base, path) else None


def keep_backup(paths: MemoryPaths, relative: str) -> None:
    path = edited_file(paths.base, relative)
    if path is None:
        return
    try:
        data: bytes | None = read_bytes(path, MAX_KEPT_BYTES + 1)  # a FIFO is not waited on
    except FileNotFoundError:
        data = None
    except OSError:
        return  # a FIFO, a device: nothing to keep, the edit is then reported, not undone
    if data is not None and len(data) > MAX_KEPT_BYTES:
        return  # too big to keep: an invalid edit is then reported, not undone
    slot = slot_of(paths, relative)
    os.makedirs(os.path.dirname(slot), exist_ok=True)
    kept, stale = (".absent", ".bak") if data is None else (".bak", ".absent")
    write_atomic(slot + kept, _ABSENT if data is None else data)
    try:
        os.unlink(slot + stale)
    except FileNotFoundError:
        pass


def restore_backup(paths: MemoryPaths, relative: str) -> str:
    """Undo the edit: 'restored', 'removed' (the file was new) or 'kept' (nothing to undo)."""
    path = edited_file(paths.base, relative)
    slot = slot_of(paths, relative)
    if path is None:
        return "kept"
    if os.path.exists(slot + ".absent"):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.unlink(slot + ".absent")
        return "removed"
    try:
        data = read_bytes(slot + ".bak", MAX_KEPT_BYTES)
    except FileNotFoundError:
        return "kept"
    write_atomic(path, data)
    os.unlink(slot + ".bak")
    return "restored"


def was_absent(paths: MemoryPaths, relative: str) -> bool:
    """The file did not exist before the edit (the edit made it)."""
    return os.path.exists(slot_of(paths, relative) + ".absent")


def forget_backup(paths: MemoryPaths, relative: str) -> None:
    """The edit was valid: its backup is no longer needed."""
    slot = slot_of(paths, relative)
    for suffix in (".bak", ".absent"):
        try:
            os.unlink(slot + suffix)
        except FileNotFoundError:  # noqa: PERF203 - two files at most
            pass
