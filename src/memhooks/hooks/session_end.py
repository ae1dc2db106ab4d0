"""SessionEnd: close the session record. The host gives all SessionEnd hooks 1.5 s in total.

In a linked worktree, one line for the user when memories saved here are not on the main
branch yet (continuity.unmerged): a worktree removed unmerged would lose them. git gets a small
share of the budget; when it fails or runs late, nothing is said. The line goes out as a
`systemMessage` and to the log: the host documents no output for SessionEnd, and may not
show it (then `memhooks status` in the worktree says the same).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.hooks.session_record import touch_session
from memhooks.store import MemoryPaths, Settings, log_line

if TYPE_CHECKING:
    from typing import Any

#: Seconds git may take at SessionEnd (all SessionEnd hooks share 1.5 s).
GIT_SECONDS = 0.5


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    del settings
    touch_session(paths, hook.session_id, ended_reason=hook.reason or "other")
    line = unmerged_line(paths)
    if not line:
        return None
    log_line(paths.log, "SessionEnd: " + line.removeprefix("memhooks: "))
    return {"systemMessage": line}


def unmerged_line(paths: MemoryPaths) -> str:
    """The worktree notice, or "" (not a worktree, all merged, git failed: fail open)."""
    from memhooks.store import is_linked_worktree

    checkout = os.path.dirname(os.path.dirname(os.path.abspath(paths.base)))
    if not is_linked_worktree(checkout):  # a main checkout pays two stats, no git
        return ""
    try:
        from memhooks.continuity.unmerged import not_on_main, notice

        return notice(not_on_main(paths, timeout=GIT_SECONDS))
    except Exception as exc:  # a notice is never worth a failed hook
        log_line(paths.log, f"SessionEnd: unmerged memories not checked: {exc}")
        return ""
