"""`_session.json` as plain JSON, for the hooks; the commands validate it with `SessionState`.

Hooks change only the keys they own (lastActivity, sessions, stats counters) and keep every
other key as read, so a hook never drops what a newer version wrote.
"""

from __future__ import annotations

import json
import os

from memhooks.atomic import write_atomic

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from typing import Any

MAX_SESSIONS_KEPT = 50
STATE_CAP = 1_000_000  # bytes: 50 session records take a few KB


class StateUnreadableError(ValueError):
    """`_session.json` exists but is not a JSON object: never overwritten."""


def read_state(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """None when there is no file; raises StateUnreadableError when it cannot be parsed."""
    from memhooks.safe_fs import UnsafeFileError, read_bytes

    try:
        raw = read_bytes(path, STATE_CAP, whole=True)
    except FileNotFoundError:
        return None
    except UnsafeFileError as exc:
        raise StateUnreadableError(str(exc)) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise StateUnreadableError(f"{os.path.basename(path)}: {exc}") from None
    if not isinstance(data, dict):
        raise StateUnreadableError(f"{os.path.basename(path)}: not a JSON object")
    return data


def is_active(path: str | os.PathLike[str]) -> bool:
    """The hooks' first question, answered with one small read."""
    try:
        state = read_state(path)
    except (StateUnreadableError, OSError):
        return False
    return bool(state and state.get("active") is True)


def write_state(
    path: str | os.PathLike[str], state: dict[str, Any], *, durable: bool = True
) -> None:
    write_atomic(path, json.dumps(state, indent=2, ensure_ascii=False) + "\n", durable=durable)


_TEXT_KEYS = ("started", "stopped", "project", "branch", "lastActivity", "lastMemoryWrite", "task")
_LIST_KEYS = ("sessions", "archived_sessions")


def repair_state(state: dict[str, Any]) -> list[str]:
    """Drop what a hand-made or half-written `_session.json` holds of the wrong type (it is
    state, not memory: the commands set it again); returns what was dropped, for one line."""
    dropped = []
    for key in _TEXT_KEYS:
        if key in state and state[key] is not None and not isinstance(state[key], str):
            dropped.append(key)
            del state[key]
    if "active" in state and not isinstance(state["active"], bool):
        dropped.append("active")
        state["active"] = False
    if "stats" in state and not isinstance(state["stats"], dict):
        dropped.append("stats")
        del state["stats"]
    for key in _LIST_KEYS:
        value = state.get(key)
        if key in state and not isinstance(value, list):
            dropped.append(key)
            del state[key]
        elif isinstance(value, list) and not all(isinstance(r, dict) for r in value):
            dropped.append(f"{key} (records that were not objects)")
            state[key] = [r for r in value if isinstance(r, dict)]
    return dropped


def session_record(state: dict[str, Any], session_id: str) -> dict[str, Any]:
    """The record for one session id, created at the end of the list when new."""
    sessions = state.get("sessions")
    if not isinstance(sessions, list):
        sessions = []
        state["sessions"] = sessions
    for record in sessions:
        if isinstance(record, dict) and record.get("id") == session_id:
            return record
    record = {"id": session_id}
    sessions.append(record)
    del sessions[:-MAX_SESSIONS_KEPT]
    return record
