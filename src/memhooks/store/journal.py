"""The automatic journal section of `sessions/<session-id>.md`, and how far the Stop hook has
journaled each session's transcript (`local/offsets.json`). Standard library only.

The Stop hook appends to the journal; `/memory summarize` replaces the summary above it and
keeps it. The offsets are byte offsets per session id, most recent last, machine-local (a lost
write re-reads a turn, never journals one twice: the Stop hook reads them again under the lock).
"""

from __future__ import annotations

import json
import os

from memhooks.store.files import append_text, read_memory, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem
from memhooks.store.watch import note_own
from memhooks.text.clock import iso

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
        raw = read_memory(target)
        current = raw.decode("utf-8")
        if _appended(target, raw, current, entry):
            return
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


def _appended(target: str, raw: bytes, current: str, entry: str) -> bool:
    """The entry added at the end of a journal that ends as the last write left it (its
    heading there, one line break at the end, nothing a rewrite would change): the same
    bytes as a rewrite, without rewriting the summary and the entries above it.

    Not fsynced, unlike the rewrite: an entry is appended at every turn, and a journal
    entry lost in a power cut costs that turn's few lines (the session's evidence, from
    which the next session is restored, has the turn; the offsets, not fsynced either, may
    then have moved past it), while an append cannot cost what the file held: the summary
    and the earlier entries are never rewritten. Readers take the journal as Markdown; a
    missing or cut last entry reads as one.
    """
    from memhooks.text.controls import inert

    if JOURNAL_HEADING not in current or not current.endswith("\n") or current.endswith("\n\n"):
        return False
    if inert(current) != current:  # a rewrite would write it inert: left to it
        return False
    return append_text(target, "\n" + entry.strip("\n") + "\n", len(raw))


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
