"""Which handover SessionStart injects, by `source`, and its title.

- compact: what complements the host's summary of the compaction (which the model has): the
  record's proofs and the user's own words, less those the summary quotes when it can be read
  (the transcript past the evidence's offset, or what PostCompact kept; seen on 2.1.332:
  SessionStart(compact) runs before PostCompact and before the summary reaches the file).
- startup, clear: the last other session's on this project, with its age and whether it
  ended cleanly (SessionEnd marks that in `_session.json`).
- resume: none; the host restores the conversation itself.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.continuity.git_changes import git_entry
from memhooks.continuity.handover import renderer
from memhooks.continuity.transcript import read_new
from memhooks.hooks.evidence_update import load
from memhooks.store import (
    MemoryPaths,
    StateUnreadableError,
    others_newest_first,
    read_state,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from memhooks.continuity.git_run import Git
    from memhooks.hooks.event import HookInput

#: Bytes of the transcript read past the evidence's offset to find the host's summary.
SUMMARY_READ = 4_000_000
#: Newest evidence files tried for the last session (one without a turn is passed over).
CANDIDATES = 5
_SOURCE = "the record this machine kept of session "


class Pick:
    __slots__ = ("render", "source", "title")

    def __init__(self, render: Callable[[int], str], title: str, source: str) -> None:
        self.render = render
        self.title = title
        self.source = source


def host_summary(hook: HookInput, state: dict[str, Any]) -> str:
    """The host's summary of the compaction that just happened, or ''."""
    text = ""
    offset = state.get("offset")
    if hook.transcript_path and isinstance(offset, int):
        records, _ = read_new(hook.transcript_path, offset, limit=SUMMARY_READ)
        found = [r.text for r in records if r.is_compact_summary and r.text]
        text = found[-1] if found else ""
    kept = state.get("summary")
    turns = state.get("turns") or []
    if not text and isinstance(kept, dict) and turns and kept.get("after_turn") == turns[-1]["n"]:
        text = str(kept.get("text") or "")
    return text


def _age(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 90:  # noqa: PLR2004
        return f"{minutes} min"
    hours = minutes // 60
    return f"{hours} h" if hours < 48 else f"{hours // 24} days"  # noqa: PLR2004


def _ended(paths: MemoryPaths, session_id: str) -> str:
    try:
        state = read_state(paths.session) or {}
    except StateUnreadableError:
        return ""
    sessions = state.get("sessions")
    records = sessions if isinstance(sessions, list) else []
    record = next((r for r in records if isinstance(r, dict) and r.get("id") == session_id), None)
    if record is not None and record.get("ended"):
        return f"it ended cleanly at {record['ended']}"
    return "no clean end was recorded (it may have been cut off)"


def pick(
    hook: HookInput,
    paths: MemoryPaths,
    git: tuple[Git, dict[str, Any]] | None = None,
    patterns: tuple[str, ...] = (),
) -> Pick | None:
    """The restore for `hook.source`; `git` (a snapshot taken now) adds git's view of what
    the last session changed to a new session's restore."""
    source = hook.source or "startup"
    if source == "compact":
        state = load(paths, hook.session_id)
        if state is None:
            return None
        # The host's summary is in the model's context by now, but on 2.1.332 neither the
        # transcript nor PostCompact (which runs after this hook) has it yet: when it is found
        # (another version), the user's words it quotes already are left out.
        summary = host_summary(hook, state)
        return Pick(
            renderer(state, summary=summary),
            "What the compaction summary may not keep, from this session's record (files "
            "and checks as the record proves them; the user's exact words):",
            _SOURCE + hook.session_id,
        )
    if source in ("startup", "clear"):
        found = last_session(paths, hook.session_id)
        if found is None:
            return None
        other_id, written, other = found
        if git is not None:
            other = {**other, "git": git_entry(other, git, patterns)}
        age = _age(max(0.0, time.time() - written))
        title = (
            f"Where the last session on this project stood (session {other_id[:8]}, last "
            f"written {age} ago; {_ended(paths, other_id)}). Continue from it only if the "
            "user's request is about the same work:"
        )
        return Pick(renderer(other), title, _SOURCE + other_id)
    return None


def last_session(paths: MemoryPaths, session_id: str) -> tuple[str, float, dict[str, Any]] | None:
    """(id, last written, evidence) of the newest other session with a turn, or None."""
    for other_id, written in others_newest_first(paths, session_id)[:CANDIDATES]:
        other = load(paths, other_id)
        if other is not None and other.get("turns"):
            return other_id, written, other
    return None
