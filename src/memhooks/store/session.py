"""The session record, `local/session.json`, as plain JSON for the hooks; the commands
validate it with `SessionState`. Standard library only.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.errors import MemhooksError
from memhooks.store.files import write_atomic

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar


# Hooks change only the keys they own (lastActivity, sessions, stats counters) and keep every
# other key as read, so a hook never drops what a newer version wrote.


if TYPE_CHECKING:
    T = TypeVar("T")


MAX_SESSIONS_KEPT = 50


STATE_CAP = 1_000_000  # bytes: 50 session records take a few KB


SCHEMA_VERSION = 1


#: Every top-level key of `_session.json` and its default: the hooks write only these.
#: `models.SessionState` is held equal to this (names and defaults) by a parity test.
KEYS: dict[str, object] = {
    "version": SCHEMA_VERSION,
    "active": False,
    "started": None,
    "stopped": None,
    "project": None,
    "branch": None,
    "lastActivity": None,
    "lastMemoryWrite": None,
    "lastNudge": None,
    "stats": {},
    "sessions": [],
    "task": None,
    "archived_sessions": [],
}


#: The keys of one record in `sessions` (`models.SessionRecord`).
RECORD_KEYS: dict[str, object] = {
    "id": None,
    "started": None,
    "ended": None,
    "end_reason": None,
    "last_activity": None,
    "prompts": 0,
}


class StateUnreadableError(MemhooksError, ValueError):
    """`_session.json` exists but is not a JSON object: never overwritten."""


def read_state(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """None when there is no file; raises StateUnreadableError when it cannot be parsed."""
    from memhooks.store.files import UnsafeFileError, read_bytes

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


def change_state(
    path: str | os.PathLike[str],
    change: Callable[[dict[str, Any]], T],
    *,
    durable: bool = True,
    create: bool = False,
) -> T | None:
    """Read `_session.json`, let `change(state)` edit it in place, and write it back: the
    one read-modify-write of the state file; the caller holds the store lock.

    Returns what `change` returned. Without a state file nothing is written and None is
    returned, unless `create` (then `change` starts from {}). A file that cannot be parsed
    raises StateUnreadableError and is never overwritten.
    """
    state = read_state(path)
    if state is None:
        if not create:
            return None
        state = {}
    result = change(state)
    write_state(path, state, durable=durable)
    return result


_TEXT_KEYS = tuple(key for key, default in KEYS.items() if default is None)


_LIST_KEYS = tuple(key for key, default in KEYS.items() if isinstance(default, list))


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


def record_activity(
    state: dict[str, Any],
    session_id: str,
    when: str,
    *,
    started: bool = False,
    ended_reason: str | None = None,
) -> None:
    """A hook's bookkeeping, made on a state `change_state` read: the project's and the
    session's last activity at `when`, the session's start (kept from the first time) or its
    end."""
    state["lastActivity"] = when
    if session_id:
        record = session_record(state, session_id)
        if started:
            record.setdefault("started", when)
            if record.get("ended"):  # started again (resumed): an end before is not its end
                record["ended"] = record["end_reason"] = None
        record["last_activity"] = when
        if ended_reason is not None:
            record["ended"] = when
            record["end_reason"] = ended_reason
