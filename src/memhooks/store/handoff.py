"""`.cache/subagent-pointers.json`: pointers PreToolUse(Agent) leaves for the next
SubagentStart of the same session (see `memhooks.hooks.subagent_pointers`).

A short list of {session_id, at, text}; an entry older than HANDOFF_SECONDS belongs to a
sub-agent that never started and is dropped on the next read. Machine-local, no fsync.
Standard library only: both hooks run on the hot path.
"""

from __future__ import annotations

import json
import time

from memhooks.store.atomic import read_text, write_atomic

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from typing import Any

    from memhooks.store.paths import MemoryPaths

#: A waiting entry older than this belongs to a sub-agent that never started.
HANDOFF_SECONDS = 120.0
HANDOFF_KEPT = 20
HANDOFF_MAX_CHARS = 200_000


def _load(paths: MemoryPaths) -> list[dict[str, Any]]:
    try:
        data = json.loads(read_text(paths.file("handoff"), HANDOFF_MAX_CHARS))
    except ValueError:
        return []
    now = time.time()
    return [
        e
        for e in (data if isinstance(data, list) else [])
        if isinstance(e, dict)
        and isinstance(e.get("at"), int | float)
        and now - e["at"] < HANDOFF_SECONDS
    ]


def leave(paths: MemoryPaths, session_id: str, text: str) -> None:
    """Queue `text` for the next sub-agent of `session_id`."""
    # An empty entry too: it keeps the order, so the next sub-agent does not take another's.
    entries = _load(paths)
    entries.append({"session_id": session_id, "at": time.time(), "text": text})
    write_atomic(paths.file("handoff"), json.dumps(entries[-HANDOFF_KEPT:]), durable=False)


def take(paths: MemoryPaths, session_id: str) -> str:
    """The oldest waiting text of `session_id`, removed from the queue; "" when none."""
    entries = _load(paths)
    for i, entry in enumerate(entries):
        if entry.get("session_id") == session_id:
            del entries[i]
            write_atomic(paths.file("handoff"), json.dumps(entries), durable=False)
            text = entry.get("text")
            return text if isinstance(text, str) else ""
    return ""
