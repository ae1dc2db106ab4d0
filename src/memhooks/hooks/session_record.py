"""The session's activity in its machine-local record, written inside the caller's write step
(`tree_turn`): SessionStart and SessionEnd."""

from __future__ import annotations

from memhooks.store import MemoryPaths, change_state, record_activity

#: How long SessionStart's write step waits for the store lock.
LOCK_TIMEOUT = 0.3


def touch_locked(
    paths: MemoryPaths,
    session_id: str,
    when: str,
    *,
    started: bool = False,
    ended_reason: str | None = None,
) -> None:
    """The session's activity in its record; the caller holds the store lock (a turn)."""
    change_state(
        paths.session,
        lambda state: record_activity(
            state, session_id, when, started=started, ended_reason=ended_reason
        ),
        durable=False,
    )
