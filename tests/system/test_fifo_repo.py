"""A project whose files block: every hook ends, and so do its children (issue 32, item 5).

A project unpacked from a tarball can hold FIFOs anywhere. With `.git` a file
(`gitdir: gd`) and `gd/commondir` a FIFO, SessionStart, UserPromptSubmit, Stop and
SessionEnd each blocked in the consent gate until killed, and the host kills only the shell
around the hook (`python3 … || python …`), so the `python3` children lived on. Every read of
a path the repository controls now opens non-blocking, takes regular files only and is
capped; and each hook ends itself before the host's timeout, killing a child git on its way
out, whatever else blocks.
"""

from __future__ import annotations

import ast
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memhooks.hooks import entry
from plugin_host import Host

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

SESSION = "cccccccc-0000-4000-8000-0000000000f1"
#: Far beyond any hook's time here, far below forever: a hook still running then is stuck.
STUCK = 45.0
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd", "PreCompact")


def unpacked(project: Path) -> None:
    """What the tarball leaves: memory shipped 'active', `.git` a file naming `gd`, and git's
    small files there FIFOs."""
    memory = project / ".claude" / "memory"
    for folder in ("context", "decisions", "sessions", "checkpoints"):
        (memory / folder).mkdir(parents=True, exist_ok=True)
    (memory / "_session.json").write_text(json.dumps({"active": True}), encoding="utf-8")
    (project / ".git").write_text("gitdir: gd\n", encoding="utf-8")
    (project / "gd").mkdir()
    for name in ("commondir", "gitdir", "HEAD", "config", "packed-refs", "memhooks-id"):
        os.mkfifo(project / "gd" / name)


