"""What the restore keeps between sessions: each compaction's checkpoint, each session's evidence
and git baseline; and the marks of the background rebuild. Standard library only.
"""

from __future__ import annotations

import json
import os
import time

from memhooks import TYPE_CHECKING
from memhooks.store.files import discard, makedirs, read_text, write_atomic
from memhooks.store.paths import MemoryPaths, UnsafePathError, inside, session_file_stem
from memhooks.store.trusted import tree_turn

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


# ------------------------------------------------------------------ checkpoint_files
# Writing a compaction's checkpoint (PreCompact): this session's own copy
# (`checkpoints/sessions/<session-id>.md`), `checkpoints/latest.md`, and a timestamped copy, with
# the oldest copies pruned. Reading them back is `memhooks.continuity.session_checkpoint`. Standard
# library only, without pathlib or contextlib at import: SessionStart imports `checkpoint_path`.


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


# ------------------------------------------------------------------ restore_state
# Each session's evidence, `.cache/restore/<session-id>.json`, and which is the latest; each
# session's git baseline until its evidence takes it in, `.cache/restore/start/<session-id>.json`.
# Standard library only: Stop and SessionStart use it.
#
# Machine-local and derived from the transcript (which is machine-local too): it is what the next
# session on this project is restored from. The newest `KEEP` files are kept.


KEEP = 20


EVIDENCE_READ_CAP = 4_000_000


def state_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's file; raises UnsafePathError for anything but a plain id."""
    path = os.path.join(paths.restore, f"{session_file_stem(session_id)}.json")
    if not inside(paths.cache, path) and os.path.lexists(os.path.dirname(path)):
        raise UnsafePathError("restore/ resolves outside the machine-local folder")
    return path


def baseline_path(paths: MemoryPaths, session_id: str) -> str:
    """The session's git baseline, kept apart until its evidence exists (a session that
    never reaches a turn must not count as the last session)."""
    folder = os.path.join(paths.restore, "start")
    path = os.path.join(folder, f"{session_file_stem(session_id)}.json")
    if not inside(paths.cache, path) and os.path.lexists(folder):
        raise UnsafePathError("restore/start resolves outside the machine-local folder")
    return path


def read_baseline(paths: MemoryPaths, session_id: str) -> dict[str, Any] | None:
    return _read(baseline_path, paths, session_id)


def save_baseline(paths: MemoryPaths, session_id: str, baseline: dict[str, Any]) -> None:
    """Write the session's git baseline (the caller holds the hooks' lock), then prune."""
    _save(baseline_path(paths, session_id), baseline)


