"""The next session's SessionStart reads each file once and takes the store lock once.

Run as hooks.json runs it (`python3 -S` and the launcher, the payload on stdin), after one
whole session on the project; the process's audit hook (`sys.addaudithook`, installed before
the launcher runs: tests/benchmark/event_reads.py counts every event the same way) sees each
file opened for reading under the project and the home folder (the state and the cache), and
each exclusive `flock`, told apart by the locked file's name. The ledger's own lock
(`injected.lock`, store/injection_ledger.py) is not the store's: a count never waits on a
write step.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import FIXTURES, LAUNCHER, injected, run_hook

FIRST = "5ea7ed00-0000-4000-8000-000000000001"
NEXT = "5ea7ed00-0000-4000-8000-000000000002"

#: Runs in the hook's process before the launcher: counts reads and lock turns, then writes
#: them (argv: the folders watched, joined by os.pathsep; the file written; the launcher).
COUNTING = """
import os, sys
roots = tuple(r.rstrip(os.sep) + os.sep for r in sys.argv[1].split(os.pathsep))
out, launcher = sys.argv[2], sys.argv[3]
reads, locks = {}, []

def audit(event, args):
    if event == "fcntl.flock" and args[1] & 2:  # LOCK_EX
        try:
            locks.append(os.path.basename(os.readlink("/proc/self/fd/%d" % args[0])))
        except OSError:
            locks.append("?")
    elif event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.fsdecode(os.fspath(args[0]))
        mode, flags = args[1], args[2]
        writing = any(c in str(mode) for c in "wax+") if mode is not None else bool(
            flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        if path.startswith(roots) and not writing:
            reads[path] = reads.get(path, 0) + 1

def dump():
    import json
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"reads": reads, "locks": locks}, handle)

def leave(code, _exit=os._exit):  # a launcher that ends by os._exit (no teardown)
    dump()
    _exit(code)

sys.addaudithook(audit)
os._exit = leave
sys.argv = [launcher, "hook", "SessionStart"]
try:
    with open(launcher, encoding="utf-8") as source:
        code = compile(source.read(), launcher, "exec")
    exec(code, {"__name__": "__main__", "__file__": launcher})
finally:
    dump()
"""


def _env(project: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CLAUDE_"))}
    env.pop("MEMHOOKS_PROJECT_DIR", None)
    return {**env, "CLAUDE_PROJECT_DIR": str(project)}


def _first_session(project: Path, transcript: Path) -> None:
    payload = {"session_id": FIRST, "transcript_path": str(transcript), "cwd": str(project)}
    for event, fields in (
        ("SessionStart", {"source": "startup"}),
        ("UserPromptSubmit", {"prompt": "Fix the slug tests, then check the RSS importer."}),
        ("Stop", {"last_assistant_message": "Done: the slug tests pass."}),
        ("SessionEnd", {"reason": "other"}),
    ):
        done = run_hook(event, {**payload, "hook_event_name": event, **fields}, cwd=project)
        assert done.returncode == 0, done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="lock names through /proc")
def test_the_next_sessions_start_reads_each_file_once_and_locks_once(
    project: Path, tmp_path: Path
) -> None:
    from memhooks.cli.main import main

    subprocess.run(["git", "init", "-q"], cwd=project, check=True)  # git's view is read too
    assert main(["start"]) == 0
    transcript = tmp_path / "transcript.jsonl"
    source = FIXTURES / "transcripts" / "a1-blog-slugs" / "transcript.jsonl"
    transcript.write_bytes(source.read_bytes())
    _first_session(project, transcript)
    payload = {
        "session_id": NEXT,
        "transcript_path": str(tmp_path / "next.jsonl"),
        "cwd": str(project),
        "hook_event_name": "SessionStart",
        "source": "startup",
    }
    counts = tmp_path / "counts.json"
    roots = os.pathsep.join((str(project), os.environ["HOME"]))
    done = subprocess.run(
        [sys.executable, "-S", "-c", COUNTING, roots, str(counts), str(LAUNCHER)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=project,
        env=_env(project),
        timeout=120,
        check=False,
    )
    # The start briefed the next session with the first one's restore: the path measured is
    # the whole one (no early return).
    assert FIRST[:8] in injected(done), done.stderr
    found = json.loads(counts.read_text(encoding="utf-8"))
    twice = {path: n for path, n in found["reads"].items() if n > 1}
    assert not twice, f"read more than once: {twice}"
    assert len(found["reads"]) > 5, found["reads"]  # the audit hook saw the hook's reads
    store_turns = [name for name in found["locks"] if name == "store.lock"]
    assert len(store_turns) == 1, found["locks"]
