"""The next session's restore as the last SessionEnd (or SessionStart) rendered it, with the
parts it was made of (hooks/thread_build.py), `local/thread.json`, and the turns' renders
those builds keep for the next (continuity/turn_memo.py), `local/thread-memo.json`.
Machine-local, like the evidence. Standard library only.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import discard, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside

if TYPE_CHECKING:
    from typing import Any


THREAD_READ_CAP = 2_000_000
#: A memo past this is not read (the next build renders and keeps a new one).
MEMO_READ_CAP = 8_000_000


def read_thread(paths: MemoryPaths) -> dict[str, Any] | None:
    """The rendered thread, or None (missing, unreadable, resolving outside the tree)."""
    path = paths.thread
    if not inside(paths.cache, path) and os.path.lexists(os.path.dirname(path)):
        return None
    try:
        data = json.loads(read_text(path, THREAD_READ_CAP) or "null")
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def save_thread(paths: MemoryPaths, thread: dict[str, Any]) -> None:
    """Replace the rendered thread (the caller holds the hooks' lock)."""
    if not inside(paths.cache, paths.thread) and os.path.lexists(os.path.dirname(paths.thread)):
        raise UnsafePathError("thread.json resolves outside the machine-local folder")
    write_atomic(paths.thread, json.dumps(thread, ensure_ascii=False), durable=False)


def read_memo(paths: MemoryPaths) -> object:
    """The turns' renders the last build kept (a cache: None when missing or unreadable)."""
    path = paths.thread_memo
    if not inside(paths.cache, path):
        return None
    try:
        return json.loads(read_text(path, MEMO_READ_CAP) or "null")
    except (ValueError, RecursionError):
        return None


def save_memo(paths: MemoryPaths, memo: dict[str, Any]) -> None:
    """Replace the turns' renders (the caller holds the hooks' lock); a cache, not fsynced:
    a memo lost or torn is read as none, and the next build renders every turn again."""
    path = paths.thread_memo
    if not inside(paths.cache, path):
        raise UnsafePathError("thread-memo.json resolves outside the machine-local folder")
    write_atomic(path, json.dumps(memo), durable=False)  # ASCII: dumped faster


def drop_memo(paths: MemoryPaths) -> None:
    """Remove the turns' renders (a build failed with them: the next renders every turn)."""
    discard(paths.thread_memo)
