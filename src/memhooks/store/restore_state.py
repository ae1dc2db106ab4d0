"""Each session's evidence, `.cache/restore/<session-id>.json`, and which is the latest; each
session's git baseline until its evidence takes it in, `.cache/restore/start/<session-id>.json`.
Standard library only: Stop and SessionStart use it.

Machine-local and derived from the transcript (which is machine-local too): it is what the
next session on this project is restored from. The newest `KEEP` files are kept.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.atomic import discard, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

KEEP = 20
READ_CAP = 4_000_000


def state_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's file; raises UnsafePathError for anything but a plain id."""
    path = os.path.join(paths.restore, f"{session_file_stem(session_id)}.json")
    if not inside(paths.base, path) and os.path.lexists(os.path.dirname(path)):
        raise UnsafePathError(".cache/restore resolves outside .claude/memory/")
    return path


def baseline_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's git baseline, kept apart until its evidence exists (a session that
    never reaches a turn must not count as the last session)."""
    folder = os.path.join(paths.restore, "start")
    path = os.path.join(folder, f"{session_file_stem(session_id)}.json")
    if not inside(paths.base, path) and os.path.lexists(folder):
        raise UnsafePathError(".cache/restore/start resolves outside .claude/memory/")
    return path


def read_baseline(paths: MemoryPaths, session_id: str) -> dict[str, Any] | None:
    return _read(baseline_path, paths, session_id)


def save_baseline(paths: MemoryPaths, session_id: str, baseline: dict[str, Any]) -> None:
    """Write the session's git baseline (the caller holds the hooks' lock), then prune."""
    _save(baseline_path(paths, session_id), baseline)


def _read(
    where: Callable[[MemoryPaths, str], str], paths: MemoryPaths, session_id: str
) -> dict[str, Any] | None:
    try:
        text = read_text(where(paths, session_id), READ_CAP)
        data = json.loads(text) if text else None
    except (UnsafePathError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _save(path: str, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")), durable=False)
    _prune(os.path.dirname(path))


def read_evidence(paths: MemoryPaths, session_id: str) -> dict[str, Any] | None:
    """The session's evidence as last written, or None (missing, unreadable, not ours)."""
    return _read(state_path, paths, session_id)


def save_evidence(paths: MemoryPaths, session_id: str, state: dict[str, Any]) -> None:
    """Replace the session's file (the caller holds the hooks' lock), then prune."""
    _save(state_path(paths, session_id), state)


def _entries(folder: str) -> list[tuple[float, str]]:
    try:
        with os.scandir(folder) as entries:
            found = [
                (entry.stat(follow_symlinks=False).st_mtime, entry.name)
                for entry in entries
                if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False)
            ]
    except OSError:
        return []
    return sorted(found, reverse=True)


def _prune(folder: str) -> None:
    for _, name in _entries(folder)[KEEP:]:
        discard(os.path.join(folder, name))


def others_newest_first(paths: MemoryPaths, session_id: str) -> list[tuple[str, float]]:
    """(session id, last written, epoch seconds) of each kept evidence but `session_id`'s,
    newest first."""
    folder = paths.restore
    if not inside(paths.base, os.path.join(folder, "x")):
        return []
    found = [(name[: -len(".json")], mtime) for mtime, name in _entries(folder)]
    return [(other, mtime) for other, mtime in found if other != session_id]
