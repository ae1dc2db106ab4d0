"""SessionStart's rebuild of a tree's derived files, started in the background.

`MEMORY.md` is derived from the memory files, yet it is committed, so a merge can leave
conflict markers in it; `.cache/` is never committed, so a fresh clone has no search index;
an index made before the token table arrived has no memory vectors. SessionStart starts
`memhooks rebuild` detached (it needs the command path's dependencies and takes longer than
a hook may), through the plugin's own launcher and with the data folder the host gave the
hook, so the next hook read finds the index whole again. Its marks: store.rebuild_marks. Standard
library only.
"""

from __future__ import annotations

import os
import sys

from memhooks.install.invocation import PLUGIN_ROOT, launcher_path
from memhooks.store import MemoryPaths, log_line, open_job_log, record_job


def rebuild_in_background(
    paths: MemoryPaths, why: str = "MEMORY.md has conflict markers; rebuilding it"
) -> bool:
    """Start `memhooks rebuild` for this tree, detached, its output in `.cache/rebuild.log`;
    logged (with `why`), never raised. False when it could not be started."""
    import subprocess

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
        out = open_job_log(paths, f"memhooks: {why}\n$ {' '.join(argv)}\n")
        try:
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
        record_job(paths, child.pid)
    except OSError as exc:
        log_line(paths.log, f"SessionStart: could not start the rebuild: {exc}")
        return False
    log_line(paths.log, f"SessionStart: {why}")
    return True
