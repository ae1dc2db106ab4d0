"""Which handover SessionStart injects, by `source`, and its title.

- compact: what complements the host's summary of the compaction (which the model has): the
  record's proofs and the user's own words, less those the summary quotes when it can be read
  (the transcript past the evidence's offset, or what PostCompact kept; seen on 2.1.332:
  SessionStart(compact) runs before PostCompact and before the summary reaches the file).
- startup, clear: the thread of the project's recent sessions (continuity/thread.py), as the
  last SessionEnd rendered it (hooks/thread_build.py), with their ages as of now and git's
  view of what the last one changed; rendered here (bounded, with the turn memo) when the
  file is missing, unreadable or behind the evidence (`thread_build.current`: a session
  whose Stops kept turns no SessionEnd rendered, after a crash or while it is still live),
  and kept by the start's write step for the next start.
- resume: none; the host restores the conversation itself.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.continuity import thread
from memhooks.hooks import thread_build, thread_room
from memhooks.store import (
    MemoryPaths,
    UnsafePathError,
    log_line,
    read_thread,
    save_memo,
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
_SOURCE = "the record this machine kept of session "


class Pick:
    """The restore chosen: `render(room)` makes its text; for a new session, the thread it
    came from (`doc`, `rebuilt` here when its file was missing or behind the evidence, with
    the turn `memo` of that build) and the room it was rendered in, which the start's write
    step keeps (`keep_thread`)."""

    __slots__ = ("doc", "memo", "rebuilt", "render", "room", "source", "title")

    def __init__(
        self,
        render: Callable[[int], str],
        title: str,
        source: str,
        doc: dict[str, Any] | None = None,
        *,
        rebuilt: bool = False,
    ) -> None:
        self.render = render
        self.title = title
        self.source = source
        self.doc = doc
        self.rebuilt = rebuilt
        self.room: int | None = None
        self.memo: dict[str, Any] | None = None


def keep_thread(paths: MemoryPaths, chosen: Pick | None) -> None:
    """The thread's part of the start's write step (the caller holds the store lock): the
    thread rendered here, with its turn memo, for the next start, and the room this start
    gave it. Only a saving (the next start renders a thread still behind): a failure is
    logged, never raised."""
    if chosen is None or chosen.doc is None:
        return
    try:
        if not chosen.rebuilt:
            if chosen.room is not None:
                thread_room.note_room(paths, chosen.doc, chosen.room)
            return
        kept = read_thread(paths)
        if kept is not None and thread_build.current(paths, kept):
            return  # another session's SessionEnd or start wrote a current one (and its memo)
        if chosen.memo is not None:
            save_memo(paths, chosen.memo)
        changed = thread_room.room_changed(chosen.doc, chosen.room)
        save_thread(paths, {**chosen.doc, "room": chosen.room} if changed else chosen.doc)
    except (OSError, UnsafePathError) as exc:
        log_line(paths.log, f"SessionStart: thread not kept: {exc}", echo=False)


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
        from memhooks.continuity.compacted import renderer
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
    """The thread as the last SessionEnd rendered it, or rendered here when that file is
    missing or behind the evidence."""
    kept = read_thread(paths)
    memo = None
    rebuilt = kept is None or not thread_build.current(paths, kept, hook.session_id)
    if kept is None or rebuilt:
        made = _rebuilt(hook, paths, settings, kept)
        if made is None:
            return None
        doc, memo = made
    else:
        doc = kept
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
        chosen.room = room
        return thread.compose(shown, hidden, now, room)

    title = thread.title(shown, now)
    chosen = Pick(render, title, thread_build.source(paths), doc, rebuilt=rebuilt)
    chosen.memo = memo
    return chosen


def _rebuilt(
    hook: HookInput, paths: MemoryPaths, settings: Settings, doc: dict[str, Any] | None
) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The thread rendered here (its file was missing, unreadable or behind the evidence;
    the write step keeps it) and its turn memo; None when that failed (logged): the briefing
    comes without a restore rather than not at all."""
    try:
        room = thread_room.kept_room(doc) or thread_room.estimate_room(paths, settings)
        return thread_build.built(paths, room, exclude=hook.session_id, old=doc or {})
    except Exception as exc:  # the rest of the briefing matters more
        log_line(paths.log, f"SessionStart: the thread not rendered: {exc!r}")
        return None


def _with_git(
    paths: MemoryPaths,
    part: dict[str, Any],
    kept: dict[str, Any],
    git: tuple[Git, dict[str, Any]],
    patterns: tuple[str, ...],
) -> dict[str, Any]:
    """The last session's part with git's view now of what it changed, in place of the
    files its tools changed (in its proofs and in its turns' lines)."""
    if part.get("role") != "last":
        return part
    from memhooks.continuity import thread_parts, turn_files
    from memhooks.continuity.git_changes import git_entry, shown_now
    from memhooks.continuity.handover import file_lines

    try:
        before = file_lines(kept)
        entry = git_entry(kept, git, patterns)
        after = file_lines({**kept, "git": entry})
        shown = shown_now(entry["now"], str(kept.get("cwd") or ""), git[1]["root"])
    except (TypeError, ValueError, AttributeError, KeyError, OSError) as exc:  # a stored shape
        log_line(paths.log, f"SessionStart: git's view not added: {exc!r}")
        return part
    text = thread_parts.replace_files(str(part["text"]), before, after)
    # its turns' lines of files changed name no file git shows unchanged (reverted)
    return {**part, "text": turn_files.without(text, shown)}
