"""Each compaction's checkpoint (PreCompact writes it): this session's own copy
(`checkpoints/sessions/<session-id>.md`), `checkpoints/latest.md`, and a timestamped copy, with
the oldest copies pruned. Reading them back is `memhooks.continuity.session_checkpoint`.
Standard library only, without pathlib or contextlib at import: SessionStart imports
`checkpoint_path`.
"""

from __future__ import annotations

import os

from memhooks.store.files import discard, makedirs, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem
from memhooks.store.trusted import tree_turn

#: Session checkpoints kept at least, whatever `checkpoints_keep` says (each session needs
#: its own to be restored).
MIN_SESSIONS_KEPT = 20


TRIGGERS = ("manual", "auto")


def checkpoint_path(paths: MemoryPaths, session_id: str) -> str:
    """Where this session's checkpoint lives; UnsafePathError for an id that is not one."""
    return os.path.join(paths.session_checkpoints, f"{session_file_stem(session_id)}.md")


def checkpoint_document(body: str, *, session_id: str, trigger: str, created: str) -> str:
    """The checkpoint file made of its parts: its frontmatter (title, category, when, which
    session, which trigger) over `body`."""
    from memhooks.store.memory_file import render_document

    meta = {
        "title": f"Checkpoint {created}",
        "category": "checkpoint",
        "created": created,
        "session_id": session_id or None,
        "trigger": trigger if trigger in TRIGGERS else None,
    }
    return render_document({k: v for k, v in meta.items() if v is not None}, body)


def write_checkpoint(
    paths: MemoryPaths,
    text: str,
    *,
    session_id: str,
    trigger: str,
    created: str,
    keep: int,
    lock_timeout: float,
) -> None:
    """Write the checkpoint's copies under the quick lock. UnsafePathError when a
    checkpoints folder resolves outside the tree (nothing is written then)."""
    if not inside(paths.base, paths.latest_checkpoint):
        raise UnsafePathError("checkpoints/ resolves outside .claude/memory/: not written")
    try:
        own = checkpoint_path(paths, session_id) if session_id else ""
    except UnsafePathError:
        own = ""  # not a host session id: only latest.md, which no SessionStart restores
    if own:
        makedirs(paths.session_checkpoints)  # never through a symlinked folder
        if not inside(paths.base, own):
            raise UnsafePathError("checkpoints/sessions/ resolves outside .claude/memory/")
    stamp = created.replace(":", "").replace("-", "")
    with tree_turn(paths, lock_timeout):
        if own:
            write_atomic(own, text)
            prune_sessions(paths.session_checkpoints, max(keep, MIN_SESSIONS_KEPT))
        # latest.md stays as a convenience for people; SessionStart reads it only when its
        # frontmatter names the session being restored.
        write_atomic(paths.latest_checkpoint, text)
        # The trigger names a file: only the host's two values, never a path from the payload.
        kind = trigger if trigger in TRIGGERS else "manual"
        write_atomic(os.path.join(paths.checkpoints, f"{stamp}_{kind}.md"), text)
        prune(paths.checkpoints, keep)


def prune(folder: str, keep: int) -> None:
    """Keep the newest `keep` timestamped copies; latest.md is never pruned."""
    from pathlib import Path

    copies = sorted(p for p in Path(folder).glob("20*.md") if p.is_file())
    for old in copies[:-keep] if keep > 0 else copies:
        discard(old)


def prune_sessions(folder: str, keep: int) -> None:
    """Keep the `keep` most recently written session checkpoints."""
    try:
        with os.scandir(folder) as entries:
            files = [
                e for e in entries if e.name.endswith(".md") and e.is_file(follow_symlinks=False)
            ]
            stamped = sorted(files, key=lambda e: e.stat(follow_symlinks=False).st_mtime)
    except OSError:
        return
    for entry in stamped[: max(0, len(stamped) - keep)]:
        discard(entry.path)
