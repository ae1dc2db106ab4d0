"""The "filed" marks of sub-agent results: `local/subagents-filed/<agent id>`.

SubagentStop may be delivered twice for one sub-agent; a mark, set under the store lock only
once the memory is written, makes the second delivery a no-op. Standard library only.
"""

from __future__ import annotations

import os
import re

from memhooks import TYPE_CHECKING
from memhooks.store.files import makedirs

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths


MARKERS_KEPT = 500


def marker_path(paths: MemoryPaths, agent_id: str) -> str:
    """Where the mark of `agent_id` goes; "" when there is no usable id (then nothing can
    be deduplicated)."""
    name = re.sub(r"[^A-Za-z0-9_-]", "", agent_id)[:100]
    if not name:
        return ""
    return os.path.join(paths.subagents_filed, name)


def is_marked(marker: str) -> bool:
    return os.path.lexists(marker)


def mark_filed(marker: str) -> None:
    """Set the mark (the caller holds the store lock), and prune the oldest marks."""
    folder = os.path.dirname(marker)
    makedirs(folder)  # refuses a symlinked .cache/ or subagents-filed/
    try:  # O_EXCL never follows a symlink
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        return
    _prune(folder)


def _prune(folder: str) -> None:
    """Keep the newest marks: a re-delivery comes within seconds, not after 1,000 agents."""
    with os.scandir(folder) as entries:
        found = [(e.stat().st_mtime, e.path) for e in entries]
    if len(found) > MARKERS_KEPT * 2:
        for _, old in sorted(found)[: len(found) - MARKERS_KEPT]:
            try:
                os.unlink(old)
            except OSError:  # noqa: PERF203 - rare: once per 500 sub-agents
                continue
