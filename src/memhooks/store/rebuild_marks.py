"""The marks of SessionStart's background rebuild (install.background_rebuild starts it), in
the machine-local folder: `rebuild.pid` (its process id; a rebuild that succeeds removes it), so
`status` says the job runs only while that process lives and that it failed when the process is
gone and the mark is not, with the last word of `rebuild.log` (its output); and `vectors.ok` (a
search index found holding vectors). Standard library only.
"""

from __future__ import annotations

import os
import time

from memhooks.store.files import discard, read_text, write_atomic
from memhooks.store.paths import MemoryPaths

#: Where the process of a job cannot be looked at (Windows), a job started this long ago is
#: taken for still running (45 s for 10,000 memories), then for ended.
ASSUMED_RUNNING_SECONDS = 3600


def open_job_log(paths: MemoryPaths, header: str) -> int:
    """`local/rebuild.log`, emptied, with `header`: the file descriptor the job writes its
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
    """SessionStart's index check (hooks.search_check) keeps `vectors.ok`: the table's version
    and the inode of a search index found holding vectors (a rebuild makes a new file, looked
    at again)."""

    __slots__ = ("_inode", "_paths", "_ready")

    def __init__(self, paths: MemoryPaths, version: int, inode: str) -> None:
        self._paths = paths
        self._inode = f"v{version} {inode}"
        self._ready = paths.vector_mark

    def settled(self) -> bool:
        """This index was found holding vectors, or a rebuild for them is under way."""
        return read_text(self._ready, 200) == self._inode or rebuilding(self._paths)

    def record_ready(self) -> None:
        """Best effort: in a tree that cannot be written the next session only looks again."""
        try:
            write_atomic(self._ready, self._inode, durable=False)
        except OSError:
            pass


def rebuilding(paths: MemoryPaths) -> bool:
    """A background rebuild is running now (its process lives)."""
    return rebuild_job(paths)[0] == "running"
