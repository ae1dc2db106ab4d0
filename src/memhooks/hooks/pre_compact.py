"""PreCompact: bring the session's evidence up to date and write its checkpoint, no LLM.

The evidence (`.cache/restore/<session-id>.json`, which Stop keeps turn by turn) is caught up
from its offset, or built from the transcript when there is none, with the prompts
UserPromptSubmit kept (the triggering one may not be in the file yet). The checkpoint,
`checkpoints/sessions/<session-id>.md` (a copy in `checkpoints/latest.md` and a timestamped
one), is the session's restore as people read it, with the branch and uncommitted files.
SessionStart renders what it injects from the evidence itself. Everything is redacted first.
"""

from __future__ import annotations

import itertools
import os
import time

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.hooks.evidence_update import READ_MAX, evidence_for, load
from memhooks.restore.evidence import Evidence, extra_prompts
from memhooks.restore.git_changes import git_entry, snapshot
from memhooks.restore.restore_text import next_session
from memhooks.restore.transcript import iter_records, read_new
from memhooks.restore.transcript_records import Record
from memhooks.store.checkpoint_files import write_checkpoint
from memhooks.store.config import Settings
from memhooks.store.hook_caches import read_prompts
from memhooks.store.locking import quick_lock
from memhooks.store.logsink import log_line
from memhooks.store.paths import MemoryPaths, UnsafePathError
from memhooks.store.restore_state import save_evidence
from memhooks.store.yaml_emit import render_document
from memhooks.text import clip_counted
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

STARTED = time.monotonic()
#: PreCompact's timeout in hooks.json (a test checks they agree), and what is kept back of it
#: for writing and exiting: the lock is waited for as long as the host allows, minus that.
HOST_TIMEOUT = 60.0
MARGIN = 10.0
#: A transcript bigger than this is read at its head (the goal) and its tail (the latest
#: work), never whole: 50 MB takes about half a second.
READ_CAP = 256 << 20
HEAD_BYTES = 16 << 20


def lock_timeout() -> float:
    """What is left of the host's timeout, minus the margin (at least a second)."""
    return max(1.0, HOST_TIMEOUT - MARGIN - (time.monotonic() - STARTED))


def transcript_records(path: str) -> Iterable[Record]:
    try:
        size = os.stat(path).st_size
    except OSError:
        return ()
    if size <= READ_CAP:
        return iter_records(path)
    tail = READ_CAP - HEAD_BYTES
    return itertools.chain(
        iter_records(path, limit=HEAD_BYTES), iter_records(path, offset=size - tail)
    )


def cached_prompts(paths: MemoryPaths, session_id: str) -> list[str]:
    """Prompts UserPromptSubmit kept: the transcript may not have the latest one yet."""
    return [
        str(item.get("prompt", ""))
        for item in read_prompts(paths)
        if isinstance(item, dict)
        and item.get("session_id") in (session_id, "")
        and item.get("prompt")
    ]


#: The checkpoint file's restore, as people read it (SessionStart renders its own).
CHECKPOINT_CHARS = 12_000


def collect(hook: HookInput, paths: MemoryPaths, settings: Settings) -> Evidence:
    """The session's evidence, caught up with the transcript (built from it when Stop kept
    none), plus the prompts UserPromptSubmit kept."""
    transcript = hook.transcript_path
    state = load(paths, hook.session_id)
    evidence = evidence_for(hook, paths, settings, state, [])
    if transcript and os.path.isfile(transcript):
        if state is not None and isinstance(state.get("offset"), int):
            records, end = read_new(transcript, state["offset"], limit=READ_MAX)
            evidence.add_all(records)
        else:
            size = os.stat(transcript).st_size
            last = -1
            for record in transcript_records(transcript):
                evidence.add(record)
                last = record.offset
            end = max(size, last + 1)
        evidence.state["offset"] = end
    extra_prompts(evidence, cached_prompts(paths, hook.session_id))
    return evidence


def add_git_view(evidence: Evidence, cwd: str, patterns: tuple[str, ...]) -> str:
    """git's view of what the session changed, into the evidence; the branch ('' if none)."""
    found = snapshot(cwd)
    if found is None:
        return ""
    evidence.state["git"] = git_entry(evidence.state, found, patterns)
    return str(evidence.state["git"]["now"]["branch"])


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    evidence = collect(hook, paths, settings)
    created = iso()
    patterns = settings.redact_patterns
    branch = add_git_view(evidence, hook.cwd, patterns)
    header = [
        "# Checkpoint before compaction",
        "",
        f"Session `{clip_counted(hook.session_id, 80)}`, trigger "
        f"`{clip_counted(hook.trigger or 'manual', 20)}`, written {created}.",
        f"Branch `{clip_counted(branch, 120)}`." if branch else "",
        "Taken from the transcript by memhooks (no LLM), secrets redacted: a record of the "
        "work so far, not a set of orders.",
    ]
    body = "\n".join(line for line in header if line) + "\n\n"
    body += next_session(evidence.state, budget=CHECKPOINT_CHARS) + "\n"
    meta = {
        "title": f"Checkpoint {created}",
        "category": "checkpoint",
        "created": created,
        "session_id": hook.session_id or None,
        "trigger": hook.trigger if hook.trigger in ("manual", "auto") else None,
    }
    text = render_document({k: v for k, v in meta.items() if v is not None}, body)
    if hook.session_id and settings.capture_journal:
        try:
            with quick_lock(paths.file("lock"), lock_timeout()):
                save_evidence(paths, hook.session_id, evidence.state)
        except UnsafePathError as exc:  # an id that is no file name: the checkpoint still
            log_line(paths.file("log"), f"PreCompact: evidence not kept: {exc}")
    write_checkpoint(
        paths,
        text,
        session_id=hook.session_id,
        trigger=hook.trigger,
        created=created,
        keep=settings.checkpoints_keep,
        lock_timeout=lock_timeout(),
    )
    return None
