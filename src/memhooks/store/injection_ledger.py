"""What each hook injected, in characters, per session: shown by `memhooks status`.

Hidden context is what users of memory plugins complain about most, so every hook that adds
context counts it here. Parallel hooks (sub-agents, sessions side by side) take turns under the
store's lock mechanism (`locking.quick_lock`) on a lock file of the ledger's own (never the
store lock, which a long write may hold): no count taken in turn is lost. A hook that waited
LOCK_SECONDS in vain drops its count rather than stall the session: by decision, a hook's time
cap comes before exact bookkeeping, so `status` shows at least what was injected (a drop needs
another hook holding the ledger for a second, as only a starved machine does). The file is a
cache and holds only the latest sessions.
"""

from __future__ import annotations

import json
import os

from memhooks.store.files import read_text, write_atomic
from memhooks.store.locking import quick_lock

LEDGER_SESSIONS = 10


MAX_CHARS = 100_000


#: How long a hook waits for another hook's count (each takes well under a millisecond).
LOCK_SECONDS = 1.0


def _load(file: str) -> dict[str, dict[str, list[int]]]:
    try:
        data = json.loads(read_text(file, MAX_CHARS))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def record_injected(file: str, session_id: str, hook: str, chars: int) -> bool:
    """Add one injection of `chars` characters by `hook` to the session's counts. False when
    the count was dropped: the ledger's turn not had within LOCK_SECONDS, or no ledger."""
    if not session_id or chars <= 0:
        return True
    # `injected.lock`, not the `injected.json.lock` that older versions create and delete (one
    # of them would take this file, kept, for a held turn and wait out LOCK_SECONDS).
    turn = quick_lock(os.path.splitext(file)[0] + ".lock", LOCK_SECONDS)
    try:
        turn.__enter__()
    except OSError:
        # Another hook's turn for longer than LOCK_SECONDS, a symlinked `local/` (never
        # followed out of the tree), a read-only or full tree: no count, as before.
        return False
    try:
        _add(file, session_id, hook, chars)
    finally:
        turn.__exit__()
    return True


def _add(file: str, session_id: str, hook: str, chars: int) -> None:
    data = _load(file)
    session = data.pop(session_id, None)
    if not isinstance(session, dict):
        session = {}
    runs, total = session.get(hook) or [0, 0]
    session[hook] = [int(runs) + 1, int(total) + chars]
    data[session_id] = session  # re-inserted last: the dict keeps sessions oldest first
    kept = dict(list(data.items())[-LEDGER_SESSIONS:])
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
