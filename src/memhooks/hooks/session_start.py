"""SessionStart: brief Claude on the session id, the status line, a restore and the index.

The restore (see hooks/restore_pick.py): after a compaction, what complements the host's
summary; on a new session (startup, clear), where the last session on this project stood,
with git's view of what it changed (the same `git status` keeps this session's baseline).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.curate import pending_note as consolidation_note
from memhooks.hooks.event import HookInput
from memhooks.hooks.index_check import check_index
from memhooks.hooks.output import context_output
from memhooks.hooks.restore_pick import pick
from memhooks.hooks.session_git import keep_baseline, start_snapshot
from memhooks.hooks.session_record import touch_session
from memhooks.hooks.user_memory import share, user_block
from memhooks.install.invocation import cli_command
from memhooks.restore import briefing
from memhooks.store.atomic import read_text
from memhooks.store.config import Settings
from memhooks.store.conflicts import has_markers
from memhooks.store.context_files import read_status
from memhooks.store.logsink import log_line
from memhooks.store.paths import MemoryPaths
from memhooks.store.reminder_state import reset_reminder

if TYPE_CHECKING:
    from typing import Any

READ_CAP = 60_000


def _newer_summaries(paths: MemoryPaths) -> int:
    try:
        master = os.stat(paths.file("master")).st_mtime
    except OSError:
        master = 0.0
    try:
        with os.scandir(paths.file("sessions")) as entries:
            return sum(1 for e in entries if e.name.endswith(".md") and e.stat().st_mtime > master)
    except OSError:
        return 0


def unconflicted(paths: MemoryPaths, name: str, conflicted: list[str]) -> str:
    """A file's text, or "" (and its name in `conflicted`) when a merge left conflict
    markers in it: those are never injected as data."""
    text = read_text(paths.file(name), READ_CAP)
    if has_markers(text):
        conflicted.append(paths.relative(paths.file(name)))
        return ""
    return text


def _consolidation_line(paths: MemoryPaths) -> str:
    try:
        return consolidation_note.line(paths.base)
    except OSError:
        return ""


def _settle_tree(paths: MemoryPaths, settings: Settings) -> str:
    """What changed in the tree outside Claude (an editor, a `git pull`) since the store last
    wrote, settled (guard.tree_settle); best effort, so the briefing comes whatever happens."""
    from memhooks.guard.tree_settle import look

    try:
        return " ".join(look(paths, settings, cli_command(), full=True, from_claude=False))
    except Exception as exc:  # the briefing matters more; logged
        log_line(paths.file("log"), f"SessionStart: changes to the tree not settled: {exc}")
        return ""


def handle(hook: HookInput, paths: MemoryPaths, settings: Settings) -> dict[str, Any] | None:
    touch_session(paths, hook.session_id, started=True)
    try:
        check_index(paths, settings)
    except OSError as exc:  # a read-only tree: status says `rebuild` is needed
        log_line(paths.file("log"), f"SessionStart: search index rebuild not started: {exc}")
    settled = _settle_tree(paths, settings)  # before MEMORY.md is read: it may be healed
    conflicted: list[str] = []
    git = start_snapshot(hook, settings)
    chosen = pick(hook, paths, git, settings.redact_patterns) if settings.capture_journal else None
    if git is not None:
        keep_baseline(paths, hook.session_id, git[1])
    reset_reminder(paths, hook.session_id)
    index = unconflicted(paths, "index", conflicted)
    if conflicted:
        log_line(paths.file("log"), f"SessionStart: git conflict markers in {conflicted}")
    if not index and "MEMORY.md" in conflicted:
        from memhooks.install.background_rebuild import rebuild_in_background
        from memhooks.store.heal import rebuilding

        if not rebuilding(paths):
            rebuild_in_background(paths)
    user = user_block(paths, share(settings.session_start_chars))  # after, in its own share
    text = briefing.session_start(
        session_id=hook.session_id,
        status=read_status(paths),
        restore=chosen.render if chosen else None,
        restore_title=chosen.title if chosen else "",
        restore_source=chosen.source if chosen else "",
        index=index,
        conflicted=conflicted,
        note=" ".join(n for n in (settled, _consolidation_line(paths)) if n),
        budget=settings.session_start_chars - (len(user) + 2 if user else 0),
        new_summaries=_newer_summaries(paths) if os.path.exists(paths.file("master")) else 0,
        cli=cli_command(),
    )
    return context_output("SessionStart", f"{text}\n\n{user}" if user else text)
