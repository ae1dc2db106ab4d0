"""Bring a session's evidence up to date with its transcript, from where it was left.

Stop does it every turn (so the next session can be restored from what Stop kept), PreCompact
before it writes the checkpoint, PostCompact to keep the host's summary. The state remembers
the byte offset it has read up to; a session without one starts from the transcript's tail.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.continuity.evidence import Evidence, new_state, usable
from memhooks.continuity.transcript import read_new
from memhooks.store import read_baseline, read_evidence

if TYPE_CHECKING:
    from typing import Any

    from memhooks.continuity.transcript_records import Record
    from memhooks.hooks.event import HookInput
    from memhooks.store import MemoryPaths, Settings

#: A session first seen after it began (memory started mid-session, a resumed old session):
#: only its recent tail is read.
FIRST_READ_MAX = 2_000_000
READ_MAX = 32_000_000  # bytes one catch-up reads at most: a turn with huge tool output fits


def load(paths: MemoryPaths, session_id: str) -> dict[str, Any] | None:
    state = read_evidence(paths, session_id) if session_id else None
    return state if usable(state) and isinstance(state, dict) else None


def read_from(transcript: str, start: int | None, cap: int) -> tuple[list[Record], int, int]:
    """(records, where they start, where reading ended) after byte `start` (None: the tail)."""
    size = os.stat(transcript).st_size
    if start is None or size - start > cap:
        start = max(0, size - (FIRST_READ_MAX if start is None else cap))
    records, end = read_new(transcript, start, limit=cap)
    return records, start, end


def evidence_for(
    hook: HookInput,
    paths: MemoryPaths,
    settings: Settings,
    state: dict[str, Any] | None,
    records: list[Record],
) -> Evidence:
    """The session's evidence with `records` (and the payload's last message) added; a new
    one takes in the git baseline SessionStart kept for the session."""
    if state is None:
        state = new_state(hook.session_id)
        start = read_baseline(paths, hook.session_id) if hook.session_id else None
        if start is not None:
            state["git"] = {"start": start}
    evidence = Evidence(state, settings.redact_patterns)
    evidence.state["session_id"] = hook.session_id
    evidence.add_all(records)
    if hook.last_assistant_message:
        evidence.reply(hook.last_assistant_message)
    return evidence
