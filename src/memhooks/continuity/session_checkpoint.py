"""Each session's own checkpoint: `checkpoints/sessions/<session-id>.md`. Standard library only.

SessionStart(compact/resume) restores the checkpoint of the session being resumed and never
another's: `checkpoints/latest.md` is per project (the last compaction of any session, or a
teammate's pulled through git), so it is only a convenience for people, and is read only
when its frontmatter names this very session.
"""

from __future__ import annotations

import os
import re

from memhooks.store import (
    MemoryPaths,
    UnsafePathError,
    checkpoint_path,
    inside,
    read_text,
    split_frontmatter,
)

READ_CAP = 60_000
_SESSION_LINE = re.compile(r"^session_id:\s*['\"]?([A-Za-z0-9_-]+)['\"]?\s*$", re.MULTILINE)


def frontmatter_session(text: str) -> str:
    """The `session_id` a checkpoint's frontmatter names, or ''."""
    head, _ = split_frontmatter(text)
    match = _SESSION_LINE.search(head)
    return match.group(1) if match else ""


def read_session_checkpoint(paths: MemoryPaths, session_id: str) -> tuple[str, str]:
    """(text, path relative to the tree) of this session's checkpoint, or ('', '')."""
    try:
        target = checkpoint_path(paths, session_id)
    except UnsafePathError:
        return "", ""
    if inside(paths.base, target):
        text = read_text(target, READ_CAP)
        if text:
            return text, f"checkpoints/sessions/{os.path.basename(target)}"
    # Written before checkpoints were kept per session: usable only if it is this session's.
    latest = paths.latest_checkpoint
    if inside(paths.base, latest):
        text = read_text(latest, READ_CAP)
        if text and frontmatter_session(text) == session_id:
            return text, "checkpoints/latest.md"
    return "", ""
