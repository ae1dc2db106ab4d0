"""`.cache/offsets.json`: how far the Stop hook has journaled each session's transcript.

Byte offsets per session id, most recent last; machine-local (a lost write re-reads a turn,
never journals one twice: the Stop hook reads the offsets again under the lock). Standard
library only: the Stop hook reads and writes it.
"""

from __future__ import annotations

import json

from memhooks.store.atomic import read_text, write_atomic

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths

#: Sessions remembered; the oldest are dropped first.
MAX_OFFSETS = 200


def read_offsets(paths: MemoryPaths) -> dict[str, int]:
    """The offsets as last written; {} when missing or unreadable."""
    try:
        data = json.loads(read_text(paths.file("offsets")))
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
    write_atomic(paths.file("offsets"), json.dumps(kept), durable=False)
