"""SessionStart: brief Claude on the session id, the status line, the checkpoint and the index."""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.curate import pending_note as consolidation_note
from memhooks.hooks.event import HookInput
from memhooks.hooks.index_check import check_index
from memhooks.hooks.output import context_output
from memhooks.hooks.session_record import touch_session
from memhooks.install.invocation import cli_command
from memhooks.restore import briefing
from memhooks.restore.checkpoint_marks import without_host_kept
from memhooks.restore.session_checkpoint import read_session_checkpoint
from memhooks.store.atomic import read_text
from memhooks.store.config import Settings
from memhooks.store.conflicts import has_markers
from memhooks.store.context_files import read_status
from memhooks.store.fences import split_frontmatter
from memhooks.store.logsink import log_line
from memhooks.store.paths import MEMORY_DIR, MemoryPaths
from memhooks.store.reminder_state import reset_reminder

if TYPE_CHECKING:
    from typing import Any

READ_CAP = 60_000


def without_frontmatter(text: str) -> str:
    """The checkpoint's dating fields are for people browsing the folder, not for Claude."""
    _, body = split_frontmatter(text)
    return body.lstrip("\n") if len(body) < len(text) else text


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
    source = hook.source or "startup"
    conflicted: list[str] = []
    checkpoint, where = "", ""
    if source in ("compact", "resume"):
        checkpoint, where = read_session_checkpoint(paths, hook.session_id)
        if has_markers(checkpoint):  # a merge left it conflicted: never injected as data
            conflicted.append(where)
            checkpoint = ""
        checkpoint = without_host_kept(without_frontmatter(checkpoint))
    reset_reminder(paths, hook.session_id)
    index = unconflicted(paths, "index", conflicted)
    if conflicted:
        log_line(paths.file("log"), f"SessionStart: git conflict markers in {conflicted}")
    if not index and "MEMORY.md" in conflicted:
        from memhooks.store.heal import rebuild_in_background

        rebuild_in_background(paths)
    text = briefing.session_start(
        session_id=hook.session_id,
        source=source,
        status=read_status(paths),
        checkpoint=checkpoint,
        index=index,
        conflicted=conflicted,
        note=" ".join(n for n in (settled, _consolidation_line(paths)) if n),
        budget=settings.session_start_chars,
        new_summaries=_newer_summaries(paths) if os.path.exists(paths.file("master")) else 0,
        cli=cli_command(),
        checkpoint_source=f"{MEMORY_DIR}/{where}",
    )
    return context_output("SessionStart", text)
