"""Derived files a git merge left conflicted, a search index missing or of another version, or
one without the memory vectors the installed token table could give it, are made again, in
the background.

`MEMORY.md` is derived from the memory files, yet it is committed, so a merge can leave
conflict markers in it; `.cache/` is never committed, so a fresh clone has no search index.
SessionStart starts `memhooks rebuild` detached (the rebuild needs the command path's
dependencies and takes longer than a hook may), through the plugin's own launcher and with
the data folder the host gave the hook, so the next hook read finds the index whole again.

The job leaves two files in `.cache/`: `rebuild.pid` (its process id: `status` says it runs
only while that process lives) and `rebuild.log` (its output: when it ends without its
result, `status` says so, with the last line). Standard library only.
"""

from __future__ import annotations

import os
import sys
import time

from memhooks.store.atomic import read_text, write_atomic
from memhooks.store.logsink import log_line
from memhooks.store.paths import MemoryPaths

#: What a finished `memhooks rebuild` prints first (cli.commands.rebuild): in the log, the
#: job did its work.
REBUILT = "Index rebuilt."
#: Where the process of a job cannot be looked at (Windows), a job started this long ago is
#: taken for still running (45 s for 10,000 memories), then for ended.
ASSUMED_RUNNING_SECONDS = 3600


def rebuild_in_background(
    paths: MemoryPaths, why: str = "MEMORY.md has conflict markers; rebuilding it"
) -> bool:
    """Start `memhooks rebuild` for this tree, detached, its output in `.cache/rebuild.log`;
    logged (with `why`), never raised. False when it could not be started."""
    import subprocess

    from memhooks.install.invocation import PLUGIN_ROOT, launcher_path
    from memhooks.store.safe_fs import open_created

    launcher = launcher_path()
    # -I: nothing from the environment or the project (whose folder is not on the path, and
    # is not the working directory either). The launcher finds the dependencies in the
    # ${CLAUDE_PLUGIN_DATA} this hook was given; an installed package needs none of it.
    argv = [sys.executable, "-I", *([launcher] if launcher else ["-m", "memhooks"]), "rebuild"]
    project = os.path.dirname(os.path.dirname(paths.base))
    kwargs: dict[str, object] = {"start_new_session": True}
    if sys.platform == "win32":
        kwargs = {"creationflags": 0x00000008 | 0x00000200}  # DETACHED_PROCESS | NEW_PROCESS_GROUP
    try:
        out = open_created(paths.file("rebuild_log"), os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(out, f"memhooks: {why}\n$ {' '.join(argv)}\n".encode("utf-8", "replace"))
            child = subprocess.Popen(
                argv,
                cwd=PLUGIN_ROOT if launcher else os.path.expanduser("~"),
                env={**os.environ, "MEMHOOKS_PROJECT_DIR": project},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                close_fds=True,
                **kwargs,  # type: ignore[call-overload]
            )
        finally:
            os.close(out)
        write_atomic(paths.file("rebuild_pid"), f"{child.pid}\n", durable=False)
    except OSError as exc:
        log_line(paths.file("log"), f"SessionStart: could not start the rebuild: {exc}")
        return False
    log_line(paths.file("log"), f"SessionStart: {why}")
    return True


def rebuild_job(paths: MemoryPaths) -> tuple[str, str]:
    """The background rebuild SessionStart last started: ("running", its pid), ("done", ""),
    ("failed", the last line of its output), or ("", "") when none was started."""
    pid_file = paths.file("rebuild_pid")
    text = read_text(pid_file, 40).strip()
    if not text.isdigit():
        return "", ""
    if _alive(int(text), pid_file):
        return "running", text
    output = read_text(paths.file("rebuild_log"), 20_000)
    if REBUILT in output:
        return "done", ""
    # Past the two header lines: the CLI's own last word ("memhooks: ..."), else its last line.
    lines = [line.strip() for line in output.splitlines()[2:] if line.strip()]
    said = [line for line in lines if line.startswith("memhooks:")] or lines
    return "failed", said[-1][:300] if said else "it ended without a word"


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
    """SessionStart's index check (hooks.index_check) keeps `vectors-v<N>.ok` in `.cache/`:
    the inode of a search index found holding vectors (a rebuild makes a new file, looked at
    again). A rebuild is started again only when none is running."""

    __slots__ = ("_inode", "_paths", "_ready")

    def __init__(self, paths: MemoryPaths, version: int, inode: str) -> None:
        self._paths = paths
        self._inode = inode
        self._ready = os.path.join(paths.file("cache"), f"vectors-v{version}.ok")

    def settled(self) -> bool:
        """This index was found holding vectors, or a rebuild for them is under way."""
        return read_text(self._ready, 40) == self._inode or self.rebuilding()

    def rebuilding(self) -> bool:
        """A background rebuild is running now (its process lives)."""
        return rebuild_job(self._paths)[0] == "running"

    def record_ready(self) -> None:
        """Best effort: in a tree that cannot be written the next session only looks again."""
        try:  # noqa: SIM105 - contextlib is not loaded on the hooks' path
            write_atomic(self._ready, self._inode, durable=False)
        except OSError:
            pass

    def rebuild(
        self, why: str = "the token table is installed: rebuilding for memory vectors"
    ) -> None:
        rebuild_in_background(self._paths, why)
