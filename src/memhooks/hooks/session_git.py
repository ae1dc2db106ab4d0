"""git at a new session's start (SessionStart, startup or clear): one `git status` serves both
the last session's restore (what it changed, see memhooks.restore.git_changes) and this
session's baseline, kept in its evidence (`.cache/restore/<session-id>.json`) for its own.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.hooks.evidence_update import load
from memhooks.restore.evidence import new_state
from memhooks.restore.git_changes import baseline, kept_git, snapshot
from memhooks.store.locking import quick_lock
from memhooks.store.logsink import log_line
from memhooks.store.paths import UnsafePathError
from memhooks.store.restore_state import save_evidence

if TYPE_CHECKING:
    from typing import Any

    from memhooks.hooks.event import HookInput
    from memhooks.restore.git_run import Git
    from memhooks.store.config import Settings
    from memhooks.store.paths import MemoryPaths

LOCK_TIMEOUT = 0.3


def start_snapshot(hook: HookInput, settings: Settings) -> tuple[Git, dict[str, Any]] | None:
    """git and the repository now, at a new session's start; None otherwise."""
    if not settings.capture_journal or (hook.source or "startup") not in ("startup", "clear"):
        return None
    return snapshot(hook.cwd)


def keep_baseline(paths: MemoryPaths, session_id: str, now: dict[str, Any]) -> None:
    """The session's git baseline, unless it has one; skipped and logged rather than wait."""
    if not session_id:
        return
    try:
        with quick_lock(paths.file("lock"), LOCK_TIMEOUT):
            state = load(paths, session_id) or new_state(session_id)
            kept = kept_git(state)
            if not kept.get("start"):
                state["git"] = {**kept, "start": baseline(now)}
                save_evidence(paths, session_id, state)
    except (OSError, UnsafePathError) as exc:  # LockTimeoutError is an OSError
        log_line(paths.file("log"), f"SessionStart: git baseline not kept: {exc}")
