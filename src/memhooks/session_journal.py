"""The automatic journal section of `sessions/<session-id>.md`. Standard library only.

The Stop hook appends to it; `/memory summarize` replaces the summary above it and keeps it.
"""

from __future__ import annotations

import os

from memhooks.atomic import write_atomic
from memhooks.clock import iso
from memhooks.paths import MemoryPaths, UnsafePathError, inside, session_file_stem
from memhooks.safe_fs import read_memory

JOURNAL_HEADING = "## Automatic journal"


def journal_part(body: str) -> str:
    """The journal section of a session file's body, or ''."""
    at = body.find(JOURNAL_HEADING)
    return body[at:].strip("\n") + "\n" if at >= 0 else ""


def append_journal(paths: MemoryPaths, session_id: str, entry: str) -> None:
    """Append one entry; a new file gets frontmatter (the next command-path write indexes it)."""
    name = f"{session_file_stem(session_id)}.md"
    target = os.path.join(paths.file("sessions"), name)
    if not inside(paths.base, target):
        raise UnsafePathError(f"sessions/{name} resolves outside .claude/memory/: not written")
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
        from memhooks.yaml_emit import render_document  # only for a new session's file

        current = render_document(meta, f"{JOURNAL_HEADING}\n")
    if JOURNAL_HEADING not in current:
        current = current.rstrip("\n") + f"\n\n{JOURNAL_HEADING}\n"
    write_atomic(target, current.rstrip("\n") + "\n\n" + entry.strip("\n") + "\n")
