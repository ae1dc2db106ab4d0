"""A session's files: `_session.json` as plain JSON, the journal in `sessions/<id>.md` and how far
it got, and when the per-prompt reminder goes out. Standard library only.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.errors import MemhooksError
from memhooks.store.files import read_memory, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem
from memhooks.store.watch import note_own
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar


# ------------------------------------------------------------------ session_state
# `_session.json` as plain JSON, for the hooks; the commands validate it with `SessionState`.
#
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
        record["last_activity"] = when
        if ended_reason is not None:
            record["ended"] = when
            record["end_reason"] = ended_reason


# ------------------------------------------------------------------ session_journal
# The automatic journal section of `sessions/<session-id>.md`, and how far the Stop hook has
# journaled each session's transcript (`.cache/offsets.json`). Standard library only.
#
# The Stop hook appends to the journal; `/memory summarize` replaces the summary above it and
# keeps it. The offsets are byte offsets per session id, most recent last, machine-local (a lost
# write re-reads a turn, never journals one twice: the Stop hook reads them again under the lock).


JOURNAL_HEADING = "## Automatic journal"


#: Sessions whose offsets are remembered; the oldest are dropped first.
MAX_OFFSETS = 200


def journal_part(body: str) -> str:
    """The journal section of a session file's body, or ''."""
    at = body.find(JOURNAL_HEADING)
    return body[at:].strip("\n") + "\n" if at >= 0 else ""


def append_journal(paths: MemoryPaths, session_id: str, entry: str) -> None:
    """Append one entry; a new file gets frontmatter (the next command-path write indexes it)."""
    name = f"{session_file_stem(session_id)}.md"
    target = os.path.join(paths.sessions, name)
    if not inside(paths.base, target):
        raise UnsafePathError(f"sessions/{name} resolves outside .claude/memory/: not written")
    _append(target, session_id, entry)
    note_own(paths, f"sessions/{name}")  # the hook's own write: never "behind the store's back"


def _append(target: str, session_id: str, entry: str) -> None:
    try:
        current = read_memory(target).decode("utf-8")
    except FileNotFoundError:
        now = iso()
        meta = {
            "title": f"Session {now[:16].replace('T', ' ')} ({session_id[:8]})",
            "category": "session_summary",
            "description": "Automatic journal; `/memory summarize` adds a summary",
            "created": now,
            "updated": now,
            "record_status": "active",
            "session_id": session_id,
        }
        from memhooks.store.memory_file import render_document  # only for a new session's file

        current = render_document(meta, f"{JOURNAL_HEADING}\n")
    if JOURNAL_HEADING not in current:
        current = current.rstrip("\n") + f"\n\n{JOURNAL_HEADING}\n"
    write_atomic(target, current.rstrip("\n") + "\n\n" + entry.strip("\n") + "\n")


def read_offsets(paths: MemoryPaths) -> dict[str, int]:
    """The offsets as last written; {} when missing or unreadable."""
    try:
        data = json.loads(read_text(paths.offsets))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, int) and v >= 0}


def save_offset(paths: MemoryPaths, offsets: dict[str, int], session_id: str, end: int) -> None:
    """Write `offsets` with `session_id` at `end`, moved last; the caller holds the lock."""
    offsets.pop(session_id, None)
    offsets[session_id] = end  # most recent last: the oldest are dropped first
    kept = dict(list(offsets.items())[-MAX_OFFSETS:])
    write_atomic(paths.offsets, json.dumps(kept), durable=False)


# ------------------------------------------------------------------ reminder_state
# When the per-prompt status reminder goes out. Standard library only (the hot path).
#
# The reminder says something only on the first prompt after a start, resume or compaction
# (SessionStart resets it), and when the status changed since it was last shown to this session.
# `.cache/reminder.json` maps a session id to the status text last shown.


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
