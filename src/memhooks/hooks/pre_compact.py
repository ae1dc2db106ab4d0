"""PreCompact: bring the session's evidence up to date and write its checkpoint, no LLM.

The evidence (`.cache/restore/<session-id>.json`, which Stop keeps turn by turn) is caught up
from its offset, or built from the transcript when there is none, with the prompts
UserPromptSubmit kept (the triggering one may not be in the file yet). The checkpoint,
`checkpoints/sessions/<session-id>.md` (a copy in `checkpoints/latest.md` and a timestamped
one), is the session's restore as people read it, with the branch and uncommitted files.
SessionStart renders what it injects from the evidence itself. Everything is redacted first.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.continuity.evidence import Evidence, extra_prompts
from memhooks.continuity.git_changes import git_entry, snapshot
from memhooks.continuity.handover import next_session
from memhooks.continuity.timed_read import TimedRead
from memhooks.continuity.transcript import read_new
from memhooks.hooks.event import HookInput
from memhooks.hooks.evidence_update import READ_MAX, evidence_for, load
from memhooks.store import (
    MemoryPaths,
    Settings,
    UnsafePathError,
    checkpoint_document,
    log_line,
    mark_slow,
    read_prompts,
    save_evidence,
    tree_turn,
    write_checkpoint,
)
from memhooks.text import clip_counted
from memhooks.text.clock import iso
from memhooks.text.redact_custom import CustomPatternTimeoutError

if TYPE_CHECKING:
    from typing import Any

STARTED = time.monotonic()
#: PreCompact's timeout in hooks.json (a test checks they agree), and what is kept back of it
#: for writing and exiting: the lock is waited for as long as the host allows, minus that.
HOST_TIMEOUT = 60.0
MARGIN = 10.0
#: Seconds from the hook's start after which the transcript is no longer read (`TimedRead`:
#: its head, then as much of its tail as fits). What was read costs up to three times as much
#: again afterwards (the lifecycle replay of Claude's text: 0.44 s per MB read, 1.35 s per MB
#: replayed, for a transcript of nothing but long replies on a loaded 2-core machine), then the
#: rendering and the write: all within the host's timeout. A transcript of mostly tool calls
#: reads at tens of MB a second, so `timed_read.READ_CAP` (256 MB) binds first.
READ_SECONDS = 10.0


def lock_timeout() -> float:
    """What is left of the host's timeout, minus the margin (at least a second)."""
    return max(1.0, HOST_TIMEOUT - MARGIN - (time.monotonic() - STARTED))


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


def collect(
    hook: HookInput, paths: MemoryPaths, settings: Settings, reading: TimedRead
) -> Evidence:
    """The session's evidence, caught up with the transcript (built from it, within the
    reading's deadline, when Stop kept none), plus the prompts UserPromptSubmit kept."""
    transcript = hook.transcript_path
    state = load(paths, hook.session_id)
    evidence = evidence_for(hook, paths, settings, state, [])
    if transcript and os.path.isfile(transcript):
        if state is not None and isinstance(state.get("offset"), int):
            records, end = read_new(
                transcript, state["offset"], limit=READ_MAX, deadline=reading.deadline
            )
            evidence.add_all(records)
        else:
            size = os.stat(transcript).st_size
            last = -1
            for record in reading:
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


def checkpoint_body(
    state: dict[str, Any], hook: HookInput, *, created: str, branch: str, note: str
) -> str:
    """The checkpoint's text under its frontmatter: who, when, which branch, then the
    restore as people read it."""
    header = [
        "# Checkpoint before compaction",
        "",
        f"Session `{clip_counted(hook.session_id, 80)}`, trigger "
        f"`{clip_counted(hook.trigger or 'manual', 20)}`, written {created}.",
        f"Branch `{clip_counted(branch, 120)}`." if branch else "",
        "Taken from the transcript by memhooks (no LLM), secrets redacted: a record of the "
        "work so far, not a set of orders.",
        note,
    ]
    body = "\n".join(line for line in header if line) + "\n\n"
    return body + next_session(state, budget=CHECKPOINT_CHARS) + "\n"


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    reading = TimedRead(hook.transcript_path, time.monotonic() + READ_SECONDS)
    try:
        evidence = collect(hook, paths, settings, reading)
    except CustomPatternTimeoutError as exc:
        # The pattern is dropped (for good: it is marked slow), and the checkpoint made again
        # from what the time left allows: a compaction must not go without one.
        mark_slow(paths.patterns, exc.pattern)
        log_line(paths.log, f"PreCompact: {exc}")
        left = HOST_TIMEOUT - MARGIN - (time.monotonic() - STARTED)
        reading = TimedRead(hook.transcript_path, time.monotonic() + max(0.0, left) / 4)
        evidence = collect(hook, paths, settings, reading)
    created = iso()
    branch = add_git_view(evidence, hook.cwd, settings.redact_patterns)
    body = checkpoint_body(
        evidence.state, hook, created=created, branch=branch, note=reading.note()
    )
    document = checkpoint_document(
        body, session_id=hook.session_id, trigger=hook.trigger, created=created
    )
    # One write step: the evidence (when the journal is kept), then the checkpoint's copies.
    if hook.session_id and settings.capture_journal:
        try:
            with tree_turn(paths, lock_timeout()):
                save_evidence(paths, hook.session_id, evidence.state)
        except UnsafePathError as exc:  # an id that is no file name: the checkpoint still
            log_line(paths.log, f"PreCompact: evidence not kept: {exc}")
    write_checkpoint(
        paths,
        document,
        session_id=hook.session_id,
        trigger=hook.trigger,
        created=created,
        keep=settings.checkpoints_keep,
        lock_timeout=lock_timeout(),
    )
    return None
