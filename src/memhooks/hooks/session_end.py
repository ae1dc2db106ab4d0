"""SessionEnd: close the session record and render the next session's restore (the thread,
hooks/thread_build.py) with this session's clean end, in one write step under the store lock.
The host gives all SessionEnd hooks 1.5 s in total.

In a linked worktree, one line for the user when memories saved here are not on the main
branch yet (continuity.unmerged): a worktree removed unmerged would lose them. git gets a small
share of the budget; when it fails or runs late, nothing is said. The line goes out as a
`systemMessage` and to the log: the host documents no output for SessionEnd, and may not
show it (then `memhooks status` in the worktree says the same).
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.hooks.thread_build import render_thread
from memhooks.store import MemoryPaths, Settings, log_line
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any

#: Seconds git may take at SessionEnd (all SessionEnd hooks share 1.5 s).
GIT_SECONDS = 0.5
#: Bytes of the transcript SessionEnd reads past the offsets Stop kept at most (a turn Stop
#: did not see), and how long it waits for the hooks' lock.
CATCH_UP_BYTES = 4_000_000
LOCK_TIMEOUT = 0.3


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    _end(hook, paths, settings)
    line = unmerged_line(paths)
    if not line:
        return None
    log_line(paths.log, "SessionEnd: " + line.removeprefix("memhooks: "))
    return {"systemMessage": line}


def unmerged_line(paths: MemoryPaths) -> str:
    """The worktree notice, or "" (not a worktree, all merged, git failed: fail open)."""
    from memhooks.store import checkout_of, is_linked_worktree

    checkout = checkout_of(paths.base)
    if not is_linked_worktree(checkout):  # a main checkout pays two stats, no git
        return ""
    try:
        from memhooks.continuity.unmerged import not_on_main, notice

        return notice(not_on_main(paths, timeout=GIT_SECONDS))
    except Exception as exc:  # a notice is never worth a failed hook
        log_line(paths.log, f"SessionEnd: unmerged memories not checked: {exc}")
        return ""


def _end(hook: HookInput, paths: MemoryPaths, settings: Settings) -> None:
    """One write step: the session's clean end in the session record, what the last Stops did
    not keep (a turn the user interrupted: no Stop; a Stop that found the lock taken) read and
    kept as Stop does, journal and evidence, and the next session's thread rendered with that
    end. A busy lock skips it (one line in the log)."""
    from memhooks.hooks.evidence_update import load
    from memhooks.hooks.session_record import touch_locked
    from memhooks.hooks.stop import keep_update, read_update
    from memhooks.store import UnsafePathError, read_offsets, tree_turn

    thread = settings.capture_journal and bool(hook.session_id)
    when = iso()
    try:
        journal_at = read_offsets(paths).get(hook.session_id) if thread else None
        update = read_update(hook, paths, settings, journal_at, CATCH_UP_BYTES) if thread else None
        with tree_turn(paths, LOCK_TIMEOUT):
            touch_locked(paths, hook.session_id, when, ended_reason=hook.reason or "other")
            if update is None:
                return
            caught_up = update.read > 0 and keep_update(paths, hook.session_id, update, journal_at)
            state = update.state if caught_up else load(paths, hook.session_id)
            current = (hook.session_id, state) if state is not None else None
            render_thread(paths, settings, current, "SessionEnd")
    except (OSError, UnsafePathError) as exc:  # LockTimeoutError is an OSError
        log_line(paths.log, f"SessionEnd: the session's end not recorded: {exc}", echo=False)
