"""SessionStart: brief Claude on the session id, the status line, the handover and the index.

The handover (see hooks/handover_pick.py): after a compaction, what complements the host's
summary; on a new session (startup, clear), where the last session on this project stood,
with git's view of what it changed (the same `git status` keeps this session's baseline).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.continuity import briefing
from memhooks.continuity import pending_note as consolidation_note
from memhooks.hooks.event import HookInput
from memhooks.hooks.handover_pick import Pick, keep_thread, pick
from memhooks.hooks.output import context_output
from memhooks.hooks.search_check import check_search_index
from memhooks.hooks.session_git import keep_baseline, start_snapshot
from memhooks.hooks.session_record import LOCK_TIMEOUT, touch_locked
from memhooks.hooks.user_memory import share, user_block
from memhooks.install.invocation import cli_command
from memhooks.store import (
    MemoryPaths,
    Settings,
    has_markers,
    log_line,
    read_status,
    read_text,
    reset_reminder,
    tree_turn,
    without_native,
)
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any

READ_CAP = 60_000


def _newer_summaries(paths: MemoryPaths) -> int:
    try:
        master = os.stat(paths.master).st_mtime
    except OSError:
        master = 0.0
    try:
        with os.scandir(paths.sessions) as entries:
            return sum(1 for e in entries if e.name.endswith(".md") and e.stat().st_mtime > master)
    except OSError:
        return 0


def unconflicted(paths: MemoryPaths, name: str, conflicted: list[str]) -> str:
    """A file's text, or "" (and its name in `conflicted`) when a merge left conflict
    markers in it: those are never injected as data."""
    text = read_text(getattr(paths, name), READ_CAP)
    if has_markers(text):
        conflicted.append(paths.relative(getattr(paths, name)))
        return ""
    return text


def _consolidation_line(paths: MemoryPaths) -> str:
    try:
        return consolidation_note.line(paths)
    except OSError:
        return ""


def _settle_tree(paths: MemoryPaths, settings: Settings) -> str:
    """What changed in the tree outside Claude (an editor, a `git pull`) since the store last
    wrote, settled (guard.tree_settle); best effort, so the briefing comes whatever happens."""
    from memhooks.guard.tree_settle import look

    try:
        return " ".join(look(paths, settings, cli_command(), from_claude=False))
    except Exception as exc:  # the briefing matters more; logged
        log_line(paths.log, f"SessionStart: changes to the tree not settled: {exc}")
        return ""


def _look_at_index(paths: MemoryPaths, settings: Settings) -> None:
    try:
        check_search_index(paths, settings)
    except OSError as exc:  # a read-only tree: status says `rebuild` is needed
        log_line(paths.log, f"SessionStart: search index rebuild not started: {exc}")


def _heal_index(paths: MemoryPaths) -> None:
    """MEMORY.md holds conflict markers: one background rebuild makes it again."""
    from memhooks.install.background_rebuild import rebuild_in_background
    from memhooks.store import rebuilding

    if not rebuilding(paths):
        rebuild_in_background(paths)


def record_start(
    paths: MemoryPaths, session_id: str, git_now: dict[str, Any] | None, chosen: Pick | None
) -> None:
    """The start's one write step, one turn of the store lock: the session's record, its git
    baseline (a new session), the per-prompt reminder made due again, and the thread (kept
    when rendered here, with the room this start gave it). Skipped and logged rather than
    wait or fail: the briefing is what the user needs."""
    try:
        with tree_turn(paths, LOCK_TIMEOUT):
            touch_locked(paths, session_id, iso(), started=True)
            if git_now is not None:
                keep_baseline(paths, session_id, git_now)
            reset_reminder(paths, session_id)
            keep_thread(paths, chosen)
    except OSError as exc:  # LockTimeoutError is one too
        log_line(paths.log, f"SessionStart: session activity not recorded: {exc}")


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    # Settle first: what changed behind the store's back, before MEMORY.md is read (it may
    # be healed).
    settled = _settle_tree(paths, settings)
    # Read, then brief.
    git = start_snapshot(hook, settings)
    chosen = pick(hook, paths, settings, git) if settings.capture_journal else None
    conflicted: list[str] = []
    index = unconflicted(paths, "index", conflicted)
    # The host injects its own auto memory index: memories imported from it stay out here.
    shown_index = without_native(paths, index)[0]
    user = user_block(paths, share(settings.session_start_chars))  # after, in its own share
    text = briefing.session_start(
        session_id=hook.session_id,
        status=read_status(paths),
        handover=chosen.render if chosen else None,
        handover_title=chosen.title if chosen else "",
        handover_source=chosen.source if chosen else "",
        index=shown_index,
        conflicted=conflicted,
        note=" ".join(n for n in (settled, _consolidation_line(paths)) if n),
        budget=settings.session_start_chars - (len(user) + 2 if user else 0),
        new_summaries=_newer_summaries(paths) if os.path.exists(paths.master) else 0,
        cli=cli_command(),
    )
    # Write once.
    record_start(paths, hook.session_id, git[1] if git is not None else None, chosen)
    # Then what runs apart, after the write step (it takes the store lock for as long as it
    # runs): the search index's background rebuild when it needs one; MEMORY.md's heal.
    _look_at_index(paths, settings)
    if conflicted:
        log_line(paths.log, f"SessionStart: git conflict markers in {conflicted}")
        if not index and "MEMORY.md" in conflicted:
            _heal_index(paths)
    return context_output("SessionStart", f"{text}\n\n{user}" if user else text)
