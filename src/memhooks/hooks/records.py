"""Small state updates the hooks make to `_session.json`, under the hooks' quick lock."""

from __future__ import annotations

from memhooks.clock import iso
from memhooks.locking import quick_lock
from memhooks.paths import MemoryPaths
from memhooks.session_state import read_state, session_record, write_state

LOCK_TIMEOUT = 0.3


def touch_session(
    paths: MemoryPaths,
    session_id: str,
    *,
    started: bool = False,
    ended_reason: str | None = None,
    prompt: bool = False,
) -> None:
    """Record activity for a session. Skips (raises LockTimeoutError) rather than wait."""
    now = iso()
    with quick_lock(paths.lock, LOCK_TIMEOUT):
        state = read_state(paths.session)
        if state is None:
            return
        state["lastActivity"] = now
        if session_id:
            record = session_record(state, session_id)
            if started:
                record.setdefault("started", now)
            if prompt:
                count = record.get("prompts", 0)
                record["prompts"] = (count if isinstance(count, int) else 0) + 1
            record["last_activity"] = now
            if ended_reason is not None:
                record["ended"] = now
                record["end_reason"] = ended_reason
        write_state(paths.session, state)
