"""Derived files a git merge left conflicted, or a search index without the memory vectors
the installed token table could give it, are made again, in the background.

`MEMORY.md` is derived from the memory files, yet it is committed, so a merge can leave
conflict markers in it. SessionStart never injects such a file; it starts `memhooks rebuild`
detached (the rebuild needs the command path's dependencies and takes longer than a hook
may), so the next hook read finds the index whole again. Standard library only.
"""

from __future__ import annotations

import os
import sys
import time

from memhooks.store.atomic import read_text, write_atomic
from memhooks.store.logsink import log_line
from memhooks.store.paths import MemoryPaths


def rebuild_in_background(
    paths: MemoryPaths, why: str = "MEMORY.md has conflict markers; rebuilding it"
) -> None:
    """Start `memhooks rebuild` for this tree, detached; logged (with `why`), never raised."""
    import subprocess

    package = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(package))
    launcher = os.path.join(root, "hooks", "memhooks.py")
    # -I: nothing from the environment or the project (whose folder is not on the path, and
    # is not the working directory either).
    argv = (
        [sys.executable, "-I", launcher, "rebuild"]
        if os.path.isfile(launcher)
        else [sys.executable, "-I", "-m", "memhooks", "rebuild"]
    )
    project = os.path.dirname(os.path.dirname(paths.base))
    kwargs: dict[str, object] = {"start_new_session": True}
    if sys.platform == "win32":
        kwargs = {"creationflags": 0x00000008 | 0x00000200}  # DETACHED_PROCESS | NEW_PROCESS_GROUP
    try:
        subprocess.Popen(
            argv,
            cwd=root if os.path.isdir(root) else os.path.expanduser("~"),
            env={**os.environ, "MEMHOOKS_PROJECT_DIR": project},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            **kwargs,  # type: ignore[call-overload]
        )
    except OSError as exc:
        log_line(paths.file("log"), f"SessionStart: could not start the rebuild: {exc}")
        return
    log_line(paths.file("log"), f"SessionStart: {why}")


class VectorMarks:
    """Two marks in `.cache/` for SessionStart's index check (hooks.index_check):
    `vectors-v<N>.ok` holds the inode of a search index found holding vectors (a rebuild
    makes a new file, looked at again), `vectors-rebuild` the time a rebuild was started (for
    vectors, or for a missing index or one of another version)."""

    #: A rebuild started less than this long ago is still running (45 s for 10,000
    #: memories) or failed: not started again before then.
    REBUILD_SECONDS = 3600

    __slots__ = ("_inode", "_paths", "_ready", "_started")

    def __init__(self, paths: MemoryPaths, version: int, inode: str) -> None:
        self._paths = paths
        self._inode = inode
        self._ready = os.path.join(paths.file("cache"), f"vectors-v{version}.ok")
        self._started = os.path.join(paths.file("cache"), "vectors-rebuild")

    def settled(self) -> bool:
        """This index was found holding vectors, or a rebuild for them is under way."""
        return read_text(self._ready, 40) == self._inode or self.rebuilding()

    def rebuilding(self) -> bool:
        """A rebuild for the vectors was started within REBUILD_SECONDS (status says so)."""
        try:
            return time.time() - os.stat(self._started).st_mtime < self.REBUILD_SECONDS
        except OSError:
            return False

    def record_ready(self) -> None:
        """Best effort: in a tree that cannot be written the next session only looks again."""
        try:  # noqa: SIM105 - contextlib is not loaded on the hooks' path
            write_atomic(self._ready, self._inode, durable=False)
        except OSError:
            pass

    def rebuild(
        self, why: str = "the token table is installed: rebuilding for memory vectors"
    ) -> None:
        try:
            write_atomic(self._started, "", durable=False)
        except OSError:
            return  # a tree that cannot be written cannot be rebuilt either
        rebuild_in_background(self._paths, why)
