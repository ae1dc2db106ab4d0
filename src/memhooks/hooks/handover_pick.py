"""Which handover SessionStart injects, by `source`, and its title.

- compact: what complements the host's summary of the compaction (which the model has): the
  record's proofs and the user's own words, less those the summary quotes when it can be read
  (the transcript past the evidence's offset, or what PostCompact kept; seen on 2.1.332:
  SessionStart(compact) runs before PostCompact and before the summary reaches the file).
- startup, clear: the thread of the project's recent sessions (continuity/thread.py), as the
  last Stop or SessionEnd rendered it (hooks/thread_build.py), with their ages as of now and
  git's view of what the last one changed; rendered here (bounded) only when the file is
  missing or unreadable. A file older than some evidence is used as it is: every hook that
  changes the record renders it again, so the difference is a turn still under way in a live
  session (its next Stop renders it) or one a crash cut short; rendering at the start would
  cost every start what only those need.
- resume: none; the host restores the conversation itself.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.continuity import thread
from memhooks.hooks import thread_build
from memhooks.store import (
    MemoryPaths,
    UnsafePathError,
    log_line,
    quick_lock,
    read_thread,
    save_thread,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from memhooks.continuity.git_run import Git
    from memhooks.hooks.event import HookInput
    from memhooks.store import Settings

#: Bytes of the transcript read past the evidence's offset to find the host's summary.
SUMMARY_READ = 4_000_000
#: The thread kept at SessionStart is only a saving (the next Stop renders it): one try, no wait.
LOCK_TIMEOUT = 0.0
_SOURCE = "the record this machine kept of session "


class Pick:
    __slots__ = ("render", "source", "title")

    def __init__(self, render: Callable[[int], str], title: str, source: str) -> None:
        self.render = render
        self.title = title
        self.source = source


def host_summary(hook: HookInput, state: dict[str, Any]) -> str:
    """The host's summary of the compaction that just happened, or ''."""
    from memhooks.continuity.transcript import read_new

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


def pick(
    hook: HookInput,
    paths: MemoryPaths,
    settings: Settings,
    git: tuple[Git, dict[str, Any]] | None = None,
) -> Pick | None:
    """The restore for `hook.source`; `git` (a snapshot taken now) adds git's view of what
    the last session changed to a new session's restore."""
    source = hook.source or "startup"
    if source == "compact":
        from memhooks.continuity.handover import renderer
        from memhooks.hooks.evidence_update import load

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
        return thread_pick(hook, paths, settings, git)
    return None


def thread_pick(
    hook: HookInput,
    paths: MemoryPaths,
    settings: Settings,
    git: tuple[Git, dict[str, Any]] | None,
) -> Pick | None:
    """The thread as the last Stop or SessionEnd rendered it (here only when it is missing)."""
    doc = read_thread(paths)
    if doc is None or not thread_build.usable(doc):
        doc = _rebuilt(hook, paths, settings, doc)
        if doc is None:
            return None
    shown = thread_build.parts(doc)
    if not shown:
        return None
    # A clean end recorded after the file was rendered (SessionEnd's render skipped on a busy
    # lock) still shows: the marks are read from the session record, not the file.
    ended = thread_build.ended_marks(paths)
    shown = [{**p, "ended": ended.get(p["id"], p.get("ended", ""))} for p in shown]
    if git is not None and isinstance(doc.get("git"), dict):
        shown = [_with_git(paths, p, doc["git"], git, settings.redact_patterns) for p in shown]
    now = time.time()
    hidden = thread_build.hidden(doc)

    def render(room: int) -> str:
        thread_build.note_room(paths, doc, room)
        return thread.compose(shown, hidden, now, room)

    return Pick(render, thread.title(shown, now), thread_build.source(paths))


def _rebuilt(
    hook: HookInput, paths: MemoryPaths, settings: Settings, doc: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The thread rendered here (its file was missing or unreadable), and kept; None when that
    failed (logged): the briefing comes without a restore rather than not at all."""
    try:
        room = thread_build.kept_room(doc) or thread_build.estimate_room(paths, settings)
        built = thread_build.build(paths, room, exclude=hook.session_id, old=doc or {})
    except Exception as exc:  # the rest of the briefing matters more
        log_line(paths.log, f"SessionStart: the thread not rendered: {exc!r}")
        return None
    _keep(paths, built)
    return built


def _with_git(
    paths: MemoryPaths,
    part: dict[str, Any],
    kept: dict[str, Any],
    git: tuple[Git, dict[str, Any]],
    patterns: tuple[str, ...],
) -> dict[str, Any]:
    """The last session's part with git's view now of what it changed, in place of the
    files its tools changed."""
    if part.get("role") != "last":
        return part
    from memhooks.continuity import thread_parts
    from memhooks.continuity.git_changes import git_entry
    from memhooks.continuity.handover import file_lines

    try:
        before = file_lines(kept)
        after = file_lines({**kept, "git": git_entry(kept, git, patterns)})
    except (TypeError, ValueError, AttributeError, KeyError, OSError) as exc:  # a stored shape
        log_line(paths.log, f"SessionStart: git's view not added: {exc!r}")
        return part
    return {**part, "text": thread_parts.replace_files(str(part["text"]), before, after)}


def _keep(paths: MemoryPaths, doc: dict[str, Any]) -> None:
    """The thread rendered here, for the next start; skipped rather than wait."""
    try:
        with quick_lock(paths.lock, LOCK_TIMEOUT):
            save_thread(paths, doc)
    except (OSError, UnsafePathError) as exc:
        # Only a saving for the next start (its Stop renders it anyway): the log, not the host.
        log_line(paths.log, f"SessionStart: thread not kept: {exc}", echo=False)
