"""PreCompact: write the session's checkpoint from the transcript, with no LLM.

`checkpoints/sessions/<session-id>.md` is what SessionStart(compact/resume) of this session
injects: the goal, now and next, what Claude waits on, live blockers, decisions, constraints
and open failures, files, the branch and uncommitted files, and what was settled. A copy goes
to `checkpoints/latest.md` (for people) and a timestamped one. Everything is redacted first.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.restore.checkpoint import render_checkpoint
from memhooks.restore.extract import extract_facts
from memhooks.restore.facts import SessionFacts
from memhooks.restore.git_state import git_state
from memhooks.restore.timed_read import TimedRead
from memhooks.store.atomic import read_text
from memhooks.store.checkpoint_files import write_checkpoint
from memhooks.store.config import Settings
from memhooks.store.context_files import CONTEXT_CAP
from memhooks.store.hook_caches import read_prompts
from memhooks.store.logsink import log_line
from memhooks.store.paths import MemoryPaths
from memhooks.store.pattern_verdicts import mark_slow
from memhooks.store.yaml_emit import render_document
from memhooks.text.clock import iso
from memhooks.text.redact import cut_at_line
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


def collect(
    hook: HookInput, paths: MemoryPaths, settings: Settings, reading: TimedRead | None = None
) -> SessionFacts:
    """The session's facts, from `reading` (the transcript read within its deadline) and
    what the hooks kept."""
    transcript = hook.transcript_path
    records = reading if reading is not None and os.path.isfile(transcript) else ()
    return extract_facts(
        records,
        extra_prompts=cached_prompts(paths, hook.session_id),
        custom_instructions=hook.custom_instructions or None,
        last_assistant_message=hook.last_assistant_message or None,
        redact_patterns=settings.redact_patterns,
        track_live=True,
    )


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    reading = TimedRead(hook.transcript_path, STARTED + READ_SECONDS)
    try:
        facts = collect(hook, paths, settings, reading if hook.transcript_path else None)
    except CustomPatternTimeoutError as exc:
        # The pattern is dropped (for good: it is marked slow), and the checkpoint made again
        # from what the time left allows: a compaction must not go without one.
        mark_slow(paths.base, exc.pattern)
        log_line(paths.file("log"), f"PreCompact: {exc}")
        left = HOST_TIMEOUT - MARGIN - (time.monotonic() - STARTED)
        reading = TimedRead(hook.transcript_path, time.monotonic() + max(0.0, left) / 4)
        facts = collect(hook, paths, settings, reading if hook.transcript_path else None)
    created = iso()
    branch, uncommitted = git_state(hook.cwd)
    body = render_checkpoint(
        facts,
        current_task_md=cut_at_line(
            read_text(paths.file("current_task"), CONTEXT_CAP + 1), CONTEXT_CAP
        ),
        blockers_md=cut_at_line(read_text(paths.file("blockers"), CONTEXT_CAP + 1), CONTEXT_CAP),
        session_id=hook.session_id,
        trigger=hook.trigger or "manual",
        created=created,
        redact_patterns=settings.redact_patterns,
        branch=branch,
        uncommitted=uncommitted,
    )
    note = reading.note()
    if note:  # right under the heading: a restore made from part of the session says so
        heading, _, rest = body.partition("\n")
        body = f"{heading}\n\n{note}\n{rest}"
    meta = {
        "title": f"Checkpoint {created}",
        "category": "checkpoint",
        "created": created,
        "session_id": hook.session_id or None,
        "trigger": hook.trigger if hook.trigger in ("manual", "auto") else None,
    }
    text = render_document({k: v for k, v in meta.items() if v is not None}, body)
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
