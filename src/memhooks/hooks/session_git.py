"""git at a new session's start (SessionStart, startup or clear): one `git status` serves both
the last session's restore (what it changed, see memhooks.continuity.git_changes) and this
session's baseline (`.cache/restore/start/<session-id>.json`), which its evidence takes in
when the first Stop or PreCompact creates it.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity.git_changes import baseline, snapshot
from memhooks.store import UnsafePathError, log_line, save_baseline

if TYPE_CHECKING:
    from typing import Any

    from memhooks.continuity.git_run import Git
    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings


def start_snapshot(hook: HookInput, settings: Settings) -> tuple[Git, dict[str, Any]] | None:
    """git and the repository now, at a new session's start; None otherwise."""
    if not settings.capture_journal or (hook.source or "startup") not in ("startup", "clear"):
        return None
    return snapshot(hook.cwd)


def keep_baseline(paths: MemoryPaths, session_id: str, now: dict[str, Any]) -> None:
    """The session's git baseline (the caller holds the store lock); skipped and logged, so
    that the rest of the turn's write step is recorded."""
    if not session_id:
        return
    try:
        save_baseline(paths, session_id, baseline(now))
    except (OSError, UnsafePathError) as exc:
        log_line(paths.log, f"SessionStart: git baseline not kept: {exc}")
