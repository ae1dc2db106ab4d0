"""When the per-prompt status reminder goes out. Standard library only (the hot path).

The reminder says something only on the first prompt after a start, resume or compaction
(SessionStart resets it), and when the status changed since it was last shown to this session.
`local/reminder.json` maps a session id to the status text last shown.
"""

from __future__ import annotations

import json

from memhooks.store.files import read_text, write_atomic
from memhooks.store.paths import MemoryPaths

REMINDER_SESSIONS = 20


def _read(paths: MemoryPaths) -> dict[str, str]:
    try:
        data = json.loads(read_text(paths.reminder, 20_000) or "{}")
    except ValueError:
        return {}
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def _write(paths: MemoryPaths, shown: dict[str, str]) -> None:
    kept = dict(list(shown.items())[-REMINDER_SESSIONS:])
    try:
        write_atomic(paths.reminder, json.dumps(kept), durable=False)
    except OSError:
        pass  # a read-only tree: the reminder just goes out more often


def reset_reminder(paths: MemoryPaths, session_id: str) -> None:
    """A start, resume or compaction: the next prompt gets the reminder again."""
    shown = _read(paths)
    if session_id in shown:
        del shown[session_id]
        _write(paths, shown)


def shown_statuses(paths: MemoryPaths) -> dict[str, str]:
    """Session id -> the status text last shown to it since its start."""
    return _read(paths)


def record_shown(
    paths: MemoryPaths, shown: dict[str, str], session_id: str, status_text: str
) -> None:
    """Remember that ``status_text`` went out to this session; `shown` is what
    `shown_statuses` read (the file is read once a prompt)."""
    shown = dict(shown)
    shown.pop(session_id, None)
    shown[session_id] = status_text
    _write(paths, shown)