def _read(
    where: Callable[[MemoryPaths, str], str], paths: MemoryPaths, session_id: str
) -> dict[str, Any] | None:
    try:
        text = read_text(where(paths, session_id), EVIDENCE_READ_CAP)
        data = json.loads(text) if text else None
    except (UnsafePathError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _save(path: str, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")), durable=False)
    _prune(os.path.dirname(path))


def read_evidence(paths: MemoryPaths, session_id: str) -> dict[str, Any] | None:
    """The session's evidence as last written, or None (missing, unreadable, not ours)."""
    return _read(state_path, paths, session_id)


def save_evidence(paths: MemoryPaths, session_id: str, state: dict[str, Any]) -> None:
    """Replace the session's file (the caller holds the hooks' lock), then prune."""
    _save(state_path(paths, session_id), state)


def _entries(folder: str) -> list[tuple[float, str]]:
    try:
        with os.scandir(folder) as entries:
            found = [
                (entry.stat(follow_symlinks=False).st_mtime, entry.name)
                for entry in entries
                if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False)
            ]
    except OSError:
        return []
    return sorted(found, reverse=True)


def _prune(folder: str) -> None:
    for _, name in _entries(folder)[KEEP:]:
        discard(os.path.join(folder, name))


def others_newest_first(paths: MemoryPaths, session_id: str) -> list[tuple[str, float]]:
    """(session id, last written, epoch seconds) of each kept evidence but `session_id`'s,
    newest first."""
    folder = paths.restore
    if not inside(paths.cache, os.path.join(folder, "x")):
        return []
    found = [(name[: -len(".json")], mtime) for mtime, name in _entries(folder)]
    return [(other, mtime) for other, mtime in found if other != session_id]


# ------------------------------------------------------------------ heal
# The marks of SessionStart's background rebuild (install.background_rebuild starts it), in
# `.cache/`: `rebuild.pid` (its process id; a rebuild that succeeds removes it), so `status` says
# the job runs only while that process lives and that it failed when the process is gone and the
# mark is not, with the last word of `rebuild.log` (its output); and `vectors-v<N>.ok` (an index
# found holding vectors). Standard library only.


#: Where the process of a job cannot be looked at (Windows), a job started this long ago is
#: taken for still running (45 s for 10,000 memories), then for ended.
ASSUMED_RUNNING_SECONDS = 3600


def open_job_log(paths: MemoryPaths, header: str) -> int:
    """`.cache/rebuild.log`, emptied, with `header`: the file descriptor the job writes its
    output to (no symlink followed: the tree may come from someone else)."""
    from memhooks.store.files import open_created

    out = open_created(paths.rebuild_log, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(out, header.encode("utf-8", "replace"))
    except OSError:
        os.close(out)
        raise
    return out


def record_job(paths: MemoryPaths, pid: int) -> None:
    write_atomic(paths.rebuild_pid, f"{pid}\n", durable=False)


def rebuild_job(paths: MemoryPaths) -> tuple[str, str]:
    """The background rebuild SessionStart last started: ("running", its pid), ("failed",
    the last word of its output), or ("", "") when none was started or a rebuild succeeded
    since."""
    pid_file = paths.rebuild_pid
    text = read_text(pid_file, 40).strip()
    if not text.isdigit():
        return "", ""
    if _alive(int(text), pid_file):
        return "running", text
    output = read_text(paths.rebuild_log, 20_000)
    # Past the two header lines: the CLI's own last word ("memhooks: ..."), else its last line.
    lines = [line.strip() for line in output.splitlines()[2:] if line.strip()]
    said = [line for line in lines if line.startswith("memhooks:")] or lines
    return "failed", said[-1][:300] if said else "it ended without a word"


def rebuilt(paths: MemoryPaths) -> None:
    """A rebuild succeeded (the background job itself, or one run by hand while none runs):
    its mark goes, so `status` reports no failure a rebuild has since repaired."""
    pid_file = paths.rebuild_pid
    text = read_text(pid_file, 40).strip()
    if text.isdigit() and int(text) != os.getpid() and _alive(int(text), pid_file):
        return  # another rebuild runs: its own end decides
    if text:
        discard(pid_file)


def _alive(pid: int, pid_file: str) -> bool:
    """The process `pid` runs and is a rebuild (a zombie, or a pid the system gave another
    program since, is not)."""
    if os.name == "nt":  # os.kill(pid, 0) would end the process there: go by the age
        try:
            return time.time() - os.stat(pid_file).st_mtime < ASSUMED_RUNNING_SECONDS
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except OSError:  # gone, or another user's: not our job
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"rebuild" in handle.read(8192)
    except OSError:
        return True  # no /proc (macOS): the pid is taken for ours


class VectorMarks:
    """SessionStart's index check (hooks.search_check) keeps `vectors-v<N>.ok`: the inode of a
    search index found holding vectors (a rebuild makes a new file, looked at again)."""

    __slots__ = ("_inode", "_paths", "_ready")

    def __init__(self, paths: MemoryPaths, version: int, inode: str) -> None:
        self._paths = paths
        self._inode = inode
        self._ready = os.path.join(paths.cache, f"vectors-v{version}.ok")

    def settled(self) -> bool:
        """This index was found holding vectors, or a rebuild for them is under way."""
        return read_text(self._ready, 40) == self._inode or rebuilding(self._paths)

    def record_ready(self) -> None:
        """Best effort: in a tree that cannot be written the next session only looks again."""
        try:
            write_atomic(self._ready, self._inode, durable=False)
        except OSError:
            pass


def rebuilding(paths: MemoryPaths) -> bool:
    """A background rebuild is running now (its process lives)."""
    return rebuild_job(paths)[0] == "running"
