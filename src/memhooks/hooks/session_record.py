"""Small state updates the hooks make to `_session.json`, under the hooks' quick lock."""

from __future__ import annotations

from memhooks.store import MemoryPaths, change_state, log_line, record_activity, tree_turn
from memhooks.text.clock import iso

LOCK_TIMEOUT = 0.3


def touch_session(
    paths: MemoryPaths,
    session_id: str,
    *,
    started: bool = False,
    ended_reason: str | None = None,
) -> None:
    """Record activity for a session; skipped and logged rather than wait or fail.

    A lock another writer holds, a read-only tree or a full disk must not cost SessionStart
    its briefing: the record is bookkeeping, the briefing is what the user needs.
    """
    try:
        _touch(paths, session_id, started=started, ended_reason=ended_reason)
    except OSError as exc:  # LockTimeoutError is one too
        log_line(paths.log, f"session activity not recorded: {exc}")


def _touch(
    paths: MemoryPaths,
    session_id: str,
    *,
    started: bool,
    ended_reason: str | None,
) -> None:
    when = iso()
    with tree_turn(paths, LOCK_TIMEOUT):
        touch_locked(paths, session_id, when, started=started, ended_reason=ended_reason)


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
