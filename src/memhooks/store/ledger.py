# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""What each hook injected, in characters, per session: shown by `memhooks status`.

Hidden context is what users of memory plugins complain about most, so every hook that
adds context counts it here. Parallel hooks (sub-agents, sessions side by side) take turns
under a lock file of the ledger's own (never the store lock, which a long write may hold):
no count is lost. A hook that waited LOCK_SECONDS in vain skips its count rather than stall;
the file is a cache and holds only the latest sessions.
"""

from __future__ import annotations

import json
import os
import time

from memhooks.store.atomic import read_text, write_atomic

SESSIONS_KEPT = 10
MAX_CHARS = 100_000
#: How long a hook waits for another hook's count (each takes well under a millisecond).
LOCK_SECONDS = 1.0
STALE_SECONDS = 5.0


def _load(file: str) -> dict[str, dict[str, list[int]]]:
    try:
        data = json.loads(read_text(file, MAX_CHARS))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record(file: str, session_id: str, hook: str, chars: int) -> None:
    """Add one injection of `chars` characters by `hook` to the session's counts."""
    if not session_id or chars <= 0:
        return
    lock = file + ".lock"
    if not _take_turn(lock):
        return
    try:
        _add(file, session_id, hook, chars)
    finally:
        try:
            os.unlink(lock)
        except OSError:
            pass


def _take_turn(lock: str) -> bool:
    """An exclusive-create lock file, not flock: the hot-path hooks would import fcntl and
    memhooks.store.locking for it (~0.4 ms a process). O_EXCL never follows a symlink. A
    lock older than STALE_SECONDS belongs to a hook that died holding it."""
    from memhooks.store.safe_fs import check_folders

    try:
        check_folders(lock)  # a symlinked `.cache/` is not followed out of the tree
    except OSError:
        return False
    deadline = time.monotonic() + LOCK_SECONDS
    while True:
        try:
            os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:  # noqa: PERF203 - a retry loop: once per held turn
            try:
                if time.time() - os.stat(lock, follow_symlinks=False).st_mtime > STALE_SECONDS:
                    os.unlink(lock)
                    continue
            except OSError:
                continue  # released meanwhile
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.002)
        except OSError:
            return False  # a read-only or full tree: no count, as before
        else:
            return True


def _add(file: str, session_id: str, hook: str, chars: int) -> None:
    data = _load(file)
    session = data.pop(session_id, None)
    if not isinstance(session, dict):
        session = {}
    runs, total = session.get(hook) or [0, 0]
    session[hook] = [int(runs) + 1, int(total) + chars]
    data[session_id] = session  # re-inserted last: the dict keeps sessions oldest first
    kept = dict(list(data.items())[-SESSIONS_KEPT:])
    write_atomic(file, json.dumps(kept, sort_keys=False), durable=False)


def session_counts(file: str, session_id: str | None) -> tuple[str, dict[str, tuple[int, int]]]:
    """(session id, {hook: (injections, characters)}) for that session (nothing yet: {}), or
    the latest one when no session id is known."""
    data = _load(file)
    if session_id:
        if session_id not in data:
            return session_id, {}
        sid = session_id
    elif not data:
        return "", {}
    else:
        sid = next(reversed(data))
    session = data.get(sid)
    if not isinstance(session, dict):
        return sid, {}
    out = {}
    for hook, value in session.items():
        if isinstance(value, list) and len(value) == len(("runs", "chars")):
            out[str(hook)] = (int(value[0]), int(value[1]))
    return sid, out


def all_sessions(file: str) -> dict[str, dict[str, tuple[int, int]]]:
    """Every session the ledger keeps (oldest first): {hook: (injections, characters)}."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for sid in _load(file):
        out[str(sid)] = session_counts(file, str(sid))[1]
    return out
