"""Each session's evidence, `local/restore/<session-id>.json`, and which is the latest; each
session's git baseline until its evidence takes it in, `local/restore/start/<session-id>.json`.
Standard library only: Stop and SessionStart use it.

Machine-local and derived from the transcript (which is machine-local too): it is what the next
session on this project is restored from (the thread of its recent sessions). The newest files
are kept while they fit EVIDENCE_DISK_CAP bytes together, at most EVIDENCE_MAX_KEPT of them,
and the newest EVIDENCE_MIN_KEPT whatever their size: short sessions stay for as long as the
thread can show them.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import discard, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


EVIDENCE_MAX_KEPT = 200
EVIDENCE_MIN_KEPT = 10
EVIDENCE_DISK_CAP = 24_000_000


EVIDENCE_READ_CAP = 4_000_000


def state_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's file; raises UnsafePathError for anything but a plain id."""
    path = os.path.join(paths.restore, f"{session_file_stem(session_id)}.json")
    if not inside(paths.cache, path) and os.path.lexists(os.path.dirname(path)):
        raise UnsafePathError("restore/ resolves outside the machine-local folder")
    return path


def baseline_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's git baseline, kept apart until its evidence exists (a session that
    never reaches a turn must not count as the last session)."""
    folder = paths.baselines
    path = os.path.join(folder, f"{session_file_stem(session_id)}.json")
    if not inside(paths.cache, path) and os.path.lexists(folder):
        raise UnsafePathError("restore/start resolves outside the machine-local folder")
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
        text = read_text(where(paths, session_id), EVIDENCE_READ_CAP)
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


def evidence_listing(folder: str) -> list[tuple[float, str, int]]:
    """(last written, name, bytes) of each `.json` file in `folder`, newest first."""
    try:
        with os.scandir(folder) as entries:
            found = []
            for entry in entries:
                if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                    info = entry.stat(follow_symlinks=False)
                    found.append((info.st_mtime, entry.name, info.st_size))
    except OSError:
        return []
    return sorted(found, reverse=True)


def evidence_kept(sizes: list[int]) -> int:
    """How many of the newest files (their `sizes`, newest first) are kept."""
    total = 0
    for count, size in enumerate(sizes):
        total += size
        if count >= EVIDENCE_MAX_KEPT or (count >= EVIDENCE_MIN_KEPT and total > EVIDENCE_DISK_CAP):
            return count
    return len(sizes)


def _prune(folder: str) -> None:
    found = evidence_listing(folder)
    for _, name, _ in found[evidence_kept([size for _, _, size in found]) :]:
        discard(os.path.join(folder, name))


def others_newest_first(paths: MemoryPaths, session_id: str) -> list[tuple[str, str]]:
    """(session id, stamp) of each kept evidence but `session_id`'s, newest first. The stamp
    is when the file was last written and its size: a filesystem that stamps by the second
    (or coarser) gives a Stop's write the stamp an earlier one had, and its size tells them
    apart (a turn kept grows the file)."""
    folder = paths.restore
    if not inside(paths.cache, os.path.join(folder, "x")):
        return []
    found = [
        (name[: -len(".json")], f"{mtime!r} {size}")
        for mtime, name, size in evidence_listing(folder)
    ]
    return [(other, stamp) for other, stamp in found if other != session_id]
