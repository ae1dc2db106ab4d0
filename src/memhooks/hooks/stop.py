"""Stop: record activity, keep the session's evidence, append to its journal, maybe nudge.

The next session's restore is not rendered here: SessionEnd renders it from the evidence kept,
and SessionStart renders it when the evidence is newer than it (hooks/thread_build.py).

The evidence (`.cache/restore/<session-id>.json`, what the next session is restored from) and
the journal grow incrementally, each from the transcript offset it saved last time, in one
read, so the cost is flat in the transcript's length. A stale memory gets a `systemMessage`
for the user; the hook blocks (keeps Claude working to save) only when the user opted in
with `stop.nudge = "save"`, never when `stop_hook_active`, and at most once per interval.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.continuity.journal_entry import render_journal_entry
from memhooks.hooks.evidence_update import READ_MAX, evidence_for, load, read_from
from memhooks.store import (
    MemoryPaths,
    Settings,
    UnsafePathError,
    append_journal,
    change_state,
    log_line,
    read_offsets,
    record_activity,
    save_evidence,
    save_offset,
    tree_turn,
)
from memhooks.text.clock import epoch, iso, stamp

if TYPE_CHECKING:
    from typing import Any

    from memhooks.hooks.event import HookInput

LOCK_TIMEOUT = 0.3
#: Whatever config.json says, a nudge goes out at most once per this many minutes: a save
#: nudge keeps Claude working another turn, and a config with a one-minute interval would
#: make it carry on after nearly every Stop.
NUDGE_FLOOR_MINUTES = 15


class _Update:
    """What one Stop adds: the journal entry and the evidence, with their new offsets, and
    how many records of the transcript were read for them."""

    def __init__(self) -> None:
        self.entry = ""
        self.end: int | None = None
        self.state: dict[str, Any] | None = None
        self.read = 0


def _journaled(settings: Settings) -> bool:
    return (
        settings.capture_journal
        and settings.auto_capture("session_summary")
        and settings.category_enabled("session_summary")
    )


def read_update(
    hook: HookInput,
    paths: MemoryPaths,
    settings: Settings,
    journal_at: int | None,
    cap: int = READ_MAX,
) -> _Update:
    """One read of the transcript (`cap` bytes at most), from the earlier of the journal's
    and the evidence's offsets; each takes the records past its own. SessionEnd reads what
    the last Stops did not keep the same way."""
    update = _Update()
    transcript = hook.transcript_path
    if not hook.session_id or not transcript or not os.path.isfile(transcript):
        return update
    state = load(paths, hook.session_id)
    evidence_at = state.get("offset") if state else None
    journaled = _journaled(settings)
    known = [at for at in (journal_at if journaled else None, evidence_at) if isinstance(at, int)]
    # A journal not started yet reads the tail, though PreCompact may have moved the
    # evidence's offset to the end already.
    first = None if journaled and journal_at is None else (min(known) if known else None)
    records, start, end = read_from(transcript, first, cap)
    update.read = len(records)
    since = evidence_at if isinstance(evidence_at, int) and evidence_at >= start else start
    evidence = evidence_for(hook, paths, settings, state, [r for r in records if r.offset >= since])
    evidence.state["offset"] = end
    update.state = evidence.state
    if journaled:
        since = journal_at if journal_at is not None and journal_at >= start else start
        update.entry = render_journal_entry(
            [r for r in records if r.offset >= since],
            last_assistant_message=hook.last_assistant_message or None,
            when=iso(),
            redact_patterns=settings.redact_patterns,
        )
        update.end = end
    return update


def nudge(
    state: dict[str, Any], hook: HookInput, settings: Settings, now: float
) -> dict[str, Any] | None:
    """A reminder when no memory was written for a while though work goes on."""
    if settings.nudge == "off":
        return None
    last_write = epoch(str(state.get("lastMemoryWrite") or state.get("started") or ""))
    last_nudge = epoch(str(state.get("lastNudge") or ""))
    if last_write is None or now - last_write < settings.stale_minutes * 60:
        return None
    interval = max(settings.nudge_interval_minutes, NUDGE_FLOOR_MINUTES)
    if last_nudge is not None and now - last_nudge < interval * 60:
        return None
    minutes = int((now - last_write) // 60)
    message = (
        f"memhooks: nothing was saved to .claude/memory/ for {minutes} min while work "
        "went on. Save decisions with `/memory remember …`, update the task with "
        "`memhooks task`, or run `/memory summarize`."
    )
    if settings.nudge == "save" and not hook.stop_hook_active:
        state["lastNudge"] = stamp(now)
        return {"decision": "block", "reason": message + " Do that now, briefly, then stop."}
    if settings.nudge == "remind":
        state["lastNudge"] = stamp(now)
        return {"systemMessage": message}
    return None


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    offsets = read_offsets(paths)
    journal_at = offsets.get(hook.session_id)
    update = read_update(hook, paths, settings, journal_at) if settings.capture_journal else None
    now = time.time()
    with tree_turn(paths, LOCK_TIMEOUT):
        if update is not None:
            keep_update(paths, hook.session_id, update, journal_at)

        def change(state: dict[str, Any]) -> dict[str, Any] | None:
            output = nudge(state, hook, settings, now)
            record_activity(state, hook.session_id, stamp(now))
            return output

        return change_state(paths.session, change, durable=False)


def keep_update(
    paths: MemoryPaths, session_id: str, update: _Update, journal_at: int | None
) -> bool:
    """The journal entry, the offsets and the evidence, under the lock; another Stop of this
    session that got here first (the offsets moved) wins, and this one writes nothing. An id
    that is no file name keeps none of them (one line in the log, and False)."""
    # Read the offsets again under the lock: parallel sessions' Stop hooks share the file,
    # and a stale copy would move another session back (and journal it twice).
    offsets = read_offsets(paths)
    if offsets.get(session_id, journal_at) != journal_at:
        return False
    try:
        if update.entry:
            append_journal(paths, session_id, update.entry)
        if update.end is not None:
            save_offset(paths, offsets, session_id, update.end)
        if update.state is not None:
            save_evidence(paths, session_id, update.state)
    except UnsafePathError as exc:  # not contextlib.suppress: ~0.7 ms of imports
        log_line(paths.log, f"Stop: journal and evidence not kept: {exc}")
        return False
    return True