def pids_under(parent: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{parent}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            text = (task / "children").read_text()
        except OSError:
            continue
        for pid in map(int, text.split()):
            found += [pid, *pids_under(pid)]
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("event", EVENTS)
def test_a_fifo_in_the_git_files_blocks_no_hook(
    machine: tuple[Path, Path, Path], tmp_path: Path, event: str
) -> None:
    python, root, deps = machine
    host = Host(python, root, deps, Path.home(), tmp_path / "unpacked")
    unpacked(host.project)
    extra = {"prompt": "hello", "source": "startup", "trigger": "auto"}
    host.hook(event, timeout=STUCK, session_id=SESSION, **extra)


@pytest.mark.parametrize("event", EVENTS)
def test_fifos_for_the_trees_files_block_no_hook(
    machine: tuple[Path, Path, Path], tmp_path: Path, event: str
) -> None:
    """Memory turned on here, then a pull brings FIFOs where the hooks read: each is passed
    over, never waited on."""
    python, root, deps = machine
    host = Host(python, root, deps, Path.home(), tmp_path / "project")
    assert host.command("start").returncode == 0
    assert host.command("remember", "we use Postgres", "--category", "decision").returncode == 0
    memory = host.memory
    planted = [next((memory / "decisions").glob("*.md")), memory / "MEMORY.md"]
    planted += [memory / "config.json", memory / "context" / "current-task.md"]
    planted += [memory / "checkpoints" / "latest.md", memory / ".gitignore"]
    planted += [memory / "sessions" / f"{SESSION}.md", memory / "context" / "master.md"]
    for path in planted:
        path.unlink(missing_ok=True)
        os.mkfifo(path)
    extra = {"prompt": "which database?", "source": "startup", "trigger": "auto"}
    host.hook(event, timeout=STUCK, session_id=SESSION, **extra)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_the_hook_outlives_no_killed_shell(
    machine: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    """The host runs hooks.json's command in a shell and, at its timeout, kills that shell:
    the hook under it must end by itself."""
    python, root, deps = machine
    host = Host(python, root, deps, Path.home(), tmp_path / "unpacked")
    unpacked(host.project)
    command = json.loads((root / "hooks" / "hooks.json").read_text())["hooks"]["Stop"][0]
    line = command["hooks"][0]["command"].replace("${CLAUDE_PLUGIN_ROOT}", str(root))
    env = host.env()
    env["PATH"] = os.pathsep.join([str(host.python_bin), env.get("PATH", "")])
    shell = subprocess.Popen(
        ["/bin/sh", "-c", line],
        cwd=host.project,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    assert shell.stdin is not None
    shell.stdin.write(json.dumps({"session_id": SESSION, "cwd": str(host.project)}).encode())
    shell.stdin.close()
    children: list[int] = []
    for _ in range(100):
        children = pids_under(shell.pid)
        if children or shell.poll() is not None:
            break
        time.sleep(0.05)
    shell.kill()  # the host's timeout
    shell.wait()
    deadline = time.monotonic() + STUCK
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [pid for pid in children if alive(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


# ---------------------------------------------------------------- the deadline itself


def fake_git(folder: Path, pids: Path) -> Path:
    """A `git` that notes its pid and never ends."""
    program = folder / "git"
    program.parent.mkdir(parents=True, exist_ok=True)
    sleep = shutil.which("sleep")
    program.write_text(f'#!/bin/sh\necho $$ >> "{pids}"\nexec {sleep} 600\n', encoding="utf-8")
    program.chmod(0o755)
    return program


def test_a_hook_past_its_deadline_fails_open_and_takes_its_git_along(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memhooks.continuity.git_run import Git

    pids = tmp_path / "pids"
    fake_git(tmp_path / "bin", pids)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    (tmp_path / "repo" / ".git").mkdir(parents=True)

    def stuck(event: str) -> int:
        Git(str(tmp_path / "repo"), timeout=600).run("status")
        return 0

    monkeypatch.setattr(entry, "_run", stuck)
    monkeypatch.setitem(entry.DEADLINE, "Stop", 0.5)
    assert entry.run("Stop") == 0
    assert "Stop hook failed open: HookDeadlineError" in capsys.readouterr().err
    started = [int(pid) for pid in pids.read_text().split()]
    assert started
    for pid in started:  # killed and reaped by the time the hook returns
        assert not alive(pid)


def test_a_read_that_blocks_ends_with_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def stuck(event: str) -> int:
        with fifo.open("rb") as handle:  # blocks: nobody writes
            handle.read()
        return 0

    monkeypatch.setattr(entry, "_run", stuck)
    monkeypatch.setitem(entry.DEADLINE, "UserPromptSubmit", 0.3)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    before = signal.getsignal(signal.SIGTERM)
    assert entry.run("UserPromptSubmit") == 0
    assert "HookDeadlineError" in capsys.readouterr().err
    # and it put back what it changed: no alarm pending, the old handlers
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGTERM) == before


def test_every_deadline_is_under_the_hosts_timeout() -> None:
    config = json.loads((Path(entry.__file__).parents[3] / "hooks" / "hooks.json").read_text())
    for event, groups in config["hooks"].items():
        for group in groups:
            for hook in group["hooks"]:
                ours = entry.DEADLINE.get(event, entry.DEFAULT_DEADLINE)
                assert ours < hook["timeout"] * 0.9, (event, ours, hook["timeout"])
    assert sys.platform == "win32" or entry.DEFAULT_DEADLINE > 1


# ---------------------------------------------------------------- one reader


#: The modules that open a file for reading other than through `store.read_bytes` (and the
#: readers built on it), and why the file they open is none the repository controls.
READERS_ELSEWHERE = {
    "continuity/transcript.py": "the host's transcript, at the path the host's payload names",
    "store/rebuild_marks.py": "/proc/<pid>/cmdline of the background rebuild",
    "store/consent.py": "consent records, in the user's own state folder",
    "store/native_marks.py": "the native-import marks: machine-local state (issue 32, item 1)",
    "store/watch.py": "the guard's backup copies: machine-local state (issue 32, item 1)",
    "store/local.py": "the owner file of a checkout's machine-local folder (branch trust)",
    "install/deps.py": "the plugin's data folder",
    "install/link.py": "the plugin's data folder",
    "install/host_plugin.py": "the host's plugin data folders (which one records this plugin)",
    "install/semantic_assets.py": "the plugin's data folder",
    "cli/semantic_build.py": "the token table's archive, in the plugin's data folder",
    "transfer/native.py": "the user's own ~/.claude/settings.json",
    "transfer/bundle.py": "the bundle the user names (size checked first)",
    "cli/commands/save.py": "the body file the user names (`<(…)` is a FIFO, and meant)",
    "demo/harness.py": "the demo's throw-away sandbox",
    "demo/mock_api.py": "the demo's throw-away sandbox",
    "demo/session.py": "the demo's throw-away sandbox",
}
_NOT_FILES = {"tarfile", "webbrowser", "gzip", "os"}


def _opens(tree: ast.AST) -> list[int]:
    found: list[int] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(node.lineno)
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            if func.attr in ("read_text", "read_bytes") or (
                func.attr == "open" and owner not in _NOT_FILES
            ):
                found.append(node.lineno)
    return found


def test_every_read_of_a_file_goes_through_the_one_safe_reader() -> None:
    """`store/files.py` opens non-blocking, without following a symlink, regular files only,
    capped: any other open of a file of the project would wait forever on a FIFO."""
    src = Path(entry.__file__).parents[1]
    readers = {}
    for path in sorted(src.rglob("*.py")):
        name = path.relative_to(src).as_posix()
        if name == "store/files.py":
            continue
        found = _opens(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            readers[name] = found
    unexpected = {n: lines for n, lines in readers.items() if n not in READERS_ELSEWHERE}
    assert not unexpected, f"read through store.read_bytes / read_text instead: {unexpected}"


def test_off_the_main_thread_a_hook_runs_without_its_alarm(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.setattr(entry, "_run", lambda _event: 0)
    codes: list[int] = []
    worker = threading.Thread(target=lambda: codes.append(entry.run("Stop")))
    worker.start()
    worker.join()
    assert codes == [0]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
