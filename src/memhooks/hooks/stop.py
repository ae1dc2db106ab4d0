"""Stop: record activity, append to the session's automatic journal, maybe nudge.

The journal grows incrementally from the transcript offset saved last time, so the cost is
flat in the transcript's length. A stale memory gets a `systemMessage` for the user; the
hook blocks (keeps Claude working to save) only when the user opted in with
`stop.nudge = "save"`, never when `stop_hook_active`, and at most once per interval.
"""

from __future__ import annotations

import os
import time

from memhooks import TYPE_CHECKING
from memhooks.hooks.event import HookInput
from memhooks.restore.journal_entry import render_journal_entry
from memhooks.restore.transcript import read_new
from memhooks.store.config import Settings
from memhooks.store.locking import quick_lock
from memhooks.store.paths import MemoryPaths, UnsafePathError
from memhooks.store.session_journal import append_journal, read_offsets, save_offset
from memhooks.store.session_state import change_state, session_record
from memhooks.text.clock import epoch, iso, stamp

if TYPE_CHECKING:
    from typing import Any

LOCK_TIMEOUT = 0.3
FIRST_READ_MAX = 2_000_000  # a resumed long session: journal only its recent tail
READ_MAX = 32_000_000  # bytes one Stop reads at most: a turn with huge tool output fits
#: Whatever config.json says, a nudge goes out at most once per this many minutes: a save
#: nudge keeps Claude working another turn, and a config with a one-minute interval would
#: make it carry on after nearly every Stop.
NUDGE_FLOOR_MINUTES = 15


def new_journal_text(
    hook: HookInput, settings: Settings, offsets: dict[str, int]
) -> tuple[str, int | None]:
    transcript = hook.transcript_path
    if not transcript or not os.path.isfile(transcript):
        return "", None
    start = offsets.get(hook.session_id)
    cap = FIRST_READ_MAX if start is None else READ_MAX
    size = os.stat(transcript).st_size
    if start is None or size - start > cap:
        # A resumed session, or far more written since the last Stop than a turn writes:
        # journal only the recent tail, and never read more (the file may still be growing).
        start = max(0, size - cap)
    records, end = read_new(transcript, start, limit=cap)
    entry = render_journal_entry(
        records,
        last_assistant_message=hook.last_assistant_message or None,
        when=iso(),
        redact_patterns=settings.redact_patterns,
    )
    return entry, end


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
    entry, end = "", None
    if (
        settings.capture_journal
        and hook.session_id
        and settings.auto_capture("session_summary")
        and settings.category_enabled("session_summary")
    ):
        entry, end = new_journal_text(hook, settings, offsets)
    now = time.time()
    with quick_lock(paths.file("lock"), LOCK_TIMEOUT):
        # Read the offsets again under the lock: parallel sessions' Stop hooks share the
        # file, and a stale copy would move another session back (and journal it twice).
        current = read_offsets(paths)
        started_at = offsets.get(hook.session_id)
        if started_at is not None and current.get(hook.session_id, started_at) != started_at:
            entry, end = "", None  # another Stop of this session got here first
        if entry:
            try:
                append_journal(paths, hook.session_id, entry)
            except UnsafePathError:
                entry = ""
        if end is not None:
            save_offset(paths, current, hook.session_id, end)

        def touched(state: dict[str, Any]) -> dict[str, Any] | None:
            state["lastActivity"] = stamp(now)
            if hook.session_id:
                session_record(state, hook.session_id)["last_activity"] = stamp(now)
            return nudge(state, hook, settings, now)

        return change_state(paths.file("session"), touched, durable=False)
